// kernel/arch/riscv/csr.h - RISC-V control and status registers, Sv39 bits.
//
// Thin inline accessors, one pair per CSR the kernel uses, plus the bit
// definitions for mstatus/sstatus, interrupt enables and page-table entries.
// Code under kernel/arch/riscv uses all of it, and so, directly, does much
// of the rest of the kernel: trap.cc (scause, sepc, stval, stvec, sip, the
// timer), the memory code (Sv39 PTE bits, satp), the scheduler and the
// spinlocks (interrupt enable, tp), main.cc and syslibc.cc (scounteren).
// Moving those uses behind an arch-neutral header is still to do.
#pragma once

#include "lib/types.h"

namespace q::riscv {

#define Q_DEFINE_CSR(name)                         \
    inline u64 r_##name() {                        \
        u64 x;                                     \
        asm volatile("csrr %0, " #name : "=r"(x)); \
        return x;                                  \
    }                                              \
    inline void w_##name(u64 x) { asm volatile("csrw " #name ", %0" : : "r"(x)); }

Q_DEFINE_CSR(mhartid)
Q_DEFINE_CSR(mstatus)
Q_DEFINE_CSR(mepc)
Q_DEFINE_CSR(medeleg)
Q_DEFINE_CSR(mideleg)
Q_DEFINE_CSR(mie)
Q_DEFINE_CSR(menvcfg)
Q_DEFINE_CSR(mcounteren)
Q_DEFINE_CSR(pmpcfg0)
Q_DEFINE_CSR(pmpaddr0)
Q_DEFINE_CSR(sstatus)
Q_DEFINE_CSR(sip)
Q_DEFINE_CSR(sie)
Q_DEFINE_CSR(sepc)
Q_DEFINE_CSR(stvec)
Q_DEFINE_CSR(scause)
Q_DEFINE_CSR(stval)
Q_DEFINE_CSR(satp)
Q_DEFINE_CSR(scounteren)
Q_DEFINE_CSR(stimecmp)
Q_DEFINE_CSR(time)
#undef Q_DEFINE_CSR

inline u64 r_tp() {
    u64 x;
    asm volatile("mv %0, tp" : "=r"(x));
    return x;
}
inline void w_tp(u64 x) { asm volatile("mv tp, %0" : : "r"(x)); }

// mstatus
constexpr u64 kMstatusMppMask = 3ull << 11;
constexpr u64 kMstatusMppS = 1ull << 11;
// sstatus
constexpr u64 kSstatusSpp = 1ull << 8;   // previous mode: 1 = supervisor
constexpr u64 kSstatusSpie = 1ull << 5;  // previous interrupt enable
constexpr u64 kSstatusSie = 1ull << 1;   // supervisor interrupt enable
constexpr u64 kSstatusSum = 1ull << 18;  // supervisor may access user pages (we never set it)
constexpr u64 kSstatusFs = 3ull << 13;   // FP unit: 0 off, 1 initial, 2 clean, 3 dirty
// sie / sip
constexpr u64 kSieSsie = 1ull << 1;  // software
constexpr u64 kSieStie = 1ull << 5;  // timer
constexpr u64 kSieSeie = 1ull << 9;  // external
// mie (machine mode's own enables)
constexpr u64 kMieMsie = 1ull << 3;  // software: IPIs reach machine mode
constexpr u64 kMieStie = 1ull << 5;  // supervisor timer
// menvcfg: Sstc (supervisor timer compare) enable
constexpr u64 kMenvcfgStce = 1ull << 63;
// mcounteren / scounteren: the next mode down may read the counter
constexpr u64 kCounterenTm = 1ull << 1;  // `time`
// medeleg / mideleg: hand causes 0..15 (every standard one) to supervisor mode
constexpr u64 kDelegateCauses0To15 = 0xffff;
// pmpcfg entry 0: read, write, execute, top-of-range matching, so that
// pmpaddr0 = kPmpAddrAll opens all physical memory to supervisor mode
constexpr u64 kPmpR = 1ull << 0;
constexpr u64 kPmpW = 1ull << 1;
constexpr u64 kPmpX = 1ull << 2;
constexpr u64 kPmpTor = 1ull << 3;
constexpr u64 kPmpAddrAll = 0x3fffffffffffffull;  // the top of a 56-bit space, >> 2

// scause values
constexpr u64 kCauseInterrupt = 1ull << 63;
constexpr u64 kIrqSoftware = 1;
constexpr u64 kIrqTimer = 5;
constexpr u64 kIrqExternal = 9;
constexpr u64 kExcInstMisaligned = 0;
constexpr u64 kExcInstAccessFault = 1;
constexpr u64 kExcIllegalInstr = 2;
constexpr u64 kExcBreakpoint = 3;
constexpr u64 kExcLoadMisaligned = 4;
constexpr u64 kExcLoadAccessFault = 5;
constexpr u64 kExcStoreMisaligned = 6;
constexpr u64 kExcStoreAccessFault = 7;
constexpr u64 kExcEcallUser = 8;
constexpr u64 kExcInstPageFault = 12;
constexpr u64 kExcLoadPageFault = 13;
constexpr u64 kExcStorePageFault = 15;

inline void intr_on() { w_sstatus(r_sstatus() | kSstatusSie); }
inline void intr_off() { w_sstatus(r_sstatus() & ~kSstatusSie); }
inline bool intr_get() { return (r_sstatus() & kSstatusSie) != 0; }
// Turn interrupts off and return the previous sstatus (one csrrci), for a
// window too short to need push_off's nesting count; intr_restore(saved)
// turns them back on only if they were on.
inline u64 intr_save_off() {
    u64 x;
    asm volatile("csrrci %0, sstatus, %1" : "=r"(x) : "i"(kSstatusSie) : "memory");
    return x;
}
inline void intr_restore(u64 saved) {
    if (saved & kSstatusSie) asm volatile("csrsi sstatus, %0" : : "i"(kSstatusSie) : "memory");
}

inline void sfence_vma() { asm volatile("sfence.vma zero, zero"); }
inline void wfi() { asm volatile("wfi"); }

// Sv39 page tables.
using Pte = u64;
constexpr u64 kPteV = 1 << 0;
constexpr u64 kPteR = 1 << 1;
constexpr u64 kPteW = 1 << 2;
constexpr u64 kPteX = 1 << 3;
constexpr u64 kPteU = 1 << 4;
constexpr u64 kPteFlagsMask = 0x3ff;
constexpr u64 kSatpSv39 = 8ull << 60;
constexpr u64 make_satp(u64 root_pa) { return kSatpSv39 | (root_pa >> 12); }
constexpr u64 pa_to_pte(u64 pa) { return (pa >> 12) << 10; }
constexpr u64 pte_to_pa(Pte pte) { return (pte >> 10) << 12; }
constexpr u64 pte_flags(Pte pte) { return pte & kPteFlagsMask; }
constexpr u64 vpn(u64 va, int level) { return (va >> (12 + 9 * level)) & 0x1ff; }
// One past the highest virtual address we use: Sv39 allows 2^39, but keeping
// to 2^38 avoids sign-extending addresses with the top bit set.
constexpr u64 kMaxVa = 1ull << 38;

}  // namespace q::riscv
