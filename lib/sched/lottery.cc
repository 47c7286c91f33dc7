// lib/sched/lottery.cc - lottery scheduling (see lottery.h for the design).
#include "lib/sched/lottery.h"

namespace q::sched {

namespace {

u32 tickets_of(const Entity& e) { return e.weight ? e.weight : 1; }

}  // namespace

void Lottery::enqueue(Entity& e, Time) {
    Q_ASSERT(!e.queued);
    queue_.push_back(e);
    e.queued = true;
    count_++;
    tickets_ += tickets_of(e);
}

void Lottery::dequeue(Entity& e) {
    Q_ASSERT(e.queued);
    queue_.remove(e);
    e.queued = false;
    count_--;
    tickets_ -= tickets_of(e);
}

Entity* Lottery::pick(unsigned cpu, Time) {
    if (count_ == 0) return nullptr;
    const u64 winner = rng_.below(tickets_);
    u64 counter = 0;
    Entity* chosen = nullptr;
    for (Entity& e : queue_) {
        counter += tickets_of(e);
        if (counter > winner) {
            chosen = &e;
            break;
        }
    }
    Q_ASSERT(chosen != nullptr);
    dequeue(*chosen);
    chosen->cpu = static_cast<u16>(cpu);
    return chosen;
}

void Lottery::reweight(Entity& e, u32 weight, u8 level) {
    if (e.queued) tickets_ -= tickets_of(e);
    e.weight = weight;
    e.level = level;
    if (e.queued) tickets_ += tickets_of(e);
}

}  // namespace q::sched
