// lib/sched/stride.h - stride scheduling (Waldspurger; OSTEP chapter 9).
//
// Design. A task's tickets are its weight (nice 0 = 1024 tickets, so nice
// maps to tickets through the Linux table). Its stride is big / tickets;
// its pass advances by stride for every slice of time it runs (by
// stride * ran / slice, the remainder carried in Entity.prem, so partial
// slices are charged exactly and no share drifts by rounding). pick takes
// the queued task with the least pass, the earliest enqueued among equal
// passes (OSTEP's worked example: A, B, C with 100, 50 and 250 tickets and
// big = 10000 run A B C C C A C C ...; tests/host/sched_ostep_test.cc).
//
// Joining. The global pass is the largest pass a pick has taken (monotone).
// A task put back right after it ran (Entity.picked, set by pick) keeps its
// pass exactly. Any other enqueue (new, woken, migrated here) places it at
// global pass + plag, where plag is the pass it was ahead of (or behind)
// the global pass when it left (stop or dequeue), clamped to one stride
// either way: a sleeper keeps at most one slice of credit or debt, a new
// task (plag 0) starts at the global pass, and a migrated task keeps its
// lag relative to the queue it joins (passes of two queues are unrelated).
//
// preempts: a woken task preempts only a running task whose pass (as of its
// pick) is larger than the woken one's by a whole stride of the woken task.
// reweight: the remaining pass (pass - global) is rescaled by the new
// stride over the old (Waldspurger's rule), clamped to 4 old strides first
// so the product stays in 63 bits.
//
// Bounds: with the kernel's big = 2^32 a stride is at most 2^32 / 15 per
// slice; at 100 slices a second a pass lasts centuries in 63 bits.
// Cost: the queue is a treap ordered by (pass, seq) (treap.h), so pick
// (its first entity), enqueue and dequeue are O(log n) expected; a queued
// task's reweight leaves and rejoins it. The order is total, so the choice
// is the one of a scan for the least (pass, seq). No allocation, integer
// only.
#pragma once

#include "lib/sched/treap.h"
#include "lib/sched/weights.h"
#include "lib/seam.h"

namespace q::sched {

inline constexpr u64 kStrideBig = u64{1} << 32;  // the kernel's big constant

// The stride queue's order: least pass first, earliest enqueue among equals.
struct StrideOrder {
    static bool less(const Entity& a, const Entity& b) {
        return a.stride.pass < b.stride.pass || (a.stride.pass == b.stride.pass && a.seq < b.seq);
    }
    static void pull(Entity&) {}
    static bool pulled(const Entity&) { return true; }
};

class Stride final : public Policy {
  public:
    constexpr Stride(u64 big, Time slice) : big_(big ? big : 1), slice_(slice ? slice : 1) {}
    explicit constexpr Stride(const PolicyConfig& c) : Stride(kStrideBig, c.slice) {}

    const char* name() const override { return "stride"; }
    void enqueue(Entity& e, Time now) override;
    void dequeue(Entity& e) override;
    Entity* pick(unsigned cpu, Time now) override;
    void charge(Entity& e, Time ran) override;
    void stop(Entity& e) override;
    void forget(Entity& e) override;
    bool preempts(const Entity& woken, const Entity& running) const override;
    void reweight(Entity& e, u32 weight, u8 level) override;
    usize size() const override { return count_; }

    i64 stride(u32 tickets) const { return static_cast<i64>(big_ / (tickets ? tickets : 1)); }
    i64 global_pass() const { return global_; }
    bool check() const { return queue_.check(); }  // the treap's invariants (tests)

  private:
    void leave(Entity& e);  // records plag

    u64 big_;
    Time slice_;
    Treap<StrideOrder> queue_;
    usize count_ = 0;
    i64 global_ = 0;
    u64 seq_ = 0;
};

}  // namespace q::sched
