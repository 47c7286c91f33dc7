// tests/host/schedsim_wake_place_test.cc - issue 23 finding 3 in schedsim:
// 2 nice +10 hogs and N nice -10 workers blocking with chance 0.5 per tick,
// slice 16, wake delay 4, 100k ticks, eevdf, Linux weights; 2 cores / 3
// workers and 4 cores / 8 workers, seeds 1-3. Per-core queues must serve a
// woken worker no later than one shared queue: wake-up p99 and the workers'
// total wait at most single's. Before the placement rule (a core the woken
// task would preempt) and the pull (a pick takes a remote woken lead that
// beats its own) percpu gave p99 4 / 6 against 2 / 4 and 4 cores' workers
// waited 83k ticks against 65k. With schedsim's own copy of the queues
// 2 cores' p99 stayed 3 for seeds 2 and 3 (single: 2); on the kernel's
// run-queue core (settled loads for balancing, wake-ups judged where the
// target drains its wake list) it is 2, and the test holds every figure.
#include <gtest/gtest.h>

#include "tests/host/schedsim_test_util.h"

// The binary's test files compile as one unit (mk/tests.mk's host_test):
// this file's names stay in its own namespace.
namespace schedsim_wake_place_test {

using namespace schedsim;
namespace qs = q::sched;

namespace {

struct Figures {
    uint64_t p99 = 0, worker_wait = 0;
    double hogs = 0, hogs_fluid = 0;  // the hogs' service, received and in the fluid schedule
};

// fairness: also run the fluid reference (hogs_fluid; it costs a run's
// time again, so only where a check reads it).
Figures run(unsigned cores, unsigned workers, Queues queues, uint64_t seed, unsigned worker_level = 10,
            bool fairness = false) {
    Config c = test::quiet_config(qs::PolicyKind::EEVDF, WorkloadKind::File, cores, 100000);
    c.weights = qs::WeightTable::Linux;
    c.slice = 16;
    c.wake_delay = 4;
    c.seed = seed;
    c.queues = queues;
    c.fairness = fairness;
    std::vector<TaskSpec> v = {test::forever_task(30), test::forever_task(30)};
    for (unsigned i = 0; i < workers; i++) v.push_back(test::forever_task(worker_level, 0.5));
    const Result r = simulate(c, v);
    Figures f;
    f.p99 = r.wake_p99;
    for (const TaskStats& t : r.tasks) {
        if (t.blocks > 0) {
            f.worker_wait += t.waited;
        } else {
            f.hogs += static_cast<double>(t.executed);
            f.hogs_fluid += t.fluid;
        }
    }
    return f;
}

}  // namespace

TEST(SchedsimWakePlace, PerCpuServesWokenWorkersAsSoonAsSingle) {
    struct Shape {
        unsigned cores, workers;
    };
    for (Shape s : {Shape{4, 8}, Shape{2, 3}}) {
        for (uint64_t seed : {1, 2, 3}) {
            const Figures single = run(s.cores, s.workers, Queues::Single, seed);
            const Figures percpu = run(s.cores, s.workers, Queues::PerCpu, seed);
            SCOPED_TRACE(testing::Message() << s.cores << " cores seed " << seed);
            EXPECT_LE(percpu.p99, single.p99);
            EXPECT_LE(percpu.worker_wait, single.worker_wait);
        }
    }
}

// Equal weights (the guest's hogs2 beside schbench): 2 hogs and 5 workers
// at nice +10 on 4 cores. A hog alone on its core is that queue's virtual
// time (lag 0), so a worker woken beside it waited out its request, while
// one queue's hogs run ahead of every task's virtual time and a woken
// worker preempts them. Seeds 1-3, before the rule that a task served less
// per weight while runnable may take a core whose task runs alone
// (RunQueues::outserved): p99 3-4 against one queue's 2, workers' wait
// 24.1k-24.4k against 18.8k-19.1k; with it p99 1, wait 14.4k-14.7k. 2
// cores / 3 workers: wait 71.4k-72.0k before, 55.7k-55.9k now, one queue
// 65.8k-66.5k; p99 13-14 before, 13 now, one queue 12-13 (not held here:
// docs/benchmarks.md). The hogs get 0.98 of their fluid service on 2
// cores (1.03 before, one queue 1.01), 1.01 on 4 (1.05, 1.03).
TEST(SchedsimWakePlace, PerCpuServesWorkersBesideEqualHogsAsSoonAsSingle) {
    for (uint64_t seed : {1, 2, 3}) {
        SCOPED_TRACE(testing::Message() << "seed " << seed);
        const Figures single = run(4, 5, Queues::Single, seed, 30);
        const Figures percpu = run(4, 5, Queues::PerCpu, seed, 30, true);
        EXPECT_LE(percpu.p99, single.p99);
        EXPECT_LE(percpu.worker_wait, single.worker_wait);
        const Figures percpu2 = run(2, 3, Queues::PerCpu, seed, 30, true);
        EXPECT_LE(percpu2.worker_wait, run(2, 3, Queues::Single, seed, 30).worker_wait);
        // Not at the hogs' expense beyond their fair share: compared with
        // raw CPU time instead of a share of runnable time, sleepers (which
        // always have less) made the hogs give way at every wake-up, and
        // the hogs got 0.90 of their fluid service.
        EXPECT_GE(percpu.hogs, 0.97 * percpu.hogs_fluid);
        EXPECT_GE(percpu2.hogs, 0.97 * percpu2.hogs_fluid);
    }
}

}  // namespace schedsim_wake_place_test
