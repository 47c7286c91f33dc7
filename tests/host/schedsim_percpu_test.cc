// tests/host/schedsim_percpu_test.cc - schedsim --queues percpu (the
// run-queue core, lib/sched/runqueues.h):
// one core is the single queue exactly; equal hogs get equal shares across
// cores (rotation); infeasible weights get their capped share (issue 12's
// cases); affinity pins; migrations are counted per task and in total;
// cpus= lists and the flag are checked.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "sim/cli.h"
#include "tests/host/schedsim_test_util.h"

using namespace schedsim;
namespace qs = q::sched;

namespace {

TaskSpec hog(uint8_t level, uint64_t arrival = 0, uint64_t affinity = ~uint64_t{0}) {
    return test::forever_task(level, 0, arrival, affinity);
}

Config cfg(qs::PolicyKind k, unsigned cores, uint64_t ticks, Queues queues = Queues::PerCpu) {
    Config c = test::quiet_config(k, WorkloadKind::File, cores, ticks);
    c.queues = queues;
    c.weights = qs::WeightTable::Linux;
    return c;
}

// The random workload with blocking tasks.
Config random(Config c, double spawn, uint64_t runtime_max, double block_max, uint64_t wake_delay) {
    c.workload = WorkloadKind::Random;
    c.spawn_chance = spawn;
    c.runtime_max = runtime_max;
    c.block_max = block_max;
    c.wake_delay = wake_delay;
    return c;
}

std::vector<qs::PolicyKind> all_policies() {
    std::vector<qs::PolicyKind> v;
    for (unsigned k = 0; k < qs::kPolicyKinds; k++) v.push_back(static_cast<qs::PolicyKind>(k));
    return v;
}

uint64_t sum_migrations(const Result& r) {
    uint64_t n = 0;
    for (const TaskStats& t : r.tasks) n += t.migrations;
    return n;
}

std::string write_file(const std::string& name, const std::string& text) {
    const std::string path = testing::TempDir() + name;
    std::ofstream(path) << text;
    return path;
}

}  // namespace

// With one core, per-core queues are the single queue: same picks, same
// figures, no migrations (random arrivals, blocking, every policy).
TEST(SchedsimPercpu, OneCoreIsTheSingleQueue) {
    for (qs::PolicyKind k : all_policies()) {
        Config c = random(cfg(k, 1, 20000, Queues::Single), 0.01, 500, 0.05, 20);
        const Result a = simulate(c, {});
        c.queues = Queues::PerCpu;
        const Result b = simulate(c, {});
        SCOPED_TRACE(a.policy);
        EXPECT_EQ(b.migrations, 0u);
        EXPECT_EQ(a.executed, b.executed);
        EXPECT_EQ(a.ctx_switches, b.ctx_switches);
        EXPECT_EQ(a.wake_p99, b.wake_p99);
        ASSERT_EQ(a.tasks.size(), b.tasks.size());
        for (size_t i = 0; i < a.tasks.size(); i++) EXPECT_EQ(a.tasks[i].executed, b.tasks[i].executed) << i;
    }
}

// Issue 12's fairness case: 8 equal hogs on 3 cores. Per-core queues hold
// 3, 3 and 2; rotations by the balancer make the shares equal: max/min
// <= 1.001 (issue 23's bound for the balancer's cost work; measured
// 1.00003-1.00004 over 200,000 ticks) for the policies that serve a
// queue's tasks deterministically by their service, <= 1.01 for lottery
// (1.0065: its draws) and MLFQ (1.0024: its levels and boosts); each
// task's fair share is 3/8 of a core.
TEST(SchedsimPercpu, EightEqualHogsOnThreeCoresShareEqually) {
    for (qs::PolicyKind k : all_policies()) {
        const double bound = k == qs::PolicyKind::LOTTERY || k == qs::PolicyKind::MLFQ ? 1.01 : 1.001;
        const Result r = simulate(cfg(k, 3, 200000), std::vector<TaskSpec>(8, hog(20)));
        SCOPED_TRACE(r.policy);
        uint64_t lo = ~uint64_t{0}, hi = 0;
        for (const TaskStats& t : r.tasks) {
            lo = std::min(lo, t.executed);
            hi = std::max(hi, t.executed);
        }
        ASSERT_GT(lo, 0u);
        EXPECT_LE(static_cast<double>(hi) / static_cast<double>(lo), bound) << "min " << lo << " max " << hi;
        EXPECT_EQ(r.executed, 3u * 200000u);
        EXPECT_GT(r.migrations, 0u);
        EXPECT_EQ(sum_migrations(r), r.migrations);
    }
}

// Issue 12's infeasible case in percpu mode: 2 cores, a nice -20 and a
// nice 19 hog, a nice 0 hog from tick 1,000,000. The nice 19 hog must get
// its capped fluid share of the second million, 15/1039 of a core = 14,437.
TEST(SchedsimPercpu, InfeasibleWeightTwoCores) {
    for (qs::PolicyKind k : {qs::PolicyKind::EEVDF, qs::PolicyKind::DWRR}) {
        const Result r = simulate(cfg(k, 2, 2000000), {hog(0), hog(39), hog(20, 1000000)});
        SCOPED_TRACE(r.policy);
        const double late = static_cast<double>(r.tasks[1].executed) - 1000000.0;
        EXPECT_NEAR(late, 14437.0, 0.3 * 14437.0);
    }
}

// The same on 3 cores with two nice -20 hogs, slice 10, 3,000,000 ticks:
// the nice 19 hog gets 15/1039 of a core in the second half (21,655).
TEST(SchedsimPercpu, InfeasibleWeightThreeCores) {
    Config c = cfg(qs::PolicyKind::EEVDF, 3, 3000000);
    c.slice = 10;
    const Result r = simulate(c, {hog(0), hog(0), hog(39), hog(20, 1500000)});
    const double late = static_cast<double>(r.tasks[2].executed) - 1500000.0;
    EXPECT_NEAR(late, 1.5e6 * 15.0 / 1039.0, 0.3 * 1.5e6 * 15.0 / 1039.0);
}

// Affinity: three hogs pinned to core 0 share it; a free hog has core 1 to
// itself. Pinned tasks never migrate.
TEST(SchedsimPercpu, AffinityPinsTasks) {
    for (qs::PolicyKind k : all_policies()) {
        const uint64_t t = 30000;
        const Result r = simulate(cfg(k, 2, t), {hog(20, 0, 1), hog(20, 0, 1), hog(20, 0, 1), hog(20, 0)});
        SCOPED_TRACE(r.policy);
        for (int i = 0; i < 3; i++) {
            EXPECT_EQ(r.tasks[i].migrations, 0u);
            EXPECT_NEAR(static_cast<double>(r.tasks[i].executed), t / 3.0, t * 0.01);
        }
        EXPECT_GE(r.tasks[3].executed, t - 2);
    }
}

// An idle core steals: with blocking tasks and per-core queues, no core
// idles for long while another has work waiting (wasted idle below 1% of
// the slots), and the random workload's work gets done as in single mode.
TEST(SchedsimPercpu, IdleCoresStealWork) {
    Config c = random(cfg(qs::PolicyKind::EEVDF, 4, 40000), 0.002, 3000, 0.02, 10);
    const Result r = simulate(c, {});
    EXPECT_GT(r.migrations, 0u);
    EXPECT_LT(static_cast<double>(r.wasted_idle), 0.01 * 4 * 40000);
    c.queues = Queues::Single;
    const Result s = simulate(c, {});
    EXPECT_NEAR(static_cast<double>(r.finished), static_cast<double>(s.finished), 0.1 * s.finished + 2);
}

TEST(SchedsimPercpu, CpusListsAndFlags) {
    EXPECT_EQ(parse_cpus("0", "f:1"), 1u);
    EXPECT_EQ(parse_cpus("0,2-3", "f:1"), 0b1101u);
    EXPECT_EQ(parse_cpus("63", "f:1"), uint64_t{1} << 63);
    for (const char* bad : {"", "a", "1-", "3-1", "64", "1,,2", "1;2", "0-1000"}) {
        EXPECT_THROW(parse_cpus(bad, "f:1"), std::runtime_error) << bad;
    }
    try {
        parse_cpus("3-1", "w.txt:4");
        FAIL();
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("w.txt:4"), std::string::npos) << e.what();
    }
    Config c = cfg(qs::PolicyKind::RR, 2, 10);
    c.workload_file = write_file("pin.txt", "0 inf 20 0 cpus=1\n5 10 20 0\n");
    std::vector<TaskSpec> v = load_workload(c);
    ASSERT_EQ(v.size(), 2u);
    EXPECT_EQ(v[0].affinity, 2u);
    EXPECT_EQ(v[1].affinity, ~uint64_t{0});
    c.workload_file = write_file("pin-bad.txt", "0 inf 20 0 cpus=2-3\n");
    EXPECT_THROW(load_workload(c), std::runtime_error);  // no core below --cores 2
    c.workload_file = write_file("pin-extra.txt", "0 inf 20 0 cpus=1 x\n");
    EXPECT_THROW(load_workload(c), std::runtime_error);
    c.workload = WorkloadKind::Replay;
    c.workload_file = write_file("pin.replay", "0 20 run 5 sleep 5 repeat cpus=0 at 3 level 10\n");
    v = load_workload(c);
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0].affinity, 1u);
    EXPECT_EQ(v[0].changes.size(), 1u);

    const char* args[] = {"schedsim", "--queues", "percpu"};
    EXPECT_EQ(parse_options(3, args).cfg.queues, Queues::PerCpu);
    const char* bad[] = {"schedsim", "--queues", "both"};
    EXPECT_THROW(parse_options(3, bad), UsageError);
    const char* seed[] = {"schedsim", "--queues", "percpu", "--model", "seed"};
    EXPECT_THROW(parse_options(5, seed), UsageError);
}
