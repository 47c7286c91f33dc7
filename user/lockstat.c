/* user/lockstat.c - run-queue lock statistics, one row per queue.
 *
 *   lockstat            counters since boot
 *   lockstat CMD ARGS   run CMD, then print what it added (per second too)
 *
 * In percpu mode (rq=percpu, the default) every hart has its own queue and
 * lock; in single mode all harts share one. A contention is an acquisition
 * that found the lock held; spin is the time spent waiting for it, in
 * microseconds (10 MHz timer: 10 cycles = 1 us). A handoff is an
 * acquisition by another hart than the one that held the lock last: the
 * lock's cache line moved between harts, the traffic that contention
 * grows from (and, unlike contention, a count that does not depend on
 * timing luck, so it repeats under -icount). `lockstat -h` (or another
 * option in place of CMD) prints the usage line. */
#include "kernel/types.h"
#include "user/user.h"

#define MAXQ 64

static int snap(struct rqstat* s) {
    int n = 0;
    while (n < MAXQ && rqstat(n, &s[n]) == 0) n++;
    return n;
}

int main(int argc, char* argv[]) {
    static struct rqstat before[MAXQ], after[MAXQ];
    static const char usage[] = "lockstat [command [args...]]";
    usage_on_help(argc, argv, usage);
    if (argc > 1 && argv[1][0] == '-') usage_exit(usage, 1);
    char mode[32];
    memset(mode, 0, sizeof(mode));
    if (sched_get(mode, sizeof(mode)) < 0) mode[0] = 0;
    int n = snap(before);
    unsigned long t0 = uptime_ns();
    if (argc > 1) {
        int pid = fork();
        if (pid < 0) {
            perrorf("lockstat: fork failed");
            exit(1);
        }
        if (pid == 0) {
            const int why = exec_search(argv + 1);
            fprintf(2, "lockstat: cannot run %s: %s\n", argv[1], strerror(why));
            exit(1);
        }
        wait(0);
    } else {
        memset(before, 0, sizeof(before));
    }
    n = snap(after);
    unsigned long ms = (uptime_ns() - t0) / 1000000;
    printf("%s queues: %d%s\n", mode + strlen(mode) + 1, n, argc > 1 ? "" : " (since boot)");
    printf("QUEUE ACQUIRED HANDOFF CONTENDED SPIN_US NR LOAD\n");
    unsigned long acq = 0, hand = 0, con = 0, spin = 0;
    for (int i = 0; i < n; i++) {
        unsigned long a = after[i].acquisitions - before[i].acquisitions;
        unsigned long h = after[i].handoffs - before[i].handoffs;
        unsigned long c = after[i].contentions - before[i].contentions;
        unsigned long s = after[i].spin_cycles - before[i].spin_cycles;
        printf("%d %lu %lu %lu %lu %d %lu\n", i, a, h, c, s / 10, after[i].nr, after[i].load);
        acq += a;
        hand += h;
        con += c;
        spin += s;
    }
    printf("total %lu %lu %lu %lu\n", acq, hand, con, spin / 10);
    if (argc > 1 && ms > 0)
        printf("per second: %lu acquisitions, %lu handoffs, %lu contentions (%lu ms)\n", acq * 1000 / ms,
               hand * 1000 / ms, con * 1000 / ms, ms);
    exit(0);
}
