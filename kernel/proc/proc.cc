// kernel/proc/proc.cc - the process table: creation, fork, exit, wait, kill.
//
// Process slots are fixed (param::kMaxProcs); a slot is Unused, Embryo while
// being set up, then Runnable/Running/Sleeping, and Zombie until its parent
// waits. Each slot's kernel stack is mapped once at boot (kvm) and reused.
// g_wait_lock serialises parent/child links: it is taken before any p->lock
// and guards every Proc::parent, so a parent cannot miss a child's exit.
#include "kernel/proc/proc.h"

#include "kernel/arch/riscv/memlayout.h"
#include "kernel/arch/riscv/trapframe.h"
#include "kernel/fs/file.h"
#include "kernel/fs/fs.h"
#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kalloc.h"
#include "kernel/mm/vm.h"
#include "kernel/proc/internal.h"
#include "kernel/proc/runqueue.h"
#include "kernel/trace/trace.h"

extern "C" char trampoline[];
extern "C" char initcode_start[];
extern "C" char initcode_end[];

namespace q {

constinit Cpu g_cpus[param::kMaxCpus];
constinit Proc g_procs[param::kMaxProcs];
constinit SpinLock g_wait_lock("wait");
constinit Proc* g_init_proc = nullptr;

namespace {
constinit SpinLock g_pid_lock("nextpid");
constinit int g_next_pid = 1;

int alloc_pid() {
    LockGuard g(g_pid_lock);
    return g_next_pid++;
}
}  // namespace

const perm::Cred& current_cred() { return myproc()->cred; }

// tp holds the hart id: start.cc sets it and context switches never save
// it, so it names the hart, not the thread.
Cpu* mycpu() { return &g_cpus[riscv::r_tp()]; }
int cpuid() { return static_cast<int>(riscv::r_tp()); }

// Reading tp and then that hart's proc must not straddle a migration (a
// timer interrupt between them could move this thread to another hart), so
// interrupts are off for those two loads: one csrrci and one csrsi, not
// push_off/pop_off's counted nesting (~75 instructions; a system call asks
// four times).
Proc* myproc() {
    const u64 saved = riscv::intr_save_off();
    Proc* p = g_cpus[riscv::r_tp()].proc;
    riscv::intr_restore(saved);
    return p;
}

void proc_map_stacks(PageTable kpt) {
    for (int i = 0; i < param::kMaxProcs; i++) {
        void* pa = kalloc();
        if (!pa) panic("proc_map_stacks: out of memory");
        if (!map_pages(kpt, layout::kstack(i), kPageSize, reinterpret_cast<u64>(pa), riscv::kPteR | riscv::kPteW).ok())
            panic("proc_map_stacks: out of memory");
    }
}

void proc_init() {
    for (int i = 0; i < param::kMaxProcs; i++) {
        g_procs[i].kstack = layout::kstack(i);
        g_procs[i].se.owner = &g_procs[i];
    }
    for (int i = 0; i < param::kMaxCpus; i++) g_cpus[i].id = i;
}

PageTable proc_pagetable(Proc* p) {
    PageTable pt = uvm_create();
    if (!pt) return nullptr;
    if (!map_pages(pt, layout::kTrampoline, kPageSize, reinterpret_cast<u64>(trampoline), riscv::kPteR | riscv::kPteX)
             .ok()) {
        uvm_free(pt, 0);
        return nullptr;
    }
    if (!map_pages(pt, layout::kTrapFrame, kPageSize, reinterpret_cast<u64>(p->trapframe), riscv::kPteR | riscv::kPteW)
             .ok()) {
        uvm_unmap(pt, layout::kTrampoline, 1, false);
        uvm_free(pt, 0);
        return nullptr;
    }
    return pt;
}

void proc_free_pagetable(PageTable pt, u64 sz) {
    uvm_unmap(pt, layout::kTrampoline, 1, false);
    uvm_unmap(pt, layout::kTrapFrame, 1, false);
    uvm_free(pt, sz);
}

// Release everything a slot owns; caller holds p->lock.
static void free_proc(Proc* p) {
    if (p->trapframe) kfree(p->trapframe);
    p->trapframe = nullptr;
    if (p->pagetable) proc_free_pagetable(p->pagetable, p->sz);
    p->pagetable = nullptr;
    p->sz = 0;
    p->pid = 0;
    p->parent = nullptr;
    p->name[0] = 0;
    p->chan = nullptr;
    p->killed = false;
    p->xstate = 0;
    p->state = ProcState::Unused;
}

// Find an unused slot and prepare it to run forkret in the kernel.
// Returns with p->lock held; NoProcess when the table is full, NoMemory
// when its trapframe or page table cannot be had.
static Result<Proc*> alloc_proc() {
    Proc* p = nullptr;
    for (Proc& cand : g_procs) {
        cand.lock.acquire();
        if (cand.state == ProcState::Unused) {
            p = &cand;
            break;
        }
        cand.lock.release();
    }
    if (!p) return Error::NoProcess;
    p->pid = alloc_pid();
    p->state = ProcState::Embryo;
    p->trapframe = static_cast<TrapFrame*>(kalloc());
    if (p->trapframe) p->pagetable = proc_pagetable(p);
    if (!p->trapframe || !p->pagetable) {
        free_proc(p);
        p->lock.release();
        return Error::NoMemory;
    }
    memset(&p->context, 0, sizeof(p->context));
    p->context.ra = reinterpret_cast<u64>(&forkret);
    p->context.sp = p->kstack + kPageSize;
    p->stat_cpu = p->stat_switches = p->stat_voluntary = p->stat_involuntary = 0;
    p->stat_wait = p->stat_last_latency = p->stat_max_latency = 0;
    p->woken = false;
    // A fresh scheduling entity: the slot's previous owner's EEVDF lag and
    // policy state are not inherited (rq_set_nice then sets the weight).
    p->se.reset();
    p->rq = -1;
    p->wake_next = nullptr;
    p->moved = false;
    p->affinity = ~0ull;
    p->stat_migrations = 0;
    p->bal_service = {};
    p->cred = perm::Cred{};  // root until fork copies the parent's
    p->errno_last = 0;       // a new process has no failed call
    return p;
}

void user_init() {
    Proc* p = alloc_proc().value_or(nullptr);
    if (!p) panic("user_init: no process");
    g_init_proc = p;
    const u64 len = static_cast<u64>(initcode_end - initcode_start);
    if (len > kPageSize) panic("user_init: initcode too large");
    auto sz = uvm_alloc(p->pagetable, 0, kPageSize, riscv::kPteR | riscv::kPteW | riscv::kPteX);
    if (!sz.ok()) panic("user_init: out of memory");
    memmove(reinterpret_cast<void*>(walk_user(p->pagetable, 0)), initcode_start, len);
    p->sz = kPageSize;
    p->trapframe->epc = 0;
    p->trapframe->x(TrapFrame::sp) = kPageSize;
    safe_strcpy(p->name, "initcode", sizeof(p->name));
    rq_set_nice(p, 0);
    make_runnable(p);
    p->lock.release();
}

Result<u64> grow_proc(i64 n) {
    Proc* p = myproc();
    u64 sz = p->sz;
    if (n > 0) {
        if (static_cast<u64>(n) > layout::kTrapFrame || sz + n > layout::kTrapFrame) return Error::NoMemory;
        Q_TRY(newsz, uvm_alloc(p->pagetable, sz, sz + n, riscv::kPteR | riscv::kPteW));
        sz = newsz;
    } else if (n < 0) {
        if (static_cast<u64>(-n) > sz) return Error::BadArgument;
        sz = uvm_dealloc(p->pagetable, sz, sz + n);
    }
    p->sz = sz;
    return sz;
}

Result<int> fork() {
    Proc* parent = myproc();
    Q_TRY(child, alloc_proc());
    if (!uvm_copy(parent->pagetable, child->pagetable, parent->sz).ok()) {
        free_proc(child);
        child->lock.release();
        return Error::NoMemory;
    }
    child->sz = parent->sz;
    *child->trapframe = *parent->trapframe;
    child->trapframe->x(TrapFrame::a0) = 0;  // fork returns 0 in the child
    for (int i = 0; i < param::kMaxOpenPerProc; i++) {
        if (parent->ofile[i]) child->ofile[i] = filedup(parent->ofile[i]);
    }
    child->cwd = idup(parent->cwd);
    safe_strcpy(child->name, parent->name, sizeof(child->name));
    child->cred = parent->cred;  // child->lock held; the parent changes its own only under its lock
    const int pid = child->pid;
    child->lock.release();

    {
        LockGuard g(g_wait_lock);
        child->parent = parent;
    }
    LockGuard g(child->lock);
    rq_set_nice(child, parent->nice);
    child->affinity = parent->affinity;
    trace_fork(pid, parent->pid);
    make_runnable(child);
    return pid;
}

// Give p's children to init. Caller holds g_wait_lock.
static void reparent(Proc* p) {
    for (Proc& c : g_procs) {
        if (c.parent == p) {
            c.parent = g_init_proc;
            wakeup(g_init_proc);
        }
    }
}

void exit(int status) {
    Proc* p = myproc();
    if (p == g_init_proc) panic("init exiting (status %d)", status);
    for (File*& f : p->ofile) {
        if (f) {
            fileclose(f);
            f = nullptr;
        }
    }
    {
        FsOp op;  // the last reference to a removed cwd frees it on disk
        InodeRef cwd(p->cwd);
        p->cwd = nullptr;
    }
    // Give the user pages back now, not when the parent reaps us: a process
    // killed for memory (kernel/proc/oom.cc) must free it even if its parent
    // never waits. The table's interior pages go in free_proc.
    {
        const u64 freed_to = uvm_dealloc(p->pagetable, p->sz, 0);
        LockGuard g(p->lock);
        p->sz = freed_to;
    }

    g_wait_lock.acquire();
    reparent(p);
    wakeup(p->parent);
    p->lock.acquire();
    p->xstate = status;
    p->state = ProcState::Zombie;
    trace_exit(p->pid, status);
    g_wait_lock.release();
    sched_switch();
    panic("zombie exit");
}

Result<int> wait(UserAddr status_addr) {
    Proc* p = myproc();
    LockGuard g(g_wait_lock);
    for (;;) {
        bool have_kids = false;
        for (Proc& c : g_procs) {
            if (c.parent != p) continue;
            LockGuard cg(c.lock);
            have_kids = true;
            if (c.state != ProcState::Zombie) continue;
            const int pid = c.pid;
            if (!status_addr.is_null() && !copy_out(p->pagetable, status_addr, &c.xstate, sizeof(c.xstate)).ok()) {
                return Error::BadAddress;
            }
            free_proc(&c);
            return pid;
        }
        if (!have_kids) return Error::NoChild;
        if (killed(p)) return Error::Killed;
        sleep(p, g_wait_lock);
    }
}

Status kill(int pid, const perm::Cred* as) {
    // init must never exit (the kernel would have nobody to reap orphans).
    if (g_init_proc && pid == g_init_proc->pid) return Error::BadArgument;
    for (Proc& p : g_procs) {
        LockGuard g(p.lock);
        if (p.pid != pid || p.state == ProcState::Unused) continue;
        if (as != nullptr && !perm::may_touch_process(*as, p.cred.uid)) return Error::Permission;
        __atomic_store_n(&p.killed, true, __ATOMIC_RELEASE);
        if (p.state == ProcState::Sleeping) make_runnable(&p);
        return {};
    }
    return Error::NoProcess;
}

void set_killed(Proc* p) {
    LockGuard g(p->lock);
    __atomic_store_n(&p->killed, true, __ATOMIC_RELEASE);
}

// No lock: usertrap asks twice per system call, and a flag that only ever
// goes from false to true (until the slot is freed) needs none. A kill that
// lands just after the load is seen at the next check; a sleeper is made
// runnable by kill() under p->lock, and its loop checks again.
bool killed(Proc* p) { return __atomic_load_n(&p->killed, __ATOMIC_ACQUIRE); }

Proc* proc_by_pid(int pid) {
    for (Proc& p : g_procs) {
        if (p.pid == pid && p.state != ProcState::Unused) return &p;
    }
    return nullptr;
}

Status either_copyout(bool user_dst, u64 dst, const void* src, u64 len) {
    if (user_dst) return copy_out(myproc()->pagetable, UserAddr(dst), src, len);
    memmove(reinterpret_cast<void*>(dst), src, len);
    return {};
}

Status either_copyin(void* dst, bool user_src, u64 src, u64 len) {
    if (user_src) return copy_in(myproc()->pagetable, dst, UserAddr(src), len);
    memmove(dst, reinterpret_cast<const void*>(src), len);
    return {};
}

}  // namespace q
