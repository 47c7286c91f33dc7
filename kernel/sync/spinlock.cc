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

// One iteration of waiting for a lock. Under QEMU with -icount all harts
// share one host thread, and a hart runs until the next virtual-clock timer
// deadline. A hart spinning with interrupts off has already taken (masked)
// its own timer, so there may be no deadline left and the lock holder would
// not run for seconds of virtual time. Re-arming this hart's timer a little
// ahead keeps a deadline in place; the interrupt it stands for is only
// delayed, never lost, since the hart takes it when it re-enables interrupts.
static void spin_wait() {
    if (riscv::r_sip() & riscv::kSieStie) riscv::w_stimecmp(riscv::r_time() + 1000);
}

void SpinLock::acquire() {
    push_off();
    if (holding()) panic("acquire: lock '%s' already held by this hart", name_);
    while (__atomic_exchange_n(&locked_, 1u, __ATOMIC_ACQUIRE) != 0) spin_wait();
    cpu_ = mycpu();
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
