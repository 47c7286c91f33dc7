// kernel/arch/riscv/trapframe.h - the per-thread page that saves user registers.
//
// trampoline.S writes the user's registers here on a trap from user mode and
// reads them back on return. The first five words are set by the kernel
// (usertrap_return) for uservec's use. regs[n-1] holds register xn, so the
// assembly computes offsets as 40 + (n-1)*8. Layout is fixed by the asm:
// static_asserts below pin it. Only the TrapFrame at the start of its page
// is initialised (kernel/proc/proc.cc:alloc_slot zeroes it); the rest of
// the page holds junk and is read by nobody.
#pragma once

#include <stddef.h>

#include "lib/types.h"

namespace q {

struct TrapFrame {
    u64 kernel_satp;    // 0: kernel page table
    u64 kernel_sp;      // 8: top of this process's kernel stack
    u64 kernel_trap;    // 16: usertrap()
    u64 epc;            // 24: saved user pc
    u64 kernel_hartid;  // 32: tp for the kernel
    u64 regs[31];       // 40: x1..x31

    enum Reg : int { ra = 1, sp = 2, gp = 3, tp = 4, a0 = 10, a1 = 11, a2 = 12, a3 = 13, a4 = 14, a5 = 15, a7 = 17 };
    u64& x(int n) { return regs[n - 1]; }
};

static_assert(offsetof(TrapFrame, kernel_satp) == 0);
static_assert(offsetof(TrapFrame, kernel_sp) == 8);
static_assert(offsetof(TrapFrame, kernel_trap) == 16);
static_assert(offsetof(TrapFrame, epc) == 24);
static_assert(offsetof(TrapFrame, kernel_hartid) == 32);
static_assert(offsetof(TrapFrame, regs) == 40);
static_assert(sizeof(TrapFrame) == 40 + 31 * 8);
static_assert(sizeof(TrapFrame) <= kPageSize);

}  // namespace q
