// kernel/mm/tlb.h - TLB shootdown for a process whose threads run on other
// harts (docs/memory.md "Mappings").
#pragma once

namespace q {

struct ThreadGroup;

// This hart took a software interrupt (kernel/trap.cc): any shootdown
// request to it is answered.
void tlb_ipi_seen();
// After tg's page table lost or narrowed entries (munmap, mprotect): wait
// until every other hart running one of tg's threads has taken the IPI
// sent to it (a trap), so its TLB holds no old entry (the trampoline flushes on every entry to and
// exit from the kernel). Caller holds no spinlock (interrupts on).
void tlb_shootdown(const ThreadGroup* tg);
// The same whether or not tg has other threads (a page-out: the hart of a
// single-threaded tg running elsewhere is shot too).
void tlb_shootdown_any(const ThreadGroup* tg);

}  // namespace q
