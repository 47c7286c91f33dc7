/* user/sched.c - show or switch the kernel's scheduling policy.
 *
 *   sched            print the current policy and the run-queue mode
 *                    (percpu or single, chosen at boot with rq=)
 *   sched NAME       switch to another policy (the list comes from
 *                    lib/sched/policies.h, like the kernel's)
 *
 * Every process keeps its nice value and stays runnable across a switch.
 * Switching is root's (docs/users-and-protection.md): anyone else gets
 * "permission denied" and exit 1. An unknown policy prints an error and exits 1; -h prints the usage line
 * and exits 0, more arguments print it and exit 1. */
#include "kernel/types.h"
#include "lib/sched/policies.h"
#include "user/user.h"

int main(int argc, char* argv[]) {
    char name[32];
    static const char usage[] = "sched [POLICY]   policies:" Q_SCHED_POLICY_NAMES;
    usage_on_help(argc, argv, usage);
    if (argc > 2) usage_exit(usage, 1);
    if (argc == 2 && geteuid() != 0) {
        fprintf(2, "sched: permission denied: only root may switch the policy\n");
        exit(1);
    }
    if (argc == 2 && sched_set(argv[1]) < 0) {
        fprintf(2, "sched: unknown policy '%s' (policies:" Q_SCHED_POLICY_NAMES ")\n", argv[1]);
        exit(1);
    }
    memset(name, 0, sizeof(name));
    if (sched_get(name, sizeof(name)) < 0) {
        fprintf(2, "sched: cannot read the policy\n");
        exit(1);
    }
    const char* mode = name + strlen(name) + 1; /* after the name's NUL */
    printf("%s %s\n", name, mode);
    exit(0);
}
