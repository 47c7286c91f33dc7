// lib/sched/rr.cc - round robin (see rr.h for the design).
#include "lib/sched/rr.h"

#include "lib/seam.h"

namespace q::sched {

void RoundRobin::dequeue(Entity& e) {
    Q_ASSERT(e.queued);
    fifo_.remove(e);
    e.queued = false;
    count_--;
}

void RoundRobin::reweight(Entity& e, u32 weight, u8 level) {
    e.weight = weight;
    e.level = level;
}

}  // namespace q::sched
