// tests/host/sched_ostep_test.cc - the OSTEP chapter 8-9 policies of
// lib/sched: stride (OSTEP's worked example of 100/50/250 tickets, exact
// shares, joining, lag across sleep and migration, reweight), lottery
// (shares within binomial error, the seeded generator) and MLFQ (each of
// OSTEP's rules, the I/O options, an interactive task against hogs).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/host/sched_test_util.h"

using namespace qt;

namespace {

// One cpu, time in units of 1; each task runs `burst` units then sleeps
// `sleep` (burst 0: a hog). Like the kernel: the running task is charged
// and put back when its slice ends or a woken task preempts it (per the
// policy's preempts), charged and stopped when its burst ends.
struct Behaviour {
    Time burst = 0;  // 0: always runnable
    Time sleep = 0;
};

struct OneCpu {
    Policy& p;
    std::vector<std::unique_ptr<Task>>& tasks;
    std::vector<Behaviour> how;
    std::vector<Time> wake_at, left;
    Time now = 0;
    Time slice = 1;
    Entity* cur = nullptr;
    Time ran = 0;  // by cur since its pick

    OneCpu(Policy& pol, std::vector<std::unique_ptr<Task>>& t, std::vector<Behaviour> b, Time s)
        : p(pol), tasks(t), how(std::move(b)), wake_at(t.size(), 0), left(t.size(), 0), slice(s) {
        for (usize i = 0; i < tasks.size(); i++) {
            p.enqueue(tasks[i]->e, now);
            left[i] = how[i].burst;
        }
    }
    void run(Time until) {
        while (now < until) {
            bool preempt = false;
            for (usize i = 0; i < tasks.size(); i++) {
                if (wake_at[i] && wake_at[i] <= now) {
                    wake_at[i] = 0;
                    left[i] = how[i].burst;
                    p.enqueue(tasks[i]->e, now);
                    if (cur && p.preempts(tasks[i]->e, *cur)) preempt = true;
                }
            }
            if (cur && (preempt || ran == slice)) {
                p.charge(*cur, ran);
                p.enqueue(*cur, now);
                cur = nullptr;
            }
            if (!cur) {
                cur = p.pick(0, now);
                ran = 0;
                if (!cur) {
                    now++;
                    continue;
                }
                task_of(cur).picks++;
            }
            Task& t = task_of(cur);
            const usize i = static_cast<usize>(t.id);
            now++;
            ran++;
            t.ran++;
            if (how[i].burst && --left[i] == 0) {
                p.charge(*cur, ran);
                p.stop(*cur);
                wake_at[i] = now + how[i].sleep;
                cur = nullptr;
            }
        }
    }
};

}  // namespace

// ---- stride ----

// OSTEP 9.6 (Figure 9.3): A, B, C hold 100, 50 and 250 tickets; with
// big = 10000 their strides are 100, 200 and 40. The figure's rows (passes
// before the pick, who runs) must come out exactly.
TEST(SchedStride, OstepWorkedExample) {
    Stride s(10000, 1);
    auto tasks = make_tasks(3);
    const u32 tickets[3] = {100, 50, 250};
    for (int i = 0; i < 3; i++) tasks[i]->e.weight = tickets[i];
    EXPECT_EQ(s.stride(100), 100);
    EXPECT_EQ(s.stride(50), 200);
    EXPECT_EQ(s.stride(250), 40);
    for (auto& t : tasks) s.enqueue(t->e, 0);
    struct Row {
        i64 a, b, c;
        char runs;
    };
    const Row rows[] = {{0, 0, 0, 'A'},       {100, 0, 0, 'B'},     {100, 200, 0, 'C'},
                        {100, 200, 40, 'C'},  {100, 200, 80, 'C'},  {100, 200, 120, 'A'},
                        {200, 200, 120, 'C'}, {200, 200, 160, 'C'}, {200, 200, 200, '?'}};
    for (const Row& r : rows) {
        EXPECT_EQ(tasks[0]->e.stride.pass, r.a);
        EXPECT_EQ(tasks[1]->e.stride.pass, r.b);
        EXPECT_EQ(tasks[2]->e.stride.pass, r.c);
        if (r.runs == '?') break;
        Entity* e = s.pick(0, 0);
        ASSERT_NE(e, nullptr);
        EXPECT_EQ(static_cast<char>('A' + task_of(e).id), r.runs) << "passes " << r.a << " " << r.b << " " << r.c;
        s.charge(*e, 1);
        s.enqueue(*e, 0);
    }
}

// Over 400 slices (50 periods of 8 picks, A A B C C C C C in some order,
// after each of which all three passes are equal again) the
// shares are exactly 100:50:250.
TEST(SchedStride, ExactSharesOverAPeriod) {
    Stride s(10000, 1);
    auto tasks = make_tasks(3);
    const u32 tickets[3] = {100, 50, 250};
    for (int i = 0; i < 3; i++) tasks[i]->e.weight = tickets[i];
    run_hogs(s, tasks, 400, 1);
    EXPECT_EQ(tasks[0]->ran, 100u);
    EXPECT_EQ(tasks[1]->ran, 50u);
    EXPECT_EQ(tasks[2]->ran, 250u);
}

// Nice maps to tickets: kernel configuration (big 2^32, Linux weights),
// nice -5 vs 0 vs 5 get shares within 0.5% of their weights.
TEST(SchedStride, NiceSharesKernelConfig) {
    PolicyConfig cfg;
    cfg.slice = 1000;
    PolicyBox box(PolicyKind::STRIDE, cfg);
    auto tasks = make_tasks(3);
    const int nices[3] = {-5, 0, 5};
    for (int i = 0; i < 3; i++) set_priority(tasks[i]->e, WeightTable::Linux, nice_to_index(nices[i]));
    run_hogs(*box.p, tasks, 30000, 1000);
    const double total = 3121 + 1024 + 335;
    const double ran = static_cast<double>(tasks[0]->ran + tasks[1]->ran + tasks[2]->ran);
    for (int i = 0; i < 3; i++) {
        EXPECT_NEAR(static_cast<double>(tasks[i]->ran) / ran / (tasks[i]->e.weight / total), 1.0, 0.005) << i;
    }
}

// Partial slices are charged by time: a task that runs 1/4 slice at a time
// (and is at once runnable again) still gets its ticket share of the time.
TEST(SchedStride, PartialSlicesChargedExactly) {
    Stride s(10000, 4);
    auto tasks = make_tasks(2);
    tasks[0]->e.weight = tasks[1]->e.weight = 100;
    s.enqueue(tasks[0]->e, 0);
    s.enqueue(tasks[1]->e, 0);
    Time now = 0;
    for (int i = 0; i < 10000; i++) {
        Entity* e = s.pick(0, now);
        const Time ran = task_of(e).id == 0 ? 1 : 4;
        s.charge(*e, ran);
        task_of(e).ran += ran;
        now += ran;
        s.enqueue(*e, now);
    }
    const double r = static_cast<double>(tasks[0]->ran) / static_cast<double>(tasks[1]->ran);
    EXPECT_NEAR(r, 1.0, 0.01);
}

// A task that joins late starts at the global pass: it does not get the
// whole cpu until it has caught up with a task that ran alone for long.
TEST(SchedStride, NewTaskStartsAtGlobalPass) {
    Stride s(10000, 1);
    auto tasks = make_tasks(2);
    tasks[0]->e.weight = tasks[1]->e.weight = 100;
    s.enqueue(tasks[0]->e, 0);
    for (int i = 0; i < 1000; i++) {
        Entity* e = s.pick(0, 0);
        s.charge(*e, 1);
        s.enqueue(*e, 0);
    }
    s.enqueue(tasks[1]->e, 0);
    EXPECT_GE(tasks[1]->e.stride.pass, tasks[0]->e.stride.pass - 100);
    int b_in_a_row = 0, max_row = 0;
    for (int i = 0; i < 100; i++) {
        Entity* e = s.pick(0, 0);
        b_in_a_row = task_of(e).id == 1 ? b_in_a_row + 1 : 0;
        if (b_in_a_row > max_row) max_row = b_in_a_row;
        s.charge(*e, 1);
        s.enqueue(*e, 0);
    }
    EXPECT_LE(max_row, 2);
}

// A sleeper keeps at most one stride of credit, and debt up to one stride.
TEST(SchedStride, LagAcrossSleepClamped) {
    Stride s(10000, 1);
    auto tasks = make_tasks(3);
    for (auto& t : tasks) t->e.weight = 100;
    for (auto& t : tasks) s.enqueue(t->e, 0);
    Entity* e = s.pick(0, 0);  // A, pass 0
    s.charge(*e, 1);
    s.stop(*e);  // A sleeps at pass 100 (global 0): one stride of debt
    EXPECT_EQ(e->stride.plag, 100);
    for (int i = 0; i < 50; i++) {
        Entity* o = s.pick(0, 0);
        s.charge(*o, 1);
        s.enqueue(*o, 0);
    }
    const i64 g = s.global_pass();
    s.enqueue(*e, 0);
    EXPECT_EQ(e->stride.pass, g + 100);
    // Credit: a task stopped far behind the global pass keeps one stride.
    Entity* f = s.pick(0, 0);
    s.charge(*f, 1);
    f->stride.pass = s.global_pass() - 5000;
    s.stop(*f);
    EXPECT_EQ(f->stride.plag, -100);
}

// Migration: dequeue from one queue and enqueue on another keeps the lag
// relative to each queue's global pass (their passes are unrelated).
TEST(SchedStride, MigrationKeepsRelativeLag) {
    Stride a(10000, 1), b(10000, 1);
    auto tasks = make_tasks(4);
    for (auto& t : tasks) t->e.weight = 100;
    a.enqueue(tasks[0]->e, 0);
    a.enqueue(tasks[1]->e, 0);
    b.enqueue(tasks[2]->e, 0);
    for (int i = 0; i < 500; i++) {  // b's global pass runs far ahead of a's
        Entity* e = b.pick(0, 0);
        b.charge(*e, 1);
        b.enqueue(*e, 0);
    }
    Entity* e = a.pick(0, 0);  // tasks[0] runs on a: pass 100, global 0
    a.charge(*e, 1);
    a.enqueue(*e, 0);
    a.dequeue(tasks[0]->e);
    EXPECT_EQ(tasks[0]->e.stride.plag, 100);
    b.enqueue(tasks[0]->e, 0);
    EXPECT_EQ(tasks[0]->e.stride.pass, b.global_pass() + 100);
}

TEST(SchedStride, PreemptsOnlyAWholeStrideBehind) {
    Stride s(10000, 1);
    Entity w, r;
    w.weight = r.weight = 100;
    w.stride.pass = 0;
    r.stride.pass = 99;
    EXPECT_FALSE(s.preempts(w, r));
    r.stride.pass = 100;
    EXPECT_TRUE(s.preempts(w, r));
    EXPECT_FALSE(s.preempts(r, w));
}

// reweight rescales the remaining pass by new stride / old stride.
TEST(SchedStride, ReweightRescalesRemainingPass) {
    Stride s(10000, 1);
    auto tasks = make_tasks(2);
    for (auto& t : tasks) t->e.weight = 100;
    for (auto& t : tasks) s.enqueue(t->e, 0);
    Entity* e = s.pick(0, 0);
    s.charge(*e, 1);  // pass 100, global 0
    s.enqueue(*e, 0);
    s.reweight(*e, 200, 20);  // stride 50: remaining 100 -> 50
    EXPECT_EQ(e->stride.pass, 50);
    EXPECT_EQ(s.stride(e->weight), 50);
}

// ---- lottery ----

TEST(SchedLottery, PrngBelowIsInRangeAndSeeded) {
    Prng a(42), b(42), c(43);
    bool differs = false;
    for (int i = 0; i < 1000; i++) {
        const u64 x = a.below(7);
        EXPECT_LT(x, 7u);
        EXPECT_EQ(x, b.below(7));
        if (x != c.below(7)) differs = true;
    }
    EXPECT_TRUE(differs);
    EXPECT_EQ(a.below(1), 0u);
    // Zero seed is fine (splitmix64 seeding): the stream is not stuck.
    Prng z(0);
    EXPECT_NE(z.next(), z.next());
}

// Shares within binomial error: n draws, a task with ticket fraction p wins
// np +- 4 sqrt(np(1-p)) (for several seeds; each run is deterministic).
TEST(SchedLottery, SharesWithinBinomialError) {
    const u32 tickets[3] = {100, 50, 250};
    const u64 n = 100000;
    for (u64 seed : {1u, 2u, 3u, 77u}) {
        Lottery l(seed);
        auto tasks = make_tasks(3);
        for (int i = 0; i < 3; i++) tasks[i]->e.weight = tickets[i];
        run_hogs(l, tasks, n, 1);
        for (int i = 0; i < 3; i++) {
            const double p = tickets[i] / 400.0;
            const double mean = p * n, sd = std::sqrt(n * p * (1 - p));
            EXPECT_NEAR(static_cast<double>(tasks[i]->picks), mean, 4 * sd) << "seed " << seed << " task " << i;
        }
    }
}

// Nice maps to tickets: nice -5 (3121) vs 0 (1024) in the kernel's config.
TEST(SchedLottery, NiceMapsToTickets) {
    PolicyBox box(PolicyKind::LOTTERY, PolicyConfig{});
    auto tasks = make_tasks(2);
    set_priority(tasks[0]->e, WeightTable::Linux, nice_to_index(-5));
    set_priority(tasks[1]->e, WeightTable::Linux, nice_to_index(0));
    const u64 n = 50000;
    run_hogs(*box.p, tasks, n, 1);
    const double p = 3121.0 / (3121 + 1024);
    EXPECT_NEAR(static_cast<double>(tasks[0]->picks), p * n, 4 * std::sqrt(n * p * (1 - p)));
}

// Each run queue's lottery draws its own sequence: with per-hart queues
// every hart used to start from the same seed, so the harts' draws were
// one sequence (lock-step, correlated). Queue 0 keeps the default seed.
TEST(SchedLottery, EachQueueDrawsItsOwnSequence) {
    auto winners = [](u32 queue) {
        PolicyConfig c;
        c.queue = queue;
        PolicyBox box(PolicyKind::LOTTERY, c);
        auto tasks = make_tasks(4);
        for (auto& t : tasks) box.p->enqueue(t->e, 0);
        std::vector<int> order;
        for (int i = 0; i < 64; i++) {
            Entity* e = box.p->pick(0, 0);
            int which = 0;
            while (&tasks[which]->e != e) which++;
            order.push_back(which);
            box.p->enqueue(*e, 0);
        }
        return order;
    };
    const auto q0 = winners(0), q1 = winners(1), q2 = winners(2);
    EXPECT_NE(q0, q1);
    EXPECT_NE(q1, q2);
    EXPECT_NE(q0, q2);
    Lottery def;  // the default seed
    auto tasks = make_tasks(4);
    for (auto& t : tasks) def.enqueue(t->e, 0);
    for (int i = 0; i < 64; i++) {
        Entity* e = def.pick(0, 0);
        int which = 0;
        while (&tasks[which]->e != e) which++;
        EXPECT_EQ(which, q0[i]) << "queue 0 should keep the default seed (draw " << i << ")";
        def.enqueue(*e, 0);
    }
}

TEST(SchedLottery, TicketsFollowQueueAndReweight) {
    Lottery l(5);
    auto tasks = make_tasks(2);
    tasks[0]->e.weight = 10;
    tasks[1]->e.weight = 30;
    l.enqueue(tasks[0]->e, 0);
    l.enqueue(tasks[1]->e, 0);
    EXPECT_EQ(l.tickets(), 40u);
    l.reweight(tasks[0]->e, 70, 20);
    EXPECT_EQ(l.tickets(), 100u);
    l.dequeue(tasks[1]->e);
    EXPECT_EQ(l.tickets(), 70u);
    Entity* e = l.pick(3, 0);
    EXPECT_EQ(e, &tasks[0]->e);
    EXPECT_EQ(e->cpu, 3);
    EXPECT_EQ(l.tickets(), 0u);
    EXPECT_EQ(l.pick(0, 0), nullptr);
    EXPECT_FALSE(l.preempts(tasks[0]->e, tasks[1]->e));
}

// ---- stride and lottery queues: the treap against the scan it replaced ----

namespace {

// Random protocol traffic on one queue (enqueue, dequeue, pick then charge
// and put back or stop, reweight queued, running or asleep tasks). Before
// every pick the test works out the answer of the O(n) scan the policies
// used to do, from the queued set it tracks in enqueue order: stride's
// least (pass, seq); lottery's walk with a copy of its generator (same
// seed, so the same draws). The treap's pick must be that task, and its
// invariants must hold throughout.
enum class State { Asleep, Queued, Running };

template <typename P, typename Expect>
void against_scan(P& pol, u64 seed, int n, int ops, Expect expect) {
    auto tasks = make_tasks(n);
    std::vector<State> st(static_cast<usize>(n), State::Asleep);
    std::vector<Entity*> order;  // queued, in enqueue order
    Prng r(seed);
    auto unqueue = [&](Entity* e) {
        for (usize k = 0; k < order.size(); k++) {
            if (order[k] == e) {
                order.erase(order.begin() + static_cast<long>(k));
                return;
            }
        }
        FAIL() << "not in the test's queue";
    };
    for (auto& t : tasks) t->e.weight = static_cast<u32>(1 + r.below(3000));
    Time now = 0;
    for (int op = 0; op < ops; op++, now++) {
        Task& t = *tasks[r.below(static_cast<u64>(n))];
        const usize i = static_cast<usize>(t.id);
        const u64 what = r.below(10);
        if (what < 4 && st[i] == State::Asleep) {
            pol.enqueue(t.e, now);
            st[i] = State::Queued;
            order.push_back(&t.e);
        } else if (what == 4 && st[i] == State::Queued) {
            pol.dequeue(t.e);
            st[i] = State::Asleep;
            unqueue(&t.e);
        } else if (what == 5) {
            pol.reweight(t.e, static_cast<u32>(1 + r.below(5000)), t.e.level);
        } else if (what == 6 && st[i] == State::Running) {
            pol.charge(t.e, r.below(3));
            pol.stop(t.e);
            st[i] = State::Asleep;
        } else if (!order.empty()) {
            Entity* want = expect(order);
            Entity* got = pol.pick(0, now);
            ASSERT_EQ(got, want) << "op " << op << " seed " << seed;
            unqueue(got);
            Task& w = task_of(got);
            st[static_cast<usize>(w.id)] = State::Running;
            if (r.below(2)) {  // it ran and is put back
                pol.charge(*got, 1 + r.below(2));
                pol.enqueue(*got, now);
                st[static_cast<usize>(w.id)] = State::Queued;
                order.push_back(got);
            }
        }
        if (op % 97 == 0) {
            ASSERT_TRUE(pol.check()) << "op " << op;
        }
    }
    EXPECT_EQ(pol.size(), order.size());
    EXPECT_TRUE(pol.check());
}

}  // namespace

TEST(SchedStride, TreapPicksWhatTheScanPicked) {
    for (u64 seed : {1u, 2u, 3u}) {
        Stride s(kStrideBig, 3);
        against_scan(s, seed, 200, 30000, [](const std::vector<Entity*>& q) {
            Entity* best = nullptr;
            for (Entity* e : q) {
                if (!best || e->stride.pass < best->stride.pass ||
                    (e->stride.pass == best->stride.pass && e->seq < best->seq))
                    best = e;
            }
            return best;
        });
    }
}

TEST(SchedLottery, TreapFindsTheWalksWinner) {
    for (u64 seed : {1u, 2u, 3u}) {
        Lottery l(seed);
        Prng draws(seed);  // the lottery's own generator, drawn in step
        against_scan(l, seed + 100, 200, 30000, [&](const std::vector<Entity*>& q) {
            u64 total = 0;
            for (Entity* e : q) total += lottery_tickets(*e);
            const u64 winner = draws.below(total);
            u64 counter = 0;
            for (Entity* e : q) {
                counter += lottery_tickets(*e);
                if (counter > winner) return e;
            }
            return static_cast<Entity*>(nullptr);
        });
    }
}

// ---- MLFQ ----

namespace {

MlfqParams params(unsigned queues, Time quantum, Time allot_quanta, Time boost) {
    MlfqParams p;
    p.queues = queues;
    for (unsigned i = 0; i < queues; i++) {
        p.quantum[i] = quantum;
        p.allotment[i] = quantum * allot_quanta;
    }
    p.boost = boost;
    return p;
}

std::string trace(Mlfq& m, int steps, Time& now) {
    std::string s;
    for (int i = 0; i < steps; i++) {
        Entity* e = m.pick(0, now);
        if (!e) return s + ".";
        s += static_cast<char>('A' + task_of(e).id);
        m.charge(*e, 1);
        now++;
        m.enqueue(*e, now);
    }
    return s;
}

}  // namespace

// Rule 1 and 3: a new task enters the top queue and runs before tasks that
// sank; rule 2: tasks of one queue take turns of a quantum (2 here).
TEST(SchedMlfq, RulesOneTwoThree) {
    Mlfq m(params(3, 2, 1, 0));
    auto tasks = make_tasks(3);
    Time now = 0;
    m.enqueue(tasks[0]->e, now);
    m.enqueue(tasks[1]->e, now);
    // A and B share the top queue, 2 ticks each, then each sinks (allotment
    // = 1 quantum) to queue 1, then queue 2, where they alternate forever.
    EXPECT_EQ(trace(m, 12, now), "AABBAABBAABB");
    EXPECT_EQ(tasks[0]->e.mlfq.mq, 2);
    EXPECT_EQ(tasks[1]->e.mlfq.mq, 2);
    m.enqueue(tasks[2]->e, now);  // C is new: top queue, runs at once
    EXPECT_EQ(tasks[2]->e.mlfq.mq, 0);
    // C uses its allotments of queues 0 and 1 (2 ticks each) before it
    // reaches queue 2, where the three take turns.
    EXPECT_EQ(trace(m, 10, now), "CCCCAABBCC");
}

// Rule 4 (gaming-proof): a task that gives the cpu up just before its
// quantum ends still sinks once it has used its allotment; with io_reset
// (mlfq.py -S, the chapter's first rule) it keeps the top queue forever.
TEST(SchedMlfq, RuleFourAllotmentAndGaming) {
    for (bool reset : {false, true}) {
        MlfqParams p = params(3, 10, 1, 0);
        p.io_reset = reset;
        Mlfq m(p);
        auto tasks = make_tasks(2);
        // Task 0 runs 9 of every 10 ticks then sleeps 1 (games the quantum);
        // task 1 is a hog.
        OneCpu cpu(m, tasks, {{9, 1}, {0, 0}}, 10);
        cpu.run(2000);
        if (reset) {
            EXPECT_EQ(tasks[0]->e.mlfq.mq, 0) << "gamer keeps the top queue";
            EXPECT_GT(tasks[0]->ran, 1700u) << "and monopolises the cpu";
        } else {
            EXPECT_EQ(tasks[0]->e.mlfq.mq, 2) << "gamer sinks";
            EXPECT_NEAR(static_cast<double>(tasks[0]->ran), static_cast<double>(tasks[1]->ran), 200.0);
        }
    }
}

// Rule 5: a hog starved by two tasks that alternate in the top queue gets
// the cpu again at every boost; without boosts it starves.
TEST(SchedMlfq, RuleFiveBoostEndsStarvation) {
    for (Time boost : {Time{0}, Time{100}}) {
        MlfqParams p = params(3, 1, 4, boost);
        p.io_reset = true;  // the two interactive tasks stay on top
        Mlfq m(p);
        auto tasks = make_tasks(3);
        OneCpu cpu(m, tasks, {{0, 0}, {1, 1}, {1, 1}}, 1);
        cpu.run(10);  // the hog sinks while alone for its allotments
        const u64 before = tasks[0]->ran;
        cpu.run(2000);
        if (boost) {
            EXPECT_GE(tasks[0]->ran - before, 19u * 4) << "4 ticks at the top after each of 19 boosts at least";
        } else {
            EXPECT_EQ(tasks[0]->ran - before, 0u) << "starved";
        }
    }
}

// A task running or asleep across a boost boundary is boosted at its next
// enqueue; queued tasks are boosted by pick, lower queues appended in order.
TEST(SchedMlfq, BoostReachesRunningSleepingAndQueued) {
    Mlfq m(params(3, 1, 1, 100));
    auto tasks = make_tasks(3);
    Time now = 0;
    for (auto& t : tasks) m.enqueue(t->e, now);
    trace(m, 7, now);  // all sink to queue 2 (ABC ABC A)
    for (auto& t : tasks) EXPECT_EQ(t->e.mlfq.mq, 2);
    Entity* a = m.pick(0, now);  // running across the boundary
    m.charge(*a, 1);
    now = 100;
    m.enqueue(*a, now);
    EXPECT_EQ(a->mlfq.mq, 0);
    Entity* first = m.pick(0, now);  // the boost of the queued
    EXPECT_EQ(first, a);
    for (auto& t : tasks) EXPECT_EQ(t->e.mlfq.mq, 0);
    m.charge(*first, 1);
    m.stop(*first);  // asleep across the next boundary
    EXPECT_EQ(first->mlfq.mq, 1);
    now = 200;
    m.enqueue(*first, now);
    EXPECT_EQ(first->mlfq.mq, 0);
}

// io_front (mlfq.py -I): a woken task goes to the front of its queue
// (here: the task that ran one tick and slept is picked again at once).
// Unlike mlfq.py, whose new jobs join at the back, every enqueue that is
// not a put-back counts as a wake-up here, a new task's included.
TEST(SchedMlfq, IoFrontBumpsWokenTask) {
    for (bool front : {false, true}) {
        MlfqParams p = params(1, 5, 1, 0);
        p.io_front = front;
        Mlfq m(p);
        auto tasks = make_tasks(2);
        m.enqueue(tasks[0]->e, 0);
        m.enqueue(tasks[1]->e, 0);
        Entity* e = m.pick(0, 0);
        m.charge(*e, 1);
        m.stop(*e);        // sleeps with quantum left
        m.enqueue(*e, 1);  // and wakes
        Entity* next = m.pick(0, 1);
        EXPECT_EQ(next == e, front);
    }
}

// Quantum longer than the caller's slice: a task put back with quantum
// left goes to the front and continues it.
TEST(SchedMlfq, QuantumSpansSeveralSlices) {
    Mlfq m(params(1, 3, 100, 0));
    auto tasks = make_tasks(2);
    Time now = 0;
    for (auto& t : tasks) m.enqueue(t->e, now);
    EXPECT_EQ(trace(m, 12, now), "AAABBBAAABBB");
}

TEST(SchedMlfq, PreemptsByQueueAndIgnoresWeight) {
    Mlfq m(mlfq_defaults(10));
    Entity hi, lo;
    hi.mlfq.mq = 0;
    lo.mlfq.mq = 2;
    EXPECT_TRUE(m.preempts(hi, lo));
    EXPECT_FALSE(m.preempts(lo, hi));
    EXPECT_FALSE(m.preempts(hi, hi));
    m.reweight(lo, 88761, 0);
    EXPECT_EQ(lo.weight, 88761u);
    EXPECT_EQ(lo.mlfq.mq, 2);
}

// The kernel's defaults (documented in mlfq.h and docs/ostep.md).
TEST(SchedMlfq, KernelDefaults) {
    const MlfqParams p = mlfq_defaults(1000);
    EXPECT_EQ(p.queues, 3u);
    EXPECT_EQ(p.quantum[0], 1000u);
    EXPECT_EQ(p.quantum[1], 2000u);
    EXPECT_EQ(p.quantum[2], 4000u);
    EXPECT_EQ(p.allotment[0], 2000u);
    EXPECT_EQ(p.allotment[2], 8000u);
    EXPECT_EQ(p.boost, 10000u);
    EXPECT_FALSE(p.io_reset);
    EXPECT_FALSE(p.io_front);
}

// The kernel scenario on the library: an interactive task (runs a
// tenth of a slice, sleeps nine tenths) keeps the top queue while two hogs
// sink, and gets the cpu at once when it wakes (preempts the hogs).
TEST(SchedMlfq, InteractiveKeepsTopQueueHogsSink) {
    Mlfq m(mlfq_defaults(10));
    auto tasks = make_tasks(3);
    OneCpu cpu(m, tasks, {{1, 9}, {0, 0}, {0, 0}}, 10);
    cpu.run(5000);
    EXPECT_EQ(tasks[0]->e.mlfq.mq, 0);
    EXPECT_TRUE(m.preempts(tasks[0]->e, tasks[1]->e) || tasks[1]->e.mlfq.mq == 0);
    EXPECT_GT(tasks[0]->ran, 5000u / 10 / 2) << "it runs about once per wake-up";
}

// Every policy of the registry survives reset between uses of one entity.
TEST(SchedOstep, RegisteredAndResettable) {
    for (const char* n : {"stride", "lottery", "mlfq"}) {
        PolicyKind k;
        ASSERT_TRUE(parse_policy(n, k)) << n;
        PolicyBox box(k, PolicyConfig{});
        EXPECT_STREQ(box->name(), n);
        auto tasks = make_tasks(2);
        run_hogs(*box.p, tasks, 10, 1);
        EXPECT_EQ(tasks[0]->ran + tasks[1]->ran, 10u);
    }
    static_assert(sizeof(Mlfq) < 512, "per-queue policy storage stays small");
    static_assert(sizeof(Stride) < 128 && sizeof(Lottery) < 128, "per-queue policy storage stays small");
}
