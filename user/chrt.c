/* user/chrt.c - run a command with an EEVDF request size, or change a thread's.
 *
 *   chrt -r US CMD [ARGS...]   run CMD asking for runs of US microseconds
 *   chrt -r US -p PID          set PID's request
 *   chrt -p PID                print PID's request
 *
 * The request (Linux 6.12's sched_attr.sched_runtime) sets how soon EEVDF
 * serves a task, not how much: its virtual deadline is its eligible time
 * plus US / weight, so a short request is picked sooner and, woken, preempts
 * a task with a later deadline; its CPU share still follows its weight
 * (docs/scheduling.md, "Request size"). US 0 gives the default slice back;
 * others are clamped to 100..100000 (0.1 ms .. 100 ms). Children and new
 * threads inherit it; a PID (a process's first thread) or a TID (`ps -T`)
 * names one thread. Only EEVDF uses it. Anyone may set their own threads',
 * root anyone's. -h prints the usage line and exits 0; a malformed command
 * line prints it and exits 1, a refused or failed call one error line and
 * exits 1. */
#include "kernel/types.h"
#include "user/args.h"
#include "user/user.h"

static const char usage[] = "chrt -r US command [args...] | chrt -r US -p PID | chrt -p PID";

static int number(const char* s, int* out) { return parse_int(s, out) && *out >= 0; }

static void print(int pid) {
    const int us = sched_getrequest(pid);
    if (pid == 0) pid = getpid();
    if (us < 0) {
        perrorf("chrt: cannot read the request of %d", pid);
        exit(1);
    }
    if (us == 0) printf("pid %d request default\n", pid);
    else printf("pid %d request %d us\n", pid, us);
}

int main(int argc, char* argv[]) {
    int us, pid;
    usage_on_help(argc, argv, usage);
    if (argc == 3 && strcmp(argv[1], "-p") == 0) {
        if (!number(argv[2], &pid)) usage_exit(usage, 1);
        print(pid);
        exit(0);
    }
    if (argc < 4 || strcmp(argv[1], "-r") != 0) usage_exit(usage, 1);
    if (!number(argv[2], &us)) {
        fprintf(2, "chrt: bad request '%s' (want microseconds, 0 = default)\n", argv[2]);
        exit(1);
    }
    if (strcmp(argv[3], "-p") == 0) {
        if (argc != 5 || !number(argv[4], &pid)) usage_exit(usage, 1);
        if (sched_setrequest(pid, us) < 0) {
            perrorf("chrt: cannot set the request of %d", pid);
            exit(1);
        }
        print(pid);
        exit(0);
    }
    if (sched_setrequest(0, us) < 0) {
        perrorf("chrt: cannot set the request");
        exit(1);
    }
    const int why = exec_search(argv + 3);
    fprintf(2, "chrt: cannot run %s: %s\n", argv[3], strerror(why));
    exit(1);
}
