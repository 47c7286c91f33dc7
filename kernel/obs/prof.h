// kernel/obs/prof.h - the kernel's sampling profiler (format:
// lib/obs/format.h, design: docs/profiling.md).
//
// While profiling is on, each hart records the interrupted PC of a timer
// interrupt every `period` timer cycles (kernel/trap.cc's clock_intr calls
// on_timer(); arm_timer() also arms the timer for next_due(), so samples
// come faster than the slice and the tick without changing either: a
// sample-only interrupt never ends a slice). Both hooks sit behind on(),
// one predictable branch when profiling is off. Each hart writes only its
// own buffer, with interrupts off (it runs in the trap handler): no locks.
#pragma once

#include "lib/obs/format.h"
#include "lib/result.h"
#include "lib/types.h"

namespace q::prof {

extern bool g_on;

inline bool on() { return __builtin_expect(__atomic_load_n(&g_on, __ATOMIC_RELAXED), false); }

void init();  // build the recorder (boot, before the first system call)

// A timer interrupt on this hart at `now` that interrupted `pc`: takes a
// sample if this hart's is due. kregs: the interrupted kernel registers
// (kernelvec.S, x[n] at kregs[n]), whose frame pointer s0 starts the call
// stack; null when the interrupt came from user mode. Interrupts off.
void on_timer(u64 now, u64 pc, const u64* kregs);

// When this hart's next sample is due (timer cycles). Interrupts off.
u64 next_due();

// The system calls (kernel/obs/prof.cc documents their contracts).
SysResult sys_prof_start();
SysResult sys_prof_stop();
SysResult sys_prof_read();

}  // namespace q::prof
