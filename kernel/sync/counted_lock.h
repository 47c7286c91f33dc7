// kernel/sync/counted_lock.h - a spinlock that keeps statistics: the run
// queues' lock (kernel/proc/runqueue.cc; rq_stat reports the figures to
// lockstat and ps). Every other lock is a plain SpinLock.
//
// acquire() first tries the lock once; if it is taken, it waits in
// SpinLock::acquire() and counts the acquisition as contended, with the
// timer cycles it spent waiting (at least 1). The counters are guarded by
// the lock itself and updated right after taking it. A hand-off is an
// acquisition by another hart than the last holder's.
#pragma once

#include "kernel/arch/riscv/csr.h"
#include "kernel/proc/proc.h"
#include "kernel/sync/spinlock.h"

namespace q {

class CountedLock {
  public:
    void acquire() {
        u64 waited = 0;
        if (!lock_.try_acquire()) {
            const u64 start = riscv::r_time();
            lock_.acquire();
            waited = riscv::r_time() - start + 1;
        }
        count(waited);
    }
    void release() { lock_.release(); }

    // Guarded by the lock.
    u64 acquisitions = 0;
    u64 contentions = 0;
    u64 spin_cycles = 0;
    u64 handoffs = 0;  // acquisitions by another hart than the last holder

  private:
    void count(u64 waited) {
        acquisitions++;
        const int me = cpuid();
        if (me != last_holder_) {
            if (last_holder_ >= 0) handoffs++;
            last_holder_ = me;
        }
        if (waited) {
            contentions++;
            spin_cycles += waited;
        }
    }

    SpinLock lock_{"runqueue"};
    int last_holder_ = -1;
};

}  // namespace q
