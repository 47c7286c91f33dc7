// tests/host/schedsim_test_util.h - task and configuration builders shared
// by the schedsim tests: a task that never finishes, and a quiet
// configuration (no progress bar) for a workload kind, cores and ticks.
#pragma once

#include <cstdint>

#include "sim/sim.h"

namespace schedsim::test {

inline TaskSpec forever_task(uint8_t level, double block_chance = 0, uint64_t arrival = 0,
                             uint64_t affinity = ~uint64_t{0}) {
    TaskSpec s;
    s.arrival = arrival;
    s.runtime = kForever;
    s.level = level;
    s.block_chance = block_chance;
    s.affinity = affinity;
    return s;
}

inline Config quiet_config(q::sched::PolicyKind k, WorkloadKind w, unsigned cores, uint64_t ticks) {
    Config c;
    c.policy = k;
    c.workload = w;
    c.cores = cores;
    c.ticks = ticks;
    c.progress = false;
    return c;
}

}  // namespace schedsim::test
