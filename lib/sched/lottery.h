// lib/sched/lottery.h - lottery scheduling (Waldspurger; OSTEP chapter 9).
//
// Design. A task holds as many tickets as its weight (nice 0 = 1024, so
// nice maps to tickets through the Linux table). Every pick draws a winning
// ticket uniformly from the tickets of the queued tasks (Prng::below, a
// seeded integer generator, no floating point) and finds its holder: the
// task at which a count of tickets, in enqueue order, first exceeds the
// winning number (OSTEP's list walk). The queue is a treap ordered by
// enqueue seq (treap.h) whose nodes hold their subtree's ticket sum
// (Entity::subtree_tickets), so the holder is found by one descent: O(log
// n) expected for pick, enqueue, dequeue and reweight, and the same winner
// the walk finds for the same draw. Over n picks among always-runnable tasks a task with a fraction p
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
// Invariants: tickets_ is the sum of tickets of the queued tasks (the
// root's subtree_tickets); every queued task is in queue_ once with
// e.queued set; in-order is enqueue order.
#pragma once

#include "lib/sched/prng.h"
#include "lib/sched/treap.h"
#include "lib/sched/weights.h"
#include "lib/seam.h"

namespace q::sched {

// A task's tickets: its weight (at least 1).
inline u64 lottery_tickets(const Entity& e) { return e.weight ? e.weight : 1; }

// The lottery queue's order (enqueue seq) and ticket-sum augment.
struct LotteryOrder {
    static bool less(const Entity& a, const Entity& b) { return a.seq < b.seq; }
    static u64 sum(const Entity* n) { return n ? n->lottery.subtree_tickets : 0; }
    static u64 computed(const Entity& n) { return sum(n.left) + lottery_tickets(n) + sum(n.right); }
    static void pull(Entity& n) { n.lottery.subtree_tickets = computed(n); }
    static bool pulled(const Entity& n) { return n.lottery.subtree_tickets == computed(n); }
};

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
    bool check() const { return queue_.check() && LotteryOrder::sum(queue_.root()) == tickets_; }  // tests

  private:
    // The queued task holding ticket number `winner` (< tickets_) in
    // enqueue order.
    Entity* holder(u64 winner) const;

    Prng rng_;
    Treap<LotteryOrder> queue_;
    usize count_ = 0;
    u64 tickets_ = 0;
    u64 seq_ = 0;
};

}  // namespace q::sched
