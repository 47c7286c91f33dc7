// tests/host/schedsim_reweight_test.cc - repeated reweights do not drift:
// EEVDF's vruntime resolution (PolicyConfig::vshift) is chosen from the
// slice (sim.cc eevdf_vshift), so the rounding of each reweight's lag
// rescale is a tiny fraction of a tick. With the fixed vshift of 20 at
// slice 1, a task flipping nice -20 / 19 every 7 ticks beside 3 nice-0 hogs
// on one core drifted ahead of its fluid share by 131.9 / 524.7 / 1,048
// ticks after 100k / 400k / 800k ticks (issue 23, "schedsim instrument
// fixes").
#include <gtest/gtest.h>

#include "sim/sim.h"
#include "tests/host/schedsim_test_util.h"

namespace schedsim {
namespace {

std::vector<TaskSpec> flipping_workload(uint64_t ticks) {
    std::vector<TaskSpec> v;
    for (int i = 0; i < 3; i++) v.push_back(test::forever_task(q::sched::nice_to_index(0)));
    TaskSpec flip = test::forever_task(q::sched::nice_to_index(-20));
    for (uint64_t t = 7; t < ticks; t += 7) {
        const int nice = (t / 7) % 2 ? 19 : -20;
        flip.changes.push_back({t, q::sched::nice_to_index(nice)});
    }
    v.push_back(flip);
    return v;
}

TEST(SchedsimReweight, FlippingNiceDoesNotDrift) {
    const uint64_t ticks = 800000;
    Config c = test::quiet_config(q::sched::PolicyKind::EEVDF, WorkloadKind::File, 1, ticks);
    c.weights = q::sched::WeightTable::Linux;
    c.fairness = true;
    const Result r = simulate(c, flipping_workload(ticks));
    ASSERT_TRUE(r.fairness);
    ASSERT_EQ(r.tasks.size(), 4u);
    EXPECT_LE(r.tasks[3].max_lag, 4.0) << "received " << r.tasks[3].executed << ", fluid " << r.tasks[3].fluid;
    for (const TaskStats& t : r.tasks) EXPECT_LE(t.max_lag, 4.0) << "task " << t.id;
}

}  // namespace
}  // namespace schedsim
