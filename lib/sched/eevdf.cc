// lib/sched/eevdf.cc - EEVDF (see eevdf.h for the model and bounds).
#include "lib/sched/eevdf.h"

#include "lib/seam.h"

namespace q::sched {

namespace {

i64 clamp(i64 v, i64 lo, i64 hi) { return v < lo ? lo : (v > hi ? hi : v); }

}  // namespace

void Eevdf::add_sums(const Entity& e) {
    total_weight_ += e.weight;
    sum_wv_ += static_cast<i64>(e.weight) * (e.vruntime - v0_);
}

void Eevdf::sub_sums(const Entity& e) {
    total_weight_ -= e.weight;
    sum_wv_ -= static_cast<i64>(e.weight) * (e.vruntime - v0_);
}

void Eevdf::rebase() {
    if (tree_.empty()) return;
    const i64 nv0 = tree_.root()->min_vruntime;
    sum_wv_ -= static_cast<i64>(total_weight_) * (nv0 - v0_);
    v0_ = nv0;
}

i64 Eevdf::virtual_time() const {
    if (total_weight_ == 0) return idle_v_;
    const i64 w = static_cast<i64>(total_weight_);
    i64 q = sum_wv_ / w;
    if (sum_wv_ % w < 0) q--;  // floor
    return v0_ + q;
}

bool Eevdf::eligible(const Entity& e) const {
    return e.vruntime <= virtual_time();  // exact: V is the floor of the average
}

void Eevdf::insert(Entity& e) {
    if (tree_.empty()) {
        v0_ = e.vruntime;
        sum_wv_ = 0;
        total_weight_ = 0;
    }
    e.seq = seq_++;
    tree_.insert(e);
    add_sums(e);
    e.queued = true;
    count_++;
}

void Eevdf::remove(Entity& e) {
    // idle_v_ is read only while the tree is empty: record V when it empties.
    if (count_ == 1) idle_v_ = virtual_time();
    tree_.erase(e);
    sub_sums(e);
    e.queued = false;
    count_--;
}

// Where a task with saved lag vlag (measured against V including itself)
// goes so that its lag after joining equals vlag: v = V - vlag * (W + w) / W.
i64 Eevdf::place(const Entity& e) const {
    const i64 limit = lag_limit(e.weight);
    const i64 lag = clamp(e.vlag, -limit, limit);
    if (total_weight_ == 0) return idle_v_ - lag;
    return virtual_time() - lag - lag * static_cast<i64>(e.weight) / static_cast<i64>(total_weight_);
}

void Eevdf::enqueue(Entity& e, Time now) {
    Q_ASSERT(!e.queued && e.weight > 0);
    // A task put back right after its charge keeps its vruntime exactly;
    // one that slept (or is new: vlag 0) is placed by its lag.
    const bool requeue = e.on_cpu && now <= e.run_until;
    e.on_cpu = false;
    if (!requeue) {
        const i64 v = place(e);
        e.deadline += v - e.vruntime;  // keep the unfinished part of the request
        e.vruntime = v;
    }
    const i64 vs = vslice(e.weight);
    if (e.deadline <= e.vruntime || e.deadline - e.vruntime > vs) e.deadline = e.vruntime + vs;
    insert(e);
}

void Eevdf::dequeue(Entity& e) {
    Q_ASSERT(e.queued);
    e.vlag = virtual_time() - e.vruntime;
    remove(e);
}

Entity* Eevdf::pick(unsigned cpu, Time now) {
    if (tree_.empty()) return nullptr;
    rebase();
    // (v - v0) * W <= sum_wv  <=>  v <= v0 + floor(sum_wv / W): one division
    // per pick, then plain comparisons down the tree.
    const i64 limit = virtual_time();
    Entity* e = tree_.first_passing([=](i64 v) { return v <= limit; });
    Q_ASSERT(e != nullptr);  // the minimum vruntime is always eligible
    remove(*e);
    e->cpu = static_cast<u16>(cpu);
    e->on_cpu = true;
    e->run_until = now;
    return e;
}

void Eevdf::charge(Entity& e, Time ran) {
    const u64 scaled = (static_cast<u64>(ran) << shift_) + e.vrem;
    e.vruntime += static_cast<i64>(scaled / e.weight);
    e.vrem = static_cast<u32>(scaled % e.weight);
    e.run_until += ran;
    if (e.vruntime >= e.deadline) e.deadline = e.vruntime + vslice(e.weight);
    if (tree_.empty()) idle_v_ = e.vruntime;  // alone: V follows the runner
    e.vlag = virtual_time_with(e) - e.vruntime;
}

// V as if e (running, not queued) were in the average.
i64 Eevdf::virtual_time_with(const Entity& e) const {
    if (total_weight_ == 0) return e.vruntime;
    const i64 w = static_cast<i64>(total_weight_ + e.weight);
    const i64 s = sum_wv_ + static_cast<i64>(e.weight) * (e.vruntime - v0_);
    i64 q = s / w;
    if (s % w < 0) q--;
    return v0_ + q;
}

bool Eevdf::preempts(const Entity& woken, const Entity& running) const {
    return eligible(woken) && woken.deadline < running.deadline;
}

void Eevdf::reweight(Entity& e, u32 weight, u8 level) {
    Q_ASSERT(weight > 0);
    const bool was_queued = e.queued;
    if (was_queued) dequeue(e);
    const i64 rest = e.deadline - e.vruntime;
    e.vlag = e.vlag * static_cast<i64>(e.weight) / static_cast<i64>(weight);
    const i64 new_rest = rest * static_cast<i64>(e.weight) / static_cast<i64>(weight);
    e.weight = weight;
    e.level = level;
    e.vrem = 0;
    if (was_queued) {
        e.deadline = e.vruntime + new_rest;
        enqueue(e, 0);
    } else {
        e.vruntime = place(e);
        e.deadline = e.vruntime + new_rest;
    }
}

}  // namespace q::sched
