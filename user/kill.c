/* kill - kill the processes whose ids are given as arguments.
 *
 * Every argument must be a decimal pid (checked before anything is killed);
 * -h, no argument, an option or a malformed pid prints the usage line. A
 * pid that names no process is reported and makes kill exit 1. */
#include "kernel/types.h"
#include "user/args.h"
#include "user/user.h"

int main(int argc, char* argv[]) {
    static const char usage[] = "kill pid...";
    int pid;
    usage_no_options(argc, argv, usage);
    if (argc < 2) usage_exit(usage, 1);
    for (int i = 1; i < argc; i++)
        if (!parse_int(argv[i], &pid)) usage_exit(usage, 1);
    int status = 0;
    for (int i = 1; i < argc; i++) {
        parse_int(argv[i], &pid);
        if (kill(pid) < 0) {
            perrorf("kill: %s", argv[i]);
            status = 1;
        }
    }
    return status;
}
