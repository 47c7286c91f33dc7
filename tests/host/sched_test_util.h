// tests/host/sched_test_util.h - helpers shared by the scheduling tests.
//
// A Task wraps an Entity with a test-side id and run counters. Runner drives
// a policy the way the kernel and schedsim do: pick, run a slice, charge,
// re-enqueue (always-runnable "hogs").
#pragma once

#include <memory>
#include <vector>

#include "lib/sched/registry.h"

namespace qt {

using namespace q;
using namespace q::sched;

struct Task {
    Entity e;
    int id = 0;
    u64 ran = 0;    // time units received
    u64 picks = 0;  // times picked
};

inline std::vector<std::unique_ptr<Task>> make_tasks(int n) {
    std::vector<std::unique_ptr<Task>> v;
    for (int i = 0; i < n; i++) {
        v.push_back(std::make_unique<Task>());
        v.back()->id = i;
        v.back()->e.owner = v.back().get();
    }
    return v;
}

inline Task& task_of(Entity* e) { return *static_cast<Task*>(e->owner); }

struct PolicyBox {
    PolicyStorage storage;
    Policy* p = nullptr;
    PolicyBox(PolicyKind k, const PolicyConfig& c) { p = construct_policy(k, storage, c); }
    Policy* operator->() { return p; }
};

// One cpu, always-runnable tasks: `steps` picks of `slice` time units each.
inline void run_hogs(Policy& p, std::vector<std::unique_ptr<Task>>& tasks, u64 steps, Time slice, unsigned cpus = 1) {
    Time now = 0;
    for (auto& t : tasks) p.enqueue(t->e, now);
    std::vector<Entity*> running(cpus, nullptr);
    for (u64 s = 0; s < steps; s++) {
        for (unsigned c = 0; c < cpus; c++) {
            if (running[c]) {
                p.charge(*running[c], slice);
                p.enqueue(*running[c], now);
            }
            running[c] = p.pick(c, now);
            Task& t = task_of(running[c]);
            t.ran += slice;
            t.picks++;
        }
        now += slice;
    }
}

}  // namespace qt
