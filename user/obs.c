/* user/obs.c - control the kernel's recorders: the scheduler tracer
 * (docs/tracing.md) and the sampling profiler (docs/profiling.md).
 *
 *   obs trace ARGS...  or  trace ARGS...   (/trace is a link to /obs)
 *   obs prof ARGS...   or  prof ARGS...    (/prof likewise)
 *
 *   trace start [-b KB]        start tracing; KB per hart (4..8192, default 1024)
 *   trace stop                 stop; print records kept and dropped
 *   trace status               print the tracer's counters
 *   trace dump FILE            write the last trace's dump to FILE
 *   trace [-b KB] [-o FILE] CMD [ARGS...]
 *                              start, run CMD, wait for it, stop, dump to
 *                              FILE (default trace.dat)
 *   prof start [-p PERIOD_US] [-b KB]
 *                              start sampling every PERIOD_US (20..1000000,
 *                              default 1000) into KB per hart (4..8192,
 *                              default 1024)
 *   prof stop                  stop; print the samples kept
 *   prof dump FILE             write the last profile's dump to FILE (reading
 *                              a dump to its end frees the kernel's buffers:
 *                              dump once)
 *   prof [-p PERIOD_US] [-b KB] [-o FILE] CMD [ARGS...]
 *                              start, run CMD, stop, dump to FILE (default
 *                              /prof.dat)
 *
 * The two differ only in a row of kRecorders. The kernel hands out a dump
 * as a byte stream (trace_read, prof_read: a header, then each hart's
 * records; lib/obs/format.h), which user/dumpfile.c copies into files of
 * 256 KiB without interpreting it (FILE, FILE.1, ...); the host tool
 * tools/qobs.cc joins and reads them.
 * -h prints the usage and exits 0; a malformed command line prints it and
 * exits 1; a failing system call prints one line and exits 1.
 */
#include "kernel/fcntl.h"
#include "kernel/types.h"
#include "user/args.h"
#include "user/dumpfile.h"
#include "user/user.h"

struct recorder {
    const char* name; /* the command: messages start "NAME: " */
    const char* usage;
    const char* file;     /* the CMD form's default dump */
    int has_period;       /* takes -p PERIOD_US */
    int has_status;       /* has `NAME status` (the tracer's counters) */
    const char* off;      /* stop when not recording */
    const char* no_start; /* a refused start */
    const char* no_dump;  /* a refused read */
    int (*start)(int period_us, int kb);
    int (*stop)(void);
    int (*report)(int kept); /* after a stop: print what was kept; 0 or 1 */
    int (*read)(unsigned long offset, void* buf, int len);
};

static int start_trace(int period_us, int kb) {
    (void)period_us;
    return trace_start(kb);
}

static int trace_counters(struct tracestat* st) {
    if (trace_stat(st) == 0) return 0;
    fprintf(2, "trace: trace_stat failed\n");
    return 1;
}

static int report_trace(int kept) {
    struct tracestat st;
    (void)kept;
    if (trace_counters(&st)) return 1;
    printf("trace: %lu records, %lu dropped, %lu bytes\n", st.records, st.dropped, st.bytes);
    return 0;
}

static int report_prof(int kept) {
    printf("prof: %d samples\n", kept);
    return 0;
}

static const struct recorder kRecorders[] = {
    {"trace",
     "trace start [-b KB] | trace stop | trace status | trace dump FILE | trace [-b KB] [-o FILE] CMD [ARGS...]",
     "trace.dat", 0, 1, "not tracing (or not root)",
     "cannot start (not root, already tracing, -b outside 4..8192, all harts' buffers over 1/8 of memory, or out "
     "of memory)",
     "no trace to dump (still tracing, never stopped, or not root)", start_trace, trace_stop, report_trace, trace_read},
    {"prof",
     "prof start [-p PERIOD_US] [-b KB] | prof stop | prof dump FILE | prof [-p PERIOD_US] [-b KB] [-o FILE] CMD "
     "[ARGS...]",
     "/prof.dat", 1, 0, "not profiling (or not root)",
     "cannot start (not root, already profiling, -p outside 20..1000000, -b outside 4..8192, all harts' buffers "
     "over 1/8 of memory, or out of memory)",
     "no profile to dump (still profiling, never stopped, dumped, or not root)", prof_start, prof_stop, report_prof,
     prof_read},
};

static const char obs_usage[] = "obs trace ARGS... | obs prof ARGS... (run `obs trace -h`, `obs prof -h`)";

static const struct recorder* g_rec;

static void usage(void) { usage_exit(g_rec->usage, 1); }

static int cmd_start(int period_us, int kb) {
    if (g_rec->start(period_us, kb) >= 0) return 0;
    fprintf(2, "%s: %s\n", g_rec->name, g_rec->no_start);
    return 1;
}

static int cmd_stop(void) {
    int kept = g_rec->stop();
    if (kept >= 0) return g_rec->report(kept);
    fprintf(2, "%s: %s\n", g_rec->name, g_rec->off);
    return 1;
}

static int cmd_status(void) {
    struct tracestat st;
    if (trace_counters(&st)) return 1;
    printf("trace: %s, %d harts, %lu records, %lu dropped, buffer %lu records per hart\n", st.on ? "on" : "off",
           st.harts, st.records, st.dropped, st.capacity);
    return 0;
}

static int cmd_dump(const char* file) { return dump_to_file(g_rec->read, file, g_rec->name, g_rec->no_dump); }

/* Start, run argv and wait for it, stop, dump: argv's exit status, or 1. */
static int cmd_run(int period_us, int kb, const char* file, char** argv) {
    if (cmd_start(period_us, kb)) return 1;
    int status = run_and_wait(argv, g_rec->name);
    if (status < 0) {
        g_rec->stop();
        return 1;
    }
    if (cmd_stop() || cmd_dump(file)) return 1;
    return status;
}

/* argv[0] is the recorder's name: trace or prof. */
static int recorder_main(int argc, char** argv) {
    usage_on_help(argc, argv, g_rec->usage);
    if (argc < 2) usage();
    if (strcmp(argv[1], "stop") == 0) {
        if (argc != 2) usage();
        return cmd_stop();
    }
    if (g_rec->has_status && strcmp(argv[1], "status") == 0) {
        if (argc != 2) usage();
        return cmd_status();
    }
    if (strcmp(argv[1], "dump") == 0) {
        if (argc != 3) usage();
        return cmd_dump(argv[2]);
    }
    int start = strcmp(argv[1], "start") == 0;
    int kb = 0, period = 0, i = start ? 2 : 1;
    const char* file = g_rec->file;
    for (; i < argc && argv[i][0] == '-'; i += 2) {
        if (strcmp(argv[i], "-b") == 0 && i + 1 < argc) {
            if (!parse_int(argv[i + 1], &kb) || kb < 4 || kb > 8192) usage();
        } else if (g_rec->has_period && strcmp(argv[i], "-p") == 0 && i + 1 < argc) {
            if (!parse_int(argv[i + 1], &period) || period < 20 || period > 1000000) usage();
        } else if (!start && strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            file = argv[i + 1];
        } else {
            usage();
        }
    }
    if (start) {
        if (i != argc) usage();
        return cmd_start(period, kb);
    }
    if (i >= argc) usage();
    return cmd_run(period, kb, file, argv + i);
}

static const struct recorder* recorder_named(const char* path) {
    const char* base = path;
    for (const char* p = path; *p; p++)
        if (*p == '/') base = p + 1;
    for (unsigned i = 0; i < sizeof(kRecorders) / sizeof(kRecorders[0]); i++)
        if (strcmp(base, kRecorders[i].name) == 0) return &kRecorders[i];
    return 0;
}

int main(int argc, char* argv[]) {
    g_rec = recorder_named(argv[0]);
    if (!g_rec) { /* obs SUBCOMMAND ... */
        usage_on_help(argc, argv, obs_usage);
        if (argc < 2 || !(g_rec = recorder_named(argv[1]))) usage_exit(obs_usage, 1);
        argc--, argv++;
    }
    exit(recorder_main(argc, argv));
}
