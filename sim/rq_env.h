// sim/rq_env.h - schedsim's environment for the run-queue core
// (lib/sched/runqueues.h): the same core as the kernel's, on the same
// protocol, with the simulator's cores in place of harts.
//
// Time is the tick. The simulator is sequential: no locks, plain counters.
// Wake-ups and arrivals are events of no core (this_cpu() is -1), so in
// percpu mode every wake-up goes on the target core's wake list with an
// IPI, as a remote wake-up in the kernel; the loop drains the cores that
// got one right after the tick's wake-ups (the kernel's IPI handler), which
// is where a woken task preempts. A core that is told to take work (an IPI
// to an idle core) is "claimed" for the rest of the tick, so the next
// wake-up of the same tick looks for another (the kernel's hart stops being
// idle when it wakes). An idle core picks at every tick whether or not it
// got an IPI (the kernel's idle hart sleeps until an IPI or its timer
// interrupt): schedsim's idle cores poll.
#pragma once

#include <cstdint>

#include "lib/sched/runqueues.h"

namespace schedsim {

struct Task;

// One core's state between ticks.
struct SimCore {
    Task* running = nullptr;  // picked and still runnable
    Task* last = nullptr;     // the last task it executed (context switches)
    uint64_t switch_end = 0;  // exact: it picks no task before this tick (--switch-cost)
    bool resched = false;     // it should put its task back (preempted)
    bool claimed = false;     // idle, and told to take work this tick
};

template <typename P, bool kPerCpuQueues>
struct SimEnv {
    using Policy = P;
    struct Lock {
        void acquire() {}
        void release() {}
    };
    static constexpr bool kConcurrent = false;
    static constexpr unsigned kMaxCpus = q::sched::kMaxCpus;
    static constexpr int kPerCpu = kPerCpuQueues ? 1 : 0;

    SimCore* cores = nullptr;
    unsigned ncores = 0;
    uint64_t tick = 0;
    uint64_t migrations = 0;
    uint64_t ipis = 0;  // bit c: core c got an IPI (drain its wake list)
    bool any_claimed = false;

    // Before the wake-ups of tick `now`: last tick's claims are void (the
    // claimed cores have picked).
    void new_tick(uint64_t now) {
        tick = now;
        if (!any_claimed) return;
        any_claimed = false;
        for (unsigned c = 0; c < ncores; c++) cores[c].claimed = false;
    }

    q::sched::Time now() const { return tick; }
    int this_cpu() const { return -1; }
    bool idle(unsigned c) const { return !cores[c].claimed; }
    bool resched_pending(unsigned c) const { return cores[c].resched; }
    void ipi(unsigned c) {
        cores[c].claimed = true;
        any_claimed = true;
        ipis |= uint64_t{1} << c;
    }
    void resched(unsigned c) {
        cores[c].resched = true;
        ipis |= uint64_t{1} << c;
    }
    void on_wake(q::sched::RqTask&, unsigned, bool) {}
    void on_enqueue(q::sched::RqTask&, unsigned, uint32_t) {}
    void on_pick(q::sched::RqTask&, unsigned, uint32_t) {}
    void on_migrate(q::sched::RqTask&, unsigned, unsigned, q::sched::MoveReason) { migrations++; }
};

}  // namespace schedsim
