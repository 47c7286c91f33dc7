// lib/sched/idwrr.h - the seed's interleaved DWRR, implemented faithfully.
//
// Design (as the seed's harness and kernel ran it). Each cpu has balance[40]
// and last_queue (initially 39). A pick visits the non-empty queues in
// rotation starting after last_queue, one queue per visit:
//   - balance below the price: the queue earns its weight and yields the
//     visit (the refill consumes the turn);
//   - otherwise it pays the price and runs its head task; last_queue = it.
// The price (1024 = weight of level 20) is paid per pick, whatever the task
// then runs, so charge() does nothing. Balances never reset. Consequence
// (see docs/scheduling-sim.md): with every queue backlogged a queue gets a
// pick on a fraction w/(w+price) of its visits, so shares follow w/(w+1024),
// not w - this is the seed's design and what its tables show.
//
// Invariants: 0 <= balance < price + weight for every queue of every cpu
// (refills happen only below the price); bit i of a cpu's `rich` mask is
// set iff its balance[i] >= price. pick() is O(1) and takes the decision
// of the visit-by-visit loop above without visiting: the first rich
// non-empty queue after last_queue (two masks and a ctz) is the one taken,
// and every non-empty queue passed on the way is one that refills (one add
// each, no rotation arithmetic per visit); when no non-empty queue is rich,
// the whole sweeps of refills up to the first one that makes a queue rich
// are one multiply per queue (the seed looped up to 5000 times there).
#pragma once

#include "lib/sched/levels.h"
#include "lib/sched/weights.h"
#include "lib/seam.h"

namespace q::sched {

// kCpus: the cpus that may pick from one instance (as DwrrFor's).
template <unsigned kCpus>
class InterleavedDwrrFor final : public Policy {
  public:
    constexpr InterleavedDwrrFor(const u32* queue_weights, u32 price) : weights_(queue_weights), price_(price) {
        if (price_ == 0) {
            for (Turn& t : turns_) t.rich = (u64{1} << kLevels) - 1;  // every balance >= 0
        }
    }
    explicit constexpr InterleavedDwrrFor(const PolicyConfig& c) : InterleavedDwrrFor(weight_table(c.table), c.price) {}

    const char* name() const override { return "idwrr"; }
    // enqueue, dequeue, reweight and pick are inline (see dwrr.h).
    void enqueue(Entity& e, Time) override { queues_.enqueue(e); }
    void dequeue(Entity& e) override { queues_.dequeue(e); }
    [[gnu::always_inline]] Entity* pick(unsigned cpu, Time) override {
        Q_ASSERT(cpu < kCpus);
        const u64 m = queues_.mask();
        if (m == 0) return nullptr;
        Turn& t = turns_[cpu];
        u64* balance = balance_[cpu];
        u64 rich = t.rich & m;
        if (rich == 0) rich = sweep(t, balance, m);
        // Visit order: the queues above last_queue, then from queue 0.
        const u64 above = ~u64{1} << t.last_queue;
        const u64 later = rich & above;
        const unsigned j = ctz64(later ? later : rich);
        const u64 below = (u64{1} << j) - 1;
        const u64 passed = m & (later ? above & below : above | below);
        if (passed) refill(t, balance, passed);
        return take(t, balance, j, cpu);
    }
    void charge(Entity&, Time) override {}
    bool preempts(const Entity& woken, const Entity& running) const override;
    void reweight(Entity& e, u32 weight, u8 level) override { queues_.reweight(e, weight, level); }
    usize size() const override { return queues_.size(); }

    u64 balance(unsigned cpu, unsigned level) const { return balance_[cpu][level]; }

  private:
    // A cpu's place in the rotation, apart from its balances (16 bytes: a
    // pick indexes it with a shift).
    struct Turn {
        u64 rich = 0;  // bit i: balance[i] >= price (all balances start at 0 < price)
        unsigned last_queue = kLevels - 1;
    };
    // pick() with no rich queue in m: the sweeps of refills.
    u64 sweep(Turn& t, u64* balance, u64 m);
    // One visit, a refill, to each queue of set.
    void refill(Turn& t, u64* balance, u64 set) {
        for (; set; set &= set - 1) {
            const unsigned i = ctz64(set);
            balance[i] += weights_[i];
            if (balance[i] >= price_) t.rich |= u64{1} << i;
        }
    }
    Entity* take(Turn& t, u64* balance, unsigned i, unsigned cpu) {
        balance[i] -= price_;
        if (balance[i] < price_) t.rich &= ~(u64{1} << i);
        t.last_queue = i;
        Entity* e = queues_.pop_nonempty(i);
        e->cpu = static_cast<u16>(cpu);
        return e;
    }

    const u32* weights_;
    u32 price_;
    LevelQueues queues_;
    Turn turns_[kCpus];
    u64 balance_[kCpus][kLevels] = {};
};

using InterleavedDwrr = InterleavedDwrrFor<kMaxCpus>;
template <unsigned kCpus>
struct ForCpus<InterleavedDwrr, kCpus> {
    using type = InterleavedDwrrFor<kCpus>;
};

// Every non-empty queue (m) is short of the price, so a pick sweeps them
// all, refilling each, until a sweep leaves one rich: k sweeps, k the
// fewest refills any of them needs. Returns the rich non-empty queues; the
// next sweep, from where the pick started, takes the first of them.
template <unsigned kCpus>
u64 InterleavedDwrrFor<kCpus>::sweep(Turn& t, u64* balance, u64 m) {
    u64 k = ~u64{0};
    for (u64 r = m; r; r &= r - 1) {
        const unsigned i = ctz64(r);
        const u64 need = (price_ - balance[i] + weights_[i] - 1) / weights_[i];
        if (need < k) k = need;
    }
    for (u64 r = m; r; r &= r - 1) {
        const unsigned i = ctz64(r);
        balance[i] += k * weights_[i];
        if (balance[i] >= price_) t.rich |= u64{1} << i;
    }
    return t.rich & m;
}

template <unsigned kCpus>
bool InterleavedDwrrFor<kCpus>::preempts(const Entity& woken, const Entity& running) const {
    if (weights_[woken.level] <= weights_[running.level]) return false;
    return balance_[running.cpu][woken.level] >= price_;
}

extern template class InterleavedDwrrFor<kMaxCpus>;

}  // namespace q::sched
