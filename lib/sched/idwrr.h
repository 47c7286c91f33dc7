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
// (refills happen only below the price). pick() is O(1): at most two sweeps
// of the 40-bit non-empty mask plus one arithmetic catch-up that replays the
// sweeps in which every backlogged queue only refills (the seed looped up to
// 5000 times there).
#pragma once

#include "lib/sched/levels.h"
#include "lib/sched/weights.h"
#include "lib/seam.h"

namespace q::sched {

// kCpus: the cpus that may pick from one instance (as DwrrFor's).
template <unsigned kCpus>
class InterleavedDwrrFor final : public Policy {
  public:
    constexpr InterleavedDwrrFor(const u32* queue_weights, u32 price) : weights_(queue_weights), price_(price) {}
    explicit constexpr InterleavedDwrrFor(const PolicyConfig& c) : InterleavedDwrrFor(weight_table(c.table), c.price) {}

    const char* name() const override { return "idwrr"; }
    // enqueue, dequeue, reweight and pick's first visit are inline (see dwrr.h).
    void enqueue(Entity& e, Time) override { queues_.enqueue(e); }
    void dequeue(Entity& e) override { queues_.dequeue(e); }
    Entity* pick(unsigned cpu, Time) override {
        Q_ASSERT(cpu < kCpus);
        if (queues_.size() == 0) return nullptr;
        Cpu& c = cpus_[cpu];
        const unsigned i = queues_.next_after(c.last_queue);
        if (c.balance[i] >= price_) return take(c, i, cpu);
        c.balance[i] += weights_[i];
        return visit(c, i, cpu);
    }
    void charge(Entity&, Time) override {}
    bool preempts(const Entity& woken, const Entity& running) const override;
    void reweight(Entity& e, u32 weight, u8 level) override { queues_.reweight(e, weight, level); }
    usize size() const override { return queues_.size(); }

    u64 balance(unsigned cpu, unsigned level) const { return cpus_[cpu].balance[level]; }

  private:
    struct Cpu {
        u64 balance[kLevels] = {};
        unsigned last_queue = kLevels - 1;
    };
    void catch_up(Cpu& c) const;
    Entity* visit(Cpu& c, unsigned i, unsigned cpu);  // pick() after one refill
    Entity* take(Cpu& c, unsigned i, unsigned cpu) {
        c.balance[i] -= price_;
        c.last_queue = i;
        Entity* e = queues_.pop_nonempty(i);
        e->cpu = static_cast<u16>(cpu);
        return e;
    }

    const u32* weights_;
    u32 price_;
    LevelQueues queues_;
    Cpu cpus_[kCpus];
};

using InterleavedDwrr = InterleavedDwrrFor<kMaxCpus>;
template <unsigned kCpus>
struct ForCpus<InterleavedDwrr, kCpus> {
    using type = InterleavedDwrrFor<kCpus>;
};

// After at least one full sweep of refills without a pick: if every
// backlogged queue is still short of the price, replay whole sweeps of
// refills (from the current position) up to the one in which the first of
// them reaches it, which the loop then picks. Valid at any position: in the
// replayed sweeps no queue can reach the price.
template <unsigned kCpus>
void InterleavedDwrrFor<kCpus>::catch_up(Cpu& c) const {
    u64 sweeps = ~u64{0};
    for (u64 m = queues_.mask(); m; m &= m - 1) {
        unsigned i = ctz64(m);
        if (c.balance[i] >= price_) return;  // the next sweep picks it
        u64 k = (price_ - c.balance[i] + weights_[i] - 1) / weights_[i];
        if (k < sweeps) sweeps = k;
    }
    for (u64 m = queues_.mask(); m; m &= m - 1) {
        unsigned i = ctz64(m);
        c.balance[i] += (sweeps - 1) * weights_[i];
    }
}

// pick() after its first visit refilled queue i: keep visiting.
template <unsigned kCpus>
Entity* InterleavedDwrrFor<kCpus>::visit(Cpu& c, unsigned i, unsigned cpu) {
    for (unsigned refills = 1;;) {
        // kLevels consecutive refills cover at least one full sweep.
        if (refills == kLevels) catch_up(c);
        i = queues_.next_after(i);
        if (c.balance[i] >= price_) return take(c, i, cpu);
        c.balance[i] += weights_[i];
        ++refills;
    }
}

template <unsigned kCpus>
bool InterleavedDwrrFor<kCpus>::preempts(const Entity& woken, const Entity& running) const {
    if (weights_[woken.level] <= weights_[running.level]) return false;
    return cpus_[running.cpu].balance[woken.level] >= price_;
}

extern template class InterleavedDwrrFor<kMaxCpus>;

}  // namespace q::sched
