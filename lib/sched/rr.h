// lib/sched/rr.h - round robin: one global FIFO, the xv6-like baseline.
//
// Invariants: every queued entity is in fifo_ exactly once and has
// e.queued set; pick takes the head, enqueue appends. Weights and levels are
// ignored; a woken task never preempts. All operations are O(1).
#pragma once

#include "lib/sched/policy.h"

namespace q::sched {

class RoundRobin final : public Policy {
  public:
    constexpr RoundRobin() = default;

    const char* name() const override { return "rr"; }
    void enqueue(Entity& e, Time now) override;
    void dequeue(Entity& e) override;
    Entity* pick(unsigned cpu, Time now) override;
    void charge(Entity&, Time) override {}
    bool preempts(const Entity&, const Entity&) const override { return false; }
    void reweight(Entity& e, u32 weight, u8 level) override;
    usize size() const override { return count_; }

  private:
    List<Entity, &Entity::link> fifo_;
    usize count_ = 0;
};

}  // namespace q::sched
