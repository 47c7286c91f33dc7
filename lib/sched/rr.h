// lib/sched/rr.h - round robin: one global FIFO, the xv6-like baseline.
//
// Invariants: every queued entity is in fifo_ exactly once and has
// e.queued set; pick takes the head, enqueue appends. Weights and levels are
// ignored; a woken task never preempts. All operations are O(1).
#pragma once

#include "lib/sched/policy.h"
#include "lib/sched/weights.h"
#include "lib/seam.h"

namespace q::sched {

class RoundRobin final : public Policy {
  public:
    constexpr RoundRobin() = default;
    explicit constexpr RoundRobin(const PolicyConfig&) {}

    const char* name() const override { return "rr"; }
    // enqueue and pick are inline (see dwrr.h).
    void enqueue(Entity& e, Time) override {
        Q_ASSERT(!e.queued);
        fifo_.push_back(e);
        e.queued = true;
        count_++;
    }
    void dequeue(Entity& e) override;
    Entity* pick(unsigned cpu, Time) override {
        Entity* e = fifo_.pop_front();
        if (!e) return nullptr;
        e->queued = false;
        e->cpu = static_cast<u16>(cpu);
        count_--;
        return e;
    }
    void charge(Entity&, Time) override {}
    bool preempts(const Entity&, const Entity&) const override { return false; }
    void reweight(Entity& e, u32 weight, u8 level) override;
    usize size() const override { return count_; }

  private:
    List<Entity, &Entity::link> fifo_;
    usize count_ = 0;
};

}  // namespace q::sched
