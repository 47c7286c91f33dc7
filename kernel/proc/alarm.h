// kernel/proc/alarm.h - alarm() and setitimer(ITIMER_REAL): SIGALRM on a
// virtual-time deadline (docs/signals.md "alarm and setitimer").
#pragma once

#include "lib/result.h"
#include "lib/types.h"

namespace q {

// The earliest alarm due (timer cycles; ~0: none). The clock interrupt
// arms every hart's timer no later than it (kernel/trap.cc).
u64 alarm_next_deadline();
// From the clock interrupt once that deadline passed: SIGALRM to every
// process whose alarm is due; periodic ones are re-armed.
void alarm_expire(u64 now);

SysResult sys_alarm();
SysResult sys_setitimer();
SysResult sys_getitimer();

}  // namespace q
