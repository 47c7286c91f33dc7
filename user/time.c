/* time - run a command and say how long it took.
 *
 *   time CMD [ARGS...]
 *
 * Runs CMD (from the current directory, then from /, as the shell does),
 * waits for it, and prints on stderr, as a Unix shell's time does:
 *   real S.MMMs   the time between the fork and the wait's return on the
 *                 guest's 10 MHz clock (uptime_ns), to the millisecond;
 *   user S.MMMs   the CPU time CMD and what it waited for spent in user
 *   sys S.MMMs    mode and in the kernel (times(): the children's time
 *                 before and after the wait). What that clock measures depends on how QEMU runs:
 * under `make qemu` it follows the host's clock, so a busy host makes a
 * command look slower; under -icount (the test suites, make trace, make
 * profile, make bench-os) it is virtual time, counted in instructions
 * executed (8 ns each at shift=3) and, with sleep=off, jumping over idle
 * time, so `time sleep 1` says 1.000s at once and the same work times the
 * same on any host. A ^C or ^\ ends CMD and the times are still printed. The
 * exit status is CMD's (128 + the signal's number if one ended it, as in
 * a Unix shell); 1 if it could not be run. A
 * pipeline is timed as `time sh FILE`. -h or no command prints the usage
 * line. */
#include "user/user.h"

static const char usage[] = "time CMD [ARGS...]";

static const int kKeySignals[] = {SIGINT, SIGQUIT};

/* ^C and ^\ go to the whole foreground job, time too: time ignores them
 * (set before the fork, so none lands in between) and CMD gets the
 * default back, so a ^C ends CMD and the time is still reported, as a
 * shell's `time` does. */
static void key_signals(unsigned long handler) {
    for (unsigned i = 0; i < sizeof(kKeySignals) / sizeof(kKeySignals[0]); i++) {
        struct ksigaction a = {handler, 0, 0};
        sigact(kKeySignals[i], &a, 0);
    }
}

/* "LABEL S.MMMs" for ns nanoseconds. */
static void say(const char* label, unsigned long ns) {
    const unsigned long ms = ns / 1000000UL;
    const char frac[4] = {(char)('0' + ms % 1000 / 100), (char)('0' + ms % 100 / 10), (char)('0' + ms % 10), 0};
    fprintf(2, "%s %lu.%ss\n", label, ms / 1000, frac);
}

static void run(char** argv) {
    key_signals(SIG_DFL);
    const int why = exec_search(argv);
    fprintf(2, "time: cannot run %s: %s\n", argv[0], strerror(why));
    exit(1);
}

int main(int argc, char* argv[]) {
    usage_on_help(argc, argv, usage);
    if (argc < 2) usage_exit(usage, 1);
    key_signals(SIG_IGN);
    struct cputimes c0 = {0, 0, 0, 0}, c1 = {0, 0, 0, 0};
    times(&c0);
    const unsigned long t0 = uptime_ns();
    const int pid = fork();
    if (pid < 0) {
        perrorf("time: fork failed");
        exit(1);
    }
    if (pid == 0) run(argv + 1);
    int st = 0;
    while (waitpid(pid, &st, 0) != pid && errno() == EINTR) {}
    say("real", uptime_ns() - t0);
    times(&c1);
    say("user", c1.child_user_ns - c0.child_user_ns);
    say("sys", c1.child_sys_ns - c0.child_sys_ns);
    exit(WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st));
}
