// tests/host/sched_request_test.cc - EEVDF's per-task request size
// (Entity.request, Policy::set_request; Linux 6.12's sched_runtime):
// the request sets the deadline (v + r / w), a shorter request set on a
// queued task moves its deadline earlier at once, a woken task with a short
// request preempts a hog mid-slice where one with the default request does
// not, and the other policies store the request and ignore it.
#include <gtest/gtest.h>

#include "lib/sched/eevdf.h"
#include "tests/host/sched_test_util.h"

using namespace qt;

namespace {

PolicyConfig config() {
    PolicyConfig c;
    c.slice = 400;
    c.vshift = 16;
    return c;
}

}  // namespace

// deadline = vruntime + request * 2^shift / weight; 0 is the slice.
TEST(SchedRequest, DeadlineIsVruntimePlusRequest) {
    Eevdf ev(config());
    Task a, b;
    b.e.request = 40;
    ev.enqueue(a.e, 0);
    ev.enqueue(b.e, 0);
    EXPECT_EQ(a.e.eevdf.deadline - a.e.eevdf.vruntime, ev.vslice(1024));
    EXPECT_EQ(b.e.eevdf.deadline - b.e.eevdf.vruntime, (i64{40} << 16) / 1024);
    // Same vruntime, earlier deadline: the short request is picked first.
    EXPECT_EQ(ev.pick(0, 0), &b.e);
    // Renewed by its own request when its vruntime reaches the deadline.
    ev.charge(b.e, 40);
    EXPECT_EQ(b.e.eevdf.deadline - b.e.eevdf.vruntime, (i64{40} << 16) / 1024);
}

// set_request on a queued task re-sorts it at the shorter deadline; a
// longer request waits for the next renewal.
TEST(SchedRequest, SetRequestMovesAQueuedDeadline) {
    Eevdf ev(config());
    Task a, b;
    ev.enqueue(a.e, 0);
    ev.enqueue(b.e, 0);
    ev.set_request(b.e, 100);
    EXPECT_EQ(b.e.request, 100u);
    EXPECT_EQ(b.e.eevdf.deadline - b.e.eevdf.vruntime, (i64{100} << 16) / 1024);
    EXPECT_EQ(ev.pick(0, 0), &b.e);
    const i64 d = b.e.eevdf.deadline;
    ev.set_request(b.e, 4000);
    EXPECT_EQ(b.e.eevdf.deadline, d);
    ev.set_request(b.e, 0);  // back to the slice
    EXPECT_EQ(b.e.request, 0u);
}

// A sleeper (lag 0 after its sleep) wakes 100 units into a hog's 400-unit
// slice. Its deadline V + 400 is later than the hog's (picked at V, so
// v0 + 400), so with the default request it waits; with a request of 40
// its deadline V + 40 is earlier and it preempts (short-slice preemption).
TEST(SchedRequest, ShortRequestPreemptsAHogOnWakeUp) {
    for (Time request : {Time{0}, Time{40}}) {
        Eevdf ev(config());
        Task h1, h2, s;
        s.e.request = request;
        ev.enqueue(h1.e, 0);
        ev.enqueue(h2.e, 0);
        Entity* run = ev.pick(0, 0);
        ev.charge(*run, 400);
        ev.enqueue(*run, 400);
        run = ev.pick(0, 400);
        ev.charge(*run, 100);  // charged up to the wake-up, as the kernel does
        ev.enqueue(s.e, 500);
        ASSERT_TRUE(ev.eligible(s.e));
        EXPECT_EQ(ev.preempts(s.e, *run), request != 0) << request;
    }
}

// Policies other than EEVDF store the request and ignore it.
TEST(SchedRequest, OtherPoliciesStoreIt) {
    for (unsigned k = 0; k < kPolicyKinds; k++) {
        PolicyBox box(static_cast<PolicyKind>(k), config());
        Task t;
        box.p->set_request(t.e, 123);
        EXPECT_EQ(t.e.request, 123u) << box.p->name();
    }
}
