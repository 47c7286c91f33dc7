/* user/prof.c - control the kernel's sampling profiler (docs/profiling.md).
 *
 *   prof start [-p PERIOD_US] [-b KB]   start sampling every PERIOD_US
 *                                       (20..1000000, default 1000) into
 *                                       KB per hart (4..8192, default 1024)
 *   prof stop                           stop; print the samples kept
 *   prof dump FILE                      write the last profile's dump to FILE
 *   prof [-p PERIOD_US] [-b KB] [-o FILE] CMD [ARGS...]
 *                                       start, run CMD, wait for it, stop,
 *                                       dump to FILE (default /prof.dat)
 *
 * The kernel hands out the dump as a byte stream (SYS_prof_read: a header,
 * then each hart's samples; lib/obs/format.h), copied without being
 * interpreted (user/dumpfile.c: parts of 256 KiB, FILE, FILE.1, ...).
 * Reading a dump to its end frees the kernel's buffers: dump once.
 * The host tool tools/qobs.cc symbolises it.
 * -h prints the usage line and exits 0; a malformed command line prints it
 * and exits 1; a failing system call prints one line and exits 1.
 */
#include "kernel/types.h"
#include "user/args.h"
#include "user/dumpfile.h"
#include "user/user.h"

static const char usage_line[] =
    "prof start [-p PERIOD_US] [-b KB] | prof stop | prof dump FILE | "
    "prof [-p PERIOD_US] [-b KB] [-o FILE] CMD [ARGS...]";

static void usage(void) { usage_exit(usage_line, 1); }

static int cmd_start(int period_us, int kb) {
    if (prof_start(period_us, kb) < 0) {
        fprintf(2,
                "prof: cannot start (not root, already profiling, -p outside 20..1000000, -b outside 4..8192, "
                "all harts' buffers over 1/8 of memory, or out of memory)\n");
        return 1;
    }
    return 0;
}

static int cmd_stop(void) {
    int n = prof_stop();
    if (n < 0) {
        fprintf(2, "prof: not profiling (or not root)\n");
        return 1;
    }
    printf("prof: %d samples\n", n);
    return 0;
}

static int cmd_dump(const char* file) {
    return dump_to_file(prof_read, file, "prof",
                        "no profile to dump (still profiling, never stopped, dumped, or not root)");
}

static int cmd_run(int period_us, int kb, const char* file, char** argv) {
    if (cmd_start(period_us, kb)) return 1;
    int status = run_and_wait(argv, "prof");
    if (status < 0) {
        prof_stop();
        return 1;
    }
    if (cmd_stop()) return 1;
    if (cmd_dump(file)) return 1;
    return status;
}

int main(int argc, char* argv[]) {
    usage_on_help(argc, argv, usage_line);
    if (argc < 2) usage();
    if (strcmp(argv[1], "stop") == 0) {
        if (argc != 2) usage();
        exit(cmd_stop());
    }
    if (strcmp(argv[1], "dump") == 0) {
        if (argc != 3) usage();
        exit(cmd_dump(argv[2]));
    }
    int start = strcmp(argv[1], "start") == 0;
    int kb = 0, period = 0, i = start ? 2 : 1;
    const char* file = "/prof.dat";
    while (i < argc && argv[i][0] == '-') {
        if (strcmp(argv[i], "-b") == 0 && i + 1 < argc) {
            if (!parse_int(argv[i + 1], &kb) || kb < 4 || kb > 8192) usage();
        } else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc) {
            if (!parse_int(argv[i + 1], &period) || period < 20 || period > 1000000) usage();
        } else if (!start && strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            file = argv[i + 1];
        } else {
            usage();
        }
        i += 2;
    }
    if (start) {
        if (i != argc) usage();
        exit(cmd_start(period, kb));
    }
    if (i >= argc) usage();
    exit(cmd_run(period, kb, file, argv + i));
}
