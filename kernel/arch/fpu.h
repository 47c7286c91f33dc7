// kernel/arch/fpu.h - user floating point, saved and restored lazily.
//
// The kernel itself never uses floating point; user programs may. Each Proc
// holds an FpState: its FP registers as last saved, and whether it has used
// FP at all. A process that never used FP runs with the FP unit off: its
// first FP instruction traps, fpu_first_use turns FP on (with zeroed
// registers) and the instruction runs again. From then on:
//   - on every trap from user mode, fpu_trap_entry saves the registers only
//     if the user changed them since they were last loaded or saved;
//   - on every return to user mode, fpu_enter_user loads them only if this
//     hart's FP registers hold someone else's state (another process ran FP
//     code here, or this one last ran on another hart).
// In between, the kernel runs with the FP unit off. A process that never
// used FP pays one flag test per crossing, and a switch between two
// processes that do pays at most one save and one load. The RISC-V side is
// kernel/arch/riscv/fpu.cc (the logic) and kernel/arch/riscv/fpu.S, the
// only file with FP instructions; tools/check_kernel_fp.py checks that in
// the linked kernel.
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

// At boot, on each hart: the FP unit off.
void fpu_init_hart();
// The arch's slow path of fpu_trap_entry.
void fpu_leave_user(FpState& fp);

// Trap from user mode, before anything else: save the user's registers if
// they changed, and turn the FP unit off (the kernel runs with it off, so
// an FP instruction in the kernel would trap). One load and branch for a
// process that never used FP: its FP unit is already off.
inline void fpu_trap_entry(FpState& fp) {
    if (fp.used) fpu_leave_user(fp);
}
// An illegal-instruction trap from user mode: if FP was off for this
// process, turn it on and return true (retry the instruction; the return
// path loads the zeroed registers); false if the fault is the user's.
inline bool fpu_first_use(FpState& fp) {
    if (fp.used) return false;
    fp.used = true;
    fp.last_cpu = -1;
    return true;
}
// Return to user mode. The FP unit is off in the kernel, which is right
// for a process that never used FP; for one that does (fpu_in_use) the
// return path ends with fpu_enter_user instead of its own jump: load the
// registers if this hart does not hold them, turn the FP unit on, then
// enter(satp, trapframe) (the jump to user mode). Interrupts off.
inline bool fpu_in_use(const FpState& fp) { return fp.used; }
[[noreturn]] void fpu_enter_user(FpState& fp, void (*enter)(u64, u64), u64 satp, u64 trapframe);

}  // namespace q
