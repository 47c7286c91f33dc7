// lib/sched/mlfq.h - the Multi-Level Feedback Queue of OSTEP chapter 8.
//
// Rules (OSTEP's final set; queue 0 is the highest priority here, mlfq.py
// numbers them the other way round):
//   1. a task of a higher queue runs before one of a lower queue;
//   2. tasks of one queue take turns, each for the queue's quantum;
//   3. a new task enters the top queue;
//   4. once a task has used its queue's allotment of time (however many
//      times it gave the cpu up on the way) it moves down one queue; at the
//      last queue its allotment just starts again;
//   5. every boost period every task moves back to the top queue.
// I/O options (mlfq.py -S and -I): io_reset gives a task that slept a fresh
// allotment and quantum at its queue (the gameable rule of the chapter's
// first version), io_front queues a woken task at the front of its queue
// instead of the back. Both off by default (the gaming-proof rule 4).
//
// Mapping onto the Policy protocol. Time is the caller's (a tick in the
// simulator, timer cycles in the kernel). The caller preempts every slice;
// a queue's quantum may be longer: charge() adds the time run to the task's
// quantum use (Entity.mlfq.turn) and allotment use (Entity.mlfq.used); a task put back
// right after running (Entity.picked) with quantum left goes to the front of
// its queue, so it continues its quantum, and with its quantum used up to the
// back. Demotion happens in charge. A woken, new or migrated task keeps its
// queue, quantum and allotment use (unless io_reset). Boosts are periods of
// time, not events: period k is [k * boost, (k + 1) * boost); pick moves
// every queued task to the top queue (lower queues appended in order, their
// use cleared) when it sees a new period, and a task that was running or
// asleep across a period boundary is boosted at its next enqueue
// (Entity.mlfq.epoch is the period it was last placed in). Periods come from the
// time itself, so they agree between the kernel's per-hart instances and
// survive migration. preempts: a woken task preempts a running task of a
// lower queue (rule 1). Weights (nice) are ignored: MLFQ ranks by
// behaviour, not by share; reweight only records the weight.
//
// Kernel defaults (mlfq_defaults, from the kernel's slice): 3 queues with
// quanta of 1, 2 and 4 slices, allotments of 2 quanta (2, 4 and 8 slices),
// a boost every 10 slices (1 s with the default 100 ms slice), both I/O
// options off; PolicyConfig's knobs can change the boost period and io_reset
// (the kernel's boot arguments mlfq_boost=US and mlfq_reset=1, knobs.h).
// Bounded state: at most kMlfqMaxQueues queues, no allocation,
// O(1) pick but for the boost (O(n) once per period).
#pragma once

#include "lib/sched/weights.h"
#include "lib/seam.h"

namespace q::sched {

inline constexpr unsigned kMlfqMaxQueues = 8;

struct MlfqParams {
    unsigned queues = 3;
    Time quantum[kMlfqMaxQueues] = {};    // per queue, [0] = the top queue
    Time allotment[kMlfqMaxQueues] = {};  // time at a queue before demotion
    Time boost = 0;                       // boost period (0: never)
    bool io_reset = false;                // mlfq.py -S
    bool io_front = false;                // mlfq.py -I
};

constexpr MlfqParams mlfq_defaults(Time slice) {
    MlfqParams p;
    if (slice == 0) slice = 1;
    p.queues = 3;
    for (unsigned i = 0; i < p.queues; i++) {
        p.quantum[i] = slice << i;
        p.allotment[i] = 2 * p.quantum[i];
    }
    p.boost = 10 * slice;
    return p;
}

// The defaults with the knobs PolicyConfig gives (knobs.h: the kernel's
// boot arguments mlfq_boost= and mlfq_reset=).
constexpr MlfqParams mlfq_config(const PolicyConfig& c) {
    MlfqParams p = mlfq_defaults(c.slice);
    p.boost = c.knobs.get(Knob::MlfqBoost, p.boost);
    p.io_reset = c.knobs.get(Knob::MlfqReset, 0) != 0;
    return p;
}

class Mlfq final : public Policy {
  public:
    explicit constexpr Mlfq(const MlfqParams& p) : p_(sanitize(p)) {}
    explicit constexpr Mlfq(const PolicyConfig& c) : Mlfq(mlfq_config(c)) {}

    const char* name() const override { return "mlfq"; }
    void enqueue(Entity& e, Time now) override;
    void dequeue(Entity& e) override;
    Entity* pick(unsigned cpu, Time now) override;
    void charge(Entity& e, Time ran) override;
    void stop(Entity& e) override { e.picked = false; }
    void forget(Entity& e) override;
    bool preempts(const Entity& woken, const Entity& running) const override { return woken.mlfq.mq < running.mlfq.mq; }
    void reweight(Entity& e, u32 weight, u8 level) override {
        e.weight = weight;
        e.level = level;
    }
    usize size() const override { return count_; }
    // Its level (below) at time now.
    View describe(const Entity& e, Time now) const override {
        View v;
        v.level = static_cast<i32>(level(e, now));
        return v;
    }

    const MlfqParams& params() const { return p_; }
    usize queued_at(unsigned q) const;
    // The queue e runs from next at time now: 0 if a boost came since it
    // was last placed (boosts are applied lazily), else its queue.
    unsigned level(const Entity& e, Time now) const { return e.mlfq.epoch != period(now) ? 0 : e.mlfq.mq; }

  private:
    static constexpr MlfqParams sanitize(MlfqParams p) {
        if (p.queues < 1) p.queues = 1;
        if (p.queues > kMlfqMaxQueues) p.queues = kMlfqMaxQueues;
        for (unsigned i = 0; i < p.queues; i++) {
            if (p.quantum[i] == 0) p.quantum[i] = 1;
            if (p.allotment[i] == 0) p.allotment[i] = p.quantum[i];
        }
        return p;
    }
    u64 period(Time now) const { return p_.boost ? now / p_.boost : 0; }
    void to_top(Entity& e, u64 epoch);
    void push(Entity& e, bool front);
    void boost_all(u64 epoch);

    MlfqParams p_;
    List<Entity, &Entity::link> q_[kMlfqMaxQueues];
    usize count_ = 0;
    u64 epoch_ = 0;  // the boost period pick last saw
};

}  // namespace q::sched
