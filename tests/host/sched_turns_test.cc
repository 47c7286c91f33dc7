// tests/host/sched_turns_test.cc - turns in the run-queue core
// (lib/sched/runqueues.h, "Turns"): a preempted task resumes the rest of
// its turn, a yielding one gives it up (and EEVDF moves an eligible
// yielder behind its peers: Policy::yield).
#include <gtest/gtest.h>

#include "tests/host/sched_rq_env.h"

// The binary's test files compile as one unit (mk/tests.mk's host_test):
// this file's names stay in its own namespace.
namespace sched_turns_test {

using namespace qt;

using Box = RqBox<SeqEnv>;
using Yielded = RunQueues<SeqEnv>::Yielded;
constexpr auto kYield = Yielded::Yes;

// t (picked) runs until `now`: the clock moves there, t is charged and put
// back (preempted, or yielding).
void put_back_at(Box& b, RqTask& t, Time now, Yielded y = Yielded::No) {
    b.rq.env().clock = now;
    b.rq.charge(t, now);
    b.rq.put_back(t, now, y);
}

// A task preempted in the middle of its turn resumes the rest of it when
// picked again, not a fresh slice; a turn that ran out, or a task that
// stopped, starts a whole one. (Every pick used to give a whole slice: a
// hog preempted after 246 us ran 759 us more, and a task woken behind it
// waited for all of it: the kernel's mlfqtest inter.)
TEST(SchedTurns, APreemptedTaskResumesTheRestOfItsTurn) {
    Box b(PolicyKind::EEVDF, false, 1, 1000);
    SeqEnv& env = b.rq.env();
    env.cpu = 0;
    auto t = make_rtasks(2);
    RqTask& hog = t[0]->rq;
    RqTask& s = t[1]->rq;
    s.se.request = 10;  // a short request: woken, it preempts the hog
    b.rq.wake(hog, 0, false);
    ASSERT_EQ(b.rq.pick(0), &hog);
    EXPECT_EQ(hog.turn_end, 1000u);
    auto preempt_at = [&](Time now) {
        env.clock = now;
        env.resched_flag[0] = false;
        b.rq.wake(s, now, true);
        ASSERT_TRUE(env.resched_flag[0]) << now;
        b.rq.charge(hog, now);
        b.rq.put_back(hog, now);
        ASSERT_EQ(b.rq.pick(0), &s);
        EXPECT_EQ(s.turn_end, now + 1000);  // it stopped last time: a whole turn
        env.clock = now + 28;
        b.rq.charge(s, now + 28);
        b.rq.stop(s, now + 28);
        ASSERT_EQ(b.rq.pick(0), &hog);
    };
    preempt_at(246);
    EXPECT_EQ(hog.turn_end, 274 + 1000u - 246);  // picked again at 274
    preempt_at(500);                             // preempted again, 226 into the rest
    EXPECT_EQ(hog.turn_end, 528 + 1000u - 246 - 226);
    // The turn runs out at 1,056 (its timer): the next one is whole.
    put_back_at(b, hog, 1056);
    ASSERT_EQ(b.rq.pick(0), &hog);
    EXPECT_EQ(hog.turn_end, 1056 + 1000u);
}

// sched_yield gives up the rest of the turn, and under EEVDF an eligible
// yielder forfeits the rest of its request (Linux's yield_task_fair): a
// thread waiting for a lock with sched_yield lets the holder run. (Before,
// the yield was a put-back like a preemption's: the yielder, eligible and
// due first, was picked straight back and spun out its turn.)
TEST(SchedTurns, AYielderGivesUpItsTurnAndEevdfRunsItsPeer) {
    Box b(PolicyKind::EEVDF, false, 1, 1000);
    SeqEnv& env = b.rq.env();
    env.cpu = 0;
    auto t = make_rtasks(2);
    RqTask& holder = t[0]->rq;
    RqTask& waiter = t[1]->rq;
    b.rq.wake(holder, 0, false);
    b.rq.wake(waiter, 0, false);
    ASSERT_EQ(b.rq.pick(0), &holder);
    // Preempted at 300 (say, inside its critical section): it keeps the
    // rest of its turn, and it has run ahead, so the waiter is picked.
    put_back_at(b, holder, 300);
    ASSERT_EQ(b.rq.pick(0), &waiter);
    EXPECT_EQ(waiter.turn_end, 1300u);
    // The waiter finds the lock taken and yields at 310.
    put_back_at(b, waiter, 310, kYield);
    ASSERT_EQ(b.rq.pick(0), &holder);
    EXPECT_EQ(holder.turn_end, 310 + 1000u - 300);  // the rest of its turn
    EXPECT_EQ(waiter.turn_left, 0u);                // the yield gave its rest up
    // The holder's turn ends at 1,010; the waiter comes next, for a whole turn.
    put_back_at(b, holder, 1010);
    ASSERT_EQ(b.rq.pick(0), &waiter);
    EXPECT_EQ(waiter.turn_end, 2010u);
    // A yielder that is not eligible (it has run past V) keeps its vruntime
    // and deadline: forfeiting would only run it away.
    env.clock = 1500;
    b.rq.charge(waiter, 1500);
    const i64 v = waiter.se.eevdf.vruntime, d = waiter.se.eevdf.deadline;
    b.rq.put_back(waiter, 1500, kYield);
    EXPECT_EQ(waiter.se.eevdf.vruntime, v);
    EXPECT_EQ(waiter.se.eevdf.deadline, d);
    EXPECT_EQ(b.rq.pick(0), &holder);
}

// A task alone keeps its vruntime when it yields: nobody would run
// instead, and a yield loop would otherwise run it ahead a request a call.
TEST(SchedTurns, ALoneEevdfYielderKeepsItsVruntime) {
    Box b(PolicyKind::EEVDF, false, 1, 1000);
    b.rq.env().cpu = 0;
    auto t = make_rtasks(2);
    RqTask& a = t[0]->rq;
    b.rq.wake(a, 0, false);
    for (Time now = 10; now <= 1000; now += 10) {
        ASSERT_EQ(b.rq.pick(0), &a);
        put_back_at(b, a, now, kYield);
    }
    EXPECT_EQ(a.se.eevdf.vruntime, static_cast<i64>((Time{1000} << 16) / a.se.weight));
    // With a peer in the sums (placed at a's vruntime, so both are
    // eligible) the same yield forfeits the rest of a's request.
    b.rq.wake(t[1]->rq, 1000, false);
    ASSERT_EQ(b.rq.pick(0), &a);
    const i64 d = a.se.eevdf.deadline;
    put_back_at(b, a, 1000, kYield);
    EXPECT_EQ(a.se.eevdf.vruntime, d);
    EXPECT_EQ(b.rq.pick(0), &t[1]->rq);
}

// Round robin: a yielder goes to the back of the line, and its next pick
// gives it a whole turn.
TEST(SchedTurns, ARoundRobinYielderGoesToTheBackWithAWholeTurnNext) {
    Box b(PolicyKind::RR, false, 1, 1000);
    SeqEnv& env = b.rq.env();
    env.cpu = 0;
    auto t = make_rtasks(3);
    for (auto& x : t) b.rq.wake(x->rq, 0, false);
    ASSERT_EQ(b.rq.pick(0), &t[0]->rq);
    put_back_at(b, t[0]->rq, 40, kYield);
    ASSERT_EQ(b.rq.pick(0), &t[1]->rq);
    put_back_at(b, t[1]->rq, 50);  // preempted: keeps 990
    ASSERT_EQ(b.rq.pick(0), &t[2]->rq);
    put_back_at(b, t[2]->rq, 60);
    ASSERT_EQ(b.rq.pick(0), &t[0]->rq);
    EXPECT_EQ(t[0]->rq.turn_end, 1060u);  // whole, after its yield
    put_back_at(b, t[0]->rq, 70);
    ASSERT_EQ(b.rq.pick(0), &t[1]->rq);
    EXPECT_EQ(t[1]->rq.turn_end, 70 + 990u);  // the rest of a preempted turn
}

// Per-hart queues: a hog alone on its hart is that queue's virtual time,
// so a task woken there with lag 0 was due after it and waited out its
// request, however much the hog had had. Now a woken task that has had a
// smaller share of its runnable time than a lone runner is placed there
// and the runner forfeits the rest of its request (RunQueues::outserved):
// it is picked at once, as one queue's EEVDF would pick it.
TEST(SchedTurns, ALoneHogGivesWayToAWokenTaskItOutserved) {
    Box b(PolicyKind::EEVDF, true, 2, 100);
    SeqEnv& env = b.rq.env();
    auto t = make_rtasks(3);
    RqTask& a = t[0]->rq;
    RqTask& c = t[1]->rq;
    RqTask& w = t[2]->rq;
    env.cpu = 0;
    b.rq.wake(a, 0, false);
    b.rq.wake(c, 0, false);
    ASSERT_EQ(b.rq.pick(0), &a);
    env.cpu = 1;
    ASSERT_EQ(b.rq.pick(1), &c);
    for (Time now = 100; now <= 1000; now += 100) {  // each runs alone
        env.clock = now;
        EXPECT_FALSE(b.rq.tick(0, now));
        EXPECT_FALSE(b.rq.tick(1, now));
    }
    env.cpu = 0;
    env.clock = 1000;
    b.rq.wake(w, 1000, true);
    EXPECT_EQ(w.queue, 0);
    ASSERT_TRUE(env.resched_flag[0]);
    put_back_at(b, a, 1000);
    EXPECT_EQ(b.rq.pick(0), &w);
}

// Per-hart queues: a hog that ran alone on its hart ran up no debt there
// (it was that queue's virtual time), so once tasks of far more weight join
// it, it is eligible whenever they have run a hair ahead of V and is
// picked, then runs until the next tick, while a task woken within a
// slice, one it outserved, waits (the kernel, 2 harts, nice +10 hogs
// beside schbench at -10: 351 such picks in a 3 s trace, 128 ms of hog
// runs). Here h (nice +10) runs alone 0-1000; x and y (nice -10) wake at
// 1000, and every 20 the running task is preempted and a pick is made. Now
// h forfeits its request at such a pick (RunQueues::forfeit_pick,
// placement rule 2b) and x or y runs, as on one queue, where h's solo run
// would have put it ahead of V.
TEST(SchedTurns, AHogPickedBesideAWokenTaskItOutservedForfeits) {
    for (const bool forfeit : {false, true}) {
        Box b(PolicyKind::EEVDF, true, 2, 100, true, true, forfeit);
        SeqEnv& env = b.rq.env();
        auto hog = make_rtasks(1, 10);
        auto heavy = make_rtasks(2, -10);
        RqTask& h = hog[0]->rq;
        for (RqTask* r : {&h, &heavy[0]->rq, &heavy[1]->rq}) EXPECT_TRUE(b.rq.set_affinity(*r, 1, 0));  // hart 0
        env.cpu = 0;
        b.rq.wake(h, 0, false);
        ASSERT_EQ(b.rq.pick(0), &h);
        for (Time now = 100; now < 1000; now += 100) {  // its turns end
            put_back_at(b, h, now, kYield);
            ASSERT_EQ(b.rq.pick(0), &h);
        }
        env.clock = 1000;
        for (auto& t : heavy) b.rq.wake(t->rq, 1000, true);
        put_back_at(b, h, 1000);
        RqTask* r = b.rq.pick(0);
        int hog_picks = 0;
        for (Time now = 1020; now <= 1400; now += 20) {
            put_back_at(b, *r, now);
            r = b.rq.pick(0);
            hog_picks += r == &h;
        }
        if (forfeit) {
            EXPECT_EQ(hog_picks, 0);
        } else {
            EXPECT_GT(hog_picks, 0);  // what the rule prevents
        }
    }
}

// A running task whose new affinity excludes its hart is placed anew when
// put back (wake()), which starts a new runnable stretch: the one so far
// is folded in first, as at a stop. (Before, it was dropped: a hog moved
// so read as never runnable, a share of 0, and made lone runners give way
// to it at its next wake-up: RunQueues::outserved.)
TEST(SchedTurns, AMoveForAffinityKeepsTheRunnableStretch) {
    Box b(PolicyKind::EEVDF, true, 2, 100);
    SeqEnv& env = b.rq.env();
    auto t = make_rtasks(1);
    RqTask& a = t[0]->rq;
    env.cpu = 0;
    b.rq.wake(a, 0, false);
    ASSERT_EQ(b.rq.pick(0), &a);
    env.clock = 1000;
    ASSERT_TRUE(b.rq.set_affinity(a, CpuMask{1} << 1, 1000));
    EXPECT_TRUE(env.resched_flag[0]);
    put_back_at(b, a, 1000);
    EXPECT_EQ(a.queue, 1);
    EXPECT_EQ(a.runnable.in_epoch(0), 1000u);  // half-life 6,400: one epoch
}

}  // namespace sched_turns_test
