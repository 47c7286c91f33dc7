// tests/host/sched_mlfq_config_test.cc - MLFQ's kernel knobs: the boost
// period and mlfq.py's -S taken from PolicyConfig's knobs (the kernel's boot
// arguments mlfq_boost= and mlfq_reset=, lib/sched/mlfq.h:mlfq_config), and
// Mlfq::level, the queue the mlfqlevel system call reports (a boost is
// applied lazily, so a task not yet re-placed after one reads as the top).
#include <gtest/gtest.h>

#include "tests/host/sched_test_util.h"

using namespace qt;

namespace {

constexpr Time kNoBoostGiven = ~Time(0);

PolicyConfig config(Time slice, Time boost, bool reset) {
    PolicyConfig c;
    c.slice = slice;
    if (boost != kNoBoostGiven) c.knobs.set(Knob::MlfqBoost, boost);
    c.knobs.set(Knob::MlfqReset, reset);
    return c;
}

TEST(SchedMlfqConfig, DefaultsUnlessConfigured) {
    PolicyConfig c;
    c.slice = 1000;
    const MlfqParams d = mlfq_config(c);
    EXPECT_EQ(d.boost, 10000u);  // 10 slices
    EXPECT_FALSE(d.io_reset);
    EXPECT_EQ(d.quantum[0], 1000u);
    EXPECT_EQ(d.allotment[2], 8000u);
    EXPECT_EQ(mlfq_config(config(1000, 0, false)).boost, 0u);  // never
    EXPECT_EQ(mlfq_config(config(1000, 330000, false)).boost, 330000u);
    EXPECT_TRUE(mlfq_config(config(1000, kNoBoostGiven, true)).io_reset);
    PolicyBox box(PolicyKind::MLFQ, config(1000, 330000, true));
    const auto& m = static_cast<const Mlfq&>(*box.p);
    EXPECT_EQ(m.params().boost, 330000u);
    EXPECT_TRUE(m.params().io_reset);
}

// -S from the config: a task that sleeps before its allotment is used up
// keeps the top queue forever; without it, it sinks.
TEST(SchedMlfqConfig, ResetFromConfigLetsAGamerStayOnTop) {
    for (bool reset : {false, true}) {
        PolicyBox box(PolicyKind::MLFQ, config(10, 0, reset));
        Task t;
        Time now = 0;
        for (int i = 0; i < 10; i++) {
            box->enqueue(t.e, now);
            ASSERT_EQ(box->pick(0, now), &t.e);
            box->charge(t.e, 9);  // just under the 10-unit quantum
            box->stop(t.e);       // then it sleeps
            now += 20;
        }
        EXPECT_EQ(t.e.mlfq.mq, reset ? 0 : 2) << "reset " << reset;
    }
}

TEST(SchedMlfqConfig, LevelSeesALazyBoost) {
    PolicyBox box(PolicyKind::MLFQ, config(10, 1000, false));
    const auto& m = static_cast<const Mlfq&>(*box.p);
    Task t;
    EXPECT_EQ(m.level(t.e, 0), 0u);  // new: the top queue
    box->enqueue(t.e, 0);
    ASSERT_EQ(box->pick(0, 0), &t.e);
    box->charge(t.e, 20);  // its allotment at the top (2 quanta of 10)
    box->enqueue(t.e, 20);
    EXPECT_EQ(t.e.mlfq.mq, 1);
    EXPECT_EQ(m.level(t.e, 999), 1u);
    EXPECT_EQ(m.level(t.e, 1000), 0u);  // a boost came: not yet applied, reported
    EXPECT_EQ(t.e.mlfq.mq, 1);
    ASSERT_EQ(box->pick(0, 1000), &t.e);  // the pick applies it
    EXPECT_EQ(t.e.mlfq.mq, 0);
    EXPECT_EQ(m.level(t.e, 1000), 0u);
}

}  // namespace
