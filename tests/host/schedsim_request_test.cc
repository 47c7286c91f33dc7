// tests/host/schedsim_request_test.cc - per-task request size in schedsim
// (TaskSpec.request, workload and replay files' request=N; issue 23's
// acceptance): an interactive task beside 2 CPU hogs on 1 core, slice 100
// ticks, blocking with chance 0.5 per tick it runs and sleeping 301 ticks.
// With the default request (the slice) a wake-up that lands when the
// running hog's deadline is earlier than V + 100 waits out its slice: p99
// 100 ticks. With request=1 (1/100 of the slice, the 1 ms against
// its 100 ms) its deadline V + 1 beats the hog's: p99 0 (dispatched in the
// tick it woke), at the same CPU share (within 2%), for 3 seeds.
#include <gtest/gtest.h>

#include <fstream>
#include <stdexcept>
#include <string>

#include "tests/host/schedsim_test_util.h"

// The binary's test files compile as one unit (mk/tests.mk's host_test):
// this file's names stay in its own namespace.
namespace schedsim_request_test {

using namespace schedsim;
namespace qs = q::sched;

namespace {

struct Figures {
    uint64_t p99 = 0, executed = 0;
};

Figures interactive(uint64_t request, uint64_t seed, Queues queues = Queues::Single, unsigned cores = 1) {
    Config c = test::quiet_config(qs::PolicyKind::EEVDF, WorkloadKind::File, cores, 300000);
    c.weights = qs::WeightTable::Linux;
    c.slice = 100;
    c.wake_delay = 300;
    c.seed = seed;
    c.queues = queues;
    std::vector<TaskSpec> v;
    for (unsigned i = 0; i < 2 * cores; i++) v.push_back(test::forever_task(20));
    v.push_back(test::forever_task(20, 0.5));
    v.back().request = request;
    const Result r = simulate(c, v);
    return {r.tasks.back().wake_p99, r.tasks.back().executed};
}

std::string write_file(const std::string& name, const std::string& text) {
    const std::string path = testing::TempDir() + name;
    std::ofstream(path) << text;
    return path;
}

}  // namespace

TEST(SchedsimRequest, ShortRequestCutsWakeP99AtTheSameShare) {
    for (uint64_t seed : {1, 2, 3}) {
        const Figures def = interactive(0, seed), shrt = interactive(1, seed);
        SCOPED_TRACE(seed);
        EXPECT_GE(def.p99, 30u);
        EXPECT_LE(shrt.p99 * 3, def.p99);
        EXPECT_NEAR(static_cast<double>(shrt.executed) / static_cast<double>(def.executed), 1.0, 0.02);
    }
}

// The same on per-core queues: 2 cores, 4 hogs.
TEST(SchedsimRequest, ShortRequestCutsWakeP99PerCpu) {
    const Figures def = interactive(0, 1, Queues::PerCpu, 2), shrt = interactive(1, 1, Queues::PerCpu, 2);
    EXPECT_GE(def.p99, 30u);
    EXPECT_LE(shrt.p99 * 3, def.p99);
    EXPECT_NEAR(static_cast<double>(shrt.executed) / static_cast<double>(def.executed), 1.0, 0.02);
}

// request=N in workload and replay files (either order with cpus=), and
// the errors.
TEST(SchedsimRequest, FilesTakeRequest) {
    Config c = test::quiet_config(qs::PolicyKind::EEVDF, WorkloadKind::File, 2, 10);
    c.workload_file = write_file("req.txt", "0 inf 20 0 request=7\n0 inf 20 0 cpus=1 request=3\n0 inf 20 0\n");
    std::vector<TaskSpec> v = load_workload(c);
    ASSERT_EQ(v.size(), 3u);
    EXPECT_EQ(v[0].request, 7u);
    EXPECT_EQ(v[1].request, 3u);
    EXPECT_EQ(v[1].affinity, 2u);
    EXPECT_EQ(v[2].request, 0u);
    v = load_replay(write_file("req.replay", "0 20 run 5 sleep 5 repeat request=2 cpus=0\n"));
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0].request, 2u);
    EXPECT_EQ(v[0].affinity, 1u);
    for (const char* bad : {"0 inf 20 0 request=\n", "0 inf 20 0 request=-1\n", "0 inf 20 0 request=x\n",
                            "0 inf 20 0 request=1 request=2\n", "0 inf 20 0 request=2000000000\n"}) {
        c.workload_file = write_file("bad.txt", bad);
        EXPECT_THROW(load_workload(c), std::runtime_error) << bad;
    }
}

}  // namespace schedsim_request_test
