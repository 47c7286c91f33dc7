// kernel/proc/futex.h - futexes: sleep on a 32-bit user word, wake its
// sleepers (the system call and its contract: kernel/proc/futex.cc).
//
// A futex is named by its process and the word's user address, so only the
// threads of one process meet on it (Linux's private futexes: quanta has no
// shared memory between processes). A wait may have a deadline in timer
// cycles; the timer interrupt of whichever hart sees it pass first ends the
// wait (trap.cc asks futex_next_deadline() when it arms a timer).
#pragma once

#include "lib/result.h"
#include "lib/types.h"

namespace q {

struct ThreadGroup;

// Wake up to n threads of tg waiting on addr; returns how many.
int futex_wake(const ThreadGroup* tg, u64 addr, int n);
// The earliest deadline of any timed wait (~0: none).
u64 futex_next_deadline();
// End every timed wait whose deadline is <= now (interrupt handlers may call).
void futex_expire(u64 now);

SysResult sys_futex();

}  // namespace q
