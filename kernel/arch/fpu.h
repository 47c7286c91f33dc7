// kernel/arch/fpu.h - user floating point, saved and restored lazily.
//
// The kernel itself never uses floating point; user programs may. Each Proc
// holds an FpState: its FP registers as last saved, and whether it has used
// FP at all. A process that never used FP runs with the FP unit off: its
// first FP instruction traps, fpu_first_use turns FP on (with zeroed
// registers) and the instruction runs again. From then on:
//   - on every trap from user mode, fpu_trap_entry saves the registers only
//     if the user changed them since they were last loaded or saved;
//   - on every return to user mode, fpu_trap_return loads them only if this
//     hart's FP registers hold someone else's state (another process ran FP
//     code here, or this one last ran on another hart).
// The kernel does nothing with FP between those two points, so a process
// that never used FP pays one flag test per crossing, and a switch between
// two processes that do pays at most one save and one load. The arch code
// (kernel/arch/riscv/fpu.{cc,S}) is the only place with FP instructions;
// tools/check_kernel_fp.py checks that in the linked kernel.
#pragma once

#include "lib/types.h"

namespace q {

// Saved FP state: 32 registers and the control/status register (rounding
// mode and exception flags). The layout is the arch file's (static_asserts
// there); the rest of the kernel only copies and resets it.
struct FpState {
    u64 regs[32];
    u64 csr;
    int last_cpu;  // hart whose registers last held this state, -1: none
    bool used;     // has executed an FP instruction since exec

    // Fresh state (alloc, exec): FP off, registers and csr zero.
    void reset();
    // fork's copy of the parent's state (saved at the parent's trap entry).
    void copy_from(const FpState& parent);
};

// Trap from user mode, before anything else: save the user's registers if
// they changed. Cheap when the process does not use FP.
void fpu_trap_entry(FpState& fp);
// An illegal-instruction trap from user mode: if FP was off for this
// process, turn it on and return true (retry the instruction); false if
// the fault is the user's.
bool fpu_first_use(FpState& fp);
// Return to user mode (interrupts off): load the registers if this hart
// does not hold them, and put the FP unit in the state fp calls for.
void fpu_trap_return(FpState& fp);

}  // namespace q
