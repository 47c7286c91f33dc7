// user/ps.cc - list processes with their scheduling statistics.
//
//   ps
//
// One row per process, in the columns of lib/abi/procview.h (the kernel's
// ^P dump prints the very same table): pid, parent, state, nice, weight,
// CPU time and wait time in milliseconds, times scheduled, voluntary and
// involuntary switches, worst wakeup latency in microseconds, migrations
// between run queues, user (name from /etc/passwd), name. The policy and run-queue mode head the table.
// `ps -h` prints the usage line and exits 0; any argument prints it, exit 2.
#include "lib/abi/procview.h"
#include "user/user.h"

int main(int argc, char* argv[]) {
    usage_on_help(argc, argv, "ps");
    if (argc > 1) usage_exit("ps", 2);
    char policy[32] = {};
    if (sched_get(policy, sizeof(policy)) < 0) policy[0] = 0;
    // sched_get puts the queue mode after the name's NUL ("eevdf\0percpu").
    const char* mode = policy + strlen(policy) + 1;
    printf("policy %s %s\n%s\n", policy, mode, q::procview::kHeader);
    struct procinfo pi;
    char row[q::procview::kRowMax];
    for (int i = 0;; i++) {
        const int r = procinfo(i, &pi);
        if (r < 0) break;
        if (r > 0) continue;
        char user[PW_NAME_MAX];
        q::procview::format_row(pi, row, pw_name(pi.uid, user));
        printf("%s\n", row);
    }
    exit(0);
}
