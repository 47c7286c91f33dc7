// kernel/proc/procdump.cc - print the process table (^P on the console).
//
// Reads without locks on purpose: it must work even when the machine is
// wedged with locks held, which is when one presses ^P.
#include "kernel/proc/procdump.h"

#include "kernel/lib/kprintf.h"
#include "kernel/proc/internal.h"
#include "kernel/proc/runqueue.h"

namespace q {

void procdump() {
    constexpr const char* kStates[] = {"unused", "embryo", "sleep ", "runble", "run   ", "zombie"};
    kprintf("\npolicy %s\n  PID STATE   NICE WEIGHT   CPU(cyc) SWITCHES NAME\n", rq_policy_name());
    for (Proc& p : g_procs) {
        if (p.state == ProcState::Unused) continue;
        kprintf("%5d %s %5d %6u %10lu %8lu %s ew %u v %ld d %ld vlag %ld q %d oncpu %d rq %d\n", p.pid, kStates[static_cast<int>(p.state)], p.nice, p.se.weight,
                p.stat_cpu, p.stat_switches, p.name, p.se.eweight, p.se.vruntime, p.se.deadline, p.se.vlag, p.se.queued, p.se.on_cpu, p.rq);
    }
}

}  // namespace q
