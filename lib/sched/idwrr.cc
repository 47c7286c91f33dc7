// lib/sched/idwrr.cc - the seed's interleaved DWRR (see idwrr.h).
#include "lib/sched/idwrr.h"

#include "lib/seam.h"

namespace q::sched {

// After at least one full sweep of refills without a pick: if every
// backlogged queue is still short of the price, replay whole sweeps of
// refills (from the current position) up to the one in which the first of
// them reaches it, which the loop then picks. Valid at any position: in the
// replayed sweeps no queue can reach the price.
void InterleavedDwrr::catch_up(Cpu& c) const {
    u64 sweeps = ~u64{0};
    for (u64 m = queues_.mask(); m; m &= m - 1) {
        unsigned i = ctz64(m);
        if (c.balance[i] >= price_) return;  // the next sweep picks it
        u64 k = (price_ - c.balance[i] + weights_[i] - 1) / weights_[i];
        if (k < sweeps) sweeps = k;
    }
    for (u64 m = queues_.mask(); m; m &= m - 1) {
        unsigned i = ctz64(m);
        c.balance[i] += (sweeps - 1) * weights_[i];
    }
}

// pick() after its first visit refilled queue i: keep visiting.
Entity* InterleavedDwrr::visit(Cpu& c, unsigned i, unsigned cpu) {
    for (unsigned refills = 1;;) {
        // kLevels consecutive refills cover at least one full sweep.
        if (refills == kLevels) catch_up(c);
        i = queues_.next_after(i);
        if (c.balance[i] >= price_) return take(c, i, cpu);
        c.balance[i] += weights_[i];
        ++refills;
    }
}

bool InterleavedDwrr::preempts(const Entity& woken, const Entity& running) const {
    if (weights_[woken.level] <= weights_[running.level]) return false;
    return cpus_[running.cpu].balance[woken.level] >= price_;
}

}  // namespace q::sched
