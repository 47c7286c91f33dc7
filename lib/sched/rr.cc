// lib/sched/rr.cc - round robin (see rr.h for the design).
#include "lib/sched/rr.h"

#include "lib/seam.h"

namespace q::sched {

void RoundRobin::enqueue(Entity& e, Time) {
    Q_ASSERT(!e.queued);
    fifo_.push_back(e);
    e.queued = true;
    count_++;
}

void RoundRobin::dequeue(Entity& e) {
    Q_ASSERT(e.queued);
    fifo_.remove(e);
    e.queued = false;
    count_--;
}

Entity* RoundRobin::pick(unsigned cpu, Time) {
    Entity* e = fifo_.pop_front();
    if (!e) return nullptr;
    e->queued = false;
    e->cpu = static_cast<u16>(cpu);
    count_--;
    return e;
}

void RoundRobin::reweight(Entity& e, u32 weight, u8 level) {
    e.weight = weight;
    e.level = level;
}

}  // namespace q::sched
