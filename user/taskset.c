/* user/taskset.c - run a command on a set of harts, or change a process's.
 *
 *   taskset MASK CMD [ARGS...]   run CMD restricted to the harts in MASK
 *   taskset -p MASK PID          restrict process PID
 *   taskset -p PID               print PID's mask
 *
 * MASK is hexadecimal (0x optional): bit i is hart i, so 0x5 is harts 0 and
 * 2. Children and new threads inherit the mask. Affinity is per thread, as
 * in Linux: PID names a process's first thread, a TID (`ps -T`) another. Affinity is enforced with per-hart run
 * queues (rq=percpu, the default); with one shared queue it is recorded but
 * every hart runs everything. -h prints the usage line and exits 0; a
 * malformed command line prints it and exits 1. */
#include "kernel/types.h"
#include "user/args.h"
#include "user/user.h"

static int parse_mask(const char* s, unsigned long* out) {
    unsigned long v = 0;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2;
    if (!*s) return 0;
    for (; *s; s++) {
        int d;
        if (*s >= '0' && *s <= '9') d = *s - '0';
        else if (*s >= 'a' && *s <= 'f') d = *s - 'a' + 10;
        else if (*s >= 'A' && *s <= 'F') d = *s - 'A' + 10;
        else return 0;
        if (v >> 60) return 0;
        v = v * 16 + (unsigned long)d;
    }
    *out = v;
    return 1;
}

static void usage(void) { usage_exit("taskset MASK command [args...] | taskset -p [MASK] PID", 1); }

int main(int argc, char* argv[]) {
    unsigned long mask;
    int pid;
    usage_on_help(argc, argv, "taskset MASK command [args...] | taskset -p [MASK] PID");
    if (argc >= 3 && strcmp(argv[1], "-p") == 0) {
        if (argc == 3) {
            if (!parse_int(argv[2], &pid)) usage();
            mask = getaffinity(pid);
            if (!mask) {
                fprintf(2, "taskset: no process %s\n", argv[2]);
                exit(1);
            }
            printf("pid %d mask 0x%lx\n", pid, mask);
            exit(0);
        }
        if (argc != 4 || !parse_mask(argv[2], &mask) || !parse_int(argv[3], &pid)) usage();
        if (setaffinity(pid, mask) < 0) {
            if (errno() == EINVAL) fprintf(2, "taskset: mask 0x%lx names no hart of this machine\n", mask);
            else perrorf("taskset: cannot set 0x%lx on %d", mask, pid);
            exit(1);
        }
        exit(0);
    }
    if (argc < 3 || !parse_mask(argv[1], &mask)) usage();
    if (setaffinity(0, mask) < 0) {
        fprintf(2, "taskset: mask 0x%lx names no hart of this machine\n", mask);
        exit(1);
    }
    const int why = exec_search(argv + 2);
    fprintf(2, "taskset: cannot run %s: %s\n", argv[2], strerror(why));
    exit(1);
}
