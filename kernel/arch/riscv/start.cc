// kernel/arch/riscv/start.cc - machine-mode set-up, then a drop to supervisor.
//
// Every hart arrives here from entry.S in machine mode. We delegate all
// exceptions and supervisor interrupts to supervisor mode, open physical
// memory to it with one PMP entry, enable the Sstc timer (stimecmp) and the
// time CSR for S and U mode, install a tiny machine-mode vector that turns
// machine software interrupts (inter-processor interrupts sent through the
// CLINT) into supervisor software interrupts, and mret into kmain().
#include "kernel/arch/riscv/csr.h"
#include "kernel/arch/riscv/memlayout.h"
#include "kernel/boot.h"
#include "lib/params.h"

namespace q {

constexpr u64 kBootStackBytes = 16384;
extern "C" {
// Boot stacks, one per hart (entry.S).
alignas(16) constinit char g_boot_stacks[kBootStackBytes * param::kMaxCpus];
}
// Constants the assembly reads from memory, so each has one definition:
// entry.S parks harts with ids at or above g_max_harts before using any
// stack, and gives each of the others g_boot_stack_bytes; machinevec.S
// clears the CLINT's msip word at g_clint_base.
extern "C" constinit const u64 g_max_harts = param::kMaxCpus;
extern "C" constinit const u64 g_boot_stack_bytes = kBootStackBytes;
extern "C" constinit const u64 g_clint_base = layout::kClint;
constinit u64 g_dtb_pa = 0;
static constinit u64 g_mscratch[param::kMaxCpus][4];

extern "C" void machine_vector();
extern "C" [[noreturn]] void machine_start(u64 hartid, u64 dtb);

using namespace riscv;

static void timer_init() {
    w_mie(r_mie() | kMieStie | kMieMsie);  // the timer, and IPIs
    w_menvcfg(r_menvcfg() | kMenvcfgStce);
    w_mcounteren(r_mcounteren() | kCounterenTm);     // time CSR readable below M mode
    w_stimecmp(r_time() + param::kBaseSliceCycles);  // re-armed at the first dispatch
}

extern "C" void machine_start(u64 hartid, u64 dtb) {
    if (hartid == 0) g_dtb_pa = dtb;
    u64 ms = r_mstatus();
    ms = (ms & ~kMstatusMppMask) | kMstatusMppS;
    w_mstatus(ms);
    w_mepc(reinterpret_cast<u64>(&kmain));
    w_satp(0);
    w_medeleg(kDelegateCauses0To15);
    w_mideleg(kDelegateCauses0To15);
    w_sie(r_sie() | kSieSeie | kSieStie | kSieSsie);
    w_pmpaddr0(kPmpAddrAll);
    w_pmpcfg0(kPmpR | kPmpW | kPmpX | kPmpTor);
    asm volatile("csrw mscratch, %0" : : "r"(reinterpret_cast<u64>(&g_mscratch[hartid][0])));
    asm volatile("csrw mtvec, %0" : : "r"(reinterpret_cast<u64>(&machine_vector)));
    timer_init();
    w_tp(hartid);
    asm volatile("mret");
    __builtin_unreachable();
}

}  // namespace q
