// kernel/fs/poll.h - poll(2)'s wait: one sequence number, one channel.
//
// Anything whose readiness a poller could see (pipe and FIFO bytes moved,
// a side opened or closed, a console line finished) calls poll_notify().
// The timer (kernel/trap.cc) arms for poll_next_deadline() and calls
// poll_expire() once it has passed. The call itself is in poll.cc.
#pragma once

#include "lib/types.h"

namespace q {

// Something changed: bump the sequence and wake the pollers (any context,
// any locks but the poll lock held; cheap when nobody polls).
void poll_notify();
// The earliest deadline of a sleeping timed poll (~0: none); a lower bound.
u64 poll_next_deadline();
// The deadline has passed (timer interrupt): wake the pollers to look.
void poll_expire();

}  // namespace q
