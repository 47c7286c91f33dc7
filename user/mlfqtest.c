/* user/mlfqtest.c - OSTEP chapter 8's MLFQ experiments on the real kernel.
 *
 *   mlfqtest inter MS HOGS BURST_US [REQUEST_US]
 *   mlfqtest game MS HOGS PAIRS BURST_US
 *
 * inter: HOGS CPU hogs and one interactive process, which sleeps one tick
 * (100 ms) and then runs BURST_US of CPU, over and over, for MS ms (with
 * REQUEST_US, it first sets its own EEVDF request size: sched_setrequest,
 * docs/scheduling.md "Request size"; the hogs keep the default). At each
 * burst it reads its own MLFQ queue (mlfqlevel); the parent reads every
 * hog's queue once per tick. Prints
 *   interactive top T/N maxlat_us L meanlat_us M cpu_us C
 *   hogs levels Q0 Q1 Q2 Q3+ cpu_us C...
 * where T of the interactive's N bursts found it in the top queue, L and M
 * are the kernel's wake-up latency of the interactive (runnable to running,
 * procinfo.max_wakeup_latency; the mean from its own clock: from the tick
 * it slept for to the start of its burst), and Qi counts the hog samples
 * that found a hog in queue i.
 *
 * game: PAIRS pairs of gamers and HOGS hogs for MS ms. A gamer runs BURST_US
 * (just under the top quantum), then wakes its partner through a pipe and
 * blocks on its own: the pair keeps a hart busy while each of them gives the
 * CPU up before its quantum ends (OSTEP's gaming); the gamers stop by
 * themselves at the end. The hogs are forked first; each reads the clock
 * in a loop and records the longest time it did not run (the largest step
 * between two readings, the first from its fork). Prints one line per hog,
 *   hog maxgap_us G cpu_us C
 * then `gamers cpu_us C levels Q0 Q1 Q2 Q3+` (all gamers together) and
 * `hogs levels Q0 Q1 Q2 Q3+`, the parent's samples of their queues, once
 * per tick.
 *
 * Children report through a pipe, one fixed-size record each, so their
 * output never interleaves. -h prints the usage and exits 0; a bad command
 * line prints it and exits 1. Under another policy than mlfq, mlfqlevel
 * returns -1 and levels count as Q3+. */
#include "kernel/types.h"
#include "user/args.h"
#include "user/benchutil.h"
#include "user/user.h"

static const char usage[] = "mlfqtest inter MS HOGS BURST_US [REQUEST_US] | mlfqtest game MS HOGS PAIRS BURST_US";

#define MAXHOGS 8
#define MAXPAIRS 4
#define TICK_NS 100000000UL
#define US 10UL /* timer cycles (10 MHz) per microsecond */

struct report {
    unsigned long a, b, c, d;
};

/* About 2 us of computation: under QEMU -icount every clock reading ends
 * a translated block, so a loop that only read the clock ran 10 times
 * slower on the host. */
static void work(void) {
    volatile unsigned long x = 0;
    for (int i = 0; i < 64; i++) x += (unsigned long)i;
}

/* Time from the `time` CSR (rdtime: no system call, so a spinning loop
 * stays cheap for QEMU). */
static void spin_us(unsigned long us) {
    unsigned long end = rdtime() + us * US;
    while (rdtime() < end) work();
}

static void count_level(unsigned long* levels, int l) { levels[l >= 0 && l < 3 ? l : 3]++; }

static void spin_forever(void) {
    volatile unsigned long x = 0;
    for (;;) x++;
}

static void send(int fd, unsigned long a, unsigned long b, unsigned long c, unsigned long d) {
    struct report r = {a, b, c, d};
    write(fd, &r, sizeof(r));
}

static int get(int fd, struct report* r) { return read(fd, r, sizeof(*r)) == (int)sizeof(*r); }

static unsigned long cpu_us_of(int pid, unsigned long* maxlat_us) {
    struct procinfo pi;
    int r;
    for (int i = 0; (r = procinfo(i, &pi)) >= 0; i++) {
        if (r == 0 && pi.pid == pid) {
            if (maxlat_us) *maxlat_us = pi.max_wakeup_latency / 10;
            return pi.cpu_ticks / 10; /* 10 MHz timer cycles -> us */
        }
    }
    return 0;
}

/* The interactive process: sleep a tick, run a burst, note its queue. */
static void interactive(int fd, unsigned long end, unsigned long burst) {
    unsigned long n = 0, top = 0, late = 0;
    while (uptime_ns() < end) {
        sleep(1);
        unsigned long now = uptime_ns();
        late += now % TICK_NS;
        n++;
        if (mlfqlevel(0) == 0) top++;
        spin_us(burst);
    }
    send(fd, n, top, late / (n ? n : 1) / 1000, 0);
    exit(0);
}

static int inter(int ms, int hogs, int burst, int request) {
    int fd[2], pid[MAXHOGS], ipid;
    unsigned long levels[4] = {0, 0, 0, 0};
    if (pipe(fd) < 0) return 1;
    unsigned long end = uptime_ns() + (unsigned long)ms * 1000000UL;
    for (int i = 0; i < hogs; i++)
        if ((pid[i] = fork()) == 0) spin_forever();
    if ((ipid = fork()) == 0) {
        if (request > 0 && sched_setrequest(0, request) < 0) exit(1);
        interactive(fd[1], end, (unsigned long)burst);
    }
    while (uptime_ns() < end) {
        sleep(1);
        for (int i = 0; i < hogs; i++) count_level(levels, mlfqlevel(pid[i]));
    }
    struct report r;
    int ok = get(fd[0], &r);
    unsigned long maxlat = 0, icpu = cpu_us_of(ipid, &maxlat), hcpu[MAXHOGS];
    for (int i = 0; i < hogs; i++) hcpu[i] = cpu_us_of(pid[i], 0);
    for (int i = 0; i < hogs; i++) kill(pid[i]);
    for (int i = 0; i <= hogs; i++) wait(0);
    if (!ok) {
        fprintf(2, "mlfqtest: no report from the interactive process\n");
        return 1;
    }
    printf("interactive top %d/%d maxlat_us %d meanlat_us %d cpu_us %d\n", (int)r.b, (int)r.a, (int)maxlat, (int)r.c,
           (int)icpu);
    printf("hogs levels %d %d %d %d cpu_us", (int)levels[0], (int)levels[1], (int)levels[2], (int)levels[3]);
    for (int i = 0; i < hogs; i++) printf(" %d", (int)hcpu[i]);
    printf("\n");
    return 0;
}

/* A hog that records the longest step between two clock readings (the
 * first from `start`, when the parent forked it). */
static void gap_hog(int fd, unsigned long start, unsigned long end) {
    unsigned long prev = start, maxgap = 0, stop = end / 100; /* ns -> cycles */
    for (;;) {
        work();
        unsigned long now = rdtime();
        if (now - prev > maxgap) maxgap = now - prev;
        prev = now;
        if (now >= stop) break;
    }
    send(fd, maxgap / US, cpu_us_of(getpid(), 0), 0, 0);
    exit(0);
}

/* One gamer of a pair: burst, wake the partner, block until woken; both
 * stop at `end` (cycles), so a run ends even if they starve everything
 * else, the parent included. */
static void gamer(int in, int out, int first, unsigned long burst, unsigned long end) {
    char c = 0;
    if (!first && read(in, &c, 1) != 1) exit(1);
    while (rdtime() < end) {
        spin_us(burst);
        if (write(out, &c, 1) != 1 || read(in, &c, 1) != 1) break;
    }
    close(out); /* the partner's read returns 0: it stops too */
    exit(0);
}

static int game(int ms, int hogs, int pairs, int burst) {
    int fd[2], hog[MAXHOGS], gam[2 * MAXPAIRS];
    if (pipe(fd) < 0) return 1;
    unsigned long start = rdtime(), end = uptime_ns() + (unsigned long)ms * 1000000UL;
    /* Hogs first: a parent that has sunk would not get to fork them beside
     * gamers that keep the top queue (-S, no boost). */
    for (int i = 0; i < hogs; i++)
        if ((hog[i] = fork()) == 0) gap_hog(fd[1], start, end);
    for (int p = 0; p < pairs; p++) {
        int ab[2], ba[2];
        if (pipe(ab) < 0 || pipe(ba) < 0) return 1;
        if ((gam[2 * p] = fork()) == 0) {
            close(ab[0]);
            close(ba[1]);
            gamer(ba[0], ab[1], 1, (unsigned long)burst, end / 100);
        }
        if ((gam[2 * p + 1] = fork()) == 0) {
            close(ba[0]);
            close(ab[1]);
            gamer(ab[0], ba[1], 0, (unsigned long)burst, end / 100);
        }
        close(ab[0]);
        close(ab[1]);
        close(ba[0]);
        close(ba[1]);
    }
    unsigned long hl[4] = {0, 0, 0, 0}, gl[4] = {0, 0, 0, 0};
    while (uptime_ns() < end) {
        sleep(1);
        for (int i = 0; i < hogs; i++) count_level(hl, mlfqlevel(hog[i]));
        for (int i = 0; i < 2 * pairs; i++) count_level(gl, mlfqlevel(gam[i]));
    }
    unsigned long gcpu = 0;
    for (int i = 0; i < 2 * pairs; i++) gcpu += cpu_us_of(gam[i], 0);
    for (int i = 0; i < 2 * pairs; i++) kill(gam[i]);
    struct report r;
    for (int i = 0; i < hogs; i++) {
        if (!get(fd[0], &r)) {
            fprintf(2, "mlfqtest: no report from a hog\n");
            return 1;
        }
        printf("hog maxgap_us %d cpu_us %d\n", (int)r.a, (int)r.b);
    }
    for (int i = 0; i < hogs + 2 * pairs; i++) wait(0);
    printf("gamers cpu_us %d levels %d %d %d %d\n", (int)gcpu, (int)gl[0], (int)gl[1], (int)gl[2], (int)gl[3]);
    printf("hogs levels %d %d %d %d\n", (int)hl[0], (int)hl[1], (int)hl[2], (int)hl[3]);
    return 0;
}

int main(int argc, char* argv[]) {
    int ms, hogs, pairs, burst, request = 0;
    usage_on_help(argc, argv, usage);
    if ((argc == 5 || (argc == 6 && parse_int(argv[5], &request) && request >= 0)) && strcmp(argv[1], "inter") == 0 &&
        parse_int(argv[2], &ms) && ms > 0 && parse_int(argv[3], &hogs) && hogs >= 0 && hogs <= MAXHOGS &&
        parse_int(argv[4], &burst) && burst >= 0)
        exit(inter(ms, hogs, burst, request));
    if (argc == 6 && strcmp(argv[1], "game") == 0 && parse_int(argv[2], &ms) && ms > 0 && parse_int(argv[3], &hogs) &&
        hogs >= 0 && hogs <= MAXHOGS && parse_int(argv[4], &pairs) && pairs >= 0 && pairs <= MAXPAIRS &&
        parse_int(argv[5], &burst) && burst > 0)
        exit(game(ms, hogs, pairs, burst));
    usage_exit(usage, 1);
    return 1;
}
