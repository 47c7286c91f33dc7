/* kill - send a signal to processes.
 *
 *   kill [-SIG | -s SIG] pid...
 *
 * SIG is a number (1..31) or a name with or without SIG (-TERM, -SIGINT,
 * -s STOP); without one kill sends SIGKILL, which is what xv6's kill
 * does (sigsend for the others: docs/signals.md). A pid below -1 names a
 * process group (-pgid). Every pid must be a decimal number (checked
 * before anything is sent); -h, no pid, an unknown signal, another option
 * or a malformed pid prints the usage line. A pid that names no process
 * (or one the caller may not signal) is reported and makes kill exit 1.
 * The shell has a builtin kill too, for its jobs (kill %1: user/sh.c). */
#include "kernel/types.h"
#include "user/args.h"
#include "user/user.h"

static const char usage[] = "kill [-SIG | -s SIG] pid...";

int main(int argc, char* argv[]) {
    int first = 1, pid, sig = SIGKILL;
    if (argc > 1 && strcmp(argv[1], "-h") == 0) usage_exit(usage, 0);
    if (argc > 2 && strcmp(argv[1], "-s") == 0) {
        sig = signal_number(argv[2]);
        first = 3;
    } else if (argc > 1 && argv[1][0] == '-' && argv[1][1] != 0) {
        sig = signal_number(argv[1] + 1);
        first = 2;
    }
    if (sig == 0 || first >= argc) usage_exit(usage, 1);
    for (int i = first; i < argc; i++)
        if (!parse_int(argv[i], &pid)) usage_exit(usage, 1);
    int status = 0;
    for (int i = first; i < argc; i++) {
        parse_int(argv[i], &pid);
        if ((sig == SIGKILL && pid > 0 ? kill(pid) : sigsend(pid, sig)) < 0) {
            perrorf("kill: %s", argv[i]);
            status = 1;
        }
    }
    return status;
}
