// kernel/arch/riscv/plic.cc - PLIC set-up and IPIs on QEMU virt.
//
// Each hart has a supervisor context (number 2*hart+1) with its own enable
// bits, priority threshold and claim/complete register. Devices get
// priority 1 and thresholds are 0, so any enabled device interrupts.
// IPIs: writing 1 to the CLINT's msip word of a hart raises its machine
// software interrupt; machinevec.S turns it into a supervisor one.
#include "kernel/arch/riscv/plic.h"

#include "kernel/arch/riscv/csr.h"
#include "kernel/arch/riscv/memlayout.h"
#include "kernel/proc/proc.h"

namespace q {

namespace {
constexpr u64 kClintMsip = 0x200'0000;

volatile u32& plic_reg(u64 off) { return *reinterpret_cast<volatile u32*>(layout::kPlic + off); }
u64 senable(int hart) { return 0x2080 + static_cast<u64>(hart) * 0x100; }
u64 spriority(int hart) { return 0x201000 + static_cast<u64>(hart) * 0x2000; }
u64 sclaim(int hart) { return 0x201004 + static_cast<u64>(hart) * 0x2000; }
}  // namespace

void plic_init() {
    plic_reg(layout::kUart0Irq * 4) = 1;
    plic_reg(layout::kVirtio0Irq * 4) = 1;
}

void plic_init_hart() {
    const int hart = cpuid();
    plic_reg(senable(hart)) = (1u << layout::kUart0Irq) | (1u << layout::kVirtio0Irq);
    plic_reg(spriority(hart)) = 0;
}

u32 plic_claim() { return plic_reg(sclaim(cpuid())); }
void plic_complete(u32 irq) { plic_reg(sclaim(cpuid())) = irq; }

// Under QEMU -icount all harts share one host thread in turns, and the
// sender keeps it until its share of the time to the next virtual deadline
// is used up or it waits in wfi: an idle target sat in wfi with the IPI
// pending for up to a few ms (issue 6). Moving this hart's timer deadline
// just ahead makes QEMU stop this hart and run the next one (the CSR write
// ends the translation block, so this happens before the next instruction,
// which puts the deadline back). On hardware it is two CSR writes.
void send_ipi(int hart) {
    *reinterpret_cast<volatile u32*>(kClintMsip + 4 * static_cast<u64>(hart)) = 1;
    const u64 deadline = riscv::r_stimecmp();
    riscv::w_stimecmp(riscv::r_time() + 1);
    riscv::w_stimecmp(deadline);
}

}  // namespace q
