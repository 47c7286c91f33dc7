// lib/sched/dwrr.cc - classic DWRR (see dwrr.h for the design).
#include "lib/sched/dwrr.h"

#include "lib/seam.h"

namespace q::sched {

// Every backlogged queue is short of the price: add the credit of all the
// rounds in which none of them could reach it, so the next round picks.
void Dwrr::catch_up(Cpu& c) const {
    u64 rounds = ~u64{0};
    for (u64 m = queues_.mask(); m; m &= m - 1) {
        unsigned i = ctz64(m);
        u64 gap = static_cast<u64>(need() - c.balance[i]);
        u64 k = (gap + credit(i) - 1) / credit(i);  // refills still needed (>= 1)
        if (k < rounds) rounds = k;
    }
    for (u64 m = queues_.mask(); m; m &= m - 1) {
        unsigned i = ctz64(m);
        c.balance[i] += static_cast<i64>(rounds - 1) * credit(i);
    }
}

// pick()'s slow path: the cursor's queue is empty or out of credit.
Entity* Dwrr::rotate(Cpu& c, unsigned i, unsigned cpu) {
    for (unsigned visits = 0;; visits++) {
        if (visits == kLevels) catch_up(c);  // a full sweep found no credit
        i = queues_.next_after(i);
        c.balance[i] += credit(i);
        if (c.balance[i] >= need()) return take(c, i, cpu);
    }
}

bool Dwrr::preempts(const Entity& woken, const Entity& running) const {
    return weights_[woken.level] > weights_[running.level];
}

}  // namespace q::sched
