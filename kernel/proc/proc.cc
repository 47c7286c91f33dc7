// kernel/proc/proc.cc - the process table: slots, fork, wait, kill.
//
// Slots are fixed (param::kMaxProcs); each is one thread. A slot is Unused,
// Embryo while being set up, then Runnable/Running/Sleeping; a process's
// leader slot is a Zombie from its exit until its parent waits, and every
// other thread's slot goes straight back to Unused when the thread exits
// (kernel/proc/thread.cc). Who may take a slot is lib/rlimit.h's rule
// (root's reserve, the per-user RLIMIT_NPROC, counting threads as Linux
// does), applied in claim_slot. Each slot's kernel stack is mapped once at
// boot (kvm) and reused. g_wait_lock serialises parent/child links: it is taken
// before any group or slot lock and guards every Proc::parent and
// Proc::reapable, so a parent cannot miss a child's exit. A child's parent
// is the leader of the process that forked it (any thread of that process
// may wait for it).
#include "kernel/proc/proc.h"

#include "kernel/arch/riscv/memlayout.h"
#include "kernel/arch/riscv/plic.h"
#include "kernel/arch/riscv/trapframe.h"
#include "kernel/fs/file.h"
#include "kernel/fs/fs.h"
#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/mm/fault.h"
#include "kernel/mm/kalloc.h"
#include "kernel/mm/mmap.h"
#include "kernel/mm/vm.h"
#include "kernel/obs/trace.h"
#include "kernel/proc/internal.h"
#include "kernel/proc/jobctl.h"
#include "kernel/proc/jobstop.h"
#include "kernel/proc/oom.h"
#include "kernel/proc/runqueue.h"
#include "kernel/proc/signal.h"
#include "lib/in_place.h"

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
constinit SpinLock g_claim_lock("claim");  // serialises slot claims (claim_slot)
constinit int g_next_pid = 1;
}  // namespace

// Pids and tids come from one counter, so a tid never equals another
// process's pid.
int alloc_pid() {
    LockGuard g(g_pid_lock);
    return g_next_pid++;
}

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

// GCC 12 emits a constinit array whose element type has a default member
// initializer naming `this` (ListNode's self links, inside Proc) as all
// zeros, with no warning: every slot's defaults (its lock's name,
// running_on = -1, retried_va, the run-queue links) are lost. So each
// slot is built here, before anything else touches the table, and checked.
void proc_init() {
    for (int i = 0; i < param::kMaxProcs; i++) {
        new (&g_procs[i], InPlace{}) Proc;
        if (g_procs[i].running_on != -1 || !g_procs[i].lock.name()) panic("proc_init: a slot kept no defaults");
        g_procs[i].kstack = layout::kstack(i);
        g_procs[i].trapframe_va = layout::trapframe_va(i);
        g_procs[i].rq.se.owner = &g_procs[i];
    }
    for (int i = 0; i < param::kMaxCpus; i++) g_cpus[i].id = i;
}

Status map_trapframe(PageTable pt, const Proc* p) {
    return map_pages(pt, p->trapframe_va, kPageSize, reinterpret_cast<u64>(p->trapframe), riscv::kPteR | riscv::kPteW);
}

void unmap_trapframe(PageTable pt, const Proc* p) { uvm_unmap(pt, p->trapframe_va, 1, false); }

PageTable proc_pagetable(Proc* p) {
    PageTable pt = uvm_create();
    if (!pt) return nullptr;
    if (!map_pages(pt, layout::kTrampoline, kPageSize, reinterpret_cast<u64>(trampoline), riscv::kPteR | riscv::kPteX)
             .ok()) {
        uvm_free(pt, 0);
        return nullptr;
    }
    if (!map_trapframe(pt, p).ok() || !map_sigtramp(pt).ok()) {
        proc_free_pagetable(pt, 0);
        return nullptr;
    }
    return pt;
}

// The trampoline, every trapframe and the signal trampoline share one
// last-level table (memlayout.h). While user memory and its tables end
// below the top GiB (mappings placed by mmap end 4 GiB below it, but
// MAP_FIXED may put one there: tables_end includes ThreadGroup::map_top;
// the heap would need some 255 GiB promised to get there), that table and
// the middle one above it
// are the only tables of the top GiB, and they are freed directly: clearing
// their 258 entries and letting free_table scan 1,024 entries to find the
// two cost ~2,900 instructions (23 us under -icount shift=3) in every
// fork + exit + wait, twice in fork + exec + wait. Their entries name no
// page to free (the trapframes go with their slots): the ones in use are
// cleared (the top kMaxProcs + 2 of the last table) and both go to the
// allocator zeroed (kalloc.h: kfree_zeroed), so the next page table is
// not zeroed again. Otherwise the entries are cleared and the scan frees
// both tables with the rest.
void proc_free_pagetable(PageTable pt, u64 sz, u64 tables_end) {
    constexpr u64 kTopGiB = riscv::kMaxVa - (1ull << 30);
    static_assert(layout::kSigTramp >= kTopGiB && layout::kMmapTop <= kTopGiB);
    Pte* root = &pt[riscv::vpn(layout::kSigTramp, 2)];
    if (sz <= kTopGiB && tables_end <= kTopGiB && (*root & riscv::kPteV)) {
        auto* mid = reinterpret_cast<PageTable>(riscv::pte_to_pa(*root));
        Pte* leaf = &mid[riscv::vpn(layout::kSigTramp, 1)];
        if (*leaf & riscv::kPteV) {
            auto* last = reinterpret_cast<PageTable>(riscv::pte_to_pa(*leaf));
            memset(&last[riscv::vpn(layout::kSigTramp, 0)], 0, (param::kMaxProcs + 2) * sizeof(Pte));
            kfree_zeroed(last);
            *leaf = 0;
        }
        kfree_zeroed(mid);
        *root = 0;
    } else {
        Pte* top = walk(pt, layout::kSigTramp, false);
        if (top) memset(top, 0, (param::kMaxProcs + 2) * sizeof(Pte));
    }
    uvm_free(pt, sz, tables_end);
}

// Return a slot to Unused; caller holds p->lock and has released what the
// slot's thread owned (its group is someone else's business). The ids stay
// until the slot is reused: an ended thread's last trace record names it.
void clear_slot(Proc* p) {
    if (p->trapframe) kfree(p->trapframe);
    p->trapframe = nullptr;
    p->tg = nullptr;
    p->pagetable = nullptr;
    p->parent = nullptr;
    p->reapable = false;
    p->name[0] = 0;
    p->chan = nullptr;
    p->killed = false;
    p->sig_pending = 0;
    p->retried_va = ~0ull;  // the next thread here is not its predecessor
    p->xstate = 0;
    p->state = ProcState::Unused;
}

// Free a process whose threads have all gone (or never ran): its page
// table and group slot. Its user pages are already gone (exit) or never
// were; a failed fork's copy is freed here.
static void free_group(ThreadGroup* tg) {
    vm_unreserve_all(tg);
    const u64 tables_end = tg->table_top > tg->map_top ? tg->table_top : tg->map_top;
    if (tg->pagetable) proc_free_pagetable(tg->pagetable, tg->sz > tg->top ? tg->sz : tg->top, tables_end);
    tgroup_free(tg);
}

// An unused slot the caller (running as `as`, with RLIMIT_NPROC `nproc`)
// may take (lib/rlimit.h: root's reserve, the per-user limit), claimed as
// Embryo and returned with its lock held; NoProcess if there is none.
// g_claim_lock serialises claims, so the counts a non-root caller takes
// cannot be overtaken by another claim; frees only lower them.
static Result<Proc*> claim_slot(const perm::Cred& as, const rlimit::Limit& nproc) {
    LockGuard claims(g_claim_lock);
    Proc* p = nullptr;
    int used = 0, mine = 0;
    for (Proc& cand : g_procs) {
        LockGuard g(cand.lock);
        if (cand.state == ProcState::Unused) {
            if (!p) p = &cand;
            if (as.root()) break;  // bound by no count: the first free slot will do
            continue;
        }
        used++;
        if (cand.cred.uid == as.uid) mine++;
    }
    if (!p || !rlimit::may_take_slot(as, as.root() ? 0 : used, mine, nproc)) return Error::NoProcess;
    p->lock.acquire();
    p->state = ProcState::Embryo;
    return p;
}

// Find a slot the caller may take and prepare it to run forkret in the
// kernel, with a fresh trapframe and scheduling entity and no process yet.
// Returns with p->lock held; NoProcess when the table is full (for this
// caller), NoMemory without a page.
Result<Proc*> alloc_slot(const perm::Cred& as, const rlimit::Limit& nproc) {
    auto p = TRY(claim_slot(as, nproc));
    // Only the TrapFrame at the start of the page is ever read (the rest is
    // mapped for nobody: no PTE_U), so only it is zeroed, not 4 KiB.
    p->trapframe = static_cast<TrapFrame*>(kalloc_unzeroed());
    if (!p->trapframe) {
        p->state = ProcState::Unused;
        p->lock.release();
        return Error::NoMemory;
    }
    memset(p->trapframe, 0, sizeof(TrapFrame));
    p->pid = p->tid = 0;
    memset(&p->context, 0, sizeof(p->context));
    p->context.ra = reinterpret_cast<u64>(&forkret);
    p->context.sp = p->kstack + kPageSize;
    p->stat_cpu = p->stat_switches = p->stat_voluntary = p->stat_involuntary = 0;
    p->stat_user = 0;
    p->stat_wait = p->stat_last_latency = p->stat_max_latency = 0;
    p->woken = false;
    // A fresh scheduling entity and queue state: the slot's previous
    // owner's EEVDF lag, policy state, affinity and history are not
    // inherited (rq_set_nice then sets the weight).
    p->rq.reset();
    p->clear_tid = 0;
    p->held[0] = p->held[1] = nullptr;
    p->cred = perm::Cred{};  // root until the creator copies its own
    p->errno_last = 0;       // a new thread has no failed call
    p->sig_pending = p->sig_blocked = p->sig_addr = 0;
    p->in_syscall = p->sig_has_saved = false;
    p->alt_sp = p->alt_size = 0;  // a new thread has no alternate signal stack
    p->fp.reset();
    p->nproc_limit = rlimit::kDefaultNproc;
    return p;
}

// A slot for the first thread of a new process: a new group, a pid (= its
// tid) and a page table with only the trampoline and its trapframe.
// Returns with p->lock held, like alloc_slot.
static Result<Proc*> alloc_proc(const perm::Cred& as, const rlimit::Limit& nproc) {
    auto p = TRY(alloc_slot(as, nproc));
    ThreadGroup* tg = tgroup_alloc();
    if (tg) tg->pagetable = proc_pagetable(p);
    if (!tg || !tg->pagetable) {
        if (tg) tgroup_free(tg);
        clear_slot(p);
        p->lock.release();
        return tg ? Error::NoMemory : Error::NoProcess;
    }
    tg->leader = p;
    tg->live = 1;
    p->tg = tg;
    p->pagetable = tg->pagetable;
    p->pid = p->tid = alloc_pid();
    return p;
}

void user_init() {
    Proc* p = alloc_proc(perm::Cred{}, rlimit::kDefaultNproc).value_or(nullptr);
    if (!p) panic("user_init: no process");
    g_init_proc = p;
    p->tg->pgid = p->tg->sid = p->pid;  // every process's group and session unless it moves
    tty_init(p->pid);
    const u64 len = static_cast<u64>(initcode_end - initcode_start);
    if (len > kPageSize) panic("user_init: initcode too large");
    must(uvm_alloc(p->pagetable, 0, kPageSize, riscv::kPteR | riscv::kPteW | riscv::kPteX), "user_init: out of memory");
    memmove(reinterpret_cast<void*>(walk_user(p->pagetable, 0)), initcode_start, len);
    p->tg->sz = p->tg->table_top = kPageSize;
    if (!p->tg->map.add(0, kPageSize, vm::Kind::Text, vm::kRead | vm::kWrite | vm::kExec) ||
        !p->tg->map.add(kPageSize, kPageSize, vm::Kind::Heap, vm::kRead | vm::kWrite, true))
        panic("user_init: map");
    p->trapframe->epc = 0;
    p->trapframe->x(TrapFrame::sp) = kPageSize;
    safe_strcpy(p->name, "initcode", sizeof(p->name));
    rq_set_nice(p, 0);
    make_runnable(p);
    p->lock.release();
}

// sbrk: returns the old size. The heap is lazy (kernel/mm/fault.cc): a
// growth is admitted by the out-of-memory rule and promised in one step
// (oom_reserve) and maps none; the first touch of each page allocates it.
// While other threads run, pages given back stay mapped without
// PTE_U (ThreadGroup::top): another hart may still hold them in its TLB
// until its next trap, so freeing them could let a thread write a page
// that is someone else's by then. A growing sbrk takes them back first.
Result<u64> grow_proc(i64 n) {
    Proc* p = myproc();
    ThreadGroup* tg = p->tg;
    MmGuard mm(tg);
    const u64 sz = tg->sz;
    const bool alone = !tg->shared();
    if (n > 0) {
        if (static_cast<u64>(n) > layout::kUserTop || sz + n > layout::kUserTop) return Error::NoMemory;
        const u64 total = page_round_up(sz + n) / kPageSize;
        // and the page-table pages the first touches will need (none of them fails for want of one)
        const u64 tables = vm::tables_to_cover(tg->table_top, sz + n);
        const u64 pages = total - page_round_up(sz) / kPageSize;
        TRY(oom_reserve(pages + tables, total + tables));  // admitted and promised at once; nothing if refused
        LockGuard pt(tg->pt_lock);                         // a sibling's fault sees the map and the promise together
        if (!tg->map.set_break(sz + n, layout::kUserTop)) {
            kalloc_unreserve(pages + tables);
            return Error::NoMemory;
        }
        const u64 lazy = uvm_grow_lazy(tg->pagetable, sz, sz + n, tg->top, riscv::kPteR | riscv::kPteW);
        if (lazy < pages) kalloc_unreserve(pages - lazy);  // pages of [sz, top) kept mapped need none
        tg->reserved += lazy;
        tg->table_reserved += tables;
        if (sz + n > tg->table_top) tg->table_top = sz + n;
        tg->sz = sz + n;
    } else if (n < 0) {
        if (static_cast<u64>(-n) > sz) return Error::BadArgument;
        const u64 newsz = sz + n;
        u64 holes = 0;
        Inode* gone[vm::Map::kMaxRegions];  // demand-paged text regions the cut removes: their files
        const int ngone = vm_objs_from(tg, page_round_up(newsz), gone);
        if (alone) {  // free them, and any kept ones
            uvm_dealloc(tg->pagetable, sz > tg->top ? sz : tg->top, newsz, &holes);
            tg->top = 0;
            tg->map.set_break(newsz, layout::kUserTop);
        } else {
            LockGuard pt(tg->pt_lock);
            holes = uvm_revoke(tg->pagetable, newsz, sz);
            if (sz > tg->top) tg->top = sz;
            tg->map.set_break(newsz, layout::kUserTop);
        }
        // Pages of [newsz, sz) never touched were promised; kept pages of
        // [sz, top) are mapped, so every hole is one of those. Under
        // pt_lock: a sibling thread's fault takes its page's promise from
        // tg->reserved under it (kernel/mm/fault.cc), and this update made
        // outside it could lose one or be lost (the fuzzer, 4 harts: a
        // shrink's holes were given back again at exit, "panic:
        // kalloc_unreserve: 2048 of 1702 promised").
        {
            LockGuard pt(tg->pt_lock);
            kalloc_unreserve(holes);
            tg->reserved -= holes;
        }
        tg->sz = newsz;
        vm_drop_objs(gone, ngone);
    }
    return sz;
}

Result<int> fork() {
    Proc* parent = myproc();
    ThreadGroup* ptg = parent->tg;
    const u64 pages = page_round_up(ptg->sz) / kPageSize + ptg->map.pages_of(vm::Kind::Mmap);
    TRY(oom_admit(pages, pages));  // a copy that cannot fit fails before taking a page
    auto child = TRY(alloc_proc(parent->cred, parent->nproc_limit));
    // An Embryo is in no queue and nobody's child yet: its lock need not be
    // held while the copy (which may sleep for the address-space lock) runs.
    child->lock.release();
    ThreadGroup* ctg = child->tg;
    Status copied;
    {
        MmGuard mm(ptg);      // a sibling thread's sbrk waits
        u64 holes = 0;        // the parent's untouched heap pages: promised to the child too
        if (ptg->shared()) {  // other harts may cache its entries: copy (kernel/mm/vm.h:uvm_share)
            copied = uvm_copy(ptg->pagetable, ctg->pagetable, ptg->sz, &holes);
        } else {  // copy-on-write: its one thread is here, nobody faults meanwhile
            copied = uvm_share(ptg->pagetable, ctg->pagetable, ptg->sz, &holes);
        }
        // The child's untouched pages and tables, admitted with the copies
        // the sharing promised as it went (a refusal undoes the copy; once
        // promised, free_group gives them back if the rest fails).
        if (copied.ok()) {
            copied = oom_reserve(holes + ptg->table_reserved, pages);
            if (copied.ok()) {
                ctg->reserved = holes;
                ctg->table_reserved = ptg->table_reserved;
            } else {
                uvm_unshare(ctg->pagetable, 0, page_round_up(ptg->sz));
            }
        }
        if (copied.ok()) {  // the mappings (kernel/mm/mmap.h), their holes promised; a failure leaves none
            auto mapped = vm_mmap_fork(ptg, ctg, ptg->shared());
            if (mapped.ok()) ctg->reserved += mapped.value();
            if (!mapped.ok()) {
                uvm_unshare(ctg->pagetable, 0, page_round_up(ptg->sz));
                copied = Error::NoMemory;
            }
        }
        if (copied.ok()) {
            ctg->sz = ptg->sz;
            ctg->map = ptg->map;
            vm_file_promises(ctg);  // shared text and file pages hold none
            ctg->table_top = ptg->table_top;
            ctg->map_top = ptg->map_top;
        }
    }
    if (!copied.ok()) {
        LockGuard g(child->lock);
        free_group(ctg);
        clear_slot(child);
        return Error::NoMemory;
    }
    *child->trapframe = *parent->trapframe;
    child->fp.copy_from(parent->fp);
    sig_fork(parent, child);
    child->trapframe->x(TrapFrame::a0) = 0;  // fork returns 0 in the child
    {
        LockGuard g(ptg->lock);  // a sibling's open or close waits
        for (int i = 0; i < param::kMaxOpenPerProc; i++) {
            if (ptg->ofile[i]) ctg->ofile[i] = filedup(ptg->ofile[i]);
        }
        ctg->cwd = idup(ptg->cwd);
    }
    safe_strcpy(child->name, parent->name, sizeof(child->name));
    const int pid = child->pid;
    {
        LockGuard g(g_wait_lock);  // a setpgid of the parent is before or after both
        child->parent = ptg->leader;
        ctg->pgid = ptg->pgid;
        ctg->sid = ptg->sid;
    }
    LockGuard g(child->lock);
    child->cred = parent->cred;  // the parent changes its own only under its lock
    rq_set_nice(child, parent->nice);
    child->rq.se.request = parent->rq.se.request;  // EEVDF request size, inherited as in Linux
    child->rq.affinity = parent->rq.affinity;
    child->nproc_limit = parent->nproc_limit;
    trace_fork(pid, parent->tid);
    trace_inherit_affinity(pid, parent->tid, child->rq.affinity);
    make_runnable(child);
    return pid;
}

// Give leader's children to init. Caller holds g_wait_lock.
void reparent(Proc* leader) {
    for (Proc& c : g_procs) {
        if (c.parent == leader) {
            c.parent = g_init_proc;
            wakeup(g_init_proc);
        }
    }
}

// What waitpid says about an ended child c (Linux's status word): the
// signal that ended it, SIGKILL for a kill (xv6's kill, the OOM killer, a
// fault: the thread whose end fixed the status was killed), else its exit
// code. Not c.killed: a thread's exit() kills its siblings, the leader
// among them, and the process still exits with that call's status.
// Caller holds c.lock.
static int ended_status(const Proc& c) {
    if (c.tg->term_sig != 0) return sig::status_signaled(c.tg->term_sig);
    if (c.tg->killed_exit) return sig::status_signaled(sig::kKill);
    return sig::status_exited(c.xstate);
}

// A stop or continue of c that the caller asked to hear (options), taken
// out of c's report, as a status word; -1 for none. Caller holds g_wait_lock.
static int change_status(Proc& c, int options) {
    ThreadGroup* tg = c.tg;
    if (tg == nullptr) return -1;
    if (tg->wait_report == kReportStopped && (options & sig::kWuntraced)) {
        tg->wait_report = kReportNone;
        return sig::status_stopped(tg->stop_sig);
    }
    if (tg->wait_report == kReportContinued && (options & sig::kWcontinued)) {
        tg->wait_report = kReportNone;
        return sig::kStatusContinued;
    }
    return -1;
}

// A child is reaped when its whole process has exited (reapable, set by
// its last thread) and its leader slot has switched away for good (its lock
// is free again). xv6's wait (xv6 = true) stores xstate as it is (-1 for a
// killed child) and takes any child; waitpid takes the children `pid`
// names (sig::wait_matches), stores Linux's status word, reports stops and
// continues as asked, and with WNOHANG returns 0 rather than wait.
// The status is stored after the wait lock is released: copy_out may
// have to break a copy-on-write page (a fork's stack), which can wait for
// other harts (TLB shootdown) and must not hold a spinlock meanwhile. A
// bad address then fails the call with the child already reaped (as
// Linux's).
Result<int> wait_child(int pid, UserAddr status_addr, int options, bool xv6) {
    Proc* p = myproc();
    Proc* me = p->tg->leader;  // changes only in exec, when p is the only thread
    if (!sig::valid_wait_options(options)) return Error::BadArgument;
    int cpid = 0, status = 0;
    {
        LockGuard g(g_wait_lock);
        for (;;) {
            bool have_kids = false;
            const int my_pgid = p->tg->pgid;
            for (Proc& c : g_procs) {
                if (c.parent != me) continue;
                if (!xv6 && !sig::wait_matches(pid, c.pid, c.tg ? c.tg->pgid : 0, my_pgid)) continue;
                have_kids = true;
                status = c.reapable ? 0 : change_status(c, options);
                if (!c.reapable && status == -1) continue;
                LockGuard cg(c.lock);
                cpid = c.pid;
                if (c.reapable) {
                    status = xv6 ? c.xstate : ended_status(c);
                    p->tg->child_cpu += c.tg->ended_cpu + c.tg->child_cpu;
                    p->tg->child_user += c.tg->ended_user + c.tg->child_user;
                    free_group(c.tg);
                    clear_slot(&c);
                }
                break;
            }
            if (cpid != 0) break;
            if (!have_kids) return Error::NoChild;
            if (options & sig::kWnohang) return 0;
            if (killed(p)) return Error::Killed;
            sleep_killable(me, g_wait_lock);
        }
    }
    if (!status_addr.is_null() && !copy_out(p->pagetable, status_addr, &status, sizeof(status)).ok()) {
        return Error::BadAddress;
    }
    return cpid;
}

Result<int> wait(UserAddr status_addr) { return wait_child(-1, status_addr, 0, true); }

// Mark p killed and make it notice soon: a sleeper is woken (its loop sees
// killed), a thread running on another hart is interrupted (it checks on
// its way back to user mode). Caller holds p->lock.
void kill_locked(Proc* p) {
    __atomic_store_n(&p->killed, true, __ATOMIC_RELEASE);
    if (p->state == ProcState::Sleeping) {
        make_runnable(p);
    } else if (p->state == ProcState::Running && p->running_on >= 0 && p->running_on != cpuid()) {
        send_ipi(p->running_on);
    }
}

// Every thread of the process is killed (Linux's kill of a thread group).
Status kill(int pid, const perm::Cred* as) {
    // init must never exit (the kernel would have nobody to reap orphans).
    if (g_init_proc && pid == g_init_proc->pid) return Error::BadArgument;
    bool found = false;
    for (Proc& p : g_procs) {
        LockGuard g(p.lock);
        if (p.pid != pid || p.state == ProcState::Unused) continue;
        // Threads share their credentials, so the first one found decides.
        if (!found && as != nullptr && !perm::may_touch_process(*as, p.cred.uid)) return Error::Permission;
        found = true;
        kill_locked(&p);
    }
    return found ? Status{} : Status(Error::NoProcess);
}

void set_killed(Proc* p) {
    LockGuard g(p->lock);
    __atomic_store_n(&p->killed, true, __ATOMIC_RELEASE);
}

// No lock: usertrap asks twice per system call, and a flag that only ever
// goes from false to true (until the slot is freed) needs none. A kill that
// lands just after the load is seen at the next check; a sleeper is made
// runnable by kill() under p->lock, and its loop checks again. (A wait that
// kill() must end sleeps with sleep_killable(), which reads killed under
// p->lock: a kill between the loop's check and the sleep is not lost.)
// Also true while a signal p does not block is pending (sig_interrupts):
// the waits that end when killed end then too, and fail with EINTR.
bool killed(Proc* p) { return dying(p) || sig_interrupts(p); }
bool dying(Proc* p) { return __atomic_load_n(&p->killed, __ATOMIC_ACQUIRE); }

Proc* proc_by_tid(int tid) {
    for (Proc& p : g_procs) {
        if (p.tid == tid && p.state != ProcState::Unused) return &p;
    }
    return nullptr;
}

void wakeup_proc(Proc* p, const void* chan) {
    LockGuard g(p->lock);
    if (p->state == ProcState::Sleeping && p->chan == chan) {
        p->woken = true;
        make_runnable(p);
    }
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
