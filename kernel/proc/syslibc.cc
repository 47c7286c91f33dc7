// kernel/proc/syslibc.cc - process calls the C library needs (user/libc).
//
// cputime(): the caller's CPU time, for clock(). stat_cpu is charged when a process stops running (sched_switch), so a
// process that has run for less than a slice would see its CPU time stand
// still. cputime adds the current run (since running_since). Interrupts
// are off across the two reads: a preemption in between would charge the
// run and move running_since, counting it twice. Only the running process
// itself writes either field while it runs, so no lock is needed.
// sched_yield(): give up the hart (the process stays runnable).
#include "kernel/arch/riscv/csr.h"
#include "kernel/proc/internal.h"
#include "kernel/proc/sysproc.h"
#include "lib/params.h"

namespace q {

// cputime() -> nanoseconds of CPU time of the caller, its current run included.
SysResult sys_cputime() {
    const u64 saved = riscv::intr_save_off();
    const Proc* p = myproc();
    const u64 cycles = p->stat_cpu + (now_cycles() - p->running_since);
    riscv::intr_restore(saved);
    return static_cast<i64>(cycles * (1'000'000'000 / param::kTimerHz));
}

}  // namespace q

namespace q {

// sched_yield() -> 0, after letting the scheduler run something else.
SysResult sys_sched_yield() {
    yield();
    return 0;
}

}  // namespace q
