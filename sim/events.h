// sim/events.h - the two timetables that the simulation loop
// (simulator.h) and the fluid reference (fluid_world.h) both keep, once:
// sleepers by wake tick, and a replay's level and affinity changes by tick
// (the fluid reference, which knows no cores, skips the affinity ones). Each caller
// files its own handle for a sleeper (the loop a Task*, the reference a
// task id); the level changes are the fixed specs' own, so both see the
// same list in the same order.
//
// Invariants: sleepers leave in wake-tick order, FIFO among equal ticks
// (a sequence number breaks the tie); level changes leave in tick order,
// stable (a spec's changes, and specs in arrival order, keep their order
// within one tick). next() is the tick of the earliest entry, kNever if
// there is none, so a loop can skip the ticks at which nothing is due.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "sim/sim.h"

namespace schedsim {

template <typename Handle>
class SleeperHeap {
  public:
    void push(uint64_t wake, Handle who) { heap_.push({wake, seq_++, who}); }
    bool due(uint64_t now) const { return !heap_.empty() && heap_.top().wake <= now; }
    Handle pop() {
        const Handle who = heap_.top().who;
        heap_.pop();
        return who;
    }
    uint64_t next() const { return heap_.empty() ? kNever : heap_.top().wake; }

  private:
    struct Entry {
        uint64_t wake, seq;
        Handle who;
        bool operator>(const Entry& o) const { return wake != o.wake ? wake > o.wake : seq > o.seq; }
    };
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap_;
    uint64_t seq_ = 0;
};

// Replay level and affinity changes (TaskSpec::changes) of every fixed
// spec, by tick.
class TaskChanges {
  public:
    struct Change {
        uint64_t tick;
        size_t spec;  // index of the fixed spec
        uint8_t level;
        uint64_t cpus;  // nonzero: an affinity change (TaskChange)
    };

    explicit TaskChanges(const std::vector<TaskSpec>& fixed) {
        for (size_t i = 0; i < fixed.size(); i++) {
            for (const TaskChange& c : fixed[i].changes) changes_.push_back({c.tick, i, c.level, c.cpus});
        }
        std::stable_sort(changes_.begin(), changes_.end(),
                         [](const Change& a, const Change& b) { return a.tick < b.tick; });
    }
    bool due(uint64_t now) const { return next_ < changes_.size() && changes_[next_].tick <= now; }
    const Change& pop() { return changes_[next_++]; }
    uint64_t next() const { return next_ < changes_.size() ? changes_[next_].tick : kNever; }

  private:
    std::vector<Change> changes_;
    size_t next_ = 0;
};

}  // namespace schedsim
