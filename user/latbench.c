/* user/latbench.c - wake-up latency of a periodic task beside CPU hogs.
 *
 *   latbench [-r US] [-s] MS HOGS PERIOD_US BURST_US
 *
 * Forks HOGS CPU hogs (default request) and one periodic task that sets
 * its own EEVDF request size to US (sched_setrequest; default 0, the
 * slice), then, for MS ms, sleeps until the next multiple of PERIOD_US from
 * its start (a futex wait with a timeout, which the timer interrupt at that
 * instant ends), records how late it started running (now - the instant,
 * from the time CSR: the timer interrupt, the wake-up and the wait for the
 * hart), and runs BURST_US of CPU time (cputime, so a preemption inside a
 * burst does not shorten it). After its last instant it sleeps until the
 * end. So its CPU time is its bursts and its wake-ups' kernel paths
 * whatever the latency (the instants are fixed), and a request changes
 * only how soon it runs. (It once spun BURST_US of
 * wall time and then, as a hog, until the end: that tail's share varied by
 * a slice from run to run, 2.9% of its CPU time.) PERIOD_US 0 makes it a
 * hog with that request instead (for its share beside the others). With
 * -s it is a sleeper instead: it runs BURST_US of CPU time, then sleeps
 * PERIOD_US from the burst's end, over and over (the latency is counted
 * from each sleep's end), so its demand is BURST / (BURST + PERIOD) and
 * its CPU time beside the hogs is the share its scheduler gives a sleeper
 * (issue 23 finding 1: run 300 / sleep 100 beside one hog gets 3/7 of the
 * hart from a lag-keeping EEVDF). Each
 * child reports its own CPU time (cputime) at the end through a pipe. Prints
 *   periodic request_us R wakeups N p50_us A p99_us B max_us C cpu_us D
 *   hogs cpu_us H...
 * (nearest-rank percentiles of at most MAXS wake-ups). -h prints the usage
 * and exits 0; a bad command line prints it and exits 1. */
#include "kernel/types.h"
#include "user/args.h"
#include "user/benchutil.h"
#include "user/user.h"

unsigned long cputime(void); /* SYS_cputime: the caller's CPU time in ns */

static const char usage[] = "latbench [-r US] [-s] MS HOGS PERIOD_US BURST_US";

#define MAXHOGS 8
#define MAXS 4096
#define US 10UL /* timer cycles (10 MHz) per microsecond */

struct report {
    unsigned long periodic, request_us, cpu_us, n, p50, p99, max;
};

static unsigned long g_lat[MAXS];

static void spin_until(unsigned long t) {
    volatile unsigned long x = 0;
    while (rdtime() < t)
        for (int i = 0; i < 64; i++) x += (unsigned long)i;
}

static unsigned long cpu_us(void) { return cputime() / 1000; }

/* Run until the caller has had us more microseconds of CPU time, or the
 * time CSR reads end: spin for what is left of it by the clock, then ask
 * again (once, unless a preemption took part of the spin), so the asking
 * costs next to nothing. */
static void spin_cpu(unsigned long us, unsigned long end) {
    const unsigned long until = cputime() + us * 1000;
    for (unsigned long now = cputime(); now < until && rdtime() < end; now = cputime()) {
        const unsigned long t = rdtime() + (until - now + 99) / 100; /* ns left, in 100 ns ticks */
        spin_until(t < end ? t : end);
    }
}

/* Sleep until the time CSR reads t (a futex wait nobody wakes, until an
 * instant: with a span from a time read before the call, a preemption
 * between the read and the call made the wake-up late by its length, and
 * that counted as latency: 322 us once in 601 wake-ups). */
static void sleep_until(unsigned long t) {
    static volatile int never = 0;
    if (rdtime() < t) futex(&never, FUTEX_WAIT_UNTIL, 0, t * 100);
}

static void sort(unsigned long* v, unsigned long n) {
    for (unsigned long i = 1; i < n; i++) {
        unsigned long x = v[i], j = i;
        for (; j > 0 && v[j - 1] > x; j--) v[j] = v[j - 1];
        v[j] = x;
    }
}

/* Nearest rank: the smallest value with at least p/100 of the samples at or below it. */
static unsigned long pct(const unsigned long* v, unsigned long n, unsigned long p) {
    if (n == 0) return 0;
    unsigned long rank = (p * n + 99) / 100;
    return v[rank ? rank - 1 : 0];
}

static void hog(int fd, unsigned long end) {
    struct report r = {0, 0, 0, 0, 0, 0, 0};
    spin_until(end);
    r.cpu_us = cpu_us();
    write(fd, &r, sizeof(r));
    exit(0);
}

/* Sleep until next and record how late the caller ran. */
static void wake_at(struct report* r, unsigned long next) {
    sleep_until(next);
    const unsigned long now = rdtime();
    if (r->n < MAXS) g_lat[r->n++] = now > next ? (now - next) / US : 0;
}

/* Wake at every multiple of period from now, then run burst, while a
 * whole burst fits before end. */
static void wake_periodically(struct report* r, unsigned long end, unsigned long period, unsigned long burst) {
    for (unsigned long next = rdtime() + period; next + burst < end; next += period) {
        wake_at(r, next);
        spin_cpu(burst / US, end);
    }
}

/* -s: run burst, then sleep period from its end, until a sleep would end
 * at or past end. */
static void run_then_sleep(struct report* r, unsigned long end, unsigned long period, unsigned long burst) {
    for (;;) {
        spin_cpu(burst / US, end);
        const unsigned long next = rdtime() + period;
        if (next >= end) return;
        wake_at(r, next);
    }
}

static void periodic(int fd, unsigned long end, unsigned long period, unsigned long burst, int sleeper) {
    struct report r = {1, (unsigned long)sched_getrequest(0), 0, 0, 0, 0, 0};
    if (period == 0) {
        spin_until(end);
    } else if (sleeper) {
        run_then_sleep(&r, end, period, burst);
    } else {
        wake_periodically(&r, end, period, burst);
    }
    sort(g_lat, r.n);
    r.p50 = pct(g_lat, r.n, 50);
    r.p99 = pct(g_lat, r.n, 99);
    r.max = r.n ? g_lat[r.n - 1] : 0;
    if (period) sleep_until(end);
    r.cpu_us = cpu_us();
    write(fd, &r, sizeof(r));
    exit(0);
}

int main(int argc, char* argv[]) {
    int req = 0, sleeper = 0, ms, hogs, period, burst, fd[2], a = 1;
    usage_on_help(argc, argv, usage);
    if (argc > a + 1 && strcmp(argv[a], "-r") == 0) {
        if (!parse_int(argv[a + 1], &req) || req < 0) usage_exit(usage, 1);
        a += 2;
    }
    if (argc > a && strcmp(argv[a], "-s") == 0) {
        sleeper = 1;
        a++;
    }
    if (argc != a + 4 || !parse_int(argv[a], &ms) || ms <= 0 || !parse_int(argv[a + 1], &hogs) || hogs < 0 ||
        hogs > MAXHOGS || !parse_int(argv[a + 2], &period) || period < 0 || !parse_int(argv[a + 3], &burst) ||
        burst < 0)
        usage_exit(usage, 1);
    if (pipe(fd) < 0) return 1;
    const unsigned long end = rdtime() + (unsigned long)ms * 1000 * US;
    for (int i = 0; i < hogs; i++)
        if (fork() == 0) hog(fd[1], end);
    if (fork() == 0) {
        if (sched_setrequest(0, req) < 0) exit(1);
        periodic(fd[1], end, (unsigned long)period * US, (unsigned long)burst * US, sleeper);
    }
    close(fd[1]);
    struct report r, p = {0, 0, 0, 0, 0, 0, 0};
    unsigned long hcpu[MAXHOGS];
    int nh = 0, np = 0;
    while (read(fd[0], &r, sizeof(r)) == (int)sizeof(r)) {
        if (r.periodic) {
            p = r;
            np++;
        } else if (nh < MAXHOGS) {
            hcpu[nh++] = r.cpu_us;
        }
    }
    for (int i = 0; i <= hogs; i++) wait(0);
    if (np != 1 || nh != hogs) {
        fprintf(2, "latbench: %d of %d reports\n", np + nh, hogs + 1);
        exit(1);
    }
    printf("periodic request_us %d wakeups %d p50_us %d p99_us %d max_us %d cpu_us %d\n", (int)p.request_us, (int)p.n,
           (int)p.p50, (int)p.p99, (int)p.max, (int)p.cpu_us);
    printf("hogs cpu_us");
    for (int i = 0; i < nh; i++) printf(" %d", (int)hcpu[i]);
    printf("\n");
    exit(0);
}
