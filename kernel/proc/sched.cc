// kernel/proc/sched.cc - the per-hart scheduler loop, sleep and wakeup.
//
// Each hart runs scheduler(): ask the run queue (kernel/proc/runqueue.cc) for
// the next process, switch_to() it, and pick again when it switches back.
// A process gives up the hart only through sched_switch() (xv6's sched()),
// from yield, sleep or exit, which charges the time it ran and puts it back
// in a run queue (or takes it out) in its own context, before the switch.
//
// The lock hand-off, xv6's rule: p->lock is held across every switch
// between a process and the scheduler, in both directions, and the side
// switched to releases it.
//   - The scheduler acquires p->lock, switches to p, and p releases it: in
//     forkret on its first run, else in the yield/sleep that called
//     sched_switch(), just after that returns (an exit never returns).
//   - A process enters sched_switch() holding its own lock (it changed its
//     state under it) and switches back to the scheduler, which releases it
//     once switch_to() returns. sched_switch() returns holding p->lock again
//     (the lock the scheduler took to switch back to p).
// The lock is what stops another hart from running a process whose
// registers are still being saved (it may already be back in a run queue).
//
// sleep() takes p->lock and records the channel and the Sleeping state
// before releasing the caller's condition lock; wakeup() takes p->lock to
// test the channel, so a wakeup between the caller's check and the sleep
// cannot be lost. wakeup() first reads each process's state and channel
// without its lock and locks only those that look asleep on chan: a waker
// changed the condition under the caller's lock, after the sleeper had
// published both under it, so a sleeper that matters cannot be skipped.
// (Locking every slot cost ~10,000 instructions per wakeup when the table
// had 64, a quarter of param::kMaxProcs today; a pipe round trip makes
// four.)
#include "kernel/arch/riscv/csr.h"
#include "kernel/fs/fs.h"
#include "kernel/lib/kprintf.h"
#include "kernel/obs/trace.h"
#include "kernel/proc/internal.h"
#include "kernel/proc/runqueue.h"

extern "C" void context_switch(q::Context* save, q::Context* load);

namespace q {

namespace {

// Dispatch bookkeeping: p's wait since it became runnable, its latency if
// it was woken, its switch count. rq_pick set p->running_since to the pick
// time.
void account_dispatch(Proc* p) {
    const u64 now = p->running_since;
    const u64 waited = p->runnable_since && now > p->runnable_since ? now - p->runnable_since : 0;
    p->stat_switches++;
    trace_switch(p, waited);
    p->stat_wait += waited;
    if (waited && p->woken) {
        p->stat_last_latency = waited;
        if (waited > p->stat_max_latency) p->stat_max_latency = waited;
    }
    p->woken = false;
}

// Run p on this hart until it switches back (see the file comment for the
// lock hand-off). Called with p->lock held; p releases it once running.
// Returns when p has called sched_switch(), with p->lock held again: p took
// it before switching back, and the caller releases it.
void switch_to(Cpu* c, Proc* p) {
    account_dispatch(p);
    p->state = ProcState::Running;
    p->running_on = c->id;
    c->proc = p;
    // Its turn (lib/sched/runqueues.h, "Turns"): a slice, or the rest of
    // one a preemption cut, counted from the pick.
    timer_new_slice(p->rq.turn_end - p->running_since);
    context_switch(&c->context, &p->context);
    c->proc = nullptr;
    p->running_on = -1;
}

}  // namespace

void scheduler() {
    Cpu* c = mycpu();
    c->proc = nullptr;
    for (;;) {
        // Let devices interrupt, so a sleeping process can be woken.
        riscv::intr_on();
        rq_balance(c->id, now_cycles());  // percpu: every two slices
        // A request to reschedule made before the pick is answered by it;
        // one made after it stands (below).
        c->need_resched = false;
        Proc* p = rq_pick(c->id);
        if (!p) {
            // Sleep until an interrupt: a device, the timer, or an IPI from
            // runqueue.cc's kick() when a process becomes runnable.
            c->idle = true;
            riscv::intr_off();
            p = rq_pick(c->id);
            if (!p) {
                timer_idle();
                riscv::wfi();  // wakes on a pending interrupt even with SIE off
                c->idle = false;
                continue;
            }
            c->idle = false;
        }
        p->lock.acquire();  // released by p once it runs
        if (p->state != ProcState::Runnable) panic("scheduler: picked pid %d not runnable", p->pid);
        if (c->need_resched) {
            // An interrupt taken since the pick woke a process that
            // preempts p: p goes back unrun and the pick is made again.
            // (The request used to be cleared at the switch, and the woken
            // process waited out p's whole slice: latbench -r 100's 843 us.)
            rq_enqueue(p, now_cycles());
            p->lock.release();
            continue;
        }
        switch_to(c, p);
        p->lock.release();  // taken by p before it switched back
    }
}

void sched_switch() {
    Proc* p = myproc();
    if (!p->lock.holding()) panic("sched_switch: p->lock not held");
    if (mycpu()->noff != 1) panic("sched_switch: locks held (depth %d)", mycpu()->noff);
    if (p->state == ProcState::Running) panic("sched_switch: still running");
    if (riscv::intr_get()) panic("sched_switch: interrupts on");
    // Charge the time used, and put the process back if still runnable (or
    // tell the policy it stopped), in its own context: once it is queued
    // another hart may pick it (and will wait for p->lock, which the
    // scheduler releases after the switch).
    const u64 end = now_cycles();
    const u64 ran = end - p->running_since;
    rq_charge(p, end);
    p->stat_cpu += ran;
    trace_deschedule(p, static_cast<int>(p->state), ran, p->yields_turn);
    if (p->state == ProcState::Runnable) {
        p->runnable_since = end;
        rq_enqueue(p, end, p->yields_turn);
        p->yields_turn = false;
    } else {
        rq_stop(p);  // sleeping or zombie: it leaves the policy's bookkeeping
    }
    // intena belongs to this kernel thread, not to the hart.
    const bool intena = mycpu()->intena;
    context_switch(&p->context, &mycpu()->context);
    mycpu()->intena = intena;
}

namespace {

void give_up_hart(bool whole_turn) {
    Proc* p = myproc();
    p->lock.acquire();  // released by the scheduler after the switch
    p->state = ProcState::Runnable;
    p->yields_turn = whole_turn;
    p->stat_involuntary++;  // still runnable: Linux counts a yield so too
    sched_switch();
    p->lock.release();  // taken by the scheduler to switch back to p
}

}  // namespace

void yield() { give_up_hart(false); }

void yield_turn() { give_up_hart(true); }

extern "C" void usertrap_return();

extern "C" void forkret() {
    static bool first = true;
    myproc()->lock.release();  // the scheduler took it to switch to us
    if (first) {
        // File-system initialisation sleeps, so it runs in process context.
        first = false;
        fs_init(param::kRootDev);
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        auto ip = namei("/");
        if (!ip.ok()) panic("forkret: no root directory");
        myproc()->tg->cwd = move(ip).value().release();
    }
    usertrap_return();
}

void make_runnable(Proc* p, bool sync) {
    const u64 now = now_cycles();
    p->state = ProcState::Runnable;
    p->runnable_since = now;
    rq_wake(p, now, sync);  // chooses its queue and wakes or preempts a hart
}

namespace {
void sleep_locked(Proc* p, const void* chan, SpinLock& lk) {
    // Published before lk is released (see wakeup's unlocked pre-check).
    __atomic_store_n(&p->chan, chan, __ATOMIC_RELAXED);
    ProcState sleeping = ProcState::Sleeping;
    __atomic_store(&p->state, &sleeping, __ATOMIC_RELAXED);  // the generic form: clang takes no enum in _n
    lk.release();
    p->stat_voluntary++;
    sched_switch();
    p->chan = nullptr;
    p->lock.release();
    lk.acquire();
}
}  // namespace

void sleep(const void* chan, SpinLock& lk) {
    Proc* p = myproc();
    p->lock.acquire();
    sleep_locked(p, chan, lk);
}

// kill sets killed under the thread's lock, and wakes it only if it is
// Sleeping: tested under that lock here, a kill either lands before the
// test (then the caller does not sleep) or finds the thread asleep.
void sleep_killable(const void* chan, SpinLock& lk, bool signals) {
    Proc* p = myproc();
    p->lock.acquire();
    if (signals ? killed(p) : dying(p)) {
        p->lock.release();
        return;
    }
    sleep_locked(p, chan, lk);
}

void wakeup(const void* chan, Wake how) {
    Proc* self = myproc();
    for (Proc& p : g_procs) {
        if (&p == self) continue;
        // Unlocked pre-check, then the real test under the lock.
        ProcState state;
        __atomic_load(&p.state, &state, __ATOMIC_RELAXED);
        if (state != ProcState::Sleeping || __atomic_load_n(&p.chan, __ATOMIC_RELAXED) != chan) continue;
        LockGuard g(p.lock);
        if (p.state == ProcState::Sleeping && p.chan == chan) {
            p.woken = true;
            make_runnable(&p, how == Wake::Sync);
        }
    }
}

}  // namespace q
