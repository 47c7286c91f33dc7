/* kill - kill the processes whose ids are given as arguments.
 *
 *   kill [-9 | -KILL | -SIGKILL | -s KILL | -s 9] pid...
 *
 * xv6's kill system call is SIGKILL, so the Unix ways of asking for
 * SIGKILL are accepted; any other signal (a name, a number, -s anything
 * else) is refused with a message before anything is killed: quanta has
 * no other signals yet. Every pid must be a decimal number (checked before
 * anything is killed); -h, no pid, another option or a malformed pid
 * prints the usage line. A pid that names no process is reported and
 * makes kill exit 1. */
#include "kernel/types.h"
#include "user/args.h"
#include "user/user.h"

static const char usage[] = "kill [-9 | -KILL | -s KILL] pid...";

/* Is the signal name or number (without its '-') SIGKILL? */
static int is_kill(const char* s) {
    if (s[0] == 'S' && s[1] == 'I' && s[2] == 'G') s += 3;
    return strcmp(s, "KILL") == 0 || strcmp(s, "9") == 0;
}

static void refuse(const char* sig) {
    fprintf(2, "kill: signal %s is not supported: only KILL (9), which is what kill does (quanta has no signals yet)\n",
            sig);
    exit(1);
}

int main(int argc, char* argv[]) {
    int first = 1, pid;
    if (argc > 1 && strcmp(argv[1], "-h") == 0) usage_exit(usage, 0);
    if (argc > 2 && strcmp(argv[1], "-s") == 0) {
        if (!is_kill(argv[2])) refuse(argv[2]);
        first = 3;
    } else if (argc > 1 && argv[1][0] == '-' && argv[1][1] != 0 && strcmp(argv[1], "-s") != 0) {
        int n;
        const int number = parse_int(argv[1] + 1, &n);
        const int upper = argv[1][1] >= 'A' && argv[1][1] <= 'Z';
        if (!number && !upper) usage_exit(usage, 1); /* -x: not a signal, an unknown option */
        if (!is_kill(argv[1] + 1)) refuse(argv[1] + 1);
        first = 2;
    }
    if (first >= argc) usage_exit(usage, 1);
    for (int i = first; i < argc; i++)
        if (!parse_int(argv[i], &pid)) usage_exit(usage, 1);
    int status = 0;
    for (int i = first; i < argc; i++) {
        parse_int(argv[i], &pid);
        if (kill(pid) < 0) {
            perrorf("kill: %s", argv[i]);
            status = 1;
        }
    }
    return status;
}
