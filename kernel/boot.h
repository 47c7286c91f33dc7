// kernel/boot.h - entry points between boot stages.
//
// machine_start (arch/riscv/start.cc) runs in machine mode and mrets into
// kmain (kernel/main.cc) in supervisor mode on every hart.
#pragma once

#include "lib/types.h"

namespace q {

extern "C" [[noreturn]] void kmain();
extern u64 g_dtb_pa;  // device tree blob handed over by QEMU in a1

}  // namespace q
