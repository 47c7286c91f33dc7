// tests/host/schedsim_fidelity_test.cc - schedsim's seed model reproduces
// the seed's idealised tables at full size (40,000 tasks, 16 cores, 100,000 ticks; each
// run takes well under a second), EEVDF gives weight-proportional shares,
// and the random workload is deterministic per seed.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "sim/sim.h"

using namespace schedsim;
namespace qs = q::sched;

namespace {

// The seed's published Avg Execs/Task, levels 0..39.
constexpr double kSeedDwrrExecs[40] = {0.05,  0.05,  0.08,  0.10,  0.13,   0.16,   0.19,   0.26,   0.32,   0.40,
                                       0.50,  0.62,  0.78,  0.98,  1.23,   1.54,   1.92,   2.40,   3.01,   3.76,
                                       4.62,  5.78,  7.22,  9.02,  11.28,  14.10,  17.63,  22.03,  27.55,  34.45,
                                       43.06, 53.82, 67.28, 84.10, 104.80, 130.96, 163.70, 204.62, 255.79, 319.73};
constexpr double kSeedIdwrrExecs[40] = {0.86,  1.10,  1.41,  1.79,  2.24,  2.77,  3.50,  4.30,  5.38,  6.61,
                                        8.06,  9.84,  11.94, 14.42, 17.28, 20.53, 24.13, 28.08, 32.35, 36.78,
                                        40.93, 45.47, 49.92, 54.14, 58.08, 61.66, 64.86, 67.65, 70.08, 72.16,
                                        73.90, 75.38, 76.59, 77.58, 78.40, 79.07, 79.60, 80.05, 80.40, 80.69};

Result idealised(qs::PolicyKind k) {
    Config c;
    c.policy = k;
    c.model = Model::Seed;
    c.progress = false;
    c.fairness = true;  // EevdfWeightProportional reads the worst lag
    return simulate(c, load_workload(c));
}

}  // namespace

TEST(SchedsimFidelity, RoundRobinExact) {
    const Result r = idealised(qs::PolicyKind::RR);
    EXPECT_EQ(r.spawned, 40000u);
    EXPECT_EQ(r.executed, 1600000u);
    EXPECT_EQ(r.idle, 0u);
    EXPECT_EQ(r.ctx_switches, 1599984u);
    EXPECT_EQ(r.max_wait, 99960u);
    EXPECT_DOUBLE_EQ(r.avg_response, 1249.50);
    EXPECT_DOUBLE_EQ(r.avg_wait, 99960.00);
    EXPECT_DOUBLE_EQ(r.util, 1.0);
}

TEST(SchedsimFidelity, DwrrPerLevelWithin3Percent) {
    const Result r = idealised(qs::PolicyKind::DWRR);
    for (unsigned l = 20; l < 40; l++) {
        EXPECT_NEAR(r.levels[l].avg_execs / kSeedDwrrExecs[l], 1.0, 0.03) << "level " << l;
    }
    EXPECT_EQ(r.max_wait, 100000u);
    EXPECT_NEAR(r.avg_response, 34459.56, 34459.56 * 0.10);
}

TEST(SchedsimFidelity, InterleavedPerLevelWithin5PercentAndResponse) {
    const Result r = idealised(qs::PolicyKind::IDWRR);
    for (unsigned l = 10; l < 40; l++) {
        EXPECT_NEAR(r.levels[l].avg_execs / kSeedIdwrrExecs[l], 1.0, 0.05) << "level " << l;
    }
    EXPECT_NEAR(r.avg_response, 7442.54, 7442.54 * 0.10);
    EXPECT_EQ(r.ctx_switches, 1599984u);
}

// EEVDF: shares proportional to weight. All tasks of a level run in
// lockstep, so a level's average is quantised to whole executions: every
// level is within one execution per task of its ideal (the lag bound), and
// levels with >= 33 executions per task are within 3%.
TEST(SchedsimFidelity, EevdfWeightProportional) {
    const Result r = idealised(qs::PolicyKind::EEVDF);
    double total_w = 0;
    for (unsigned l = 0; l < 40; l++) total_w += 1000.0 * r.levels[l].weight;
    for (unsigned l = 0; l < 40; l++) {
        const double ideal = 1600000.0 * r.levels[l].weight / total_w;
        EXPECT_NEAR(r.levels[l].avg_execs, ideal, 1.0) << "level " << l;
        if (ideal >= 33) {
            EXPECT_NEAR(r.levels[l].avg_execs / ideal, 1.0, 0.03) << "level " << l;
        }
    }
    EXPECT_LE(r.worst_lag, 2.0);
}

TEST(SchedsimRandom, SameSeedSameReport) {
    Config c;
    c.workload = WorkloadKind::Random;
    c.ticks = 20000;
    c.progress = false;
    c.seed = 42;
    for (auto k : {qs::PolicyKind::RR, qs::PolicyKind::IDWRR, qs::PolicyKind::EEVDF}) {
        c.policy = k;
        const Result a = simulate(c, {});
        const Result b = simulate(c, {});
        EXPECT_EQ(a.spawned, b.spawned);
        EXPECT_EQ(a.executed, b.executed);
        EXPECT_EQ(a.blocks, b.blocks);
        EXPECT_DOUBLE_EQ(a.avg_response, b.avg_response);
        EXPECT_EQ(a.executed + a.idle, 16u * 20000u);
        EXPECT_EQ(a.forced_idle + a.wasted_idle, a.idle);
    }
    c.policy = qs::PolicyKind::RR;
    const Result a = simulate(c, {});
    c.seed = 43;
    const Result b = simulate(c, {});
    EXPECT_NE(a.executed, b.executed);
}

TEST(SchedsimWorkload, FileParsesAndRejectsBadLines) {
    const char* path = "schedsim_test_workload.txt";
    {
        std::ofstream f(path);
        f << "# arrival runtime level chance\n5 10 39 0\n0 inf 0 0.5\n";
    }
    Config c;
    c.workload = WorkloadKind::File;
    c.workload_file = path;
    auto v = load_workload(c);
    ASSERT_EQ(v.size(), 2u);
    EXPECT_EQ(v[0].arrival, 0u);
    EXPECT_EQ(v[0].runtime, kForever);
    EXPECT_EQ(v[1].level, 39);
    c.ticks = 100;
    c.cores = 2;
    c.progress = false;
    const Result r = simulate(c, v);
    EXPECT_EQ(r.spawned, 2u);
    EXPECT_EQ(r.finished, 1u);
    for (const char* bad : {"1 2 40 0\n", "1 2 3\n", "-1 2 3 0\n", "1 x 3 0\n", "1 2 3 1.5\n", "1 2 3 0 9\n"}) {
        std::ofstream(path) << bad;
        EXPECT_THROW(load_workload(c), std::runtime_error) << bad;
    }
    std::remove(path);
}
