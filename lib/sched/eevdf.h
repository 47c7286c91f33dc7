// lib/sched/eevdf.h - Earliest Eligible Virtual Deadline First.
//
// Model (Stoica & Abdel-Wahab; Linux 6.6+ style, integer only):
//   (w_i below is the effective weight Entity.eevdf.eweight, which equals the
//   task's weight except on several cpus sharing one queue: see below.)
//   vruntime v_i advances by ran * 2^shift / w_i (exact: the division
//   remainder is carried in Entity.eevdf.vrem, so no share drifts by rounding).
//   V, the virtual time, is the weighted average of the vruntimes of every
//   runnable task, queued or running (Linux's avg_vruntime with curr), kept
//   as v0 + sum_wv / W with sum_wv = sum w_i (v_i - v0), W = sum w_i; v0 is
//   re-anchored to V itself at every pick so the sums stay small (Bounds). A task enters the sums when enqueued (not
//   already in them) and leaves them at dequeue or stop(); pick keeps it in them
//   (Entity.eevdf.on_cpu marks "running, in the sums"), charge moves it by its
//   vruntime delta, and the enqueue that puts it back after its charge only re-inserts
//   it into the tree. On several cpus sharing one queue, the running tasks so keep V where the runnable set is, even
//   when the tree is empty. The caller charges a running task before it places or compares anything (the run-queue
//   core, lib/sched/runqueues.h: at a wake-up, a timer interrupt, a pull and when the task stops), so V never leaves
//   out a current run; between charges the task counts at its vruntime of the last charge. eligible: v_i <= V = v0 +
//   floor(sum_wv / W); pick first moves v0 to V (one division), then compares vruntimes with v0 down the tree.
//   deadline: d_i = v_i + r_i
//   * 2^shift / w_i, renewed when v_i reaches it, r_i the task's request (below). pick: the eligible queued task with
//   the earliest deadline, FIFO (enqueue order) among equal deadlines (O(log n): tree keyed by deadline, augmented with
//   the subtree minimum vruntime; tasks with equal deadline and vruntime share a node, see eevdf_tree.h). When tasks
//   running on other cpus are far enough behind that no queued task is eligible, the cpu still takes work: the earliest
//   deadline among the queued tasks of minimum vruntime. lag: vlag = V - v_i is recorded at every charge, at stop and
//   at dequeue (V counting the task). enqueue places a task that slept at v = V - vlag * (W + w) / W (Linux's
//   inflation, so its lag after joining equals the saved one), the lag clamped to +-2 slices. A task that never ran has
//   vlag 0, so it starts at the current virtual time. A task put back right after its charge (enqueue time <= pick time
//   + time charged) keeps its vruntime exactly, so rounding never biases shares. reweight keeps the lag in time units:
//   vlag_new = vlag_old * w_old / w_new (a running task is re-placed by that lag and stays in the sums). V with no
//   runnable task at all is the V of when the last one left. A task charged or stopped while not marked on_cpu (picked
//   by another policy before a policy switch) is outside the sums; charge then measures its lag as if it were queued,
//   and stop does nothing.
//
// Yield (sched_yield; Linux's yield_task_fair since "Forfeit vruntime on
// yield"): the running task, if eligible, forfeits what is left of its
// request: its vruntime moves to its deadline, as if it had run the rest,
// and its deadline one request further. It stays in the sums. So the next
// pick prefers anyone else eligible; without this a yielding task that is
// eligible and due first is picked straight back, and a thread waiting for
// a lock with sched_yield spins its whole turn. An ineligible task (it has
// had more than its share) keeps its place: it is picked again only if
// nobody is eligible, and forfeiting there would only run its vruntime away.
// So does a task alone in the sums (Linux returns early too): nobody would
// run instead, and a yield loop would run its vruntime ahead a request per
// call (a nice 19 task at 200,000 yields a second past i64 in 16 days).
//
// Request size (Entity.request, Linux 6.12's sched_attr.sched_runtime): r_i
// is the task's own request, or the slice when it has none (0). It sets only
// the deadline: a task asking for short runs gets an earlier deadline at each
// placement and renewal, so it is picked sooner and, woken eligible, preempts
// a running task whose deadline is later (preempts(): the wake-up check is
// pick_eevdf's, with no RUN_TO_PARITY protection for anyone, so Linux's
// PREEMPT_SHORT is implied). Its share is unchanged: vruntime still advances
// by ran / w_i, so it gets shorter turns more often, not more time. The lag
// clamp stays two slices (Linux clamps to 2 x max(request, tick), and the
// kernel's tick is the slice); the caller's run length (the kernel's slice
// timer, schedsim's --slice) is not the request either (Linux without
// HRTICK, its default, enforces a short request only at its tick).
//
// Sleeping lag (sleep_decay, the default; Linux's DELAY_DEQUEUE): a task
// that stops with negative lag is marked delayed (Entity.eevdf.delayed; run_until is
// its stop time) and its debt decays while it sleeps: at the wake-up its vlag
// grows by the V that would have passed had it stayed in the average,
// dt * ncpus * 2^shift / (W + w) with W the queue's weight then, never past 0
// (eevdf.cc, decay()). So a sleeper is not punished for a burst long after
// it (the paper keeps the lag forever: a sleeper beside a hog pays back its
// last burst however long it slept) and not rewarded either (no positive
// lag is made). It changes shares of sleepers as Linux's does: one hog + one
// run 300 / sleep 100 sleeper gets 0.4800, not the lag-conserving fluid
// 0.4286 (tests/host/sched_protocol_test.cc). sleep_decay = false is the
// paper's EEVDF (schedsim --sleep-decay off), which the fluid-exact tests use.
//
// Several cpus sharing one queue (set_cpus(m), m > 1): a task can use at
// most one cpu, so a weight w_i > W / m asks for more than it can get, and
// with plain weights it holds V back (its vruntime advances by one cpu's
// worth, V by m cpus' worth over W) while the others run ahead of V without
// limit: after a light task has run alone beside it, it starves anyone new.
// Weight readjustment (Chandra et al., "Surplus Fair Scheduling", OSDI 2000)
// gives every task in the sums an effective weight Entity.eevdf.eweight =
// min(weight, cap): sort the weights w_1 >= w_2 >= ...; k is the least
// number with w_{k+1} * (m - k) <= R_k = sum_{j > k} w_j; cap = R_k / (m - k)
// (no cap when k = 0). Then each of the k heaviest gets exactly a cpu's
// share (cap / W' = 1/m of the service, W' = sum of eweights = m * cap) and
// the others share m - k cpus by weight. Equal weights are never split
// (if w_k = w_{k+1}, k - 1 already passes the test). With at most m tasks
// every one has its own cpu, all any task can get: all get the least
// weight among them, each keeping its lag in time units (as any change of
// eweight does) clamped to two slices, as placement clamps it. Their lags used to be cleared too (settle()), which
// wiped a sleeping heavy task's credit at every such instant: 2 nice +10 hogs and 6 nice -10 run-3/sleep-3 workers on 4
// cores gave the hogs 94,117 ticks of 100k and the workers 35,294, where each is owed 50,000 (now 50,063 / 49,978;
// tests/host/schedsim_shared_eevdf_test.cc). Everything else (V, deadlines, vruntime advance, lag, placement) uses
// eweight; a change of cap re-weights the tasks it affects keeping their lag in time (as reweight does). The cap is
// recomputed when the set in the sums changes (enqueue of a new or woken
// task, dequeue, stop, reweight): a scan of the in-sums list (Entity.link)
// keeping the m heaviest, skipped when no task is capped, there are more
// than m, and the largest weight seen, times m, is at most the sum of
// weights (then k = 0). Tasks
// leave the sums with eweight = weight (their saved lag rescaled). With one
// cpu (the default, and every per-cpu queue) eweight == weight always.
//
// Bounds: the anchor v0 is moved to V itself at every pick, so after it
// 0 <= sum_wv < W (sum_wv - W * floor(sum_wv / W)); between picks sum_wv
// changes only by charges (each adds ran * 2^shift at most) and by joins and
// leaves, which add or remove one term w_i (v_i - v0). So |sum_wv| < W +
// (sum of uncharged time of running tasks) * 2^shift + max term, and a term
// is a task's lag in time units times 2^shift: placement clamps the lag to
// two slices, and with effective weights a task's fluid rate is at most one
// cpu (cap = W' / m), so its lag changes by at most one time unit per time
// unit it is runnable. With the kernel's configuration (2^16, 10 MHz) a
// term stays below 2^63 for a lag of 1.4e14 cycles (163 days); the old
// anchor (the tree's least vruntime) let the whole sum grow with the lag of
// the running tasks, which without readjustment grew without limit (the
// 1039 / 88761 ratio overflowed it in 20 minutes on 3 harts). vruntimes
// themselves advance by at most 2^shift / w_min per time unit (i64 lasts
// 6.6 years at 10 MHz with shift 16 and weight 15).
#pragma once

#include "lib/sched/eevdf_tree.h"
#include "lib/sched/weights.h"
#include "lib/seam.h"

namespace q::sched {

class Eevdf final : public Policy {
  public:
    constexpr Eevdf(Time slice, unsigned shift, bool sleep_decay = true)
        : slice_(slice ? slice : 1), shift_(shift), sleep_decay_(sleep_decay) {}
    // The boot argument sleep_decay=0|1 (knobs.h) overrides the config's.
    explicit constexpr Eevdf(const PolicyConfig& c)
        : Eevdf(c.slice, c.vshift, c.knobs.get(Knob::EevdfSleepDecay, c.sleep_decay) != 0) {}

    const char* name() const override { return "eevdf"; }
    void enqueue(Entity& e, Time now) override;
    void dequeue(Entity& e) override;
    Entity* pick(unsigned cpu, Time now) override;
    void charge(Entity& e, Time ran) override;
    void stop(Entity& e) override;
    void yield(Entity& e) override;
    bool forfeits() const override { return true; }
    void forget(Entity& e) override {
        stop(e);  // leaves the sums if it was picked (on_cpu)
        e.eevdf.vlag = 0;
        e.eevdf.delayed = false;
    }
    bool preempts(const Entity& woken, const Entity& running) const override;
    bool preempts_current(const Entity& running) const override;
    bool preempts_on(const Entity& woken, const Entity& running, Time now) const override;
    Lead lead() const override;
    void arrive(Entity& e) override {
        if (e.eevdf.vlag < 0) e.eevdf.vlag = 0;
        e.eevdf.delayed = false;
    }
    // Its vruntime, and how far its virtual deadline lies past it.
    View describe(const Entity& e, Time) const override {
        return {e.eevdf.vruntime, e.eevdf.deadline - e.eevdf.vruntime, -1};
    }
    void reweight(Entity& e, u32 weight, u8 level) override;
    usize size() const override { return count_; }
    void set_cpus(unsigned n) override;

    // The current virtual time V (floor of the weighted average).
    i64 virtual_time() const;
    bool eligible(const Entity& e) const;
    i64 vslice(u32 weight) const { return static_cast<i64>((slice_ << shift_) / weight); }
    // e's request in virtual time: its own (Entity.request) or the slice.
    i64 vrequest(const Entity& e) const {
        const Time r = e.request ? e.request : slice_;
        return static_cast<i64>((r << shift_) / e.eevdf.eweight);
    }
    void set_request(Entity& e, Time request) override;

    const EevdfTree& tree() const { return tree_; }
    i64 sum_wv() const { return sum_wv_; }
    u64 total_weight() const { return total_weight_; }

  private:
    i64 lag_limit(u32 weight) const { return 2 * vslice(weight); }
    i64 place(const Entity& e) const;
    void decay(Entity& e, Time now) const;
    i64 decayed_lag(const Entity& e, Time now) const;
    i64 virtual_time_with(const Entity& e) const;
    void add_sums(const Entity& e);
    void sub_sums(const Entity& e);
    void join(Entity& e);
    void leave(Entity& e);
    void rebase();
    void insert(Entity& e, bool in_sums);
    void remove(Entity& e);
    // Recompute the cap when the set in the sums changed (inline fast path:
    // nobody capped and no weight can ask for more than one cpu).
    void readjust() {
        if (capped_ == 0 &&
            (ncpus_ <= 1 || (members_count_ > ncpus_ && static_cast<u64>(max_weight_) * ncpus_ <= real_weight_)))
            return;
        readjust_slow();
    }
    void readjust_slow();
    void settle();
    void set_eweight(Entity& e, u32 w);

    EevdfTree tree_;
    Time slice_;
    unsigned shift_;
    bool sleep_decay_;
    u64 total_weight_ = 0;  // W over queued and running (on_cpu) tasks
    i64 sum_wv_ = 0;        // sum w_i (v_i - v0) over the same tasks
    i64 v0_ = 0;
    i64 idle_v_ = 0;  // V while W is 0 (no runnable task)
    u64 seq_ = 0;
    usize count_ = 0;  // queued tasks
    // Weight readjustment (several cpus on this queue).
    List<Entity, &Entity::link> members_;  // every task in the sums
    usize members_count_ = 0;
    u64 real_weight_ = 0;  // sum of weight (not eweight) over members_
    u32 max_weight_ = 0;   // >= every member's weight (exact after a scan)
    usize capped_ = 0;     // members with eweight != weight
    unsigned ncpus_ = 1;
};

// The per-tick paths are inline so a caller that knows the concrete type
// (schedsim) pays no calls but the tree's; the kernel calls them through
// the vtable as before.

inline void Eevdf::add_sums(const Entity& e) {
    total_weight_ += e.eevdf.eweight;
    sum_wv_ += static_cast<i64>(e.eevdf.eweight) * (e.eevdf.vruntime - v0_);
}

inline void Eevdf::sub_sums(const Entity& e) {
    total_weight_ -= e.eevdf.eweight;
    sum_wv_ -= static_cast<i64>(e.eevdf.eweight) * (e.eevdf.vruntime - v0_);
}

// e enters / leaves the sums (and the member list). V of an empty set is the
// V of when it emptied. e joins with eweight = weight; readjust() may cap it.
inline void Eevdf::join(Entity& e) {
    if (total_weight_ == 0) {
        v0_ = e.eevdf.vruntime;
        sum_wv_ = 0;
    }
    e.eevdf.eweight = e.weight;
    add_sums(e);
    members_.push_back(e);
    members_count_++;
    real_weight_ += e.weight;
    if (e.weight > max_weight_) max_weight_ = e.weight;
}

// A capped task leaves with its lag and request rescaled to its own weight.
inline void Eevdf::leave(Entity& e) {
    if (total_weight_ == e.eevdf.eweight) idle_v_ = virtual_time();
    sub_sums(e);
    members_.remove(e);
    members_count_--;
    real_weight_ -= e.weight;
    if (members_count_ == 0) max_weight_ = 0;
    if (e.eevdf.eweight != e.weight) {
        const i64 ew = e.eevdf.eweight, w = e.weight;
        e.eevdf.vlag = e.eevdf.vlag * ew / w;
        e.eevdf.deadline = e.eevdf.vruntime + (e.eevdf.deadline - e.eevdf.vruntime) * ew / w;
        e.eevdf.eweight = e.weight;
        e.eevdf.vrem = 0;
        capped_--;
    }
}

// v0 moves to V: afterwards 0 <= sum_wv < W (see Bounds).
inline void Eevdf::rebase() {
    const i64 w = static_cast<i64>(total_weight_);
    i64 q = sum_wv_ / w;
    if (sum_wv_ % w < 0) q--;  // floor
    v0_ += q;
    sum_wv_ -= q * w;
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
    bool in_sums = e.eevdf.on_cpu;
    const bool requeue = in_sums && now <= e.eevdf.run_until;
    e.eevdf.on_cpu = false;
    if (!requeue) {
        if (in_sums) leave(e);  // ran, was not stopped, comes back late
        in_sums = false;
        e.eevdf.eweight = e.weight;
        if (e.eevdf.delayed) decay(e, now);
        const i64 v = place(e);
        e.eevdf.deadline += v - e.eevdf.vruntime;  // keep the unfinished part of the request
        e.eevdf.vruntime = v;
    }
    const i64 vs = vrequest(e);
    if (e.eevdf.deadline <= e.eevdf.vruntime || e.eevdf.deadline - e.eevdf.vruntime > vs)
        e.eevdf.deadline = e.eevdf.vruntime + vs;
    insert(e, in_sums);
    if (!in_sums) readjust();
}

inline Entity* Eevdf::pick(unsigned cpu, Time now) {
    if (tree_.empty()) return nullptr;
    // v0 = V: eligible means v <= v0, plain comparisons down the tree. V
    // counts the running tasks: if they are so far behind that no queued
    // task is eligible (V < the tree's minimum), take the least ineligible.
    rebase();
    i64 limit = v0_;
    if (limit < tree_.root()->eevdf.min_vruntime) limit = tree_.root()->eevdf.min_vruntime;
    Entity* e = tree_.first_passing([=](i64 v) { return v <= limit; });
    Q_ASSERT(e != nullptr);  // the tree's minimum vruntime always passes
    remove(*e);
    e->cpu = static_cast<u16>(cpu);
    e->eevdf.on_cpu = true;
    e->eevdf.run_until = now;
    return e;
}

inline void Eevdf::charge(Entity& e, Time ran) {
    if (!e.eevdf.on_cpu) e.eevdf.eweight = e.weight;  // outside the sums: its own weight
    const u64 scaled = (static_cast<u64>(ran) << shift_) + e.eevdf.vrem;
    const i64 dv = static_cast<i64>(scaled / e.eevdf.eweight);
    e.eevdf.vrem = static_cast<u32>(scaled % e.eevdf.eweight);
    e.eevdf.run_until += ran;
    if (e.eevdf.on_cpu) {
        sum_wv_ += static_cast<i64>(e.eevdf.eweight) * dv;
        e.eevdf.vruntime += dv;
        e.eevdf.vlag = virtual_time() - e.eevdf.vruntime;
    } else {
        // Not in the sums (picked by another policy before a switch).
        e.eevdf.vruntime += dv;
        if (total_weight_ == 0) idle_v_ = e.eevdf.vruntime;  // alone: V follows the runner
        e.eevdf.vlag = virtual_time_with(e) - e.eevdf.vruntime;
    }
    if (e.eevdf.vruntime >= e.eevdf.deadline) e.eevdf.deadline = e.eevdf.vruntime + vrequest(e);
}

inline void Eevdf::stop(Entity& e) {
    Q_ASSERT(!e.queued);
    if (!e.eevdf.on_cpu) return;  // not in the sums: nothing to undo
    e.eevdf.vlag = virtual_time() - e.eevdf.vruntime;
    leave(e);
    e.eevdf.on_cpu = false;
    e.eevdf.delayed = sleep_decay_ && e.eevdf.vlag < 0;  // run_until: the stop time
    readjust();
}

inline void Eevdf::yield(Entity& e) {
    Q_ASSERT(!e.queued);
    if (!e.eevdf.on_cpu || members_count_ < 2 || !eligible(e)) return;
    const i64 dv = e.eevdf.deadline - e.eevdf.vruntime;
    sum_wv_ += static_cast<i64>(e.eevdf.eweight) * dv;
    e.eevdf.vruntime = e.eevdf.deadline;
    e.eevdf.deadline += vrequest(e);
    e.eevdf.vlag = virtual_time() - e.eevdf.vruntime;
}

// V as if e (running, not queued) were in the average.
inline i64 Eevdf::virtual_time_with(const Entity& e) const {
    if (total_weight_ == 0) return e.eevdf.vruntime;
    const i64 w = static_cast<i64>(total_weight_ + e.eevdf.eweight);
    const i64 s = sum_wv_ + static_cast<i64>(e.eevdf.eweight) * (e.eevdf.vruntime - v0_);
    i64 q = s / w;
    if (s % w < 0) q--;
    return v0_ + q;
}

}  // namespace q::sched
