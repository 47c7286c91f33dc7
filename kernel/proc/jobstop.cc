// kernel/proc/jobstop.cc - stop and continue (docs/signals.md "Stop and
// continue"): the default action of SIGSTOP, SIGTSTP, SIGTTIN and SIGTTOU,
// and SIGCONT's.
//
// A process stops at the user boundary only: the thread taking a stop
// signal (sig_deliver, on its way back to user mode) marks the group
// stopped and sleeps on the stop channel; every other thread of the group
// sleeps there too the next time it would return to user mode (a sibling
// running on another hart is sent an IPI to get it there soon; one asleep
// in a system call finishes it first). So a stopped process holds no
// kernel lock, sleep lock or pipe: nothing else waits for it. A stopped
// thread is Sleeping, off every run queue, through plain sleep/wakeup.
// SIGCONT (at the send, whatever its handler) clears the mark and wakes
// the channel; SIGKILL wakes the sleeper (kill_locked), which exits.
// Invariants: tg->stopped changes under g_wait_lock and g_stop_lock (in
// that order, before any Proc lock), so a parent's waitpid (which holds
// the wait lock) and a stopped thread's sleep (the stop lock) never miss
// a change; the parent hears each change once (wait_report) and gets
// SIGCHLD. A stop signal taken before a SIGCONT was sent (cont_gen moved
// meanwhile) does not stop the process: POSIX's "SIGCONT discards
// pending stops", for one that was already being taken.
#include "kernel/proc/jobstop.h"

#include "kernel/arch/riscv/plic.h"
#include "kernel/proc/internal.h"
#include "kernel/proc/jobctl.h"
#include "kernel/proc/signal.h"
#include "lib/signal/jobs.h"

namespace q {

namespace {

constinit SpinLock g_stop_lock("stop");

bool is_stopped(const ThreadGroup* tg) { return __atomic_load_n(&tg->stopped, __ATOMIC_ACQUIRE); }

// Tell tg's parent: its waitpid wakes and it gets SIGCHLD, unless its
// SIGCHLD action has SA_NOCLDSTOP. Caller holds g_wait_lock.
void tell_parent(ThreadGroup* tg, u8 report) {
    tg->wait_report = report;
    Proc* parent = tg->leader ? tg->leader->parent : nullptr;
    if (parent == nullptr) return;
    wakeup(parent);
    const u64 flags = parent->tg ? __atomic_load_n(&parent->tg->sig_act[sig::kChld].flags, __ATOMIC_ACQUIRE) : 0;
    if (!(flags & sig::kSaNocldstop)) sig_child_exited(parent, tg->leader->pid);  // kept only if it has a handler
}

// Get tg's other threads to the user boundary, where they stop too.
void kick_siblings(const Proc* me, const ThreadGroup* tg) {
    for (Proc& q : g_procs) {
        if (&q == me || __atomic_load_n(&q.tg, __ATOMIC_RELAXED) != tg) continue;
        LockGuard g(q.lock);
        if (q.tg == tg && q.state == ProcState::Running && q.running_on >= 0 && q.running_on != cpuid()) {
            send_ipi(q.running_on);
        }
    }
}

}  // namespace

u32 job_cont_gen(const Proc* p) { return __atomic_load_n(&p->tg->cont_gen, __ATOMIC_ACQUIRE); }

bool job_stopped(const Proc* p) { return p->tg != nullptr && is_stopped(p->tg); }

void job_stop(Proc* p, int s, u32 gen) {
    ThreadGroup* tg = p->tg;
    {
        LockGuard w(g_wait_lock);
        if (tg->cont_gen != gen || __atomic_load_n(&tg->exiting, __ATOMIC_ACQUIRE)) return;
        // ^Z, SIGTTIN, SIGTTOU: not in an orphaned group, which nobody could continue (POSIX)
        if (jobs::tty_stop(s) && job_group_orphaned_locked(__atomic_load_n(&tg->pgid, __ATOMIC_ACQUIRE))) return;
        if (!is_stopped(tg)) {
            {
                LockGuard g(g_stop_lock);
                __atomic_store_n(&tg->stopped, true, __ATOMIC_RELEASE);
            }
            tg->stop_sig = s;
            tell_parent(tg, kReportStopped);
        }
    }
    kick_siblings(p, tg);
    job_stop_wait(p);
}

void job_stop_wait(Proc* p) {
    ThreadGroup* tg = p->tg;
    {
        LockGuard g(g_stop_lock);
        while (is_stopped(tg) && !dying(p)) sleep_killable(&tg->stopped, g_stop_lock, false);
    }
    if (dying(p)) exit(-1);  // SIGKILL ends a stopped process
}

namespace {

// Caller holds g_wait_lock.
void job_continue(ThreadGroup* tg) {
    __atomic_fetch_and(&tg->sig_pending, ~sig::kStopSet, __ATOMIC_ACQ_REL);
    tg->cont_gen++;
    if (!is_stopped(tg)) return;
    {
        LockGuard g(g_stop_lock);
        __atomic_store_n(&tg->stopped, false, __ATOMIC_RELEASE);
        wakeup(&tg->stopped);
    }
    tell_parent(tg, kReportContinued);
}

}  // namespace

void job_hangup_locked(int pgid) {
    constexpr int kSigs[] = {sig::kHup, sig::kCont};
    for (int s : kSigs) {
        for (Proc& p : g_procs) {
            ThreadGroup* tg = nullptr;
            {
                LockGuard g(p.lock);
                if (p.state == ProcState::Unused || p.state == ProcState::Zombie || p.tg == nullptr) continue;
                if (p.tg->leader != &p || __atomic_load_n(&p.tg->pgid, __ATOMIC_ACQUIRE) != pgid) continue;
                sig_post_locked(&p, s);  // SIGCONT: only if it has a handler (its default acts below)
                tg = p.tg;
            }
            if (s == sig::kCont) job_continue(tg);  // tells the parent: no Proc lock held
        }
    }
}

bool job_continue_matching(int pid, int pgid, const perm::Cred* as) {
    bool any = false;
    LockGuard w(g_wait_lock);  // leaders keep their groups until reaped under it
    for (Proc& p : g_procs) {
        bool hit;
        {
            LockGuard g(p.lock);
            hit = p.tg != nullptr && p.tg->leader == &p && p.state != ProcState::Unused &&
                  p.state != ProcState::Zombie && p.tg != g_init_proc->tg &&
                  (pid > 0 ? p.pid == pid : __atomic_load_n(&p.tg->pgid, __ATOMIC_ACQUIRE) == pgid) &&
                  (as == nullptr || perm::may_touch_process(*as, p.cred.uid));
        }
        if (hit) job_continue(p.tg);
        any |= hit;
    }
    return any;
}

}  // namespace q
