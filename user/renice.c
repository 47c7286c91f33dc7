/* user/renice.c - set the nice value of a running process.
 *
 *   renice -n N -p PID
 *
 * Sets PID's nice value to N (-20..19), as the seed's walkthrough uses it.
 * Nice is per thread, as in Linux: PID names a process's first thread
 * (whose tid is the pid), and a thread's TID (`ps -T`) names that thread.
 * -h prints the usage line and exits 0. An unknown pid, a value out of
 * range, a refused change (only root may lower a nice value or renice
 * another user's process) or a malformed command line prints one error line
 * and exits 1. */
#include "kernel/types.h"
#include "user/args.h"
#include "user/user.h"

static const char usage[] = "renice -n N -p PID";

int main(int argc, char* argv[]) {
    int n, pid;
    usage_on_help(argc, argv, usage);
    if (argc != 5 || strcmp(argv[1], "-n") != 0 || strcmp(argv[3], "-p") != 0) usage_exit(usage, 1);
    if (!parse_int(argv[2], &n) || n < -20 || n > 19) {
        fprintf(2, "renice: bad nice value '%s' (want -20..19)\n", argv[2]);
        exit(1);
    }
    if (!parse_int(argv[4], &pid) || pid <= 0) {
        fprintf(2, "renice: bad pid '%s'\n", argv[4]);
        exit(1);
    }
    if (setpriority(pid, n) < 0) {
        perrorf("renice: %d", pid); /* no such process, operation not permitted, ... */
        exit(1);
    }
    printf("%d: nice %d\n", pid, n);
    exit(0);
}
