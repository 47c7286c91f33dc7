// kernel/arch/riscv/plic.h - the platform-level interrupt controller.
#pragma once

#include "lib/types.h"

namespace q {

void plic_init();       // set device priorities (once)
void plic_init_hart();  // enable UART and virtio for this hart's S context
u32 plic_claim();       // the pending IRQ, or 0
void plic_complete(u32 irq);
// Raise a software interrupt on another hart (through the CLINT).
void send_ipi(int hart);

}  // namespace q
