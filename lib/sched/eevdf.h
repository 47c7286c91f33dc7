// lib/sched/eevdf.h - Earliest Eligible Virtual Deadline First.
//
// Model (Stoica & Abdel-Wahab; Linux 6.6+ style, integer only):
//   vruntime v_i advances by ran * 2^shift / w_i (exact: the division
//   remainder is carried in Entity.vrem, so no share drifts by rounding).
//   V, the virtual time, is the weighted average of the vruntimes of every
//   runnable task, queued or running (Linux's avg_vruntime with curr), kept
//   as v0 + sum_wv / W with sum_wv = sum w_i (v_i - v0), W = sum w_i; v0 is
//   re-based to the tree's minimum vruntime at every pick so the sums stay
//   small. A task enters the sums when enqueued (not already in them) and
//   leaves them at dequeue or stop(); pick keeps it in them (Entity.on_cpu
//   marks "running, in the sums"), charge moves it by its vruntime delta,
//   and the enqueue that puts it back after its charge only re-inserts it
//   into the tree. On several cpus sharing one queue, the running tasks so
//   keep V where the runnable set is, even when the tree is empty. A running
//   task is charged only when it stops running (a whole slice in the
//   kernel), so during its run it counts at its vruntime of the pick.
//   eligible: v_i <= V, i.e. (v_i - v0) * W <= sum_wv, which for integers is
//   exactly v_i <= v0 + floor(sum_wv / W): one division per pick.
//   deadline: d_i = v_i + slice * 2^shift / w_i, renewed when v_i reaches it.
//   pick: the eligible queued task with the earliest deadline, FIFO (enqueue
//   order) among equal deadlines (O(log n): tree keyed by deadline, augmented
//   with the subtree minimum vruntime; tasks with equal deadline and vruntime
//   share a node, see eevdf_tree.h). When tasks running on other cpus are
//   far enough behind that no queued task is eligible, the cpu still takes
//   work: the earliest deadline among the queued tasks of minimum vruntime.
//   lag: vlag = V - v_i is recorded at every charge, at stop and at dequeue
//   (V counting the task). enqueue places a task that slept at
//   v = V - vlag * (W + w) / W (Linux's inflation, so its lag after joining
//   equals the saved one), the lag clamped to +-2 slices. A task that never
//   ran has vlag 0, so it starts at the current virtual time. A task put
//   back right after its charge (enqueue time <= pick time + time charged)
//   keeps its vruntime exactly, so rounding never biases shares.
//   reweight keeps the lag in time units: vlag_new = vlag_old * w_old / w_new
//   (a running task is re-placed by that lag and stays in the sums).
//   V with no runnable task at all is the V of when the last one left.
//   A task charged or stopped while not marked on_cpu (picked by another
//   policy before a policy switch) is outside the sums; charge then measures
//   its lag as if it were queued, and stop does nothing.
//
// Bounds: sum_wv must fit in 63 bits: sum over tasks of
// |lag_i in time units| * 2^shift * (w_max / w_min) < 2^63 (a running task's
// lag grows by at most its uncharged slice). With shift 20 and time in ticks
// or microseconds that holds by orders of magnitude.
#pragma once

#include "lib/sched/eevdf_tree.h"
#include "lib/seam.h"

namespace q::sched {

class Eevdf final : public Policy {
  public:
    constexpr Eevdf(Time slice, unsigned shift) : slice_(slice ? slice : 1), shift_(shift) {}

    const char* name() const override { return "eevdf"; }
    void enqueue(Entity& e, Time now) override;
    void dequeue(Entity& e) override;
    Entity* pick(unsigned cpu, Time now) override;
    void charge(Entity& e, Time ran) override;
    void stop(Entity& e) override;
    bool preempts(const Entity& woken, const Entity& running) const override;
    void reweight(Entity& e, u32 weight, u8 level) override;
    usize size() const override { return count_; }

    // The current virtual time V (floor of the weighted average).
    i64 virtual_time() const;
    bool eligible(const Entity& e) const;
    i64 vslice(u32 weight) const { return static_cast<i64>((slice_ << shift_) / weight); }
    const EevdfTree& tree() const { return tree_; }

  private:
    i64 lag_limit(u32 weight) const { return 2 * vslice(weight); }
    i64 place(const Entity& e) const;
    i64 virtual_time_with(const Entity& e) const;
    void add_sums(const Entity& e);
    void sub_sums(const Entity& e);
    void join(const Entity& e);
    void leave(const Entity& e);
    void rebase();
    void insert(Entity& e, bool in_sums);
    void remove(Entity& e);

    EevdfTree tree_;
    Time slice_;
    unsigned shift_;
    u64 total_weight_ = 0;  // W over queued and running (on_cpu) tasks
    i64 sum_wv_ = 0;        // sum w_i (v_i - v0) over the same tasks
    i64 v0_ = 0;
    i64 idle_v_ = 0;        // V while W is 0 (no runnable task)
    u64 seq_ = 0;
    usize count_ = 0;       // queued tasks
};

// The per-tick paths are inline so a caller that knows the concrete type
// (schedsim) pays no calls but the tree's; the kernel calls them through
// the vtable as before.

inline void Eevdf::add_sums(const Entity& e) {
    total_weight_ += e.weight;
    sum_wv_ += static_cast<i64>(e.weight) * (e.vruntime - v0_);
}

inline void Eevdf::sub_sums(const Entity& e) {
    total_weight_ -= e.weight;
    sum_wv_ -= static_cast<i64>(e.weight) * (e.vruntime - v0_);
}

// e enters / leaves the sums. V of an empty set is the V of when it emptied.
inline void Eevdf::join(const Entity& e) {
    if (total_weight_ == 0) {
        v0_ = e.vruntime;
        sum_wv_ = 0;
    }
    add_sums(e);
}

inline void Eevdf::leave(const Entity& e) {
    if (total_weight_ == e.weight) idle_v_ = virtual_time();
    sub_sums(e);
}

inline void Eevdf::rebase() {
    if (tree_.empty()) return;
    const i64 nv0 = tree_.root()->min_vruntime;
    sum_wv_ -= static_cast<i64>(total_weight_) * (nv0 - v0_);
    v0_ = nv0;
}

inline i64 Eevdf::virtual_time() const {
    if (total_weight_ == 0) return idle_v_;
    const i64 w = static_cast<i64>(total_weight_);
    i64 q = sum_wv_ / w;
    if (sum_wv_ % w < 0) q--;  // floor
    return v0_ + q;
}

// Into the tree; into the sums too unless it is there already (running).
inline void Eevdf::insert(Entity& e, bool in_sums) {
    if (!in_sums) join(e);
    e.seq = seq_++;
    tree_.insert(e);
    e.queued = true;
    count_++;
}

// Out of the tree only: a picked task stays in the sums while it runs.
inline void Eevdf::remove(Entity& e) {
    tree_.erase(e);
    e.queued = false;
    count_--;
}

inline void Eevdf::enqueue(Entity& e, Time now) {
    Q_ASSERT(!e.queued && e.weight > 0);
    // A task put back right after its charge keeps its vruntime exactly (and
    // is in the sums already); one that slept (or is new: vlag 0) is placed
    // by its lag.
    bool in_sums = e.on_cpu;
    const bool requeue = in_sums && now <= e.run_until;
    e.on_cpu = false;
    if (!requeue) {
        if (in_sums) leave(e);  // ran, was not stopped, comes back late
        in_sums = false;
        const i64 v = place(e);
        e.deadline += v - e.vruntime;  // keep the unfinished part of the request
        e.vruntime = v;
    }
    const i64 vs = vslice(e.weight);
    if (e.deadline <= e.vruntime || e.deadline - e.vruntime > vs) e.deadline = e.vruntime + vs;
    insert(e, in_sums);
}

inline Entity* Eevdf::pick(unsigned cpu, Time now) {
    if (tree_.empty()) return nullptr;
    rebase();
    // (v - v0) * W <= sum_wv  <=>  v <= v0 + floor(sum_wv / W): one division
    // per pick, then plain comparisons down the tree. V counts the running
    // tasks: if they are so far behind that no queued task is eligible (V <
    // the tree's minimum, now v0), take the least ineligible ones.
    i64 limit = virtual_time();
    if (limit < v0_) limit = v0_;
    Entity* e = tree_.first_passing([=](i64 v) { return v <= limit; });
    Q_ASSERT(e != nullptr);  // the tree's minimum vruntime always passes
    remove(*e);
    e->cpu = static_cast<u16>(cpu);
    e->on_cpu = true;
    e->run_until = now;
    return e;
}

inline void Eevdf::charge(Entity& e, Time ran) {
    const u64 scaled = (static_cast<u64>(ran) << shift_) + e.vrem;
    const i64 dv = static_cast<i64>(scaled / e.weight);
    e.vrem = static_cast<u32>(scaled % e.weight);
    e.run_until += ran;
    if (e.on_cpu) {
        sum_wv_ += static_cast<i64>(e.weight) * dv;
        e.vruntime += dv;
        e.vlag = virtual_time() - e.vruntime;
    } else {
        // Not in the sums (picked by another policy before a switch).
        e.vruntime += dv;
        if (total_weight_ == 0) idle_v_ = e.vruntime;  // alone: V follows the runner
        e.vlag = virtual_time_with(e) - e.vruntime;
    }
    if (e.vruntime >= e.deadline) e.deadline = e.vruntime + vslice(e.weight);
}

inline void Eevdf::stop(Entity& e) {
    Q_ASSERT(!e.queued);
    if (!e.on_cpu) return;  // not in the sums: nothing to undo
    e.vlag = virtual_time() - e.vruntime;
    leave(e);
    e.on_cpu = false;
}

// V as if e (running, not queued) were in the average.
inline i64 Eevdf::virtual_time_with(const Entity& e) const {
    if (total_weight_ == 0) return e.vruntime;
    const i64 w = static_cast<i64>(total_weight_ + e.weight);
    const i64 s = sum_wv_ + static_cast<i64>(e.weight) * (e.vruntime - v0_);
    i64 q = s / w;
    if (s % w < 0) q--;
    return v0_ + q;
}

}  // namespace q::sched
