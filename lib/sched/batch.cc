// lib/sched/batch.cc - FIFO, SJF and STCF (see batch.h for the design).
#include "lib/sched/batch.h"

namespace q::sched {

void BatchPolicy::enqueue(Entity& e, Time) {
    Q_ASSERT(!e.queued);
    (e.picked ? resumed_ : waiting_).push_back(e);
    e.picked = false;
    e.queued = true;
    count_++;
}

void BatchPolicy::dequeue(Entity& e) {
    Q_ASSERT(e.queued);
    List<Entity, &Entity::link>::remove(e);
    e.queued = false;
    count_--;
}

Entity* BatchPolicy::shortest(List<Entity, &Entity::link>& list, Entity* best) {
    for (Entity& e : list) {
        if (!best || work_->shorter(e, *best)) best = &e;
    }
    return best;
}

Entity* BatchPolicy::pick(unsigned cpu, Time) {
    Entity* e = nullptr;
    if (kind_ == Kind::Stcf) {
        e = shortest(waiting_, shortest(resumed_, nullptr));
    } else {
        e = resumed_.front();
        if (!e) e = kind_ == Kind::Fifo ? waiting_.front() : shortest(waiting_, nullptr);
    }
    if (!e) return nullptr;
    List<Entity, &Entity::link>::remove(*e);
    e->queued = false;
    e->picked = true;
    e->cpu = static_cast<u16>(cpu);
    count_--;
    return e;
}

void BatchPolicy::reweight(Entity& e, u32 weight, u8 level) {
    e.weight = weight;
    e.level = level;
}

}  // namespace q::sched
