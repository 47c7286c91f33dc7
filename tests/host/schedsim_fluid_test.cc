// tests/host/schedsim_fluid_test.cc - the fluid reference (sim/fluid.h):
// water-filling with at most one core per task, integer accumulation that
// does not drift, and the lag/Jain figures schedsim derives from it.
#include <gtest/gtest.h>

#include "sim/fluid.h"
#include "sim/sim.h"

using namespace schedsim;
namespace qs = q::sched;

namespace {

const uint32_t* seed_weights() { return qs::weight_table(qs::WeightTable::Seed); }

// Service equals `ticks` to within the representation (a weight's worth of
// 2^-64 tick units).
void expect_ticks(i128 service, uint64_t ticks) {
    i128 d = service - static_cast<i128>(ticks) * FluidReference::kOne;
    if (d < 0) d = -d;
    EXPECT_LT(d, i128{1} << 17) << FluidReference::ticks(service) << " vs " << ticks;
}

}  // namespace

// 1e9 ticks of three tasks (weights 1024, 1280, 11) on one core: each gets
// exactly 1e9 * w / W ticks (a double accumulator drifted by tens of ticks
// over such a run), in one step and tick by tick.
TEST(SchedsimFluid, NoDriftOverAGigatick) {
    FluidReference f(seed_weights(), 1);
    for (unsigned l : {20u, 21u, 0u}) f.add(l);
    const uint64_t ticks = 1'000'000'000;
    f.advance(ticks);
    const double total = 1024.0 + 1280.0 + 11.0;
    for (unsigned l : {20u, 21u, 0u}) {
        const double want = static_cast<double>(ticks) * seed_weights()[l] / total;
        EXPECT_NEAR(FluidReference::ticks(f.service(l)), want, 1e-6) << l;
    }
    FluidReference g(seed_weights(), 1);
    for (unsigned l : {20u, 21u, 0u}) g.add(l);
    for (uint64_t t = 0; t < 2315; t++) g.advance();
    expect_ticks(g.service(20), 1024);
    expect_ticks(g.service(0), 11);
}

// Water-filling: on 2 cores a task of weight 71053 beside two of weight 11
// would be owed 1.9995 cores in proportion; it can use one, and the other
// core is shared by the light pair. Each task of a level that fits in the
// cores gets exactly one core.
TEST(SchedsimFluid, CappedAtOneCorePerTask) {
    FluidReference f(seed_weights(), 2);
    f.add(39);
    f.add(0);
    f.add(0);
    f.advance(1000);
    expect_ticks(f.service(39), 1000);
    expect_ticks(f.service(0), 500);
    // A third light task: the heavy one keeps its core, the light three
    // share the other; service keeps counting from where it was.
    f.add(0);
    f.advance(3000);
    expect_ticks(f.service(39), 4000);
    expect_ticks(f.service(0), 1500);
    // 3 heavy and 2 light on 4 cores: a core for each heavy task, the light
    // pair shares the fourth.
    FluidReference g(seed_weights(), 4);
    for (unsigned l : {39u, 39u, 39u, 0u, 0u}) g.add(l);
    g.advance(1000);
    expect_ticks(g.service(39), 1000);
    expect_ticks(g.service(0), 500);
}

// Uncapped shares follow weights exactly while every task fits.
TEST(SchedsimFluid, ProportionalWhenNoTaskExceedsACore) {
    FluidReference f(seed_weights(), 2);
    for (unsigned l : {20u, 20u, 20u, 20u}) f.add(l);
    f.advance(400);
    expect_ticks(f.service(20), 200);
}

// 64 CPU-bound tasks of mixed weights on 64 cores: one task per core is the
// only possible schedule and every policy produces it. The uncapped
// reference called that Jain 0.27 and a worst lag of 228,950 ticks.
TEST(SchedsimFluid, SixtyFourHogsOnSixtyFourCoresAreFair) {
    for (Model m : {Model::Exact, Model::Seed}) {
        for (auto k : {qs::PolicyKind::RR, qs::PolicyKind::DWRR, qs::PolicyKind::IDWRR, qs::PolicyKind::EEVDF}) {
            Config c;
            c.policy = k;
            c.model = m;
            c.cores = 64;
            c.tasks = 64;
            c.ticks = 20000;
            c.progress = false;
            c.fairness = true;
            const Result r = simulate(c, load_workload(c));
            EXPECT_EQ(r.executed, 64u * 20000u);
            EXPECT_NEAR(r.jain, 1.0, 1e-9) << qs::policy_name(k);
            EXPECT_LT(r.worst_lag, 1e-9) << qs::policy_name(k);
            EXPECT_LT(r.max_lag, 1e-9) << qs::policy_name(k);
        }
    }
}

// Per-task lag over the run: two equal hogs on one core under EEVDF with
// 1-tick slices alternate, so neither is ever more than half a tick off its
// fluid share (it runs a whole tick while the fluid gives it half).
TEST(SchedsimFluid, EevdfLagPerTaskStaysWithinHalfATick) {
    Config c;
    c.policy = qs::PolicyKind::EEVDF;
    c.workload = WorkloadKind::File;
    c.cores = 1;
    c.ticks = 10000;
    c.progress = false;
    c.fairness = true;
    TaskSpec t;
    t.runtime = kForever;
    t.level = 20;
    const Result r = simulate(c, {t, t});
    ASSERT_EQ(r.tasks.size(), 2u);
    for (const TaskStats& s : r.tasks) {
        EXPECT_LE(s.max_lag, 0.5 + 1e-9);
        EXPECT_GT(s.max_lag, 0.49);
    }
    EXPECT_LE(r.max_lag, 0.5 + 1e-9);
}

// The reference is one schedule for every policy: the same tasks with the
// same demand (runtimes, blocking decisions per tick of service, sleeps)
// served by the capped fluid scheduler. Each task's fluid service is the
// same whichever policy ran, although the policies block it at different
// ticks.
TEST(SchedsimFluid, OneReferenceForEveryPolicy) {
    Config c;
    c.workload = WorkloadKind::Random;
    c.ticks = 30000;
    c.seed = 5;
    c.block_max = 0.01;
    c.wake_delay = 20;
    c.progress = false;
    c.fairness = true;
    std::vector<Result> rs;
    for (unsigned i = 0; i < qs::kPolicyKinds; i++) {
        c.policy = static_cast<qs::PolicyKind>(i);
        rs.push_back(simulate(c, {}));
    }
    ASSERT_GT(rs[0].tasks.size(), 300u);
    unsigned differs = 0;
    for (size_t t = 0; t < rs[0].tasks.size(); t++) {
        for (const Result& r : rs) {
            EXPECT_EQ(r.tasks[t].fluid, rs[0].tasks[t].fluid) << "task " << t << " " << r.policy;
            differs += r.tasks[t].executed != rs[0].tasks[t].executed;
        }
    }
    EXPECT_GT(differs, 100u);  // the policies did serve the tasks differently
}

// The reference follows demand: a sleeper (run 1 tick, sleep 1) beside a hog
// of equal weight gets half a core while runnable, so it needs two ticks per
// tick of work and sleeps one: 1/3 of the core; the hog gets the rest. Its
// blocking comes from its own service, not from the policy's schedule, so
// the seed model (which gives the sleeper 50%) is measured against the same
// 1/3.
TEST(SchedsimFluid, FollowsTheTasksDemand) {
    Config c;
    c.policy = qs::PolicyKind::EEVDF;
    c.workload = WorkloadKind::File;
    c.cores = 1;
    c.ticks = 30000;
    c.wake_delay = 1;
    c.progress = false;
    c.fairness = true;
    TaskSpec hog, sleeper;
    hog.runtime = sleeper.runtime = kForever;
    hog.level = sleeper.level = 20;
    sleeper.block_chance = 1.0;
    c.sleep_decay = false;  // the reference keeps lags (the paper's EEVDF)
    for (Model m : {Model::Exact, Model::Seed}) {
        c.model = m;
        const Result r = simulate(c, {hog, sleeper});
        EXPECT_NEAR(r.tasks[1].fluid, 10000.0, 2.0);
        EXPECT_NEAR(r.tasks[0].fluid, 20000.0, 2.0);
    }
    c.model = Model::Exact;
    EXPECT_LT(simulate(c, {hog, sleeper}).max_lag, 1.0);
    c.model = Model::Seed;
    EXPECT_GT(simulate(c, {hog, sleeper}).worst_lag, 4000.0);
}
