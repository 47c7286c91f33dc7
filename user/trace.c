/* user/trace.c - control the kernel's scheduler tracer (docs/tracing.md).
 *
 *   trace start [-b KB]        start tracing; KB per hart (4..8192, default 1024)
 *   trace stop                 stop; print records kept and dropped
 *   trace status               print the tracer's counters
 *   trace dump FILE            write the last trace's dump to FILE
 *   trace [-b KB] [-o FILE] CMD [ARGS...]
 *                              start, run CMD, wait for it, stop, dump to
 *                              FILE (default trace.dat)
 *
 * The kernel hands out the dump as a byte stream (SYS_trace_read: a header,
 * then each hart's records; lib/obs/format.h); this program copies it
 * without interpreting it (user/dumpfile.c: parts of 256 KiB, FILE,
 * FILE.1, ..., which the host tool tools/qobs.cc joins).
 * -h prints the usage line and exits 0; a malformed command line prints it
 * and exits 1; a failing system call prints one line and exits 1.
 */
#include "kernel/fcntl.h"
#include "kernel/types.h"
#include "user/args.h"
#include "user/dumpfile.h"
#include "user/user.h"

static const char usage_line[] =
    "trace start [-b KB] | trace stop | trace status | trace dump FILE | trace [-b KB] [-o FILE] CMD [ARGS...]";

static void usage(void) { usage_exit(usage_line, 1); }

static void die(const char* what, const char* arg) {
    fprintf(2, "trace: %s%s\n", what, arg);
    exit(1);
}

static int cmd_start(int kb) {
    if (trace_start(kb) < 0) {
        fprintf(2,
                "trace: cannot start (not root, already tracing, -b outside 4..8192, all harts' buffers over 1/8 of "
                "memory, or out of memory)\n");
        return 1;
    }
    return 0;
}

static int cmd_stop(void) {
    struct tracestat st;
    if (trace_stop() < 0) {
        fprintf(2, "trace: not tracing (or not root)\n");
        return 1;
    }
    if (trace_stat(&st) < 0) die("trace_stat failed", "");
    printf("trace: %lu records, %lu dropped, %lu bytes\n", st.records, st.dropped, st.bytes);
    return 0;
}

static int cmd_status(void) {
    struct tracestat st;
    if (trace_stat(&st) < 0) die("trace_stat failed", "");
    printf("trace: %s, %d harts, %lu records, %lu dropped, buffer %lu records per hart\n", st.on ? "on" : "off",
           st.harts, st.records, st.dropped, st.capacity);
    return 0;
}

static int cmd_dump(const char* file) {
    return dump_to_file(trace_read, file, "trace", "no trace to dump (still tracing, never stopped, or not root)");
}

static int cmd_run(int kb, const char* file, char** argv) {
    if (cmd_start(kb)) return 1;
    int status = run_and_wait(argv, "trace");
    if (status < 0) {
        trace_stop();
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
    if (strcmp(argv[1], "status") == 0) {
        if (argc != 2) usage();
        exit(cmd_status());
    }
    if (strcmp(argv[1], "dump") == 0) {
        if (argc != 3) usage();
        exit(cmd_dump(argv[2]));
    }
    int start = strcmp(argv[1], "start") == 0;
    int kb = 0, i = start ? 2 : 1;
    const char* file = "trace.dat";
    while (i < argc && argv[i][0] == '-') {
        if (strcmp(argv[i], "-b") == 0 && i + 1 < argc) {
            if (!parse_int(argv[i + 1], &kb) || kb < 4 || kb > 8192) usage();
        } else if (!start && strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            file = argv[i + 1];
        } else {
            usage();
        }
        i += 2;
    }
    if (start) {
        if (i != argc) usage();
        exit(cmd_start(kb));
    }
    if (i >= argc) usage();
    exit(cmd_run(kb, file, argv + i));
}
