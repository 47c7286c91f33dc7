/* user/schbench.c - wakeup latency and requests per second, after schbench.
 *
 *   schbench [-t WORKERS] [-r SECONDS] [-n WORK] [-w WARMUP_SECONDS] [-i MS]
 *
 * An independent equivalent of schbench (github.com/masoncl/schbench) for a
 * system with fork and pipes only (shared/reference/scheduling.md 5.5):
 *
 *  - the parent is the message process; it forks WORKERS worker processes
 *    (default 2, at most 8). Each worker has its own "go" pipe; all workers
 *    share one "ready" pipe back to the parent.
 *  - worker loop: write a 16-byte report {id, wakeup latency, request time}
 *    of its previous request to the ready pipe; block reading its go pipe;
 *    on waking read the fine clock, wakeup latency = now - send time carried
 *    in the message; then the request: WORK units of fixed CPU work (a 16x16
 *    integer matrix multiply each; no sleep).
 *  - message loop: read every report available on the ready pipe; read the
 *    clock ONCE; write that send time to each ready worker's go pipe (so a
 *    message process preempted mid-batch charges the delay to the later
 *    workers, as schbench does).
 *
 * The parent keeps the histograms (each worker reports every sample, so no
 * merging), drops samples of requests dispatched before the warm-up ended,
 * and samples RPS every -i milliseconds (default 250), scaled to per second.
 * Time comes from the `time` CSR (rdtime, 100 ns); latencies print in
 * microseconds with one decimal. Integer arithmetic only.
 *
 * Output is schbench's final report (wakeup, request and RPS percentile
 * blocks, "average rps"), then one machine-readable line:
 *   schbench: rps=R.RR p50=U p90=U p99=U p999=U max=U samples=N   (U in us)
 * -h prints the usage line and exits 0; a bad argument prints it, exit 1.
 */
#include "kernel/types.h"
#include "user/args.h"
#include "user/benchutil.h"
#include "user/user.h"

#define MAXWORKERS 8
#define STOP 0UL
#define NOREPORT 0xffffffffU

/* Log-linear histogram of 100 ns ticks: values below 256 exact, then each
 * power of two split into 128 linear buckets (<= 0.8% error), as fio/schbench
 * do with 512/256. 40 groups reach 2^47 ticks, far more than any run. */
#define HEXACT 256
#define HSUB 128
#define HGROUPS 40
#define HBUCKETS (HEXACT + HGROUPS * HSUB)

struct hist {
    unsigned int bucket[HBUCKETS];
    unsigned long n, min, max;
};

struct report {
    unsigned int id;
    unsigned int wake; /* ticks, or NOREPORT for the first message */
    unsigned int req;  /* ticks */
    unsigned int pad;
};

static int msb(unsigned long v) {
    int b = 0;
    while (v >>= 1) b++;
    return b;
}

static void hist_add(struct hist* h, unsigned long v) {
    int idx;
    if (v < HEXACT) {
        idx = (int)v;
    } else {
        int m = msb(v); /* >= 8 */
        int shift = m - 7;
        int g = m - 8;
        if (g >= HGROUPS) {
            g = HGROUPS - 1;
            idx = HBUCKETS - 1;
        } else {
            idx = HEXACT + g * HSUB + (int)((v >> shift) - HSUB);
        }
    }
    h->bucket[idx]++;
    if (h->n == 0 || v < h->min) h->min = v;
    if (v > h->max) h->max = v;
    h->n++;
}

/* Midpoint of a bucket, in the histogram's unit. */
static unsigned long bucket_value(int idx) {
    if (idx < HEXACT) return (unsigned long)idx;
    int g = (idx - HEXACT) / HSUB, sub = (idx - HEXACT) % HSUB;
    int shift = g + 1;
    unsigned long lo = (unsigned long)(HSUB + sub) << shift;
    return lo + ((1UL << shift) >> 1);
}

/* Percentile given in tenths of a percent (999 = 99.9th): the first bucket
 * where the running count reaches that share of n. */
static unsigned long hist_pct(const struct hist* h, int tenths, unsigned long* count_upto) {
    unsigned long want = (h->n * (unsigned long)tenths + 999) / 1000, run = 0;
    if (want == 0) want = 1;
    for (int i = 0; i < HBUCKETS; i++) {
        run += h->bucket[i];
        if (run >= want) {
            unsigned long v = bucket_value(i);
            *count_upto = run;
            /* a bucket's midpoint may lie outside the samples seen */
            if (v > h->max) v = h->max;
            if (v < h->min) v = h->min;
            return v;
        }
    }
    *count_upto = run;
    return h->max;
}

static const int PCTS[] = {500, 900, 990, 999};

/* Print one schbench-style block. unit_div/decimals convert the stored unit
 * to the printed one (ticks -> us with one decimal: div 1, 1 decimal since
 * one tick is 0.1 us; RPS: div 1, 0 decimals). */
static void print_block(const char* title, const char* unit, const struct hist* h, int seconds, int decimals,
                        const int* pcts, int npcts, int star) {
    char a[48], b[48];
    printf("%s percentiles (%s) runtime %d (s) (%lu total samples)\n", title, unit, seconds, h->n);
    unsigned long prev = 0;
    unsigned long scale = decimals ? 10 : 1;
    for (int i = 0; i < npcts; i++) {
        unsigned long upto;
        unsigned long v = hist_pct(h, pcts[i], &upto);
        bench_fixed((unsigned long)pcts[i], 10, 1, a);
        bench_fixed(v, scale, decimals, b);
        bench_pad(b, 10);
        printf("\t%c %sth: %s (%lu samples)\n", pcts[i] == star ? '*' : ' ', a, b, upto - prev);
        prev = upto;
    }
    bench_fixed(h->n ? h->min : 0, scale, decimals, a);
    bench_fixed(h->max, scale, decimals, b);
    printf("\t  min=%s, max=%s\n", a, b);
}

#define STR_(x) #x
#define STR(x) STR_(x)
static const char usage_line[] =
    "schbench [-t WORKERS(1.." STR(MAXWORKERS) ")] [-r SECONDS] [-n WORK] [-w WARMUP_SECONDS] [-i MS]";

static void usage(void) { usage_exit(usage_line, 1); }

/* One unit of request work: a 16x16 integer matrix multiply (4096
 * multiply-adds), about 30k instructions. */
#define MDIM 16
static unsigned int ma[MDIM][MDIM], mb[MDIM][MDIM], mc[MDIM][MDIM];

static void work(int units) {
    for (int u = 0; u < units; u++) {
        for (int i = 0; i < MDIM; i++)
            for (int j = 0; j < MDIM; j++) {
                unsigned int s = 0;
                for (int k = 0; k < MDIM; k++) s += ma[i][k] * mb[k][j];
                mc[i][j] = s;
            }
        ma[u & (MDIM - 1)][0] ^= mc[0][u & (MDIM - 1)];
    }
}

static void worker(int id, int ready_w, int go_r, int units) {
    struct report r;
    unsigned long t0;
    r.id = (unsigned int)id;
    r.wake = NOREPORT;
    r.req = 0;
    r.pad = 0;
    for (int i = 0; i < MDIM; i++)
        for (int j = 0; j < MDIM; j++) {
            ma[i][j] = (unsigned int)(i * 31 + j * 7 + id);
            mb[i][j] = (unsigned int)(i ^ (j * 13));
        }
    for (;;) {
        if (write(ready_w, &r, sizeof(r)) != sizeof(r)) exit(1);
        int got = 0;
        while (got < (int)sizeof(t0)) {
            int n = read(go_r, (char*)&t0 + got, (int)sizeof(t0) - got);
            if (n <= 0) exit(1);
            got += n;
        }
        unsigned long t1 = rdtime();
        if (t0 == STOP) exit(0);
        unsigned long wake = t1 - t0;
        r.wake = wake > 0xfffffff0UL ? 0xfffffff0U : (unsigned int)wake;
        work(units);
        unsigned long req = rdtime() - t1;
        r.req = req > 0xfffffff0UL ? 0xfffffff0U : (unsigned int)req;
    }
}

static struct hist wake_h, req_h, rps_h;

int main(int argc, char* argv[]) {
    int workers = 2, seconds = 5, units = 4, warmup = 0, interval_ms = 250;
    usage_on_help(argc, argv, usage_line);
    for (int i = 1; i < argc; i++) {
        int* dst = 0;
        if (strcmp(argv[i], "-t") == 0) dst = &workers;
        else if (strcmp(argv[i], "-r") == 0) dst = &seconds;
        else if (strcmp(argv[i], "-n") == 0) dst = &units;
        else if (strcmp(argv[i], "-w") == 0) dst = &warmup;
        else if (strcmp(argv[i], "-i") == 0) dst = &interval_ms;
        else usage();
        if (i + 1 >= argc || !parse_int(argv[++i], dst)) usage();
    }
    if (workers < 1 || workers > MAXWORKERS || seconds < 1 || units < 0 || warmup < 0 || interval_ms < 10) usage();

    int ready[2];
    int go_w[MAXWORKERS];
    int pids[MAXWORKERS];
    if (pipe(ready) < 0) {
        perrorf("schbench: pipe failed");
        exit(1);
    }
    for (int k = 0; k < workers; k++) {
        int go[2];
        if (pipe(go) < 0) {
            perrorf("schbench: pipe failed");
            exit(1);
        }
        int pid = fork();
        if (pid < 0) {
            perrorf("schbench: fork failed");
            exit(1);
        }
        if (pid == 0) {
            close(ready[0]);
            close(go[1]);
            for (int j = 0; j < k; j++) close(go_w[j]);
            worker(k, ready[1], go[0], units);
        }
        pids[k] = pid;
        close(go[0]);
        go_w[k] = go[1];
    }
    close(ready[1]);

    const unsigned long start = rdtime();
    const unsigned long warm_end = start + (unsigned long)warmup * BENCH_TICKS_PER_SEC;
    const unsigned long end = warm_end + (unsigned long)seconds * BENCH_TICKS_PER_SEC;
    const unsigned long interval = (unsigned long)interval_ms * (BENCH_TICKS_PER_SEC / 1000);
    unsigned long sent[MAXWORKERS];
    for (int k = 0; k < workers; k++) sent[k] = 0;
    unsigned long done = 0, window_done = 0, window_start = warm_end;
    int stopped = 0;
    struct report buf[MAXWORKERS];
    int have = 0; /* bytes in buf */
    int ready_ids[MAXWORKERS];

    while (stopped < workers) {
        int n = read(ready[0], (char*)buf + have, (int)sizeof(buf) - have);
        if (n <= 0) {
            fprintf(2, "schbench: ready pipe closed\n");
            exit(1);
        }
        have += n;
        int nmsg = have / (int)sizeof(struct report);
        unsigned long now = rdtime();
        int nready = 0;
        for (int m = 0; m < nmsg; m++) {
            struct report* r = &buf[m];
            int k = (int)r->id;
            if (k < 0 || k >= workers) {
                fprintf(2, "schbench: bad report\n");
                exit(1);
            }
            if (r->wake != NOREPORT && sent[k] >= warm_end && sent[k] < end) {
                hist_add(&wake_h, r->wake);
                hist_add(&req_h, r->req);
                done++;
                window_done++;
            }
            ready_ids[nready++] = k;
        }
        int rest = have - nmsg * (int)sizeof(struct report);
        if (rest) memmove(buf, (char*)buf + nmsg * sizeof(struct report), rest);
        have = rest;
        /* RPS windows (only whole windows after the warm-up). */
        while (now >= warm_end && now - window_start >= interval && window_start + interval <= end) {
            hist_add(&rps_h, window_done * 1000UL / (unsigned long)interval_ms);
            window_done = 0;
            window_start += interval;
        }
        unsigned long t0 = now >= end ? STOP : rdtime();
        for (int i = 0; i < nready; i++) {
            int k = ready_ids[i];
            sent[k] = t0;
            if (write(go_w[k], &t0, sizeof(t0)) != sizeof(t0)) {
                perrorf("schbench: go pipe write failed");
                exit(1);
            }
            if (t0 == STOP) stopped++;
        }
    }
    /* Kernel-side cross-check (schedstat's sched delay): runnable-but-not-
     * running time per dispatch and the longest wakeup-to-run wait the
     * kernel saw, over the workers (zombies until reaped) and this process. */
    unsigned long kwait = 0, kswitch = 0, kmax = 0;
    for (int i = 0;; i++) {
        struct procinfo pi;
        int r = procinfo(i, &pi);
        if (r < 0) break;
        if (r != 0) continue;
        int mine = pi.pid == getpid();
        for (int k = 0; k < workers; k++) mine |= pi.pid == pids[k];
        if (!mine) continue;
        kwait += pi.wait_cycles;
        kswitch += pi.switches;
        if (pi.max_wakeup_latency > kmax) kmax = pi.max_wakeup_latency;
    }
    for (int k = 0; k < workers; k++) {
        close(go_w[k]);
        wait(0);
    }

    print_block("Wakeup Latencies", "usec", &wake_h, seconds, 1, PCTS, 4, 990);
    print_block("Request Latencies", "usec", &req_h, seconds, 1, PCTS, 4, 990);
    static const int RPS_PCTS[] = {200, 500, 900};
    print_block("RPS", "requests", &rps_h, seconds, 0, RPS_PCTS, 3, 500);
    /* average rps = requests completed / measured seconds, two decimals. */
    char a[48], p50[32], p90[32], p99[32], p999[32], mx[32];
    unsigned long rps100 = done * 100UL / (unsigned long)seconds;
    bench_fixed(rps100, 100, 2, a);
    printf("average rps: %s\n", a);
    unsigned long upto;
    bench_fixed(hist_pct(&wake_h, 990, &upto), 10, 1, p99);
    bench_fixed(hist_pct(&wake_h, 999, &upto), 10, 1, p999);
    bench_fixed(wake_h.max, 10, 1, mx);
    bench_fixed(kswitch ? kwait / kswitch : 0, 10, 1, p50);
    bench_fixed(kmax, 10, 1, p90);
    printf("sched delay (kernel): avg %s usec per dispatch, max wakeup %s usec\n", p50, p90);
    bench_fixed(hist_pct(&wake_h, 500, &upto), 10, 1, p50);
    bench_fixed(hist_pct(&wake_h, 900, &upto), 10, 1, p90);
    printf("schbench: rps=%s p50=%s p90=%s p99=%s p999=%s max=%s samples=%lu\n", a, p50, p90, p99, p999, mx, wake_h.n);
    exit(0);
}
