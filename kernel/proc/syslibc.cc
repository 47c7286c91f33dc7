// kernel/proc/syslibc.cc - process calls the C library needs (user/libc).
//
// cputime(): the caller's CPU time, for clock(). stat_cpu is charged when a process stops running (sched_switch), so a
// process that has run for less than a slice would see its CPU time stand
// still. cputime adds the current run (since running_since). Interrupts
// are off across the two reads: a preemption in between would charge the
// run and move running_since, counting it twice. Only the running process
// itself writes either field while it runs, so no lock is needed.
// times(): the same, split into user and kernel time, for the caller's
// whole process (every thread, ended ones too) and its reaped children,
// for the time program. A sibling thread running on another hart right
// now is read as of its last switch and trap: its current stint is not
// counted yet, and its current user stint reads as kernel time.
// sched_yield(): give up the hart (the process stays runnable).
#include "kernel/arch/riscv/csr.h"
#include "kernel/proc/internal.h"
#include "kernel/proc/sysproc.h"
#include "kernel/syscall.h"
#include "lib/abi/abi.h"
#include "lib/params.h"

namespace q {

namespace {
constexpr u64 ns_of(u64 cycles) { return cycles * param::kNsPerCycle; }
}  // namespace

// cputime() -> nanoseconds of CPU time of the caller, its current run included.
SysResult sys_cputime() {
    const u64 saved = riscv::intr_save_off();
    const Proc* p = myproc();
    const u64 cycles = cpu_cycles_now(p);
    riscv::intr_restore(saved);
    return static_cast<i64>(ns_of(cycles));
}

namespace {

u64 relaxed(const u64& v) { return __atomic_load_n(&v, __ATOMIC_RELAXED); }

}  // namespace

// times(struct cputimes*) -> 0, or -1 for a bad pointer.
SysResult sys_times() {
    Proc* me = myproc();
    ThreadGroup* tg = me->tg;
    u64 cpu = 0, user = 0;
    {
        LockGuard g(tg->lock);  // (interrupts off: this thread's run stands still)
        cpu = tg->ended_cpu + cpu_cycles_now(me);
        user = tg->ended_user + me->stat_user;
        for (Proc& t : g_procs) {
            if (&t == me || __atomic_load_n(&t.tg, __ATOMIC_RELAXED) != tg) continue;
            cpu += relaxed(t.stat_cpu);
            user += relaxed(t.stat_user);
        }
    }
    u64 child_cpu = 0, child_user = 0;
    {
        LockGuard g(g_wait_lock);
        child_cpu = tg->child_cpu;
        child_user = tg->child_user;
    }
    if (user > cpu) user = cpu;  // a sibling read between its trap and its switch
    if (child_user > child_cpu) child_user = child_cpu;
    const cputimes out{ns_of(user), ns_of(cpu - user), ns_of(child_user), ns_of(child_cpu - child_user)};
    return sys_result(copy_out(me->pagetable, arg_addr(0), &out, sizeof(out)));
}

}  // namespace q

namespace q {

// sched_yield() -> 0, after letting the scheduler run something else: the
// caller gives up the rest of its turn (yield_turn).
SysResult sys_sched_yield() {
    yield_turn();
    return 0;
}

}  // namespace q
