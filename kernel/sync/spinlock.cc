// kernel/sync/spinlock.cc - spinlocks and nested interrupt disabling.
//
// See spinlock.h for the design. acquire() is xv6's: interrupts off
// (push_off), the holding check, an atomic swap of 1 until it returns 0
// (amoswap.w.aq), a full fence so the critical section's loads and stores
// stay after it on RISC-V's weak memory model, then the holder recorded for
// holding(). release() undoes it in reverse: forget the holder, fence,
// store 0 (release order), pop_off. Between failed attempts and after a
// release, the platform's turn hand-off runs if the boot turned it on
// (kernel/arch/riscv/spin.h; otherwise each is one test of a flag).
// Acquiring a held lock or releasing one not held panics, as do pop_off()
// with interrupts on or without its push_off().
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

void SpinLock::acquire() {
    push_off();  // an interrupt handler on this hart could spin on it forever
    if (holding()) panic("acquire: lock '%s' already held by this hart", name_);
    arch::SpinWait wait;  // the turn hand-off (spin.h); idle unless on
    while (__atomic_exchange_n(&locked_, 1u, __ATOMIC_ACQUIRE) != 0) wait.relax(spun_);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    cpu_ = this_cpu();
}

bool SpinLock::try_acquire() {
    push_off();
    if (holding()) panic("try_acquire: lock '%s' already held by this hart", name_);
    if (__atomic_exchange_n(&locked_, 1u, __ATOMIC_ACQUIRE) != 0) {
        pop_off();
        return false;
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    cpu_ = this_cpu();
    return true;
}

void SpinLock::release() {
    if (!holding()) panic("release: lock '%s' not held by this hart", name_);
    cpu_ = nullptr;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    __atomic_store_n(&locked_, 0u, __ATOMIC_RELEASE);
    arch::spin_released(spun_);  // the turn hand-off (spin.h)
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
