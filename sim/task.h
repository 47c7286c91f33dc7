// sim/task.h - one simulated task: its run-queue state (the base RqTask:
// the policy entity and what the run-queue core keeps, lib/sched/rq_task.h)
// and the figures the report needs. Owned by the simulator (a deque, so pointers stay
// valid); the run-queue core and the loop (sim.cc) both work on it.
#pragma once

#include <cstdint>
#include <vector>

#include "lib/sched/rq_task.h"
#include "sim/fluid.h"
#include "sim/rng.h"
#include "sim/sim.h"

namespace schedsim {

struct Task : q::sched::RqTask {  // se.owner is this Task
    uint64_t id = 0;
    Rng block_rng{0};                     // this task's blocking decisions, one per executed tick
    uint64_t arrival = 0, remaining = 0;  // remaining: of the current run burst
    // Executed ticks until the next one after which it may stop: the burst's
    // end, or 1 if it may block (a non-blocking task's remaining is then
    // brought up to date only at its burst's end). Set with remaining.
    uint64_t until_stop_check = 0;
    const TaskSpec* spec = nullptr;  // replay tasks: their bursts
    size_t burst = 0;
    size_t fixed = SIZE_MAX;             // index of its fixed spec (replay wake bursts name it)
    uint64_t blocks = 0, woke = kNever;  // woke: wake-up tick until dispatched
    std::vector<uint64_t> wake_lat;      // ticks from each wake-up to its run
    uint64_t first_run = kNever, completion = kNever;
    uint64_t execs = 0, blocked_ticks = 0, block_start = 0;
    uint64_t dispatches = 0;  // picks
    double block_chance = 0;
    i128 lag_hi = 0, lag_lo = 0;  // extremes of fluid - received seen (fluid.h units)
    bool blocked = false;
    bool waiting = false;      // in a "sleep wait": asleep until a wake burst wakes it
    int sync_waker = -1;       // its wake-up is synchronous, from this core (replay)
    bool undispatched = true;  // not run since it arrived or woke (first_run or woke pending)
    bool yielding = false;     // replay: its run ended with a yield (put back giving up its turn)
    bool may_block = false;    // block_chance > 0
};

inline Task& task_of(q::sched::RqTask& t) { return static_cast<Task&>(t); }

}  // namespace schedsim
