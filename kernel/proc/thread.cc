// kernel/proc/thread.cc - threads: creation, the end of a thread or of a
// whole process, and exec's ending of the other threads.
//
// Every thread is a slot of the process table (its own kernel stack,
// trapframe, scheduling entity); the threads of a process share its
// ThreadGroup (kernel/proc/proc.h). The rules are Linux's:
//   - exit() ends the whole process: the first exit() of a process sets its
//     exit status and kills the other threads; each of them ends at its
//     next crossing of the kernel boundary (a sleeping one is woken, a
//     running one interrupted). texit() ends only the caller.
//   - the last thread out ends the process: closes its files, frees its
//     memory, and tells the parent, whose wait() then reaps the leader slot.
//     A leader that ends before the others waits as a Zombie meanwhile;
//     any other thread's slot is free as soon as it has switched away.
//   - exec() from any thread first ends every other thread and waits until
//     they are gone; then the caller is the process's only thread and takes
//     the leader's place (and its tid, which is the pid).
//   - a thread's clear_tid word (its creator's tidp) is set to 0 and
//     futex-woken when it ends: that is how a join waits (Linux's
//     CLONE_CHILD_CLEARTID).
// Lock order: g_wait_lock, then tg->lock, then a slot's lock. A slot's tg
// is set under its lock before it is counted in tg->live, and cleared under
// its lock when it ends, so killing "every thread of tg" is a scan under
// each slot's lock.
#include "kernel/arch/riscv/memlayout.h"
#include "kernel/arch/riscv/trapframe.h"
#include "kernel/fs/file.h"
#include "kernel/fs/fs.h"
#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/mm/fault.h"
#include "kernel/mm/kalloc.h"
#include "kernel/mm/mmap.h"
#include "kernel/mm/uaccess.h"
#include "kernel/obs/trace.h"
#include "kernel/proc/futex.h"
#include "kernel/proc/internal.h"
#include "kernel/proc/jobctl.h"
#include "kernel/proc/runqueue.h"
#include "kernel/proc/signal.h"
#include "kernel/syscall.h"

namespace q {

constinit u32 g_threaded_groups = 0;

namespace {

// Kill every other thread of tg (exit or exec is ending them).
void kill_other_threads(const ThreadGroup* tg, const Proc* self) {
    for (Proc& q : g_procs) {
        if (&q == self) continue;
        LockGuard g(q.lock);
        if (q.tg == tg && q.state != ProcState::Unused && q.state != ProcState::Zombie) kill_locked(&q);
    }
}

// The last thread of a process gives back what the threads shared. No
// other thread can use it any more; the page table itself (and the group)
// wait for the parent's wait().
void release_process(ThreadGroup* tg) {
    for (File*& f : tg->ofile) {
        if (f) {
            fileclose(f);
            f = nullptr;
        }
    }
    // The cwd's reference: usually the parent holds the directory too, and
    // then dropping ours needs no transaction. The last reference to a
    // removed cwd frees it on disk, in one.
    Inode* cwd = tg->cwd;
    tg->cwd = nullptr;
    if (cwd != nullptr && !iput_if_shared(cwd)) {
        FsOp op;
        InodeRef last(cwd);
    }
    vm_mmap_release(tg);  // shared file pages written back, mappings freed (kernel/mm/mmap.h)
    // Give the user pages back now, not when the parent reaps us: a process
    // killed for memory (kernel/proc/oom.cc) must free it even if its parent
    // never waits. No other thread is left to use them (no lock needed).
    uvm_dealloc(tg->pagetable, tg->sz > tg->top ? tg->sz : tg->top, 0);
    vm_unreserve_all(tg);  // and the heap pages it never touched
    tg->sz = tg->top = 0;
}

// Tell the parent that the process has ended, and end p, its last thread.
[[noreturn]] void end_process(Proc* p, ThreadGroup* tg) {
    g_wait_lock.acquire();
    Proc* leader = tg->leader;
    if (leader == g_init_proc) panic("init exiting (status %d)", tg->status);
    job_orphans_locked(leader);  // SIGHUP and SIGCONT to a stopped group its end orphans
    reparent(leader);
    wakeup(leader->parent);
    sig_child_exited(leader->parent, leader->pid);
    trace_exit(p->tid, tg->status);
    if (leader != p) {
        LockGuard g(leader->lock);
        leader->xstate = tg->status;
    }
    p->lock.acquire();
    if (leader == p) {
        p->xstate = tg->status;
        p->state = ProcState::Zombie;
    } else {
        clear_slot(p);  // its trapframe is gone already
    }
    leader->reapable = true;
    g_wait_lock.release();
    sched_switch();
    panic("exited thread ran");
}

// Linux's CLONE_CHILD_CLEARTID: store 0 in p's join word; false if the
// word is not writable any more (the program gave its page back).
bool clear_join_word(Proc* p) {
    const u32 zero = 0;
    return copy_out(p->pagetable, UserAddr(p->clear_tid), &zero, sizeof(zero)).ok();
}

}  // namespace

// End the calling thread. status becomes the process's exit status if this
// is its last thread and no exit() came first.
[[noreturn]] void end_thread(int status) {
    Proc* p = myproc();
    ThreadGroup* tg = p->tg;
    // The join word is cleared in the same step as the count drops: a
    // joiner that sees 0 and creates a thread finds this one gone. Under
    // the spinlock the copy cannot read back a word a page-out took (nor a
    // page otherwise needing a sleep): it fails, and the page is faulted in
    // with the lock dropped and the copy made again; left as it was, the
    // joiner slept on the tid for ever (swap suite: `mem -t 4 22`).
    const u64 word = p->clear_tid;
    bool joined = false;
    for (;;) {
        tg->lock.acquire();
        joined = word != 0 && clear_join_word(p);
        if (joined || word == 0) break;
        tg->lock.release();
        if (!vm_fault_later()) {  // not the program's any more (or killed)
            tg->lock.acquire();
            break;
        }
    }
    // Its trapframe leaves the shared page table before the count drops too:
    // an exec waiting for live == 1 frees that table.
    unmap_trapframe(tg->pagetable, p);
    TrapFrame* tf = p->trapframe;
    p->trapframe = nullptr;
    kfree(tf);
    tg->ended_cpu += cpu_cycles_now(p);  // (interrupts are off: tg->lock)
    tg->ended_user += p->stat_user;
    if (--tg->live == 1) __atomic_fetch_sub(&g_threaded_groups, 1, __ATOMIC_RELAXED);
    if (tg->live == 0) {
        if (!tg->exiting) {
            tg->status = status;
            tg->killed_exit = __atomic_load_n(&p->killed, __ATOMIC_RELAXED);
        }
        tg->lock.release();
        release_process(tg);
        end_process(p, tg);
    }
    if (tg->execer != nullptr && tg->live == 1) wakeup(tg);
    trace_exit(p->tid, status);
    p->lock.acquire();
    if (p == tg->leader) {
        p->state = ProcState::Zombie;  // reaped with the process
    } else {
        clear_slot(p);  // free for reuse once it has switched away
    }
    tg->lock.release();
    // The group may be gone as soon as its lock is free: its address is
    // only the futex key now (a waiter of a new group at the same place may
    // wake early, which futex waiters allow for).
    if (joined) futex_wake(tg, word, param::kMaxProcs);
    sched_switch();
    panic("exited thread ran");
}

void exit(int status) {
    Proc* p = myproc();
    ThreadGroup* tg = p->tg;
    if (!tg->shared()) end_thread(status);  // the only thread: its status is the process's
    bool others = false;
    {
        LockGuard g(tg->lock);
        // An exec of another thread, or an exit that came first, is ending
        // this one: then the status is theirs.
        if (!tg->exiting && tg->execer == nullptr) {
            tg->exiting = true;
            tg->status = status;
            tg->killed_exit = __atomic_load_n(&p->killed, __ATOMIC_RELAXED);
            others = tg->live > 1;
        }
    }
    if (others) kill_other_threads(tg, p);
    end_thread(status);
}

namespace {

// p (now the only thread) takes the exited leader's place: its parent, its
// children, its tid (the pid), and the slot wait() reaps.
void become_leader(Proc* p, ThreadGroup* tg) {
    LockGuard w(g_wait_lock);
    Proc* old = tg->leader;
    int tid = 0;
    {
        LockGuard g(old->lock);  // free once the old leader has switched away
        p->parent = old->parent;
        tid = old->tid;
        clear_slot(old);
    }
    for (Proc& c : g_procs) {
        if (c.parent == old) c.parent = p;
    }
    if (old == g_init_proc) g_init_proc = p;
    LockGuard g(tg->lock);
    tg->leader = p;
    LockGuard pg(p->lock);
    p->tid = tid;
}

}  // namespace

Status end_other_threads(Proc* p) {
    ThreadGroup* tg = p->tg;
    bool others = false;
    {
        LockGuard g(tg->lock);
        if (tg->live > 1) {
            if (tg->exiting || tg->execer != nullptr) return Error::Killed;  // this thread is being ended too
            tg->execer = p;
            others = true;
        }
    }
    if (others) {
        kill_other_threads(tg, p);
        LockGuard g(tg->lock);
        while (tg->live > 1) {
            if (dying(p)) {  // the process is being killed: so is this exec
                tg->execer = nullptr;
                return Error::Killed;
            }
            sleep_killable(tg, tg->lock, false);  // a signal waits for the new image
        }
        tg->execer = nullptr;
    }
    // Also when the others had ended already: the leader may be one of them.
    if (p != tg->leader) become_leader(p, tg);
    return {};
}

Result<int> thread_create(const ThreadStart& start) {
    Proc* p = myproc();
    ThreadGroup* tg = p->tg;
    if (!tg->shared()) TRY(vm_unshare(tg));  // its copy-on-write pages become its own first
    // The tid is in the creator's word before either thread goes on (Linux's
    // CLONE_PARENT_SETTID and CLONE_CHILD_SETTID in one: the memory is shared).
    // It is stored before the slot is claimed: under the slot's spinlock
    // the copy could not read back a word a page-out took, and failed.
    const int tid = alloc_pid();
    if (start.tidp != 0 && !copy_out(p->pagetable, UserAddr(start.tidp), &tid, sizeof(tid)).ok())
        return Error::BadAddress;
    // Counted against the process's thread limit before it takes a slot: a
    // creator at the limit never holds a slot, even for a moment, in which
    // another process would find the table full (hostile's tbomb saw a
    // bomber stop on such a moment, then the test's fork get the slot).
    {
        LockGuard g(tg->lock);
        if (tg->live + tg->creating >= param::kMaxThreadsPerProc) return Error::NoProcess;
        tg->creating++;
    }
    auto claimed = alloc_slot(p->cred, p->nproc_limit);
    if (!claimed.ok()) {
        LockGuard g(tg->lock);
        tg->creating--;
        return claimed.error();
    }
    Proc* t = claimed.value();
    t->tg = tg;
    t->pid = p->pid;
    t->tid = tid;
    t->pagetable = p->pagetable;
    t->clear_tid = start.tidp;
    t->cred = p->cred;
    t->sig_blocked = p->sig_blocked;  // POSIX: a new thread inherits the mask
    t->sig_pending = 0;
    t->nproc_limit = p->nproc_limit;
    safe_strcpy(t->name, p->name, sizeof(t->name));
    TrapFrame* tf = t->trapframe;
    tf->epc = start.entry;
    tf->x(TrapFrame::sp) = start.stack;
    tf->x(TrapFrame::a0) = start.arg;
    tf->x(TrapFrame::tp) = start.tls;
    tf->x(TrapFrame::gp) = p->trapframe->x(TrapFrame::gp);  // the program's global pointer, if it uses one
    // Returning from the entry function jumps to a page user mode may not
    // execute: a fault that kills the process (the library's start routine
    // calls texit instead).
    tf->x(TrapFrame::ra) = layout::kTrampoline;
    t->lock.release();  // an Embryo: in no queue, and no process counts it yet
    bool ok = false;
    {
        LockGuard g(tg->lock);
        tg->creating--;
        if (!tg->exiting && tg->execer == nullptr && tg->live < param::kMaxThreadsPerProc &&
            map_trapframe(tg->pagetable, t).ok()) {
            if (++tg->live == 2) __atomic_fetch_add(&g_threaded_groups, 1, __ATOMIC_RELAXED);
            ok = true;
        }
    }
    LockGuard g(t->lock);
    if (!ok) {
        clear_slot(t);
        return Error::NoProcess;
    }
    rq_set_nice(t, p->nice);
    t->rq.se.request = p->rq.se.request;  // EEVDF request size, inherited as in Linux
    t->rq.affinity = p->rq.affinity;
    trace_thread(tid, p->pid);
    trace_inherit_affinity(tid, p->tid, t->rq.affinity);
    make_runnable(t);
    return tid;
}

// ---- system calls (numbers 70-79, lib/abi/abi.h) --------------------------

// tcreate(entry, arg, stack, tls, int* tidp) -> the new thread's tid, or -1
// when the process has kMaxThreadsPerProc threads, the table is full, memory
// is out, the process is exiting, or tidp is not writable. The thread
// starts at entry with a0 = arg, sp = stack, tp = tls, in the caller's
// address space, with its files, cwd, credentials, nice and affinity. If
// tidp is not 0, the tid is stored there first, and 0 is stored there (and
// futex-woken) when the thread ends. Nothing is checked about entry and
// stack: a bad one faults in the new thread, which kills the process.
SysResult sys_tcreate() {
    ThreadStart s{arg_raw(0), arg_raw(1), arg_raw(2), arg_raw(3), arg_raw(4)};
    return sys_result(thread_create(s));
}

// gettid() -> the calling thread's id (the pid, for a process's first thread).
SysResult sys_gettid() { return myproc()->tid; }

// texit(status): ends the calling thread only; when it is the last one,
// the process exits with status. Never returns.
SysResult sys_texit() { end_thread(arg_int(0)); }

}  // namespace q
