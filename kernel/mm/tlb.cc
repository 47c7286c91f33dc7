// kernel/mm/tlb.cc - TLB shootdown by IPI.
//
// A hart caches translations of the page table it runs; the trampoline
// flushes its whole TLB (sfence.vma) on every trap into the kernel and on
// every return to user mode, so a hart that has trapped since a page-table
// change holds no stale entry of it. munmap and mprotect of a process with
// several threads therefore change the table under pt_lock, release it,
// and then, for every other hart whose running thread is of the same
// process, note that hart's trap count, send it an IPI and wait until the
// count moves (or the hart runs something else, which also went through
// the kernel). Only after that are unmapped pages freed. The waiting hart
// holds no spinlock and has interrupts on, so two harts shooting at each
// other both take the other's IPI; a hart in the kernel with interrupts off
// takes it when it turns them on or returns to user mode, whichever is first.
// A single-threaded process needs none of this: its own hart flushes on the
// way back to user mode.
#include "kernel/mm/tlb.h"

#include "kernel/arch/riscv/plic.h"
#include "kernel/proc/internal.h"
#include "kernel/sync/spinlock.h"

namespace q {

namespace {

constinit u64 g_traps[param::kMaxCpus] = {};

bool runs_group(int hart, const ThreadGroup* tg) {
    const Proc* p = __atomic_load_n(&g_cpus[hart].proc, __ATOMIC_ACQUIRE);
    return p != nullptr && __atomic_load_n(&p->tg, __ATOMIC_ACQUIRE) == tg;
}

}  // namespace

void tlb_trap_seen() { __atomic_fetch_add(&g_traps[cpuid()], 1, __ATOMIC_RELEASE); }

void tlb_shootdown(const ThreadGroup* tg) {
    if (!tg->shared()) return;
    push_off();
    const int me = cpuid();
    pop_off();
    for (int h = 0; h < param::kMaxCpus; h++) {
        if (h == me || !runs_group(h, tg)) continue;
        const u64 seen = __atomic_load_n(&g_traps[h], __ATOMIC_ACQUIRE);
        send_ipi(h);
        while (__atomic_load_n(&g_traps[h], __ATOMIC_ACQUIRE) == seen && runs_group(h, tg)) {
            asm volatile("nop");
        }
    }
}

}  // namespace q
