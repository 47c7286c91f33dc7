// sim/source.h - what a run's tasks are and do, independently of the
// policy: the arrivals (the workload's fixed list, then for the random
// workload one draw per core per tick), each task's blocking stream, and
// the replay burst sequence. The simulator and the fluid reference
// (fluid_world.h) both draw from here, so they see the same tasks, arriving
// at the same ticks, with the same k-th-executed-tick blocking decisions.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/rng.h"
#include "sim/sim.h"

namespace schedsim {

class TaskSource {
  public:
    TaskSource(const Config& cfg, const std::vector<TaskSpec>& fixed)
        : cfg_(cfg), fixed_(fixed), arrival_rng_(cfg.seed, 1), runtime_rng_(cfg.seed, 2) {}

    // Calls spawn(spec, fixed_index) for every task arriving at tick now, in
    // id order (fixed_index is SIZE_MAX for generated tasks; the spec is then
    // a temporary).
    template <typename F>
    void arrivals(uint64_t now, F&& spawn) {
        while (next_fixed_ < fixed_.size() && fixed_[next_fixed_].arrival <= now) {
            count_++;
            spawn(fixed_[next_fixed_], next_fixed_);
            next_fixed_++;
        }
        if (cfg_.workload != WorkloadKind::Random) return;
        for (unsigned c = 0; c < cfg_.cores; c++) {
            if (!arrival_rng_.chance(cfg_.spawn_chance)) continue;
            TaskSpec s;
            s.runtime = runtime_rng_.range(cfg_.runtime_min, cfg_.runtime_max);
            s.block_chance = runtime_rng_.unit() * cfg_.block_max;
            s.level = static_cast<uint8_t>(count_ % q::sched::kLevels);
            count_++;
            spawn(s, SIZE_MAX);
        }
    }

    // The first tick after `now` at which arrivals() may spawn (kNever: no
    // task arrives any more); the random workload draws every tick.
    uint64_t next_arrival(uint64_t now) const {
        if (cfg_.workload == WorkloadKind::Random) return now + 1;
        return next_fixed_ < fixed_.size() ? fixed_[next_fixed_].arrival : kNever;
    }

    // Task `id`'s blocking decisions, one draw per executed tick that does
    // not finish it.
    static Rng block_stream(uint64_t seed, uint64_t id) { return Rng(seed, 3 + (id << 2)); }

  private:
    const Config& cfg_;
    const std::vector<TaskSpec>& fixed_;
    size_t next_fixed_ = 0;
    uint64_t count_ = 0;
    Rng arrival_rng_, runtime_rng_;
};

// Replay: a run burst of `s` has ended and `burst` is its index. Bursts
// alternate run/sleep (replay.cc merges neighbours of one kind), with wake
// bursts after a run: each is passed to wake(task index, sync) in order,
// and a yield burst after them calls yielded() (a run follows it). Returns
// false if the task ends; otherwise sets `sleep` (ticks to sleep first,
// kForever for a "sleep wait", or kNoSleep to run on at once) and moves
// `burst` to the next run burst.
constexpr uint64_t kNoSleep = ~uint64_t{0} - 1;

template <typename Wake, typename Yielded>
inline bool next_run_burst(const TaskSpec& s, size_t& burst, uint64_t& sleep, Wake&& wake, Yielded&& yielded) {
    auto advance = [&] {
        if (++burst < s.bursts.size()) return true;
        burst = 0;
        return s.repeat;
    };
    sleep = kNoSleep;
    if (!advance()) return false;
    while (s.bursts[burst].wake >= 0 || s.bursts[burst].yield) {
        if (s.bursts[burst].yield) {
            yielded();
        } else {
            wake(static_cast<size_t>(s.bursts[burst].wake), s.bursts[burst].sync);
        }
        if (!advance()) return false;
    }
    if (!s.bursts[burst].run) {
        sleep = s.bursts[burst].ticks;
        if (!advance()) return false;  // not reached: a final sleep is dropped
    }
    return true;
}

inline bool next_run_burst(const TaskSpec& s, size_t& burst, uint64_t& sleep) {
    return next_run_burst(
        s, burst, sleep, [](size_t, bool) {}, [] {});
}

}  // namespace schedsim
