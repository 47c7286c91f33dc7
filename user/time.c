/* time - run a command and say how long it took.
 *
 *   time CMD [ARGS...]
 *
 * Runs CMD (from the current directory, then from /, as the shell does),
 * waits for it, and prints `real S.MMMs` on stderr: the time between the
 * fork and the wait's return on the guest's 10 MHz clock (uptime_ns), to
 * the millisecond. What that clock measures depends on how QEMU runs:
 * under `make qemu` it follows the host's clock, so a busy host makes a
 * command look slower; under -icount (the test suites, make trace, make
 * profile, make bench-os) it is virtual time, counted in instructions
 * executed (8 ns each at shift=3) and, with sleep=off, jumping over idle
 * time, so `time sleep 1` says 1.000s at once and the same work times the
 * same on any host. There are no user and sys lines: the kernel counts
 * one CPU time per process and a reaped child's is gone (`ps` shows a
 * running one's). The exit status is CMD's; 1 if it could not be run. A
 * pipeline is timed as `time sh FILE`. -h or no command prints the usage
 * line. */
#include "user/user.h"

static const char usage[] = "time CMD [ARGS...]";

static void run(char** argv) {
    const int why = exec_search(argv);
    fprintf(2, "time: cannot run %s: %s\n", argv[0], strerror(why));
    exit(1);
}

int main(int argc, char* argv[]) {
    usage_on_help(argc, argv, usage);
    if (argc < 2) usage_exit(usage, 1);
    const unsigned long t0 = uptime_ns();
    const int pid = fork();
    if (pid < 0) {
        perrorf("time: fork failed");
        exit(1);
    }
    if (pid == 0) run(argv + 1);
    int status = 0;
    while (wait(&status) != pid) {}
    const unsigned long ms = (uptime_ns() - t0) / 1000000UL;
    const char frac[4] = {(char)('0' + ms % 1000 / 100), (char)('0' + ms % 100 / 10), (char)('0' + ms % 10), 0};
    fprintf(2, "real %lu.%ss\n", ms / 1000, frac);
    exit(status);
}
