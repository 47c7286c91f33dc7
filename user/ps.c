/* user/ps.c - list processes with their scheduling statistics.
 *
 * One row per process: pid, parent, state, nice, weight, CPU time and
 * wait time in milliseconds, times scheduled, voluntary and involuntary
 * switches, worst wakeup latency in microseconds, migrations between run
 * queues, name. The policy heads the table. Times come from the 10 MHz
 * timer (1 cycle = 100 ns). */
#include "kernel/types.h"
#include "user/user.h"

static const char* state_name(int s) {
    static const char* names[] = {"unused", "embryo", "sleep", "runble", "run", "zombie"};
    return s >= 0 && s < 6 ? names[s] : "?";
}

int main(void) {
    char policy[16];
    struct procinfo pi;
    if (sched_get(policy, sizeof(policy)) < 0) policy[0] = 0;
    printf("policy %s\n", policy);
    printf("PID PPID STATE  NICE WEIGHT CPU_MS WAIT_MS SCHED VOL INVOL MAXLAT_US MIGR NAME\n");
    for (int i = 0;; i++) {
        int r = procinfo(i, &pi);
        if (r < 0) break;
        if (r > 0) continue;
        printf("%d %d %s %d %d %d %d %d %d %d %d %d %s\n", pi.pid, pi.ppid, state_name(pi.state), pi.nice, pi.weight,
               (int)(pi.cpu_ticks / 10000), (int)(pi.wait_cycles / 10000), (int)pi.switches, (int)pi.voluntary,
               (int)pi.involuntary, (int)(pi.max_wakeup_latency / 10), (int)pi.migrations, pi.name);
    }
    exit(0);
}
