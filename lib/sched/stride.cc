// lib/sched/stride.cc - stride scheduling (see stride.h for the design).
#include "lib/sched/stride.h"

namespace q::sched {

namespace {

i64 clamp(i64 v, i64 lo, i64 hi) { return v < lo ? lo : (v > hi ? hi : v); }

}  // namespace

void Stride::enqueue(Entity& e, Time) {
    Q_ASSERT(!e.queued);
    if (!e.picked) e.stride.pass = global_ + e.stride.plag;  // new, woken or migrated
    e.picked = false;
    e.stride.plag = 0;
    e.seq = seq_++;
    queue_.insert(e);
    e.queued = true;
    count_++;
}

void Stride::leave(Entity& e) {
    const i64 s = stride(e.weight);
    e.stride.plag = clamp(e.stride.pass - global_, -s, s);
}

void Stride::dequeue(Entity& e) {
    Q_ASSERT(e.queued);
    queue_.erase(e);
    e.queued = false;
    count_--;
    leave(e);
}

Entity* Stride::pick(unsigned cpu, Time) {
    Entity* best = queue_.first();  // least (pass, seq)
    if (!best) return nullptr;
    queue_.erase(*best);
    best->queued = false;
    count_--;
    best->cpu = static_cast<u16>(cpu);
    best->picked = true;
    if (best->stride.pass > global_) global_ = best->stride.pass;
    return best;
}

void Stride::charge(Entity& e, Time ran) {
    Q_ASSERT(!e.queued);  // the pass is the queue's key
    const u64 scaled = static_cast<u64>(stride(e.weight)) * ran + e.stride.prem;
    e.stride.pass += static_cast<i64>(scaled / slice_);
    e.stride.prem = scaled % slice_;
}

void Stride::stop(Entity& e) {
    Q_ASSERT(!e.queued);
    if (e.picked) leave(e);
    e.picked = false;
}

void Stride::forget(Entity& e) {
    e.picked = false;
    e.stride.plag = 0;
    e.stride.prem = 0;
}

bool Stride::preempts(const Entity& woken, const Entity& running) const {
    return woken.stride.pass + stride(woken.weight) <= running.stride.pass;
}

void Stride::reweight(Entity& e, u32 weight, u8 level) {
    const i64 old_s = stride(e.weight), new_s = stride(weight);
    if (e.queued || e.picked) {
        const i64 remain = clamp(e.stride.pass - global_, -4 * old_s, 4 * old_s);
        if (e.queued) queue_.erase(e);  // its key changes
        e.stride.pass = global_ + remain * new_s / old_s;
        if (e.queued) queue_.insert(e);
    } else {
        e.stride.plag = clamp(e.stride.plag * new_s / old_s, -new_s, new_s);
    }
    e.stride.prem = 0;
    e.weight = weight;
    e.level = level;
}

}  // namespace q::sched
