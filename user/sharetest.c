/* user/sharetest.c - measure how CPU time divides between hogs.
 *
 *   sharetest [-t] [-w WARMUP_MS] MS NICE [NICE...]
 *
 * Forks one CPU-bound child per NICE (each sets its own nice value first),
 * or with -t one child whose threads are the hogs (one per NICE, each
 * setting its own nice: nice is per thread, docs/threads.md),
 * lets them run for MS milliseconds of the fine clock, then reads each
 * child's CPU time from the kernel's statistics (procinfo), kills and reaps
 * them, and prints one line per child: `share NICE CPU_CYCLES PICKS` (PICKS:
 * how many times it was scheduled in the window, procinfo.switches), then
 * `snapshots START_US END_US` (how long each reading took, below). The guest
 * test runner (tests/guest/sched_tests.py) turns these into ratios.
 *
 * The children keep running while the parent reads their CPU times, so a
 * child read late gets a later window edge than one read early. Each
 * reading is therefore one pass over the process table (not one scan per
 * child: with 8 hogs on 3 harts under QEMU -icount that took 1-14 ms, and a
 * hog earns 3/8 ms per ms), and is taken again when the pass took more than
 * SNAP_MAX_US (a pass takes 0.7 ms, 1.7 ms when preempted once; 7% took
 * longer, up to 29 ms), keeping the fastest of SNAP_TRIES. A reading of D us
 * moves a child's figure by at most D us of CPU time; the durations are
 * printed so the runner can show them.
 *
 * With -w, a NICE written +N (e.g. +0) is a late child: the others run
 * alone for WARMUP_MS first, then the late ones are forked and the MS
 * window starts (the issue-12 case: nice -20 and nice 19 hogs alone on 2
 * harts, then a nice 0 one: `sharetest -w 10000 8000 -20 19 +0`). With
 * -t the late ones are threads the hog process makes after the warm-up;
 * the child sends each hog's tid up a pipe and the figures are per tid.
 * -h prints the usage line and exits 0; a malformed command line prints it
 * and exits 1; a bad warm-up or nice value gets its own message (exit 1). */
#include "kernel/types.h"
#include "user/args.h"
#include "user/user.h"

#define MAXKIDS 16
#define STR_(x) #x
#define STR(x) STR_(x)
static const char usage[] = "sharetest [-t] [-w WARMUP_MS] MS NICE [NICE...] (at most " STR(MAXKIDS) ")";

#define SNAP_MAX_US 2500
#define SNAP_TRIES 20

/* Every child's CPU time in one pass over the process table; returns how
 * long the pass took in microseconds. pid[] holds tids (a process's first
 * thread's tid is its pid). */
static unsigned long snapshot_once(int n, const int* pid, unsigned long* cpu, unsigned long* picks) {
    struct procinfo pi;
    unsigned long t0 = uptime_ns();
    for (int k = 0; k < n; k++) cpu[k] = picks[k] = 0;
    int r;
    for (int i = 0; (r = procinfo(i, &pi)) >= 0; i++) {
        if (r != 0) continue; /* unused slot */
        for (int k = 0; k < n; k++) {
            if (pi.tid == pid[k]) {
                cpu[k] = pi.cpu_ticks;
                picks[k] = pi.switches;
            }
        }
    }
    return (uptime_ns() - t0) / 1000;
}

/* The fastest of up to SNAP_TRIES passes, stopping at one within SNAP_MAX_US. */
static unsigned long snapshot(int n, const int* pid, unsigned long* cpu, unsigned long* picks) {
    unsigned long best = ~0UL, tmp[MAXKIDS], tmp_picks[MAXKIDS];
    for (int t = 0; t < SNAP_TRIES && best > SNAP_MAX_US; t++) {
        unsigned long d = snapshot_once(n, pid, tmp, tmp_picks);
        if (d < best) {
            best = d;
            for (int k = 0; k < n; k++) {
                cpu[k] = tmp[k];
                picks[k] = tmp_picks[k];
            }
        }
    }
    return best;
}

static void spin(int nice) {
    setpriority(0, nice);
    volatile unsigned long x = 0;
    for (;;) x++;
}

/* Wait ms milliseconds of the fine clock (the warm-up). */
static void wait_ms(int ms) {
    unsigned long until = uptime_ns() + (unsigned long)ms * 1000000UL;
    while (uptime_ns() < until) sleep(1);
}

/* -t: the hogs are threads of one process. */
static int nice_of[MAXKIDS];

static void spin_thread(void* arg) { spin(nice_of[(long)arg]); }

/* Make the hogs of one pass (late[i] == pass) as threads and send their
 * tids up fd. */
static void make_thread_hogs(int n, const int* late, int pass, int fd) {
    for (int i = 0; i < n; i++) {
        if (late[i] != pass) continue;
        int tid = thread_create(spin_thread, (void*)(long)i);
        if (tid < 0) {
            perrorf("sharetest: thread_create failed");
            exit(1);
        }
        write(fd, &tid, sizeof tid);
    }
}

/* The -t child: the first pass's hog threads, then after `warmup` ms the
 * late ones; the first thread then sleeps until it is killed. */
static void thread_hogs(int n, const int* late, int warmup, int fd) {
    make_thread_hogs(n, late, 0, fd);
    if (warmup > 0) {
        wait_ms(warmup);
        make_thread_hogs(n, late, 1, fd);
    }
    for (;;) sleep(1000);
}

/* Start the hogs: processes, or (threads) one process of hog threads;
 * fills pid[] with their tids. Returns the hog process with -t, else 0. */
static int start_hogs(int threads, int n, const int* nice, const int* late, int warmup, int* pid) {
    if (threads) {
        int fds[2];
        if (pipe(fds) < 0) {
            perrorf("sharetest: pipe failed");
            exit(1);
        }
        for (int i = 0; i < n; i++) nice_of[i] = nice[i];
        int child = fork();
        if (child == 0) {
            close(fds[0]);
            thread_hogs(n, late, warmup, fds[1]);
        }
        close(fds[1]);
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < n; i++)
                if (late[i] == pass && read(fds[0], &pid[i], sizeof pid[i]) != sizeof pid[i]) {
                    fprintf(2, "sharetest: no tid from the hog process\n");
                    exit(1);
                }
        close(fds[0]);
        return child;
    }
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && warmup > 0) {
            wait_ms(warmup);
        }
        for (int i = 0; i < n; i++) {
            if (late[i] != pass) continue;
            pid[i] = fork();
            if (pid[i] == 0) spin(nice[i]);
        }
    }
    return 0;
}

int main(int argc, char* argv[]) {
    int ms, warmup = 0, nice[MAXKIDS], late[MAXKIDS], pid[MAXKIDS];
    int first = 1, threads = 0;
    usage_on_help(argc, argv, usage);
    if (argc > 1 && strcmp(argv[1], "-t") == 0) {
        threads = 1;
        first = 2;
    }
    if (argc > first + 1 && strcmp(argv[first], "-w") == 0) {
        if (!parse_int(argv[first + 1], &warmup) || warmup < 0) {
            fprintf(2, "sharetest: bad warm-up '%s'\n", argv[first + 1]);
            exit(1);
        }
        first += 2;
    }
    int n = argc - first - 1;
    if (n < 1 || n > MAXKIDS || !parse_int(argv[first], &ms) || ms <= 0) usage_exit(usage, 1);
    for (int i = 0; i < n; i++) {
        const char* a = argv[first + 1 + i];
        late[i] = a[0] == '+';
        if (!parse_int(a + late[i], &nice[i]) || nice[i] < -20 || nice[i] > 19) {
            fprintf(2, "sharetest: bad nice '%s'\n", a);
            exit(1);
        }
    }
    setpriority(0, -20); /* the parent must wake up on time */
    int hog_process = start_hogs(threads, n, nice, late, warmup, pid);
    unsigned long start[MAXKIDS], stop[MAXKIDS], used[MAXKIDS], p0[MAXKIDS], p1[MAXKIDS];
    sleep(1); /* let every child set its nice value */
    unsigned long snap_start = snapshot(n, pid, start, p0);
    unsigned long end = uptime_ns() + (unsigned long)ms * 1000000UL;
    while (uptime_ns() < end) sleep(1);
    unsigned long snap_end = snapshot(n, pid, stop, p1);
    for (int i = 0; i < n; i++) used[i] = stop[i] - start[i];
    if (hog_process > 0) {
        kill(hog_process); /* every thread of it */
        wait(0);
    } else {
        for (int i = 0; i < n; i++) kill(pid[i]);
        for (int i = 0; i < n; i++) wait(0);
    }
    for (int i = 0; i < n; i++) printf("share %d %d %d\n", nice[i], (int)used[i], (int)(p1[i] - p0[i]));
    printf("snapshots %d %d\n", (int)snap_start, (int)snap_end);
    exit(0);
}
