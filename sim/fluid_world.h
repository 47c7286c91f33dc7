// sim/fluid_world.h - the fluid reference schedule that lag and fairness
// are measured against: the run's workload served by an ideal fluid
// scheduler, independently of the policy being measured.
//
// The same tasks arrive at the same ticks (source.h). Each tick the cores
// are water-filled over the tasks runnable in this fluid world, at most one
// core per task (fluid.h). A task's demand drives its life here exactly as
// in the simulation, but in units of fluid service: its k-th tick of
// service ends its run burst, finishes it, or blocks it according to the
// same decision its k-th executed tick gets in the simulation (its own
// blocking stream), and it then sleeps the same number of ticks. So every
// policy is compared with one schedule, which does not follow the policy's
// own blocking times.
//
// Events are kept per task, not per tick: when a task becomes runnable its
// next event is computed ahead (the service at which its run burst ends,
// it finishes, or its blocking stream first says block - drawn ahead from a
// copy of the stream the simulator uses), and the task waits in its level's
// heap keyed by the level service at which it reaches that point. A tick
// costs the water-filling update plus the events due (one heap check per
// non-empty level). Granularity: events take effect at the end of the tick
// in which they fall (the simulator's granularity too); the part of that
// tick's fluid share after a task's event is dropped, not given to the
// others (< 1 tick per event). Level changes (replay) apply at the start of
// their tick, keeping the task's service.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "sim/events.h"
#include "sim/fluid.h"
#include "sim/rng.h"
#include "sim/sim.h"
#include "sim/source.h"

namespace schedsim {

class FluidWorld {
  public:
    FluidWorld(const Config& cfg, const std::vector<TaskSpec>& fixed);

    // Tick `now`: begin() takes the arrivals, wake-ups and level changes
    // due at its start, advance() then gives its fluid service and runs the
    // events it completes. begin() changes no task's service() (a joining
    // task's base is set so that its service stays what it was, 0 for a new
    // one), so a caller may read service() between the two - the simulator
    // calls begin() first, so that every task it has spawned is known here.
    void begin(uint64_t now);
    void advance(uint64_t now);
    void tick(uint64_t now) {
        begin(now);
        advance(now);
    }
    // Task id's fluid service through the last tick(), in 2^-64 ticks (0 for
    // a task that has not arrived).
    // Read at every dispatch and deschedule (lag sampling, sim.cc): one
    // 32-byte record (Hot), no branch on the state. known(id): id has
    // arrived here (service() needs it; an unknown task's service is 0).
    bool known(uint64_t id) const { return id < nhot_; }
    i128 service(uint64_t id) const { return service_minus(id, 0); }
    // service(id) - whole ticks (a lag: whole = the ticks it received).
    i128 service_minus(uint64_t id, uint64_t whole) const {
        const Hot& h = hot_[id];
        return fluid_.service_plus(h.slot, h.base, whole);
    }

  private:
    struct Task {
        const TaskSpec* spec = nullptr;  // replay tasks
        size_t burst = 0;
        Rng rng{0};
        double block_chance = 0;
        uint64_t remaining = 0;  // of the current run burst, from `done`
        uint64_t done = 0;       // whole ticks of service at the last event
        uint64_t event_at = 0;   // service (ticks) of the next event; 0: none
        uint8_t kind = 0;        // of that event (Kind)
        uint32_t version = 0;    // invalidates heap entries
        uint8_t level = 0;
        bool runnable = false, finished = false;
    };
    // What service() reads, apart from the rest (a power-of-two stride):
    // service = base + the level service of slot, which is the task's level
    // while it is runnable, else FluidReference::kNone (service 0).
    struct Hot {
        i128 base = 0;
        uint32_t slot = FluidReference::kNone;
    };
    static_assert(sizeof(Hot) == 32);
    struct Due {
        i128 key;  // level service at which the event falls
        uint64_t id;
        uint32_t version;
        bool operator>(const Due& o) const { return key != o.key ? key > o.key : id > o.id; }
    };

    enum Kind : uint8_t { kCheckpoint, kBurstEnd, kFinish, kBlock };
    // Blocking decisions are drawn ahead at most this many ticks of service
    // at a time (a checkpoint event resumes), so a task that rarely runs
    // does not draw a whole run's worth ahead.
    static constexpr uint64_t kLookahead = 4096;

    void spawn(const TaskSpec& s, size_t fixed_index);
    void join(uint64_t id);
    void leave(uint64_t id);
    void plan(uint64_t id);
    void event(uint64_t id, uint64_t now);
    void sleep(uint64_t id, uint64_t now, uint64_t ticks);
    void change_level(uint64_t id, uint8_t level);

    const Config& cfg_;
    const uint32_t* weight_;
    TaskSource source_;
    FluidReference fluid_;
    std::vector<Task> tasks_;
    std::vector<Hot> hot_;             // by id, beside tasks_
    uint64_t nhot_ = 0;                // hot_.size()
    std::vector<uint64_t> spec_task_;  // fixed index -> id
    std::priority_queue<Due, std::vector<Due>, std::greater<Due>> due_[q::sched::kLevels];
    uint64_t due_mask_ = 0;           // bit l: due_[l] is not empty
    SleeperHeap<uint64_t> sleepers_;  // task ids
    TaskChanges changes_;             // its level changes (it has no cores: affinity changes are skipped)
};

}  // namespace schedsim
