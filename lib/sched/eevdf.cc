// lib/sched/eevdf.cc - EEVDF (see eevdf.h for the model and bounds).
#include "lib/sched/eevdf.h"

#include "lib/seam.h"

namespace q::sched {

namespace {

i64 clamp(i64 v, i64 lo, i64 hi) { return v < lo ? lo : (v > hi ? hi : v); }

}  // namespace

bool Eevdf::eligible(const Entity& e) const {
    return e.vruntime <= virtual_time();  // exact: V is the floor of the average
}

// Where a task with saved lag vlag (measured against V including itself)
// goes so that its lag after joining equals vlag: v = V - vlag * (W + w) / W.
i64 Eevdf::place(const Entity& e) const {
    const i64 limit = lag_limit(e.weight);
    const i64 lag = clamp(e.vlag, -limit, limit);
    if (total_weight_ == 0) return idle_v_ - lag;
    return virtual_time() - lag - lag * static_cast<i64>(e.weight) / static_cast<i64>(total_weight_);
}

void Eevdf::dequeue(Entity& e) {
    Q_ASSERT(e.queued);
    e.vlag = virtual_time() - e.vruntime;
    remove(e);
    leave(e);
}

bool Eevdf::preempts(const Entity& woken, const Entity& running) const {
    return eligible(woken) && woken.deadline < running.deadline;
}

// A running task (in the sums) leaves them with its old weight, is placed
// by its scaled lag against the others and joins again with the new weight.
void Eevdf::reweight(Entity& e, u32 weight, u8 level) {
    Q_ASSERT(weight > 0);
    const bool was_queued = e.queued;
    const bool running = e.on_cpu && !was_queued;
    if (was_queued) {
        dequeue(e);
    } else if (running) {
        e.vlag = virtual_time() - e.vruntime;
        leave(e);
    }
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
        if (running) join(e);
    }
}

}  // namespace q::sched
