// kernel/proc/procdump.cc - the process list: ^P on the console, and the
// rows sys_procinfo hands to `ps`.
//
// Both views fill the ABI's procinfo with proc_info() and print it with
// lib/abi/procview.h, so ^P and `ps` show the same columns. procdump()
// reads without locks on purpose: it must work even when the machine is
// wedged with locks held, which is when one presses ^P; a row may then mix
// fields from two moments.
#include "kernel/proc/procdump.h"

#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/proc/internal.h"
#include "kernel/proc/runqueue.h"
#include "lib/abi/procview.h"

namespace q {

void proc_info(const Proc& p, procinfo* info) {
    *info = procinfo{};
    info->pid = p.pid;
    info->state = static_cast<int>(p.state);
    info->nice = p.nice;
    info->weight = p.rq.se.weight;
    safe_strcpy(info->name, p.name, sizeof(info->name));
    info->uid = p.cred.uid;
    info->cpu_ticks = p.stat_cpu;
    info->switches = p.stat_switches;
    info->voluntary = p.stat_voluntary;
    info->involuntary = p.stat_involuntary;
    info->wait_cycles = p.stat_wait;
    info->last_wakeup_latency = p.stat_last_latency;
    info->max_wakeup_latency = p.stat_max_latency;
    info->migrations = p.rq.migrations;
    info->tid = p.tid;
    const ThreadGroup* tg = p.tg;  // read once: procdump takes no locks
    info->threads = tg ? tg->live : 0;
    if (tg) {
        info->size = tg->sz;
        info->minflt = __atomic_load_n(&tg->minflt, __ATOMIC_RELAXED);
        info->majflt = __atomic_load_n(&tg->majflt, __ATOMIC_RELAXED);
    }
}

void procdump() {
    kprintf("\npolicy %s %s\n%s\n", rq_policy_name(), rq_mode_name(), procview::kHeader);
    char row[procview::kRowMax];
    for (Proc& p : g_procs) {
        if (p.state == ProcState::Unused) continue;
        procinfo info;
        proc_info(p, &info);
        // A thread's parent is its process's (the groups are a fixed table,
        // so a stale pointer still reads something).
        const ThreadGroup* tg = p.tg;
        const Proc* leader = tg && tg->leader ? tg->leader : &p;
        const Proc* parent = leader->parent;
        info.ppid = parent ? parent->pid : 0;
        procview::format_row(info, row);
        kprintf("%s\n", row);
    }
}

}  // namespace q
