// kernel/sync/spinlock.cc - spinlocks and nested interrupt disabling.
//
// See spinlock.h for the design. The atomic swap (amoswap.w.aq) acquires;
// a release store (amoswap.w.rl of 0) releases, so the critical section's
// loads and stores stay inside the lock on RISC-V's weak memory model.
#include "kernel/sync/spinlock.h"

#include "kernel/arch/riscv/csr.h"
#include "kernel/lib/kprintf.h"
#include "kernel/proc/proc.h"

namespace q {

// Waiting for a lock under QEMU -icount. All harts then share one host
// thread, taken in turns: a hart runs until its share of the time to the
// next virtual-clock deadline is used up, and is switched out wherever it
// is, even inside a critical section. A hart spinning on the lock of a
// switched-out hart can never see it released while it runs, and used to
// spin out its whole share: up to half the time to the next deadline,
// about a 4 ms slice with slice=4000 (issue 6: a process woken towards an
// idle hart waited 3.7 ms because the waker spun on the run-queue lock held
// by the hart it had just sent the IPI to).
//
// So a hart that finds the lock taken arms its timer just ahead: QEMU
// stops a hart that moves the earliest virtual deadline and lets the next
// one run, so the holder gets the host thread at once. It re-arms whenever
// that deadline has passed (the timer is pending), which is on its next
// turn under -icount and every microsecond on hardware or multi-threaded
// QEMU (where each write also wakes QEMU's main loop, so not every attempt).
// `pause` does not do it: QEMU 7.2 only ends the translation block.
// Interrupts are off while spinning, so the early timer is only pending;
// the saved deadline is put back once the lock is held, and one that passed
// meanwhile is taken at pop_off(). Re-arming also keeps a deadline in place
// when the hart's own timer has already fired (masked), which without it
// left none at all.
constexpr u64 kSpinTimerCycles = 10;  // 1 us at the 10 MHz timebase

static void spin_arm_timer() { riscv::w_stimecmp(riscv::r_time() + kSpinTimerCycles); }

void SpinLock::acquire() { (void)acquire_timed(); }

u64 SpinLock::acquire_timed() {
    push_off();
    if (holding()) panic("acquire: lock '%s' already held by this hart", name_);
    u64 waited = 0;
    if (__atomic_exchange_n(&locked_, 1u, __ATOMIC_ACQUIRE) != 0) {
        const u64 start = riscv::r_time();
        const u64 deadline = riscv::r_stimecmp();
        spin_arm_timer();
        while (__atomic_exchange_n(&locked_, 1u, __ATOMIC_ACQUIRE) != 0) {
            if (riscv::r_sip() & riscv::kSieStie) spin_arm_timer();
        }
        riscv::w_stimecmp(deadline);
        waited = riscv::r_time() - start + 1;  // at least 1: it was contended
    }
    cpu_ = mycpu();
    return waited;
}

void SpinLock::release() {
    if (!holding()) panic("release: lock '%s' not held by this hart", name_);
    cpu_ = nullptr;
    __atomic_store_n(&locked_, 0u, __ATOMIC_RELEASE);
    pop_off();
}

bool SpinLock::holding() const { return __atomic_load_n(&locked_, __ATOMIC_RELAXED) && cpu_ == mycpu(); }

void push_off() {
    const bool was_on = riscv::intr_get();
    riscv::intr_off();
    Cpu* c = mycpu();
    if (c->noff == 0) c->intena = was_on;
    c->noff++;
}

void pop_off() {
    Cpu* c = mycpu();
    if (riscv::intr_get()) panic("pop_off: interrupts enabled");
    if (c->noff < 1) panic("pop_off: unbalanced");
    c->noff--;
    if (c->noff == 0 && c->intena) riscv::intr_on();
}

}  // namespace q
