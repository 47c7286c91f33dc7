/* user/sharetest.c - measure how CPU time divides between hogs.
 *
 *   sharetest [-w WARMUP_MS] MS NICE [NICE...]
 *
 * Forks one CPU-bound child per NICE (each sets its own nice value first),
 * lets them run for MS milliseconds of the fine clock, then reads each
 * child's CPU time from the kernel's statistics (procinfo), kills and reaps
 * them, and prints one line per child: `share NICE CPU_CYCLES`. The guest
 * test runner (tests/guest/sched_tests.py) turns these into ratios.
 *
 * With -w, a NICE written +N (e.g. +0) is a late child: the others run
 * alone for WARMUP_MS first, then the late ones are forked and the MS
 * window starts (the issue-12 case: nice -20 and nice 19 hogs alone on 2
 * harts, then a nice 0 one: `sharetest -w 10000 8000 -20 19 +0`).
 * -h prints the usage line and exits 0; a malformed command line prints it
 * and exits 1; a bad warm-up or nice value gets its own message (exit 1). */
#include "kernel/types.h"
#include "user/args.h"
#include "user/user.h"

#define MAXKIDS 16
#define STR_(x) #x
#define STR(x) STR_(x)
static const char usage[] = "sharetest [-w WARMUP_MS] MS NICE [NICE...] (at most " STR(MAXKIDS) ")";

static unsigned long cpu_of(int pid) {
    struct procinfo pi;
    for (int i = 0;; i++) {
        int r = procinfo(i, &pi);
        if (r < 0) return 0;
        if (r == 0 && pi.pid == pid) return pi.cpu_ticks;
    }
}

static void spin(int nice) {
    setpriority(0, nice);
    volatile unsigned long x = 0;
    for (;;) x++;
}

int main(int argc, char* argv[]) {
    int ms, warmup = 0, nice[MAXKIDS], late[MAXKIDS], pid[MAXKIDS];
    int first = 1;
    usage_on_help(argc, argv, usage);
    if (argc > 2 && strcmp(argv[1], "-w") == 0) {
        if (!parse_int(argv[2], &warmup) || warmup < 0) {
            fprintf(2, "sharetest: bad warm-up '%s'\n", argv[2]);
            exit(1);
        }
        first = 3;
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
    setpriority(0, -20);  /* the parent must wake up on time */
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && warmup > 0) {
            unsigned long until = uptime_ns() + (unsigned long)warmup * 1000000UL;
            while (uptime_ns() < until) sleep(1);
        }
        for (int i = 0; i < n; i++) {
            if (late[i] != pass) continue;
            pid[i] = fork();
            if (pid[i] == 0) spin(nice[i]);
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
