// kernel/arch/riscv/fpu.cc - lazy user FP state through sstatus.FS.
//
// sstatus.FS (bits 13-14, kSstatusFs) says what the FP unit holds: Off (FP
// instructions trap as illegal), Initial, Clean (registers equal the saved
// copy) or Dirty (the user changed them since). The kernel runs with FS
// Off. usertrap sees the user's FS: Dirty means save, then Off. For a
// process that uses FP, fpu_enter_user sets it to Clean, just before
// sret, after making sure this hart's registers hold its state.
// g_owner[h] names the FpState whose values hart h's registers hold; with
// FpState::last_cpu it tells when a load can be skipped. A state that was
// reset or copied has last_cpu -1, so a recycled Proc slot always loads.
// No FP instructions here: they are all in fpu.S.
#include <stddef.h>

#include "kernel/arch/fpu.h"
#include "kernel/arch/riscv/csr.h"
#include "kernel/lib/string.h"
#include "kernel/proc/proc.h"
#include "lib/params.h"

extern "C" void fpu_save(q::FpState* fp);
extern "C" void fpu_load(const q::FpState* fp);

namespace q {

static_assert(offsetof(FpState, regs) == 0, "fpu.S: f0..f31 at 0..248");
static_assert(offsetof(FpState, csr) == 256, "fpu.S: fcsr at 256");

namespace {

constexpr u64 kFsClean = 2ull << 13;
constexpr u64 kFsDirty = 3ull << 13;

// Per hart: whose FP values its registers hold (interrupts off to touch).
constinit const FpState* g_owner[param::kMaxCpus] = {};

}  // namespace

void FpState::reset() {
    memset(regs, 0, sizeof(regs));
    csr = 0;
    last_cpu = -1;
    used = false;
}

void FpState::copy_from(const FpState& parent) {
    *this = parent;
    last_cpu = -1;
}

void fpu_init_hart() { riscv::w_sstatus(riscv::r_sstatus() & ~riscv::kSstatusFs); }

void fpu_leave_user(FpState& fp) {
    const u64 s = riscv::r_sstatus();
    if ((s & riscv::kSstatusFs) == kFsDirty) fpu_save(&fp);
    riscv::w_sstatus(s & ~riscv::kSstatusFs);
}

void fpu_enter_user(FpState& fp, void (*enter)(u64, u64), u64 satp, u64 trapframe) {
    const int hart = cpuid();
    if (g_owner[hart] != &fp || fp.last_cpu != hart) {
        fpu_load(&fp);  // and FS = Clean
        g_owner[hart] = &fp;
        fp.last_cpu = hart;
    } else {
        riscv::w_sstatus((riscv::r_sstatus() & ~riscv::kSstatusFs) | kFsClean);
    }
    enter(satp, trapframe);
    __builtin_unreachable();
}

}  // namespace q
