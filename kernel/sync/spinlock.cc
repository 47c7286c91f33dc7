// kernel/sync/spinlock.cc - spinlocks and nested interrupt disabling.
//
// See spinlock.h for the design. The atomic swap (amoswap.w.aq) acquires;
// a release swap (amoswap.w.rl of 0) releases, so the critical section's
// loads and stores stay inside the lock on RISC-V's weak memory model. The
// lock word is 0 free, 1 taken, 2 taken with a hart spinning for it (a
// spinner swaps in 2): the release of a 2 hands the hart over at once.
// What a hart does between failed attempts is the architecture's business
// (kernel/arch/riscv/spin.h: under QEMU -icount it must give the lock's
// holder the host thread). acquire_timed() also returns how long the hart
// spun (the run queues' lock statistics, lockstat). cpu_ records the holder
// for holding(); acquiring a held lock or releasing one not held panics, as
// do pop_off() with interrupts on or without its push_off().
#include "kernel/sync/spinlock.h"

#include "kernel/arch/riscv/csr.h"
#include "kernel/arch/riscv/spin.h"
#include "kernel/lib/kprintf.h"
#include "kernel/proc/proc.h"

namespace q {

namespace {
// mycpu() without the call: every acquire and release asks four times.
inline Cpu* this_cpu() { return &g_cpus[riscv::r_tp()]; }
}  // namespace

void SpinLock::acquire() { (void)acquire_timed(); }

bool SpinLock::try_take() { return __atomic_exchange_n(&locked_, 1u, __ATOMIC_ACQUIRE) == 0; }

u64 SpinLock::acquire_timed() {
    push_off();
    if (holding()) panic("acquire: lock '%s' already held by this hart", name_);
    u64 waited = 0;
    if (!try_take()) {
        arch::SpinWait w = arch::spin_begin();  // see kernel/arch/riscv/spin.h
        // 2: taken, and somebody spun for it (release hands the hart over).
        while (__atomic_exchange_n(&locked_, 2u, __ATOMIC_ACQUIRE) != 0) arch::spin_relax(w);
        waited = arch::spin_end(w);
    }
    cpu_ = this_cpu();
    return waited;
}

void SpinLock::release() {
    if (!holding()) panic("release: lock '%s' not held by this hart", name_);
    cpu_ = nullptr;
    if (__atomic_exchange_n(&locked_, 0u, __ATOMIC_RELEASE) == 2) arch::spin_handoff();
    pop_off();
}

bool SpinLock::holding() const { return __atomic_load_n(&locked_, __ATOMIC_RELAXED) && cpu_ == this_cpu(); }

void push_off() {
    const bool was_on = (riscv::intr_save_off() & riscv::kSstatusSie) != 0;
    Cpu* c = this_cpu();
    if (c->noff == 0) c->intena = was_on;
    c->noff++;
}

void pop_off() {
    Cpu* c = this_cpu();
    if (riscv::intr_get()) panic("pop_off: interrupts enabled");
    if (c->noff < 1) panic("pop_off: unbalanced");
    c->noff--;
    if (c->noff == 0 && c->intena) riscv::intr_on();
}

}  // namespace q
