// kernel/trap.h - what the trap code (kernel/trap.cc) offers the rest of
// the kernel: per-hart trap set-up, the clock and the preemption timer.
//
// The clock is the RISC-V `time` CSR (param::kTimerHz). g_ticks counts the
// 0.1 s ticks of sleep()/uptime() under g_ticks_lock. Each hart's timer is
// armed for the earlier of its slice's end and the next deadline someone
// asked for (a futex or poll timeout, the profiler's next sample).
#pragma once

#include "kernel/sync/spinlock.h"
#include "lib/types.h"

namespace q {

// stvec and the FP unit of this hart (each hart, at boot).
void trap_init_hart();

extern u64 g_ticks;
extern SpinLock g_ticks_lock;
// The preemption slice in timer cycles, set once at boot (kernel/main.cc).
extern u64 g_slice_cycles;
// The scheduler tick in timer cycles (0: none), set once at boot.
extern u64 g_tick_cycles;
u64 now_cycles();
// Give the process being dispatched its turn of `cycles` (re-arms this
// hart's timer; the run queue's RqTask::turn_end less the pick time).
void timer_new_slice(u64 cycles);
// Re-arm this hart's timer (a new futex deadline or profiler period; interrupts off).
void timer_rearm();
// Arm the timer for this hart's next deadline, not a turn ahead: it is
// about to idle (a halted hart holds no turn; kernel/arch/riscv/spin.h).
void timer_idle();

}  // namespace q
