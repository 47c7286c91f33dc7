// kernel/lib/deadline.h - the earliest of many waiters' timer deadlines.
//
// Futex waits (kernel/proc/futex.cc) and polls (kernel/fs/poll.cc) each keep
// one. A timed waiter lowers it before it sleeps and re-arms its hart's
// timer; every hart's timer is armed no later than it (kernel/trap.cc), and
// the clock interrupt that finds it passed resets it and wakes the waiters,
// each of which lowers it again if it still waits. It is a lower bound, not
// exact: a waiter that leaves early leaves it stale, which costs one early
// interrupt. Lock-free: lower() may race with reset() on another hart; a
// waiter that lowers after the reset is seen by the next interrupt, one that
// lowered before it is woken by the reset's scan.
#pragma once

#include "lib/types.h"

namespace q {

class EarliestDeadline {
  public:
    static constexpr u64 kNone = ~0ull;

    u64 get() const { return __atomic_load_n(&at_, __ATOMIC_RELAXED); }

    // Make the deadline at most d (timer cycles).
    void lower(u64 d) {
        u64 cur = __atomic_load_n(&at_, __ATOMIC_RELAXED);
        while (d < cur && !__atomic_compare_exchange_n(&at_, &cur, d, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {}
    }

    // No deadline until a waiter lowers it again (before the waiters are
    // scanned or woken).
    void reset() {
        __atomic_store_n(&at_, kNone, __ATOMIC_SEQ_CST);
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    }

  private:
    u64 at_ = kNone;
};

}  // namespace q
