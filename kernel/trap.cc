// kernel/trap.cc - traps: system calls, exceptions and device interrupts.
//
// From user mode, trampoline.S saves the registers and calls usertrap(); a
// system call advances the saved pc past ecall and dispatches; a page fault
// goes to kernel/mm/fault.cc (resolved, or the process is killed); any other
// exception kills the offending process (status -1) and never the kernel.
// From supervisor mode, kernelvec.S calls kernel_trap(); only interrupts are
// expected there, so an exception in the kernel is a kernel bug and panics.
// Timer: each dispatch arms its turn (timer_new_slice); any hart advances
// the 0.1 s tick, and ends the futex waits and polls whose deadline has
// passed. A timer interrupt inside a slice charges the running process
// (rq_tick).
// While the profiler is on (kernel/obs/prof.h) the timer is also armed for
// its next sample; a sample-only interrupt is Handled, never SliceOver.
// A software interrupt (IPI) brings remote wake-ups (rq_drain) and may ask
// this hart to reschedule (need_resched).
// User floating point is lazy (kernel/arch/fpu.h): usertrap saves it first
// if the user dirtied it, an illegal instruction with FP off turns it on,
// usertrap_return ends in fpu_enter_user for a process that uses FP.
#include "kernel/trap.h"
#include "kernel/arch/fpu.h"
#include "kernel/arch/riscv/csr.h"
#include "kernel/arch/riscv/memlayout.h"
#include "kernel/arch/riscv/plic.h"
#include "kernel/arch/riscv/spin.h"
#include "kernel/arch/riscv/trapframe.h"
#include "kernel/dev/disk.h"
#include "kernel/dev/uart.h"
#include "kernel/fs/poll.h"
#include "kernel/lib/kprintf.h"
#include "kernel/mm/fault.h"
#include "kernel/mm/tlb.h"
#include "kernel/obs/prof.h"
#include "kernel/proc/alarm.h"
#include "kernel/proc/futex.h"
#include "kernel/proc/internal.h"
#include "kernel/proc/runqueue.h"
#include "kernel/proc/signal.h"
#include "kernel/syscall.h"

extern "C" char trampoline[];
extern "C" char uservec[];
extern "C" char userret[];
extern "C" void kernelvec();

namespace q {

using namespace riscv;

constinit u64 g_ticks = 0;
constinit SpinLock g_ticks_lock("ticks");
constinit u64 g_slice_cycles = param::kBaseSliceCycles;  // set at boot (kernel/main.cc)
constinit u64 g_tick_cycles = param::kSchedTickCycles;   // set at boot (kernel/main.cc); 0: none
constinit u64 g_next_tick = param::kTickCycles;

u64 now_cycles() { return r_time(); }

void trap_init_hart() {
    w_stvec(reinterpret_cast<u64>(&kernelvec));
    fpu_init_hart();
}

extern "C" void usertrap();
extern "C" void usertrap_return();

namespace {

// What an interrupt asks of the trap handler: None (it was not an
// interrupt), Handled (a device, or a tick inside a slice: nothing more),
// SliceOver (the running process's slice ended: yield), Resched (another
// hart asked this one to reschedule: yield).
enum class Intr { None, Handled, SliceOver, Resched };

// This hart's next deadline: the end of its current slice, or the next
// tick of the sleep()/uptime() clock if that comes first (so ticks keep
// coming even on a hart that dispatches more often than once a slice), or
// the scheduler tick while a process runs, or a futex, poll or alarm
// timeout, or the profiler's next sample.
u64 next_deadline() {
    const u64 next_tick = __atomic_load_n(&g_next_tick, __ATOMIC_RELAXED);
    const Cpu* c = mycpu();
    u64 when = c->slice_end < next_tick ? c->slice_end : next_tick;
    if (g_tick_cycles && c->proc && c->sched_tick < when) when = c->sched_tick;
    const u64 futex_due = futex_next_deadline();
    if (futex_due < when) when = futex_due;
    const u64 poll_due = poll_next_deadline();
    if (poll_due < when) when = poll_due;
    const u64 alarm_due = alarm_next_deadline();
    if (alarm_due < when) when = alarm_due;
    if (prof::on()) {
        const u64 due = prof::next_due();
        if (due < when) when = due;
    }
    return when;
}

// Arm this hart's timer for deadline `when` (next_deadline's); while harts
// take turns (QEMU -icount), a running hart's at most one turn ahead
// (kernel/arch/riscv/spin.h, turn_deadline).
void arm_timer_for(u64 when) { w_stimecmp(arch::turn_deadline(when)); }
void arm_timer() { arm_timer_for(next_deadline()); }

// The first multiple of the scheduler tick after now (every hart's ticks
// fall at the same instants, as schedsim's --tick does).
u64 next_sched_tick(u64 now) { return (now / g_tick_cycles + 1) * g_tick_cycles; }

// Advance the tick counter if a tick boundary has passed (any hart may).
void update_ticks(u64 now) {
    if (now < __atomic_load_n(&g_next_tick, __ATOMIC_RELAXED)) return;
    LockGuard g(g_ticks_lock);
    if (now < g_next_tick) return;
    while (now >= g_next_tick) {
        g_ticks++;
        g_next_tick += param::kTickCycles;
    }
    wakeup(&g_ticks);
}

// A timer interrupt. The end of the running process's turn (a slice, or
// the rest of one a preemption cut: lib/sched/runqueues.h, "Turns") makes
// it yield; a tick boundary inside it just counts the tick, so every
// process gets its whole turn whatever the tick's phase, and the scheduler
// tick (rq_tick) may preempt it as the policy says.
// kregs: the registers kernelvec saved (a trap from supervisor mode), null
// for a trap from user mode.
Intr clock_intr(const u64* kregs) {
    const u64 now = r_time();
    const u64 due = next_deadline();
    if (now < due) {
        // Nothing is due: the turn's end (spin.h) or a spinner's early
        // timer. The platform's, not the scheduler's: re-arm and go on.
        arm_timer_for(due);
        return Intr::Handled;
    }
    // sepc still names the interrupted instruction here (usertrap has only
    // copied it to the trapframe; kernel_trap has not yet returned).
    if (prof::on()) prof::on_timer(now, r_sepc(), kregs);
    update_ticks(now);
    if (now >= futex_next_deadline()) futex_expire(now);
    if (now >= poll_next_deadline()) poll_expire();
    if (now >= alarm_next_deadline()) alarm_expire(now);
    Cpu* c = mycpu();
    if (g_tick_cycles && now >= c->sched_tick) c->sched_tick = next_sched_tick(now);
    const bool slice_over = now >= c->slice_end;
    if (slice_over) c->slice_end = now + g_slice_cycles;
    arm_timer();
    if (slice_over) return Intr::SliceOver;  // yield charges it
    return rq_tick(c->id, now) ? Intr::Resched : Intr::Handled;
}

}  // namespace

// Re-arm after the profiler's period changed (prof_start; interrupts off).
void timer_rearm() { arm_timer(); }

void timer_idle() { w_stimecmp(next_deadline()); }

void timer_new_slice(u64 cycles) {
    const u64 now = r_time();
    mycpu()->slice_end = now + cycles;
    if (g_tick_cycles) mycpu()->sched_tick = next_sched_tick(now);
    arm_timer();
}

namespace {

// kregs as for clock_intr.
Intr dev_intr_in(const u64* kregs) {
    const u64 scause = r_scause();
    if (!(scause & kCauseInterrupt)) return Intr::None;
    const u64 code = scause & ~kCauseInterrupt;
    if (code == kIrqExternal) {
        const u32 irq = plic_claim();
        if (irq == layout::kUart0Irq) {
            uart_intr();
        } else if (irq == layout::kVirtio0Irq) {
            disk_intr();
        } else if (irq) {
            kprintf("unexpected interrupt irq=%d\n", irq);
        }
        if (irq) plic_complete(irq);
        return Intr::Handled;
    }
    if (code == kIrqTimer) return clock_intr(kregs);
    if (code == kIrqSoftware) {
        // An IPI: processes woken for this hart's queue (rq_drain), or a
        // request to reschedule (need_resched set by the sender).
        w_sip(r_sip() & ~2ull);
        tlb_ipi_seen();               // a shootdown's wait ends: this hart trapped, its TLB flushed (kernel/mm/tlb.h)
        if (prof::on()) arm_timer();  // prof_start asks every hart to arm its sampling timer
        rq_drain(cpuid());
        return mycpu()->need_resched ? Intr::Resched : Intr::Handled;
    }
    return Intr::None;
}

// Marks the hart as in an interrupt handler (Cpu::in_intr), so that the
// tracer does not name the interrupted process as the waker of what the
// device or the timer wakes (a replay would make it the cause).
Intr dev_intr(const u64* kregs) {
    Cpu* c = mycpu();
    c->in_intr = true;
    const Intr which = dev_intr_in(kregs);
    c->in_intr = false;
    return which;
}

}  // namespace

namespace {
// The signal for an exception from user mode that is not a page fault.
int fault_signal(u64 scause) {
    switch (scause) {
        case kExcBreakpoint:
            return sig::kTrap;
        case kExcInstMisaligned:
        case kExcLoadMisaligned:
        case kExcStoreMisaligned:
            return sig::kBus;
        case kExcInstAccessFault:
        case kExcLoadAccessFault:
        case kExcStoreAccessFault:
            return sig::kSegv;
        default:  // kExcIllegalInstr, and anything unknown
            return sig::kIll;
    }
}
}  // namespace

extern "C" void usertrap() {
    if (r_sstatus() & kSstatusSpp) panic("usertrap: not from user mode");
    w_stvec(reinterpret_cast<u64>(&kernelvec));
    Proc* p = myproc();
    p->stat_user += now_cycles() - p->user_since;
    fpu_trap_entry(p->fp);
    p->trapframe->epc = r_sepc();
    Intr which = Intr::None;
    const u64 scause = r_scause();
    p->in_syscall = false;
    if (scause == kExcEcallUser) {
        // It ran since its last fault: a fault retried as a stale TLB entry
        // (kernel/mm/fault.cc) may race again at the same page, with a
        // sibling reading in a text page they both run (also below).
        p->retried_va = ~0ull;
        if (dying(p)) exit(-1);
        p->trapframe->epc += 4;
        p->in_syscall = true;  // SA_RESTART's re-run needs the call's a0 (kernel/proc/signal.cc)
        p->sys_a0 = p->trapframe->x(TrapFrame::a0);
        intr_on();
        syscall_dispatch(p);
    } else if (scause == kExcIllegalInstr && fpu_first_use(p->fp)) {
        // its first FP instruction: FP is on now and the instruction runs again
    } else if (is_page_fault(scause)) {
        vm_user_fault(p, scause, r_stval());  // resolved, or p is killed (kernel/mm/fault.cc)
    } else {
        p->retried_va = ~0ull;
        // si_addr: the address for a misaligned or access fault, the pc for
        // an illegal instruction (whose stval holds its bits) or a breakpoint.
        const int s = fault_signal(scause);
        const u64 addr = s == sig::kIll || s == sig::kTrap ? r_sepc() : r_stval();
        if ((which = dev_intr(nullptr)) == Intr::None && !sig_fault(p, s, addr)) {
            kprintf("pid %d (%s): fault scause=%lx sepc=%lx stval=%lx: killed\n", p->pid, p->name, scause, r_sepc(),
                    r_stval());
            sig_fault_kill(p, s);
        }
    }
    if (dying(p)) exit(-1);
    if (which == Intr::SliceOver || which == Intr::Resched || mycpu()->need_resched) yield();
    usertrap_return();
}

extern "C" void usertrap_return() {
    Proc* p = myproc();
    // Killed while it waited to run (or, a new thread, before it first ran).
    if (__atomic_load_n(&p->killed, __ATOMIC_ACQUIRE)) exit(-1);
    if (sig_needs_delivery(p)) sig_deliver(p);  // a handler's frame, a default action, a stop, a restart
    if (p->fault_locks != 0) panic("usertrap_return: pid %d holds %u sleep locks", p->pid, p->fault_locks);
    intr_off();
    p->user_since = now_cycles();  // user time from here to the next trap (SYS_times)
    const u64 uservec_va = layout::kTrampoline + (reinterpret_cast<u64>(uservec) - reinterpret_cast<u64>(trampoline));
    w_stvec(uservec_va);
    p->trapframe->kernel_satp = r_satp();
    p->trapframe->kernel_sp = p->kstack + kPageSize;
    p->trapframe->kernel_trap = reinterpret_cast<u64>(&usertrap);
    p->trapframe->kernel_hartid = r_tp();
    u64 x = r_sstatus();
    x &= ~kSstatusSpp;  // FP is off here (fpu.h); fpu_enter_user turns it on
    x |= kSstatusSpie;
    w_sstatus(x);
    w_sepc(p->trapframe->epc);
    const u64 satp = make_satp(reinterpret_cast<u64>(p->pagetable));
    const u64 userret_va = layout::kTrampoline + (reinterpret_cast<u64>(userret) - reinterpret_cast<u64>(trampoline));
    const auto enter = reinterpret_cast<void (*)(u64, u64)>(userret_va);
    // Last, so that nothing is live across it: a call in the middle made
    // every return to user mode save and reload registers (null system
    // call +5%, measured under -icount).
    if (fpu_in_use(p->fp)) fpu_enter_user(p->fp, enter, satp, p->trapframe_va);
    enter(satp, p->trapframe_va);
}

// regs: the interrupted registers, saved by kernelvec.S (x[n] at regs[n]).
extern "C" void kernel_trap(const u64* regs) {
    const u64 sepc = r_sepc();
    const u64 sstatus = r_sstatus();
    const u64 scause = r_scause();
    if (!(sstatus & kSstatusSpp)) panic("kernel_trap: not from supervisor mode");
    if (intr_get()) panic("kernel_trap: interrupts enabled");
    const Intr which = dev_intr(regs);
    if (which == Intr::None) {
        panic("kernel trap: scause=%lx sepc=%lx stval=%lx hart %d", scause, sepc, r_stval(), cpuid());
    }
    Proc* p = myproc();
    if ((which == Intr::SliceOver || which == Intr::Resched) && p && p->state == ProcState::Running) yield();
    // yield() may have run other code that took traps: restore ours.
    w_sepc(sepc);
    w_sstatus(sstatus);
}

}  // namespace q
