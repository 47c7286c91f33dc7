// sim/fluid_world.cc - the demand-driven fluid reference (see
// fluid_world.h).
#include "sim/fluid_world.h"

#include <algorithm>

namespace schedsim {

namespace {

i128 ticks_units(uint64_t ticks) { return static_cast<i128>(static_cast<unsigned __int128>(ticks) << 64); }

}  // namespace

FluidWorld::FluidWorld(const Config& cfg, const std::vector<TaskSpec>& fixed)
    : cfg_(cfg),
      weight_(q::sched::weight_table(cfg.weights)),
      source_(cfg, fixed),
      fluid_(q::sched::weight_table(cfg.weights), cfg.cores),
      spec_task_(fixed.size(), 0),
      changes_(fixed) {}

void FluidWorld::spawn(const TaskSpec& s, size_t fixed_index) {
    const uint64_t id = tasks_.size();
    Task& t = tasks_.emplace_back();
    hot_.emplace_back();
    nhot_ = hot_.size();
    if (!s.bursts.empty()) t.spec = &s;  // only fixed specs have bursts
    t.rng = TaskSource::block_stream(cfg_.seed, id);
    t.block_chance = s.block_chance;
    t.remaining = s.runtime;
    t.level = s.level;
    if (fixed_index != SIZE_MAX) spec_task_[fixed_index] = id;
    join(id);
}

void FluidWorld::join(uint64_t id) {
    Task& t = tasks_[id];
    Hot& h = hot_[id];
    t.runnable = true;
    fluid_.add(t.level);
    h.base -= fluid_.service(t.level);
    h.slot = t.level;
    plan(id);
}

void FluidWorld::leave(uint64_t id) {
    Task& t = tasks_[id];
    Hot& h = hot_[id];
    fluid_.remove(t.level);
    t.runnable = false;
    h.base = ticks_units(t.done);  // service exactly at the event
    h.slot = FluidReference::kNone;
    t.version++;
}

// The next event of runnable task id, from its position `done`: the end of
// its run burst (replay), or the first executed tick that finishes it or
// that its blocking stream blocks (the simulator's order: finish first,
// else one draw), or a checkpoint kLookahead ticks on.
void FluidWorld::plan(uint64_t id) {
    Task& t = tasks_[id];
    t.version++;
    t.event_at = 0;
    if (t.spec) {
        if (t.remaining == kForever) return;
        t.event_at = t.done + t.remaining;
        t.kind = kBurstEnd;
    } else if (t.block_chance <= 0) {
        if (t.remaining == kForever) return;
        t.event_at = t.done + t.remaining;
        t.kind = kFinish;
    } else {
        for (uint64_t k = 1;; k++) {
            if (k == t.remaining) {
                t.kind = kFinish;
            } else if (t.rng.chance(t.block_chance)) {
                t.kind = kBlock;
            } else if (k == kLookahead) {
                t.kind = kCheckpoint;
            } else {
                continue;
            }
            t.event_at = t.done + k;
            break;
        }
    }
    due_[t.level].push({ticks_units(t.event_at) - hot_[id].base, id, t.version});
    due_mask_ |= uint64_t{1} << t.level;
}

void FluidWorld::sleep(uint64_t id, uint64_t now, uint64_t ticks) {
    leave(id);
    sleepers_.push(now + 1 + ticks, id);
}

void FluidWorld::event(uint64_t id, uint64_t now) {
    Task& t = tasks_[id];
    const uint64_t advanced = t.event_at - t.done;
    t.done = t.event_at;
    if (t.remaining != kForever) t.remaining -= advanced;
    switch (t.kind) {
        case kCheckpoint:
            plan(id);
            return;
        case kFinish:
            leave(id);
            t.finished = true;
            return;
        case kBlock:
            sleep(id, now, cfg_.wake_delay);
            return;
        case kBurstEnd: {
            uint64_t sl = 0;
            if (!next_run_burst(*t.spec, t.burst, sl)) {
                leave(id);
                t.finished = true;
                return;
            }
            t.remaining = t.spec->bursts[t.burst].ticks;
            if (sl != kNoSleep) {
                sleep(id, now, sl);
                return;
            }
            hot_[id].base = ticks_units(t.done) - fluid_.service(t.level);  // service exactly at the event
            plan(id);
            return;
        }
    }
}

void FluidWorld::change_level(uint64_t id, uint8_t level) {
    Task& t = tasks_[id];
    Hot& h = hot_[id];
    if (t.finished) return;
    if (!t.runnable) {
        t.level = level;
        return;
    }
    h.base += fluid_.service(t.level);
    fluid_.remove(t.level);
    t.level = level;
    h.slot = level;
    fluid_.add(t.level);
    h.base -= fluid_.service(t.level);
    if (t.event_at == 0) return;
    t.version++;
    due_[t.level].push({ticks_units(t.event_at) - h.base, id, t.version});
    due_mask_ |= uint64_t{1} << t.level;
}

void FluidWorld::begin(uint64_t now) {
    source_.arrivals(now, [&](const TaskSpec& s, size_t fixed_index) { spawn(s, fixed_index); });
    while (sleepers_.due(now)) join(sleepers_.pop());
    while (changes_.due(now)) {
        const TaskChanges::Change& c = changes_.pop();
        if (c.cpus == 0) change_level(spec_task_[c.spec], c.level);
    }
}

void FluidWorld::advance(uint64_t now) {
    fluid_.advance();
    for (uint64_t m = due_mask_; m; m &= m - 1) {
        const unsigned l = static_cast<unsigned>(__builtin_ctzll(m));
        auto& due = due_[l];
        // Due when the level service has reached the key (within the
        // fluid reference's rounding, < one weight's worth of units).
        const i128 reached = fluid_.service(l) + weight_[l];
        while (!due.empty() && due.top().key < reached) {
            const Due d = due.top();
            due.pop();
            if (d.version == tasks_[d.id].version) event(d.id, now);
        }
        if (due.empty()) due_mask_ &= ~(uint64_t{1} << l);
    }
}

}  // namespace schedsim
