// user/ps.cc - list processes (or threads) with their scheduling statistics.
//
//   ps [-T | -m]
//
// One row per process, in the columns of lib/abi/procview.h (the kernel's
// ^P dump prints the very same table, one row per thread): pid, parent,
// state, nice, weight, CPU time and wait time in milliseconds, times
// scheduled, voluntary and involuntary switches, worst wakeup latency in
// microseconds, migrations between run queues, user (name from
// /etc/passwd), name. A process with several threads shows its first
// thread's row with the times, switches and migrations of all its threads
// added up, the worst latency of any, and the busiest state of any (run,
// then runnable, sleeping, zombie). `ps -T` shows one row per thread
// instead, with its TID after the PID: each thread's own nice, weight and
// statistics (threads are scheduled one by one, docs/threads.md), sorted
// by process and thread. `ps -m` shows one row per process with its
// memory (KiB) and its minor and major page faults (docs/memory.md).
// `ps -s` shows one row per thread with its scheduling parameters: nice,
// weight and EEVDF request size (sched_getrequest, `-` = the default
// slice; docs/scheduling.md "Request size"). The
// policy and run-queue mode head the table. `ps -h` prints the usage line
// and exits 0; any other argument prints it, exit 2.
#include "lib/abi/procview.h"
#include "user/user.h"

namespace {

constexpr const char* kUsage = "ps [-T | -m | -s]";
constexpr int kMaxRows = 128;  // more than the process table's slots
struct procinfo g_rows[kMaxRows];

// Running first, then runnable, sleeping, embryo, zombie.
int busy_rank(int state) {
    constexpr int kRank[] = {0, 2, 3, 4, 5, 1};  // by procinfo.state
    return state >= 0 && state < 6 ? kRank[state] : 0;
}

// The row for the process led by rows[lead]: its threads' figures combined.
struct procinfo combined(int lead, int n) {
    struct procinfo p = g_rows[lead];
    for (int i = 0; i < n; i++) {
        const struct procinfo& t = g_rows[i];
        if (i == lead || t.pid != p.pid) continue;
        p.cpu_ticks += t.cpu_ticks;
        p.wait_cycles += t.wait_cycles;
        p.switches += t.switches;
        p.voluntary += t.voluntary;
        p.involuntary += t.involuntary;
        p.migrations += t.migrations;
        if (t.max_wakeup_latency > p.max_wakeup_latency) p.max_wakeup_latency = t.max_wakeup_latency;
        if (busy_rank(t.state) > busy_rank(p.state)) p.state = t.state;
    }
    return p;
}

// -T: a process's threads together, first thread first (slots are in no order).
void sort_by_thread(int n) {
    for (int i = 1; i < n; i++) {
        const struct procinfo x = g_rows[i];
        int j = i;
        for (; j > 0 && (g_rows[j - 1].pid > x.pid || (g_rows[j - 1].pid == x.pid && g_rows[j - 1].tid > x.tid)); j--)
            g_rows[j] = g_rows[j - 1];
        g_rows[j] = x;
    }
}

}  // namespace

int main(int argc, char* argv[]) {
    usage_on_help(argc, argv, kUsage);
    const bool threads = argc == 2 && strcmp(argv[1], "-T") == 0;
    const bool memory = argc == 2 && strcmp(argv[1], "-m") == 0;
    const bool sched = argc == 2 && strcmp(argv[1], "-s") == 0;
    if (argc > 2 || (argc == 2 && !threads && !memory && !sched)) usage_exit(kUsage, 2);
    char policy[32] = {};
    if (sched_get(policy, sizeof(policy)) < 0) policy[0] = 0;
    // sched_get puts the queue mode after the name's NUL ("eevdf\0percpu").
    const char* mode = policy + strlen(policy) + 1;
    if (memory) {
        printf("%s\n", q::procview::kHeaderMemory);
    } else if (sched) {
        printf("policy %s %s\n%s\n", policy, mode, q::procview::kHeaderSched);
    } else {
        printf("policy %s %s\n%s\n", policy, mode, threads ? q::procview::kHeaderThreads : q::procview::kHeader);
    }
    int n = 0;
    for (int i = 0; n < kMaxRows; i++) {
        const int r = procinfo(i, &g_rows[n]);
        if (r < 0) break;
        if (r == 0) n++;
    }
    if (threads || sched) sort_by_thread(n);
    char row[q::procview::kRowMax];
    for (int i = 0; i < n; i++) {
        if (sched) {  // (-1: the thread is gone since procinfo; shown as `-` too)
            q::procview::format_sched_row(g_rows[i], sched_getrequest(g_rows[i].tid), row);
            printf("%s\n", row);
            continue;
        }
        if (!threads && g_rows[i].tid != g_rows[i].pid) continue;  // not a process's first thread
        const struct procinfo p = threads ? g_rows[i] : combined(i, n);
        if (memory) {  // size and faults are the process's, in every thread's row
            q::procview::format_memory_row(p, row);
            printf("%s\n", row);
            continue;
        }
        char user[PW_NAME_MAX];
        q::procview::format_row(p, row, pw_name(p.uid, user), threads);
        printf("%s\n", row);
    }
    exit(0);
}
