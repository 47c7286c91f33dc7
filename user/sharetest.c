/* user/sharetest.c - measure how CPU time divides between hogs.
 *
 *   sharetest MS NICE [NICE...]
 *
 * Forks one CPU-bound child per NICE (each sets its own nice value first),
 * lets them run for MS milliseconds of the fine clock, then reads each
 * child's CPU time from the kernel's statistics (procinfo), kills and reaps
 * them, and prints one line per child: `share NICE CPU_CYCLES`. The guest
 * test runner (tests/guest/sched_tests.py) turns these into ratios. */
#include "kernel/types.h"
#include "user/args.h"
#include "user/user.h"

#define MAXKIDS 16

static unsigned long cpu_of(int pid) {
    struct procinfo pi;
    for (int i = 0;; i++) {
        int r = procinfo(i, &pi);
        if (r < 0) return 0;
        if (r == 0 && pi.pid == pid) return pi.cpu_ticks;
    }
}

int main(int argc, char* argv[]) {
    int ms, nice[MAXKIDS], pid[MAXKIDS], n = argc - 2;
    if (argc < 3 || n > MAXKIDS || !parse_int(argv[1], &ms) || ms <= 0) {
        fprintf(2, "usage: sharetest MS NICE [NICE...] (at most %d)\n", MAXKIDS);
        exit(1);
    }
    for (int i = 0; i < n; i++) {
        if (!parse_int(argv[i + 2], &nice[i]) || nice[i] < -20 || nice[i] > 19) {
            fprintf(2, "sharetest: bad nice '%s'\n", argv[i + 2]);
            exit(1);
        }
    }
    setpriority(0, -20);  /* the parent must wake up on time */
    for (int i = 0; i < n; i++) {
        pid[i] = fork();
        if (pid[i] == 0) {
            setpriority(0, nice[i]);
            volatile unsigned long x = 0;
            for (;;) x++;
        }
    }
    unsigned long start[MAXKIDS];
    sleep(1);  /* let every child set its nice value */
    for (int i = 0; i < n; i++) start[i] = cpu_of(pid[i]);
    unsigned long end = uptime_ns() + (unsigned long)ms * 1000000UL;
    while (uptime_ns() < end) sleep(1);
    unsigned long used[MAXKIDS];
    for (int i = 0; i < n; i++) used[i] = cpu_of(pid[i]) - start[i];
    for (int i = 0; i < n; i++) kill(pid[i]);
    for (int i = 0; i < n; i++) wait(0);
    for (int i = 0; i < n; i++) printf("share %d %d\n", nice[i], (int)used[i]);
    exit(0);
}
