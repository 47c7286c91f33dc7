// kernel/mm/tlb.h - TLB shootdown for a process whose threads run on other
// harts (docs/memory.md "Mappings").
#pragma once

namespace q {

struct ThreadGroup;

// Every trap into the kernel on this hart (kernel/trap.cc) counts here.
void tlb_trap_seen();
// After tg's page table lost or narrowed entries (munmap, mprotect): wait
// until every other hart running one of tg's threads has trapped once, so
// its TLB holds no old entry (the trampoline flushes on every entry to and
// exit from the kernel). Caller holds no spinlock (interrupts on).
void tlb_shootdown(const ThreadGroup* tg);

}  // namespace q
