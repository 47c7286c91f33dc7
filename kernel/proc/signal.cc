// kernel/proc/signal.cc - signals: send, deliver on the way to user mode,
// sigreturn, and the system calls (docs/signals.md).
//
// Delivery: usertrap_return calls sig_deliver before it leaves for user
// mode. The next signal (sig::next over the thread's and its group's
// pending bits, less the blocked mask) is taken out with an atomic and;
// its default action terminates the process (status -1, as xv6's kill;
// waitpid reports the signal) or stops it (kernel/proc/jobstop.cc), or a SigFrame is written below the user's sp: the
// whole trapframe (pc and x1..x31), the FP registers if the thread uses FP, the blocked mask to restore and a ksiginfo.
// The handler then starts with a0 = signal, a1 = &info, a2 = &frame->epc (the ucontext's mcontext: pc, x1..x31, as
// Linux's riscv sigcontext), sp = the frame, ra = kSigTramp, a page of
// kernel-written code mapped PTE_U|R|X in every address space ("li a7,
// SYS_sigreturn; ecall"). sigreturn reads the frame back at sp, checks its
// magic word, and restores every register exactly; a frame it cannot read
// or whose magic is wrong kills the process (never the kernel). A forged
// frame gains nothing: sstatus is the kernel's own on every return (SPP
// user), and a kernel pc only faults in user mode.
// Invariant: a pending bit is never an ignored signal (dropped at send,
// lib/signal/rules.h), so a pending unblocked bit interrupts killable
// sleeps (killed() asks sig_interrupts) and the call returns -1 EINTR,
// or, for a handler with SA_RESTART, runs again (pc back over ecall).
#include "kernel/proc/signal.h"

#include "kernel/arch/riscv/memlayout.h"
#include "kernel/arch/riscv/plic.h"
#include "kernel/arch/riscv/trapframe.h"
#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kalloc.h"
#include "kernel/mm/uaccess.h"
#include "kernel/mm/vm.h"
#include "kernel/proc/internal.h"
#include "kernel/proc/jobctl.h"
#include "kernel/proc/jobstop.h"
#include "kernel/syscall.h"
#include "lib/abi/abi.h"
#include "lib/abi/errno.h"

namespace q {

namespace {

constexpr u64 kFrameMagic = 0x5349474652414d45ull;  // "SIGFRAME"

struct SigFrame {
    u64 magic;
    u64 blocked;  // the mask to restore
    u64 epc;      // a2 points here: pc, then x1..x31
    u64 regs[31];
    u64 fregs[32];
    u64 fcsr;
    u64 fp_used;
    ksiginfo info;
    u64 errno_last;  // the interrupted code's errno() (the handler's calls change it)
};
static_assert(offsetof(SigFrame, regs) == offsetof(SigFrame, epc) + 8);
static_assert(sizeof(SigFrame) % 16 == 0);
static_assert(offsetof(SigFrame, info) == 544 && offsetof(SigFrame, errno_last) == 568);  // docs/signals.md's table

char* g_tramp_page = nullptr;

bool valid_user_handler(u64 h) { return h == sig::kDfl || h == sig::kIgn || h < layout::kUserTop; }

u64 group_pending(const Proc* p) { return p->tg ? __atomic_load_n(&p->tg->sig_pending, __ATOMIC_ACQUIRE) : 0; }

// Take the next deliverable signal out of p's pending sets (0: none);
// *sender is who sent it (0: the kernel, or a thread-directed signal).
int take_next(Proc* p, int* sender) {
    for (;;) {
        const u64 mine = __atomic_load_n(&p->sig_pending, __ATOMIC_ACQUIRE);
        const u64 all = mine | group_pending(p);
        const int s = sig::next(all, p->sig_blocked);
        if (s == 0) return 0;
        const u64 b = sig::bit(s);
        u64* from = (mine & b) ? &p->sig_pending : &p->tg->sig_pending;
        if (__atomic_fetch_and(from, ~b, __ATOMIC_ACQ_REL) & b) {
            *sender = from == &p->sig_pending ? 0 : __atomic_load_n(&p->tg->sig_from[s], __ATOMIC_RELAXED);
            return s;
        }
        // another thread of the group took it first: look again
    }
}

// Wake p if a signal it does not block is pending (caller holds p->lock).
void notify_locked(Proc* p) {
    if (!sig_interrupts(p)) return;
    if (p->state == ProcState::Sleeping) {
        make_runnable(p);
    } else if (p->state == ProcState::Running && p->running_on >= 0 && p->running_on != cpuid()) {
        send_ipi(p->running_on);
    }
}

// Make s pending for p's whole process, unless its action discards it at
// once (ignored); returns whether it is now pending. from: the sender's
// pid (0: the kernel). Caller holds p->lock.
bool post_to_group(Proc* p, int s, int from) {
    const u64 h = __atomic_load_n(&p->tg->sig_act[s].handler, __ATOMIC_ACQUIRE);
    if (sig::cancels(s)) __atomic_fetch_and(&p->tg->sig_pending, ~sig::cancels(s), __ATOMIC_ACQ_REL);
    if (sig::discard_on_send(s, h)) return false;
    __atomic_store_n(&p->tg->sig_from[s], from, __ATOMIC_RELAXED);
    __atomic_fetch_or(&p->tg->sig_pending, sig::bit(s), __ATOMIC_ACQ_REL);
    return true;
}

// The sender's pid for siginfo: the calling process's for a process's send
// (as, its credentials, is set), 0 for the kernel's.
int sender_of(const perm::Cred* as) { return as != nullptr && myproc() != nullptr ? myproc()->pid : 0; }

// sig_send's work, with the sender given (sig_child_exited: the child).
Status send_to(int pid, int s, const perm::Cred* as, int from) {
    if (s != 0 && !sig::valid(s)) return Error::BadArgument;
    if (s == sig::kKill) return kill(pid, as);
    if (g_init_proc && pid == g_init_proc->pid && s != 0) return Error::BadArgument;
    // SIGCONT acts at the send, whatever the handler (the process may then
    // end before the loop below looks: it was found all the same).
    bool found = s == sig::kCont && job_continue_matching(pid, 0, as);
    bool posted = false;
    for (Proc& p : g_procs) {
        // Unlocked pre-check (as wakeup's): locking all 256 slots was most
        // of a send (benchos signal: 231 us a round trip, 34 us with it).
        if (__atomic_load_n(&p.pid, __ATOMIC_RELAXED) != pid) continue;
        LockGuard g(p.lock);
        if (p.pid != pid || p.tg == nullptr) continue;
        if (p.state == ProcState::Unused || p.state == ProcState::Zombie) continue;
        if (!found && as != nullptr && !perm::may_touch_process(*as, p.cred.uid)) return Error::Permission;
        found = true;
        if (s == 0) break;
        if (!posted) {
            if (!post_to_group(&p, s, from)) break;
            posted = true;
        }
        notify_locked(&p);  // every thread that does not block it: the first back takes it
    }
    return found ? Status{} : Status(Error::NoProcess);
}

Status push_frame(Proc* p, int s, const SigAction& act, int sender) {
    TrapFrame* tf = p->trapframe;
    SigFrame f{};
    f.magic = kFrameMagic;
    f.blocked = p->sig_has_saved ? p->sig_saved : p->sig_blocked;
    p->sig_has_saved = false;
    f.epc = tf->epc;
    memmove(f.regs, tf->regs, sizeof(f.regs));
    if (p->fp.used) {
        memmove(f.fregs, p->fp.regs, sizeof(f.fregs));
        f.fcsr = p->fp.csr;
        f.fp_used = 1;
    }
    f.errno_last = static_cast<u64>(p->errno_last);
    f.info.signo = s;
    f.info.pid = sender;
    f.info.code = p->sig_addr != 0 && (s == sig::kSegv || s == sig::kBus || s == sig::kIll) ? 1 : 0;
    f.info.addr = f.info.code ? p->sig_addr : 0;
    const u64 base = sig::frame_base(tf->x(TrapFrame::sp), act.flags, p->alt_sp, p->alt_size);
    const u64 sp = (base - sizeof(SigFrame)) & ~15ull;
    if (sp >= layout::kUserTop || sp < sizeof(SigFrame)) return Error::BadAddress;
    TRY(copy_out(p->pagetable, UserAddr{sp}, &f, sizeof(f)));
    tf->epc = act.handler;
    tf->x(TrapFrame::sp) = sp;
    tf->x(TrapFrame::ra) = layout::kSigTramp;
    tf->x(TrapFrame::a0) = static_cast<u64>(s);
    tf->x(TrapFrame::a1) = sp + offsetof(SigFrame, info);
    tf->x(TrapFrame::a2) = sp + offsetof(SigFrame, epc);
    u64 add = act.mask;
    if (!(act.flags & sig::kSaNodefer)) add |= sig::bit(s);
    p->sig_blocked = sig::sanitize_mask(p->sig_blocked | add);
    return {};
}

}  // namespace

void sigtramp_init() {
    g_tramp_page = static_cast<char*>(kalloc());
    if (!g_tramp_page) panic("sigtramp_init: out of memory");
    memset(g_tramp_page, 0, kPageSize);  // zero words: illegal instructions
    const u32 code[] = {
        0x00000893u | (static_cast<u32>(SYS_sigreturn) << 20),  // li a7, SYS_sigreturn (addi a7, zero, n)
        0x00000073u,                                            // ecall
    };
    memmove(g_tramp_page, code, sizeof(code));
    asm volatile("fence.i" ::: "memory");
}

Status map_sigtramp(PageTable pt) {
    return map_pages(pt, layout::kSigTramp, kPageSize, reinterpret_cast<u64>(g_tramp_page),
                     riscv::kPteR | riscv::kPteX | riscv::kPteU);
}

bool sig_interrupts(const Proc* p) {
    const u64 all = __atomic_load_n(&p->sig_pending, __ATOMIC_ACQUIRE) | group_pending(p);
    return sig::next(all, __atomic_load_n(&p->sig_blocked, __ATOMIC_RELAXED)) != 0;
}

Status sig_send(int pid, int s, const perm::Cred* as) { return send_to(pid, s, as, sender_of(as)); }

void sig_broken_pipe(Proc* p) {
    if (p->tg == nullptr || !(p->tg->sig_set & sig::bit(sig::kPipe))) return;  // xv6's rule: -1 EPIPE only
    const u64 h = __atomic_load_n(&p->tg->sig_act[sig::kPipe].handler, __ATOMIC_ACQUIRE);
    if (sig::discard_on_send(sig::kPipe, h)) return;
    __atomic_fetch_or(&p->sig_pending, sig::bit(sig::kPipe), __ATOMIC_ACQ_REL);  // to the writing thread
}

void sig_post_locked(Proc* p, int s) {
    if (post_to_group(p, s, 0)) notify_locked(p);
}

Result<int> sig_send_group(int pgid, int s, const perm::Cred* as) {
    if (s != 0 && !sig::valid(s)) return Error::BadArgument;
    if (pgid <= 0) return Error::NoProcess;
    const bool continued = s == sig::kCont && job_continue_matching(0, pgid, as);
    int posted = 0;
    bool found = continued;
    bool allowed = continued;
    for (Proc& p : g_procs) {
        LockGuard g(p.lock);
        if (p.tg == nullptr || p.state == ProcState::Unused || p.state == ProcState::Zombie) continue;
        if (__atomic_load_n(&p.tg->pgid, __ATOMIC_ACQUIRE) != pgid) continue;
        found = true;
        if (g_init_proc && p.tg == g_init_proc->tg) continue;  // init takes no signals
        if (as != nullptr && !perm::may_touch_process(*as, p.cred.uid)) continue;
        allowed = true;
        if (s == 0) continue;
        if (s == sig::kKill) {
            kill_locked(&p);
        } else {
            if (!post_to_group(&p, s, sender_of(as))) continue;
            notify_locked(&p);
        }
        posted++;
    }
    if (!found) return Error::NoProcess;
    if (!allowed && as != nullptr) return Error::Permission;
    return posted;
}

void sig_fault_kill(Proc* p, int s) {
    if (p->tg != nullptr) {
        int none = 0;
        __atomic_compare_exchange_n(&p->tg->term_sig, &none, s, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    }
    set_killed(p);
}

bool sig_fault(Proc* p, int s, u64 addr) {
    if (p->tg == nullptr || (p->sig_blocked & sig::bit(s))) return false;
    const u64 h = __atomic_load_n(&p->tg->sig_act[s].handler, __ATOMIC_ACQUIRE);
    if (h == sig::kDfl || h == sig::kIgn) return false;
    p->sig_addr = addr;
    __atomic_fetch_or(&p->sig_pending, sig::bit(s), __ATOMIC_ACQ_REL);
    return true;
}

namespace {

bool eintr_call(Proc* p) {
    return p->in_syscall && p->trapframe->x(TrapFrame::a0) == static_cast<u64>(-1) && p->errno_last == EINTR;
}

// A call that failed with EINTR for a signal that ran no handler (a stop;
// or the signal vanished: a sibling thread took it, SIGCONT cancelled it)
// runs again, as Linux's ERESTARTSYS: pc back over the ecall. A sigsusp
// gets the caller's own mask back first (it installs its own again).
void restart_call(Proc* p) {
    TrapFrame* tf = p->trapframe;
    if (eintr_call(p)) {
        tf->epc -= 4;
        tf->x(TrapFrame::a0) = p->sys_a0;
        if (p->sig_has_saved) {
            __atomic_store_n(&p->sig_blocked, p->sig_saved, __ATOMIC_RELEASE);
            p->sig_has_saved = false;
        }
    }
    p->in_syscall = false;
}

// May the call a handler with SA_RESTART interrupted run again? Not poll
// nor a futex wait with a timeout (Linux's rule: the timeout would start
// over, and a caller could wait for ever) or a deadline (libc's nanosleep
// waits until an instant and must end with EINTR), nor sigsusp, which
// always ends with EINTR. The trap left the call's number (a7), a1 and a3
// as they were.
bool restart_after_handler(TrapFrame* tf) {
    const u64 num = tf->x(TrapFrame::a7);
    if (num == SYS_poll || num == SYS_sigsusp) return false;
    const u64 op = tf->x(TrapFrame::a1);
    const bool timed = (op == FUTEX_WAIT || op == FUTEX_WAIT_UNTIL) && tf->x(TrapFrame::a3) != 0;
    return !(num == SYS_futex && timed);
}

// The default action of s (not ignored: those are never pending): stop,
// or end the process with s as the reason waitpid reports.
void default_action(Proc* p, int s, u32 gen) {
    if (s != sig::kKill && sig::stops(s)) {
        job_stop(p, s, gen);  // (not for a tty stop in an orphaned group: job_stop)
        restart_call(p);
        return;
    }
    if (sig::default_action(s) != sig::Default::Terminate) return;
    int none = 0;
    __atomic_compare_exchange_n(&p->tg->term_sig, &none, s, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    exit(-1);
}

}  // namespace

bool sig_needs_delivery(Proc* p) { return sig_interrupts(p) || job_stopped(p) || eintr_call(p); }

void sig_deliver(Proc* p) {
    if (p->tg == nullptr) return;
    if (job_stopped(p)) job_stop_wait(p);  // a sibling stopped the process
    for (;;) {
        const u32 gen = job_cont_gen(p);
        int sender = 0;
        const int s = take_next(p, &sender);
        if (s == 0) {
            restart_call(p);  // no handler ran on this way out: an EINTR call runs again
            return;
        }
        SigAction act;
        {
            LockGuard g(p->tg->lock);
            act = p->tg->sig_act[s];
            if (act.handler > sig::kIgn && (act.flags & sig::kSaResethand)) {
                p->tg->sig_act[s] = SigAction{};  // SIG_DFL from now on (the handler runs this once)
            }
        }
        if (s == sig::kKill || s == sig::kStop || act.handler == sig::kDfl) {
            default_action(p, s, gen);
            continue;
        }
        if (act.handler == sig::kIgn) continue;
        TrapFrame* tf = p->trapframe;
        if ((act.flags & sig::kSaRestart) && restart_after_handler(tf)) restart_call(p);  // else it fails with EINTR
        p->in_syscall = false;
        if (!push_frame(p, s, act, sender).ok()) {
            kprintf("pid %d (%s): signal %d: no room for its frame at sp %p: killed\n", p->pid, p->name, s,
                    reinterpret_cast<void*>(tf->x(TrapFrame::sp)));
            sig_fault_kill(p, sig::kSegv);  // as Linux: SIGSEGV for waitpid
            exit(-1);
        }
        p->sig_addr = 0;
        return;
    }
}

void sig_fork(const Proc* parent, Proc* child) {
    child->sig_blocked = parent->sig_blocked;
    child->alt_sp = parent->alt_sp;  // the child is a copy of the calling thread
    child->alt_size = parent->alt_size;
    child->sig_pending = 0;
    for (int s = 0; s <= sig::kMax; s++) child->tg->sig_act[s] = parent->tg->sig_act[s];
    child->tg->sig_pending = 0;
    child->tg->sig_set = parent->tg->sig_set;
}

void sig_exec(Proc* p) {
    p->sig_has_saved = false;
    p->alt_sp = p->alt_size = 0;  // the old image's memory is gone
    LockGuard g(p->tg->lock);
    p->tg->sig_set = 0;  // the new program has set nothing yet
    for (SigAction& a : p->tg->sig_act) {
        if (a.handler != sig::kIgn) a.handler = sig::kDfl;
        a.mask = a.flags = 0;
    }
}

// sigsend(pid, sig) -> 0 or -1 (EINVAL bad signal, ESRCH no such process, EPERM not allowed).
// pid 0: the caller's process group; -pgid: that group (every member the
// caller may signal; -1 EPERM if it may signal none); -1 (Linux's "every
// process") is refused with ESRCH: a student's mistake would reach the
// whole system, and no test or program here needs it.
SysResult sys_sigsend() {
    const int pid = arg_int(0);
    const int s = arg_int(1);
    if (pid == -1) return Error::NoProcess;
    Status st;
    if (pid > 0) {
        st = sig_send(pid, s, &current_cred());
    } else {
        const int pgid = pid == 0 ? __atomic_load_n(&myproc()->tg->pgid, __ATOMIC_ACQUIRE) : -pid;
        auto r = sig_send_group(pgid, s, &current_cred());
        if (!r.ok()) st = r.error();
    }
    if (!st.ok()) return job_error(st.error());
    return 0;
}

// sigact(sig, act, old) -> 0 or -1 (bad signal, SIGKILL/SIGSTOP, bad pointer).
SysResult sys_sigact() {
    Proc* p = myproc();
    const int s = arg_int(0);
    const UserAddr act_addr = arg_addr(1);
    const UserAddr old_addr = arg_addr(2);
    if (!sig::valid(s)) return Error::BadArgument;
    ksigaction nk{};
    if (!act_addr.is_null()) {
        if (!sig::may_set_action(s)) return Error::BadArgument;
        TRY(copy_in(p->pagetable, &nk, act_addr, sizeof(nk)));
        if (!valid_user_handler(nk.handler)) return Error::BadArgument;
    }
    SigAction old;
    {
        LockGuard g(p->tg->lock);
        old = p->tg->sig_act[s];
        if (!act_addr.is_null()) {
            SigAction& a = p->tg->sig_act[s];
            p->tg->sig_set |= sig::bit(s);
            a.mask = sig::sanitize_mask(nk.mask);
            __atomic_store_n(&a.flags, nk.flags, __ATOMIC_RELAXED);  // SA_NOCLDSTOP is read without the lock
            __atomic_store_n(&a.handler, nk.handler, __ATOMIC_RELEASE);
            // POSIX: setting a pending signal to be ignored discards it
            if (sig::discard_on_send(s, nk.handler)) {
                __atomic_fetch_and(&p->tg->sig_pending, ~sig::bit(s), __ATOMIC_ACQ_REL);
            }
        }
    }
    if (!old_addr.is_null()) {
        const ksigaction ok{old.handler, old.mask, old.flags};
        TRY(copy_out(p->pagetable, old_addr, &ok, sizeof(ok)));
    }
    return 0;
}

// sigmask(how, set, old) -> 0 or -1 (bad how, bad pointer).
SysResult sys_sigmask() {
    Proc* p = myproc();
    const int how = arg_int(0);
    const UserAddr set_addr = arg_addr(1);
    const UserAddr old_addr = arg_addr(2);
    const u64 old = p->sig_blocked;
    u64 next = old;
    if (!set_addr.is_null()) {
        u64 set = 0;
        TRY(copy_in(p->pagetable, &set, set_addr, sizeof(set)));
        if (!sig::apply_how(how, old, set, &next)) return Error::BadArgument;
    }
    if (!old_addr.is_null()) TRY(copy_out(p->pagetable, old_addr, &old, sizeof(old)));
    __atomic_store_n(&p->sig_blocked, next, __ATOMIC_RELEASE);
    return 0;
}

// sigaltstack(ss, old) -> 0 or -1: EPERM to change it while running on
// it, EINVAL for flags other than 0 or SS_DISABLE, ENOMEM for less than
// MINSIGSTKSZ, EFAULT for a bad pointer. old's flags: SS_ONSTACK while on
// it, SS_DISABLE when there is none.
SysResult sys_sigaltstack() {
    Proc* p = myproc();
    const UserAddr ss_addr = arg_addr(0);
    const UserAddr old_addr = arg_addr(1);
    const bool on = sig::on_alt_stack(p->trapframe->x(TrapFrame::sp), p->alt_sp, p->alt_size);
    ksigstack nss{};
    if (!ss_addr.is_null()) TRY(copy_in(p->pagetable, &nss, ss_addr, sizeof(nss)));
    if (!old_addr.is_null()) {
        const ksigstack o{p->alt_sp, on ? sig::kSsOnstack : p->alt_size == 0 ? sig::kSsDisable : 0, p->alt_size};
        TRY(copy_out(p->pagetable, old_addr, &o, sizeof(o)));
    }
    if (ss_addr.is_null()) return 0;
    if (on) return Error::NotPermitted;
    if (nss.flags == sig::kSsDisable) {
        p->alt_sp = p->alt_size = 0;
        return 0;
    }
    if (nss.flags != 0) return Error::BadArgument;
    if (nss.size < sig::kMinSigStack) return Error::NoMemory;
    if (nss.sp >= layout::kUserTop || nss.size > layout::kUserTop - nss.sp) return Error::BadArgument;
    p->alt_sp = nss.sp;
    p->alt_size = nss.size;
    return 0;
}

// sigpend(set) -> 0 or -1: pending for the caller (its own and its process's).
SysResult sys_sigpend() {
    Proc* p = myproc();
    const u64 set = __atomic_load_n(&p->sig_pending, __ATOMIC_ACQUIRE) | group_pending(p);
    return sys_result(copy_out(p->pagetable, arg_addr(0), &set, sizeof(set)));
}

constinit SpinLock g_susp_lock("sigsusp");

// sigsusp(mask) -> -1 EINTR: waits with mask as the blocked set until a
// signal it does not block is pending; the handler's frame restores the
// mask the caller had (sig_has_saved), so the signal is taken under mask.
SysResult sys_sigsusp() {
    Proc* p = myproc();
    u64 m = 0;
    TRY(copy_in(p->pagetable, &m, arg_addr(0), sizeof(m)));
    p->sig_saved = p->sig_blocked;
    p->sig_has_saved = true;
    __atomic_store_n(&p->sig_blocked, sig::sanitize_mask(m), __ATOMIC_RELEASE);
    {
        LockGuard g(g_susp_lock);
        while (!killed(p)) sleep_killable(p, g_susp_lock);
    }
    // A handler's frame restores the saved mask; SA_RESTART never runs
    // this again (restart_after_handler); a stop, or a signal that ran no
    // handler here, runs it again with the caller's mask back (restart_call).
    return Error::Killed;  // EINTR
}

void sig_child_exited(const Proc* parent, int child) {
    if (parent == nullptr || parent == g_init_proc) return;
    (void)send_to(parent->pid, sig::kChld, nullptr, child);
}

// sigreturn() -> the interrupted a0 (every register comes back from the
// frame at sp); a frame that is unreadable or not one kills the process.
SysResult sys_sigreturn() {
    Proc* p = myproc();
    TrapFrame* tf = p->trapframe;
    p->in_syscall = false;
    SigFrame f;
    const u64 sp = tf->x(TrapFrame::sp);
    if (!copy_in(p->pagetable, &f, UserAddr{sp}, sizeof(f)).ok() || f.magic != kFrameMagic) {
        kprintf("pid %d (%s): sigreturn: bad signal frame at sp %p: killed\n", p->pid, p->name,
                reinterpret_cast<void*>(sp));
        sig_fault_kill(p, sig::kSegv);  // as Linux: SIGSEGV for waitpid
        return Error::BadAddress;
    }
    tf->epc = f.epc;
    memmove(tf->regs, f.regs, sizeof(f.regs));
    if (f.fp_used && p->fp.used) {
        memmove(p->fp.regs, f.fregs, sizeof(f.fregs));
        p->fp.csr = f.fcsr;
        p->fp.last_cpu = -1;  // reload from memory on the way out
    }
    __atomic_store_n(&p->sig_blocked, sig::sanitize_mask(f.blocked), __ATOMIC_RELEASE);
    // A success: syscall_dispatch leaves this errno alone, even when the
    // interrupted call's a0 is -1.
    p->errno_last = static_cast<int>(f.errno_last);
    return static_cast<i64>(tf->x(TrapFrame::a0));
}

}  // namespace q
