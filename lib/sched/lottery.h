// lib/sched/lottery.h - lottery scheduling (Waldspurger; OSTEP chapter 9).
//
// Design. A task holds as many tickets as its weight (nice 0 = 1024, so
// nice maps to tickets through the Linux table). Every pick draws a winning
// ticket uniformly from the tickets of the queued tasks (Prng::below, a
// seeded integer generator, no floating point) and walks the queue in
// enqueue order counting tickets until the winner's holder (OSTEP's list
// walk). Over n picks among always-runnable tasks a task with a fraction p
// of the tickets wins a binomial(n, p) number of them (mean np, standard
// deviation sqrt(np(1-p))); tests/host/sched_ostep_test.cc checks shares
// against that error. Time is not charged: a task that yields early does not
// get compensation tickets (Waldspurger's optional extension is not
// implemented), nor do OSTEP's optional currencies and transfers exist.
//
// preempts: never (a draw decides, not a comparison). reweight changes a
// queued task's tickets in the total at once. dequeue/forget keep nothing:
// a lottery has no memory, so migration loses nothing.
//
// Invariants: tickets_ is the sum of weights of the queued tasks; every
// queued task is in queue_ once with e.queued set. pick is O(n).
#pragma once

#include "lib/sched/prng.h"
#include "lib/sched/weights.h"
#include "lib/seam.h"

namespace q::sched {

inline constexpr u64 kLotterySeed = 0x0575eb;  // the default seed (deterministic runs)

// The seed of queue q's lottery: queue 0 keeps the default; the others are
// spread by the golden-ratio step (Prng's seeding mixes them further).
constexpr u64 lottery_seed(u32 queue) { return kLotterySeed + queue * 0x9e3779b97f4a7c15ull; }

class Lottery final : public Policy {
  public:
    explicit constexpr Lottery(u64 seed = kLotterySeed) : rng_(seed) {}
    explicit constexpr Lottery(const PolicyConfig& c) : Lottery(lottery_seed(c.queue)) {}

    const char* name() const override { return "lottery"; }
    void enqueue(Entity& e, Time now) override;
    void dequeue(Entity& e) override;
    Entity* pick(unsigned cpu, Time now) override;
    void charge(Entity&, Time) override {}
    bool preempts(const Entity&, const Entity&) const override { return false; }
    void reweight(Entity& e, u32 weight, u8 level) override;
    usize size() const override { return count_; }

    void reseed(u64 seed) { rng_.reseed(seed); }
    u64 tickets() const { return tickets_; }

  private:
    Prng rng_;
    List<Entity, &Entity::link> queue_;
    usize count_ = 0;
    u64 tickets_ = 0;
};

}  // namespace q::sched
