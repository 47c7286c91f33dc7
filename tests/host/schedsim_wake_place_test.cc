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
};

Figures run(unsigned cores, unsigned workers, Queues queues, uint64_t seed) {
    Config c = test::quiet_config(qs::PolicyKind::EEVDF, WorkloadKind::File, cores, 100000);
    c.weights = qs::WeightTable::Linux;
    c.slice = 16;
    c.wake_delay = 4;
    c.seed = seed;
    c.queues = queues;
    std::vector<TaskSpec> v = {test::forever_task(30), test::forever_task(30)};
    for (unsigned i = 0; i < workers; i++) v.push_back(test::forever_task(10, 0.5));
    const Result r = simulate(c, v);
    Figures f;
    f.p99 = r.wake_p99;
    for (const TaskStats& t : r.tasks)
        if (t.level == 10) f.worker_wait += t.waited;
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

}  // namespace schedsim_wake_place_test
