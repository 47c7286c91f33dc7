// lib/sched/dwrr.h - deficit weighted round robin over 40 priority queues,
// as the seed's harness ran it ("classic", non-interleaved DWRR).
//
// Design. Queue i earns queue_weights[i] * slice of credit each time the
// rotation arrives at it, then keeps the cpu's turn while its balance covers
// the price of a slice (price * slice); when it no longer does, the rotation
// moves on to the next non-empty queue (level + 1, wrapping), which is
// credited on arrival. Balances and the rotation cursor are per cpu (as in
// the seed: each core has balance[40] and its own position), so cores do not
// disturb each other's rounds. The cursor starts at the last queue, so the
// first round starts at queue 0.
//
// Charging is by time actually used: charge(e, ran) debits price * ran from
// the balance of e.level on the cpu that picked e. A task that uses a full
// slice costs exactly one price; a task that yields early costs less. Long
// run share of a backlogged queue is therefore proportional to its weight.
//
// Invariants: between picks, balance < price*slice + weight*slice for every
// queue of every cpu (credit is added only on arrival, and arrival happens
// only after the balance fell below the price); balance may go negative by
// at most one run's overdraft. pick() is O(1): at most two sweeps over the
// 40-bit non-empty mask plus one arithmetic catch-up when every backlogged
// queue is still short of the price (light queues), never a scan of tasks.
#pragma once

#include "lib/sched/levels.h"
#include "lib/sched/weights.h"
#include "lib/seam.h"

namespace q::sched {

constexpr unsigned popcount64(u64 x) {
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return static_cast<unsigned>((x * 0x0101010101010101ull) >> 56);
}

// kCpus: the cpus that may pick from one instance (its per-cpu balances);
// Dwrr is sized for kMaxCpus, the kernel's for its own harts (ForCpus).
template <unsigned kCpus>
class DwrrFor final : public Policy {
  public:
    constexpr DwrrFor(const u32* queue_weights, u32 price, Time slice)
        : weights_(queue_weights), price_(price), slice_(slice ? slice : 1) {}
    explicit constexpr DwrrFor(const PolicyConfig& c) : DwrrFor(weight_table(c.table), c.price, c.slice) {}

    const char* name() const override { return "dwrr"; }
    // The hot calls are inline so a caller that knows the concrete type
    // (schedsim's loop is templated on it) pays no call; the kernel calls
    // them through the vtable as before.
    void enqueue(Entity& e, Time) override { queues_.enqueue(e); }
    void dequeue(Entity& e) override { queues_.dequeue(e); }
    Entity* pick(unsigned cpu, Time) override {
        Q_ASSERT(cpu < kCpus);
        if (queues_.size() == 0) return nullptr;
        Cpu& c = cpus_[cpu];
        const unsigned i = c.cursor;
        if (!queues_.empty(i) && c.balance[i] >= need()) return take(c, i, cpu);
        return rotate(c, i, cpu);
    }
    void charge(Entity& e, Time ran) override {
        Q_ASSERT(e.cpu < kCpus && e.level < kLevels);
        cpus_[e.cpu].balance[e.level] -= static_cast<i64>(price_) * static_cast<i64>(ran);
    }
    bool preempts(const Entity& woken, const Entity& running) const override {
        return weights_[woken.level] > weights_[running.level];
    }
    void reweight(Entity& e, u32 weight, u8 level) override { queues_.reweight(e, weight, level); }
    usize size() const override { return queues_.size(); }

    i64 balance(unsigned cpu, unsigned level) const { return cpus_[cpu].balance[level]; }

  private:
    struct Cpu {
        i64 balance[kLevels] = {};
        unsigned cursor = kLevels - 1;
    };
    i64 need() const { return static_cast<i64>(price_) * static_cast<i64>(slice_); }
    i64 credit(unsigned level) const { return static_cast<i64>(weights_[level]) * static_cast<i64>(slice_); }
    void catch_up(Cpu& c) const;
    Entity* rotate(Cpu& c, unsigned i, unsigned cpu);  // the cursor's turn is over
    Entity* take(Cpu& c, unsigned level, unsigned cpu) {
        c.cursor = level;
        Entity* e = queues_.pop_nonempty(level);
        e->cpu = static_cast<u16>(cpu);
        return e;
    }

    const u32* weights_;
    u32 price_;
    Time slice_;
    LevelQueues queues_;
    Cpu cpus_[kCpus];
};

using Dwrr = DwrrFor<kMaxCpus>;
template <unsigned kCpus>
struct ForCpus<Dwrr, kCpus> {
    using type = DwrrFor<kCpus>;
};

// Every backlogged queue is short of the price: add the credit of all the
// rounds in which none of them could reach it, so the next round picks.
template <unsigned kCpus>
void DwrrFor<kCpus>::catch_up(Cpu& c) const {
    u64 rounds = ~u64{0};
    for (u64 m = queues_.mask(); m; m &= m - 1) {
        unsigned i = ctz64(m);
        u64 gap = static_cast<u64>(need() - c.balance[i]);
        u64 k = (gap + credit(i) - 1) / credit(i);  // refills still needed (>= 1)
        if (k < rounds) rounds = k;
    }
    for (u64 m = queues_.mask(); m; m &= m - 1) {
        unsigned i = ctz64(m);
        c.balance[i] += static_cast<i64>(rounds - 1) * credit(i);
    }
}

// pick()'s slow path: the cursor's queue is empty or out of credit.
template <unsigned kCpus>
Entity* DwrrFor<kCpus>::rotate(Cpu& c, unsigned i, unsigned cpu) {
    for (unsigned visits = 0;; visits++) {
        if (visits == kLevels) catch_up(c);  // a full sweep found no credit
        i = queues_.next_after(i);
        c.balance[i] += credit(i);
        if (c.balance[i] >= need()) return take(c, i, cpu);
    }
}

extern template class DwrrFor<kMaxCpus>;

}  // namespace q::sched
