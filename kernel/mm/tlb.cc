// kernel/mm/tlb.cc - TLB shootdown by IPI.
//
// A hart caches translations of the page table it runs; the trampoline
// flushes its whole TLB (sfence.vma) on every trap into the kernel and on
// every return to user mode, so a hart that has trapped since a page-table
// change holds no stale entry of it. munmap and mprotect of a process with
// several threads therefore change the table under pt_lock, release it,
// and then, for every other hart whose running thread is of the same
// process, raise that hart's request flag, send it an IPI and wait until
// its software-interrupt handler clears the flag (or the hart runs
// something else, which also went through the kernel). A hart in kernel
// mode when the IPI lands holds no user entry it will use: it flushes on
// the way back. Only after that are unmapped pages freed. Nothing is added
// to the system-call path (a per-trap counter cost the null call 13%). The waiting hart
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

constinit u32 g_request[param::kMaxCpus] = {};

bool runs_group(int hart, const ThreadGroup* tg) {
    const Proc* p = __atomic_load_n(&g_cpus[hart].proc, __ATOMIC_ACQUIRE);
    return p != nullptr && __atomic_load_n(&p->tg, __ATOMIC_ACQUIRE) == tg;
}

}  // namespace

void tlb_ipi_seen() { __atomic_store_n(&g_request[cpuid()], 0, __ATOMIC_RELEASE); }

void tlb_shootdown(const ThreadGroup* tg) {
    if (!tg->shared()) return;
    tlb_shootdown_any(tg);
}

void tlb_shootdown_any(const ThreadGroup* tg) {
    push_off();
    const int me = cpuid();
    pop_off();
    for (int h = 0; h < param::kMaxCpus; h++) {
        if (h == me || !runs_group(h, tg)) continue;
        __atomic_store_n(&g_request[h], 1, __ATOMIC_SEQ_CST);
        send_ipi(h);
        while (__atomic_load_n(&g_request[h], __ATOMIC_ACQUIRE) != 0 && runs_group(h, tg)) {
            asm volatile("nop");
        }
    }
}

}  // namespace q
