// tests/host/sched_wake_place_test.cc - wake placement that wins (issue 23
// finding 3): select_cpu prefers a cpu whose running task the woken one
// would preempt (after an empty queue, before warm and least loaded);
// Eevdf::preempts_on predicts what enqueue + preempts would say on that
// queue without touching it; lead() is pick()'s choice; pull_beats.
#include <gtest/gtest.h>

#include "lib/sched/balance.h"
#include "lib/sched/eevdf.h"
#include "tests/host/sched_test_util.h"

// The binary's test files compile as one unit (mk/tests.mk's host_test):
// this file's names stay in its own namespace.
namespace sched_wake_place_test {

using namespace qt;

namespace {

QueueLoad busy(u64 load, u32 nr) {
    QueueLoad q;
    q.load = load;
    q.nr = nr;
    q.running = 1;
    return q;
}

PolicyConfig config() {
    PolicyConfig c;
    c.slice = 400;
    c.vshift = 16;
    return c;
}

}  // namespace

TEST(SchedWakePlace, PreemptableCpuBeforeWarmAndLeastLoaded) {
    QueueLoad q[4] = {busy(1024, 1), busy(2048, 2), busy(4096, 4), busy(3072, 3)};
    // Without the mask: warm prev 1 (one weight heavier than the least, 0).
    EXPECT_EQ(select_cpu(q, 4, 1, kAllCpus, true, 1024), 1);
    // It would preempt on 2 (the most loaded): 2 wins over warm and least.
    EXPECT_EQ(select_cpu(q, 4, 1, kAllCpus, true, 1024, CpuMask{1} << 2), 2);
    // prev first among the preemptable, then the first from prev + 1.
    EXPECT_EQ(select_cpu(q, 4, 3, kAllCpus, false, 1024, 0b1010), 3);
    EXPECT_EQ(select_cpu(q, 4, 2, kAllCpus, false, 1024, 0b0011), 0);
    // Affinity still rules; an empty queue still comes first.
    EXPECT_EQ(select_cpu(q, 4, 1, CpuMask{1} << 3, false, 1024, 0b0100), 3);
    q[0] = QueueLoad{};
    EXPECT_EQ(select_cpu(q, 4, 1, kAllCpus, false, 1024, 0b0100), 0);
}

// preempts_on(woken, running, now) on a queue equals enqueue(woken, now)
// followed by preempts(woken, running) there: a sleeper whose debt has
// decayed (a long sleep) beside a hog 100 units into its slice (yes: the
// unfinished part of its request, kept, ends before the hog's), and one
// whose debt has not (no: not eligible), with either request.
TEST(SchedWakePlace, PreemptsOnPredictsEnqueue) {
    for (Time request : {Time{0}, Time{40}}) {
        for (Time sleep : {Time{0}, Time{100000}}) {
            Eevdf ev(config());
            Task h1, h2, s;
            s.e.request = request;
            ev.enqueue(s.e, 0);
            ev.enqueue(h1.e, 0);
            ev.enqueue(h2.e, 0);
            Entity* run = ev.pick(0, 0);
            ASSERT_EQ(run, &s.e);
            ev.charge(s.e, 300);  // ahead: a debt at its stop
            ev.stop(s.e);
            run = ev.pick(0, 300);
            ev.charge(*run, 400);
            ev.enqueue(*run, 700);
            run = ev.pick(0, 700);
            ev.charge(*run, 100);  // (the debt decays by real time: now - its stop)
            const Time now = 800 + sleep;
            const bool predicted = ev.preempts_on(s.e, *run, now);
            ev.enqueue(s.e, now);
            EXPECT_EQ(predicted, ev.preempts(s.e, *run)) << request << " " << sleep;
            EXPECT_EQ(predicted, sleep != 0) << request << " " << sleep;
        }
    }
}

TEST(SchedWakePlace, LeadIsPicksChoiceAndPullBeats) {
    Eevdf ev(config());
    EXPECT_EQ(ev.lead().e, nullptr);
    Task a, b;
    b.e.request = 40;
    ev.enqueue(a.e, 0);
    ev.enqueue(b.e, 0);
    const Lead l = ev.lead();
    EXPECT_EQ(l.e, &b.e);
    EXPECT_TRUE(l.eligible);
    EXPECT_EQ(l.due, (i64{40} << 16) / 1024);
    EXPECT_EQ(ev.pick(0, 0), &b.e);
    Lead far = l;
    far.due = l.due + 1;
    Lead ineligible = l;
    ineligible.eligible = false;
    EXPECT_TRUE(pull_beats(l, far));
    EXPECT_FALSE(pull_beats(far, l));
    EXPECT_TRUE(pull_beats(l, Lead{}));
    EXPECT_TRUE(pull_beats(l, ineligible));
    EXPECT_FALSE(pull_beats(ineligible, Lead{}));
}

}  // namespace sched_wake_place_test
