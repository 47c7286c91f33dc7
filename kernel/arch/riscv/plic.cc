// kernel/arch/riscv/plic.cc - PLIC set-up and IPIs on QEMU virt.
//
// Each hart has a supervisor context (number 2*hart+1) with its own enable
// bits, priority threshold and claim/complete register. Devices get
// priority 1 and thresholds are 0, so any enabled device interrupts.
// IPIs: writing 1 to the CLINT's msip word of a hart raises its machine
// software interrupt; machinevec.S turns it into a supervisor one.
#include "kernel/arch/riscv/plic.h"

#include "kernel/arch/riscv/memlayout.h"
#include "kernel/proc/proc.h"

namespace q {

namespace {

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

void send_ipi(int hart) { *reinterpret_cast<volatile u32*>(layout::kClint + 4 * static_cast<u64>(hart)) = 1; }

}  // namespace q
