// tests/host/sched_balance_test.cc - placement, work stealing, periodic
// balancing and lag-keeping migration (lib/sched/balance.h), alone and in a
// per-cpu-queue simulation driven the way the kernel drives them: one
// policy instance per cpu, a cpu whose queue is empty steals, every cpu
// balances every few picks.
#include <gtest/gtest.h>

#include <algorithm>

#include "lib/sched/balance.h"
#include "tests/host/sched_test_util.h"

using namespace qt;

namespace {

std::vector<QueueLoad> loads(std::initializer_list<std::pair<u64, u32>> l) {
    std::vector<QueueLoad> v;
    for (auto [load, nr] : l) {
        QueueLoad q;
        q.load = load;
        q.nr = nr;
        q.running = nr > 0 ? 1 : 0;
        v.push_back(q);
    }
    return v;
}

}  // namespace

TEST(SchedPlace, PrevIfEmptyElseEmptyElseWarmElseLeast) {
    auto q = loads({{1024, 1}, {0, 0}, {2048, 2}, {1024, 1}});
    EXPECT_EQ(select_cpu(q.data(), 4, 1, kAllCpus, false, 1024), 1);  // prev empty
    EXPECT_EQ(select_cpu(q.data(), 4, 2, kAllCpus, true, 1024), 1);   // an empty queue beats warm
    q[1] = q[0];
    EXPECT_EQ(select_cpu(q.data(), 4, 2, kAllCpus, true, 1024), 2);          // warm, one weight heavier
    EXPECT_EQ(select_cpu(q.data(), 4, 2, kAllCpus, false, 1024), 0);         // cold: least loaded
    EXPECT_EQ(select_cpu(q.data(), 4, 2, kAllCpus, true, 15), 0);            // warm but too much heavier
    EXPECT_EQ(select_cpu(q.data(), 4, 0, CpuMask{1} << 3, false, 1024), 3);  // affinity
    EXPECT_EQ(select_cpu(q.data(), 4, -1, kAllCpus, false, 1024), 0);
}

// A synchronous wake-up's waker cpu (the caller chose it): after an empty
// queue, before a preemptable cpu, warmth and the least loaded; only if
// allowed and a real cpu.
TEST(SchedPlace, SyncCpuAfterEmptyBeforePreemptsAndLeast) {
    auto q = loads({{1024, 1}, {0, 0}, {4096, 3}, {512, 1}});
    EXPECT_EQ(select_cpu(q.data(), 4, 2, kAllCpus, true, 1024, 0, 2), 1);  // an empty queue first
    q[1] = q[2];
    const CpuMask preempts = CpuMask{1} << 3;
    EXPECT_EQ(select_cpu(q.data(), 4, 0, kAllCpus, true, 1024, preempts, 2), 2);
    EXPECT_EQ(select_cpu(q.data(), 4, 0, kAllCpus, true, 1024, preempts, -1), 3);           // not sync
    EXPECT_EQ(select_cpu(q.data(), 4, 0, kAllCpus, true, 1024, 0, -1), 0);                  // warm
    EXPECT_EQ(select_cpu(q.data(), 4, 0, ~(CpuMask{1} << 2), true, 1024, preempts, 2), 3);  // not allowed
    EXPECT_EQ(select_cpu(q.data(), 4, 0, kAllCpus, true, 1024, preempts, 7), 3);            // no such cpu
    // An empty sync cpu (schedsim: the waker has just left it) counts as
    // its waker's, busy: another empty queue first, else the sync cpu.
    auto e = loads({{0, 0}, {1024, 1}, {0, 0}});
    EXPECT_EQ(select_cpu(e.data(), 3, 0, kAllCpus, true, 1024, 0, 0), 2);
    EXPECT_EQ(select_cpu(e.data(), 3, 0, kAllCpus, true, 1024, 0, 2), 0);
    e[2] = e[1];
    EXPECT_EQ(select_cpu(e.data(), 3, 1, kAllCpus, true, 1024, 0, 0), 0);
}

TEST(SchedPlace, StealAndBusiest) {
    auto q = loads({{0, 0}, {2048, 2}, {3072, 3}, {1024, 1}});
    EXPECT_EQ(steal_victim(q.data(), 4, 0), 2);  // most waiting
    EXPECT_EQ(busiest(q.data(), 4, 3), 2);
    EXPECT_EQ(busiest(q.data(), 4, 2), -1);  // nobody heavier
    auto none = loads({{0, 0}, {1024, 1}, {1024, 1}});
    EXPECT_EQ(steal_victim(none.data(), 3, 0), -1);  // nothing waiting anywhere
}

TEST(SchedPlace, JudgeMove) {
    QueueLoad s, d;
    s.load = 3072;
    d.load = 1024;
    EXPECT_EQ(judge_move(s, d, 1024), Move::Improves);
    d.load = 2048;
    EXPECT_EQ(judge_move(s, d, 1024), Move::No);  // no service known
    s.min_service = 100, s.min_weight = 1024;
    d.min_service = 300, d.min_weight = 1024;
    EXPECT_EQ(judge_move(s, d, 1024), Move::Rotates);  // the source is behind
    EXPECT_EQ(judge_move(d, s, 1024), Move::No);       // (loads) and not the other way
    EXPECT_EQ(judge_move(s, d, 2048), Move::No);       // would grow the imbalance
    d.min_service = 50;
    EXPECT_EQ(judge_move(s, d, 1024), Move::No);  // the destination is behind
    EXPECT_TRUE(behind(100, 1024, 300, 2048));
    EXPECT_FALSE(behind(200, 1024, 300, 2048));
}

// Among moves that lower the larger load, the one that leaves the least
// imbalance: a nice -20 and a nice 0 task on one queue, a nice 19 alone on
// the other: the nice 0 one moves (the nice -20 one would leave the queues
// just as unequal the other way round, with nice 19 beside it).
TEST(SchedPlace, PullChooserLeastImbalanceLeft) {
    QueueLoad q[2];
    q[0].load = 88761 + 1024;
    q[0].nr = 2;
    q[1].load = 15;
    q[1].nr = 1;
    int heavy = 0, zero = 1;
    PullChooser pc(q, 1);
    pc.offer(&heavy, 0, 88761, 0);  // (the more behind of the two)
    pc.offer(&zero, 0, 1024, 1000);
    EXPECT_EQ(pc.best(), &zero);
    EXPECT_EQ(pc.move(), Move::Improves);
}

// Service::add_span (a task's time runnable, for RunQueues::outserved):
// a stretch counts as its units added one at a time as they passed, each
// epoch's part halved once per epoch since, to within the rounding of one
// halving per epoch crossed; within one epoch it is exact; past 64 epochs
// only the last 63 count.
TEST(SchedService, AddSpanIsTheStretchAddedAsItPassed) {
    constexpr Time kHalf = 1000;
    struct Case {
        Time from, to;
    };
    for (Case c : {Case{0, 999}, Case{250, 250}, Case{250, 1750}, Case{999, 1001}, Case{0, 5000}, Case{1234, 9876},
                   Case{500, 80500}}) {
        Service span{300, 0}, units{300, 0};
        span.add_span(c.from, c.to, kHalf);
        for (Time t = c.from; t < c.to; t++) units.add_in_epoch(1, t / kHalf);
        const u64 e = c.to / kHalf;
        const u64 crossed = e - c.from / kHalf;
        const u64 a = span.in_epoch(e), b = units.in_epoch(e);
        SCOPED_TRACE(testing::Message() << c.from << ".." << c.to);
        EXPECT_LE(a > b ? a - b : b - a, crossed);
        if (crossed == 0) {
            EXPECT_EQ(a, 300 + (c.to - c.from));
        }
        EXPECT_GE(a, c.to - e * kHalf);  // at least the part in the last epoch
    }
}

// Moving a task keeps its lag: V_src - v before equals V_dst - v after.
TEST(SchedMigrate, EevdfKeepsLag) {
    PolicyBox a(PolicyKind::EEVDF, PolicyConfig{}), b(PolicyKind::EEVDF, PolicyConfig{});
    auto& ea = static_cast<Eevdf&>(*a.p);
    auto& eb = static_cast<Eevdf&>(*b.p);
    auto ta = make_tasks(4), tb = make_tasks(3);
    run_hogs(ea, ta, 1001, 1);
    run_hogs(eb, tb, 7777, 1);
    Entity& m = ta[2]->e;
    ASSERT_TRUE(m.queued);
    const i64 lag = ea.virtual_time() - m.eevdf.vruntime;
    migrate(ea, eb, m, 7777);
    EXPECT_TRUE(m.queued);
    EXPECT_EQ(ea.size(), 2u);  // (one of a's four is running)
    EXPECT_NEAR(static_cast<double>(eb.virtual_time() - m.eevdf.vruntime), static_cast<double>(lag), 2.0);
}

namespace {

struct PTask {
    Task t;
    int cpu = 0;  // queue it is on
    CpuMask allowed = kAllCpus;
    u64 migrations = 0;
    Service svc;         // decayed service (what rotations compare)
    bool moved = false;  // migrated and not picked since: not moved again
};

// Per-cpu queues of one policy kind, hogs only, one pick per cpu per step.
class PerCpuSim {
  public:
    static constexpr Time kHalfLife = 256;  // steps (the kernel: 256 slices)

    PerCpuSim(PolicyKind kind, unsigned cpus, unsigned balance_every)
        : cpus_(cpus), every_(balance_every), boxes_(cpus), running_(cpus, nullptr), q_(cpus) {
        for (auto& b : boxes_) {
            b = std::make_unique<PolicyBox>(kind, PolicyConfig{});
            b->p->set_cpus(1);
        }
    }

    PTask& add(int nice, CpuMask allowed = kAllCpus) {
        tasks_.push_back(std::make_unique<PTask>());
        PTask& t = *tasks_.back();
        t.t.id = static_cast<int>(tasks_.size() - 1);
        t.t.e.owner = &t;
        t.allowed = allowed;
        set_priority(t.t.e, WeightTable::Linux, nice_to_index(nice));
        const int c = select_cpu(q_.data(), cpus_, -1, allowed, false, t.t.e.weight);
        t.cpu = c;
        q_[c].load += t.t.e.weight;
        q_[c].nr++;
        boxes_[c]->p->enqueue(t.t.e, now_);
        return t;
    }

    void run(u64 steps) {
        for (u64 s = 0; s < steps; s++) step();
    }

    const std::vector<std::unique_ptr<PTask>>& tasks() const { return tasks_; }
    u64 migrations = 0;

  private:
    static PTask& of(Entity* e) { return *static_cast<PTask*>(e->owner); }
    Policy& pol(unsigned c) { return *boxes_[c]->p; }

    // Most behind queued task on src that may run on dst (work stealing).
    PTask* candidate(unsigned src, unsigned dst) {
        PTask* best = nullptr;
        for (auto& t : tasks_) {
            if (t->cpu != static_cast<int>(src) || !t->t.e.queued || t->moved || !mask_has(t->allowed, dst)) continue;
            if (!best ||
                behind(t->svc.at(now_, kHalfLife), t->t.e.weight, best->svc.at(now_, kHalfLife), best->t.e.weight))
                best = t.get();
        }
        return best;
    }

    void move(PTask& t, unsigned dst) {
        const unsigned src = static_cast<unsigned>(t.cpu);
        migrate(pol(src), pol(dst), t.t.e, now_);
        q_[src].load -= t.t.e.weight;
        q_[src].nr--;
        q_[dst].load += t.t.e.weight;
        q_[dst].nr++;
        t.cpu = static_cast<int>(dst);
        t.migrations++;
        t.moved = true;
        migrations++;
    }

    void balance(unsigned self) {
        for (auto& q : q_) q.min_weight = 0;
        for (auto& t : tasks_) {
            QueueLoad& q = q_[static_cast<unsigned>(t->cpu)];
            const u64 sv = t->svc.at(now_, kHalfLife);
            if (q.min_weight == 0 || behind(sv, t->t.e.weight, q.min_service, q.min_weight)) {
                q.min_service = sv;
                q.min_weight = t->t.e.weight;
            }
        }
        PullChooser pc(q_.data(), self);
        for (auto& t : tasks_) {
            if (!t->t.e.queued || !mask_has(t->allowed, self)) continue;
            pc.offer(t.get(), static_cast<unsigned>(t->cpu), t->t.e.weight, t->svc.at(now_, kHalfLife), t->moved);
        }
        if (pc.best()) move(*static_cast<PTask*>(pc.best()), self);
    }

    void step() {
        for (unsigned c = 0; c < cpus_; c++) {
            if (!running_[c]) continue;
            pol(c).charge(*running_[c], 1);
            of(running_[c]).svc.add(1, now_, kHalfLife);
            pol(c).enqueue(*running_[c], now_);
            running_[c] = nullptr;
            q_[c].running = 0;
        }
        for (unsigned c = 0; c < cpus_; c++) {
            if (every_ && now_ % every_ == c % every_) balance(c);
            if (pol(c).size() == 0) {
                const int v = steal_victim(q_.data(), cpus_, c);
                if (v >= 0)
                    if (PTask* t = candidate(static_cast<unsigned>(v), c)) move(*t, c);
            }
            Entity* e = pol(c).pick(c, now_);
            running_[c] = e;
            if (!e) continue;
            q_[c].running = 1;
            of(e).t.ran++;
            of(e).moved = false;
        }
        now_++;
    }

    unsigned cpus_;
    unsigned every_;
    std::vector<std::unique_ptr<PolicyBox>> boxes_;
    std::vector<Entity*> running_;
    std::vector<QueueLoad> q_;
    std::vector<std::unique_ptr<PTask>> tasks_;
    Time now_ = 0;
};

double max_over_min(const std::vector<std::unique_ptr<PTask>>& tasks) {
    u64 lo = ~u64{0}, hi = 0;
    for (auto& t : tasks) {
        lo = std::min(lo, t->t.ran);
        hi = std::max(hi, t->t.ran);
    }
    return static_cast<double>(hi) / static_cast<double>(lo);
}

}  // namespace

// Without balancing, 8 hogs on 3 queues split 3/3/2 and the two on the
// light queue get 1/2 a cpu against 1/3: max/min 1.5. Rotation makes it fair.
TEST(SchedPerCpu, EightEqualHogsThreeCpusEveryPolicy) {
    for (PolicyKind k : {PolicyKind::EEVDF, PolicyKind::DWRR, PolicyKind::IDWRR, PolicyKind::RR}) {
        PerCpuSim none(k, 3, 0);
        for (int i = 0; i < 8; i++) none.add(0);
        none.run(12000);
        EXPECT_NEAR(max_over_min(none.tasks()), 1.5, 0.01) << policy_name(k);
        PerCpuSim sim(k, 3, 4);
        for (int i = 0; i < 8; i++) sim.add(0);
        sim.run(12000);
        EXPECT_LE(max_over_min(sim.tasks()), 1.01) << policy_name(k);
    }
}

// nice -20 vs 0 and 0 vs 5 on 2 and 3 cpus with per-cpu queues: one task
// per cpu when tasks <= cpus; with more, shares follow the weights.
TEST(SchedPerCpu, NiceRatiosWithMoreTasksThanCpus) {
    PerCpuSim sim(PolicyKind::EEVDF, 2, 4);
    // Loads 1024 + 335 + 335 + 335 ... : four nice 0 and four nice 5 on 2 cpus.
    for (int i = 0; i < 4; i++) sim.add(0);
    for (int i = 0; i < 4; i++) sim.add(5);
    sim.run(40000);
    double n0 = 0, n5 = 0;
    for (auto& t : sim.tasks()) (t->t.e.weight == 1024 ? n0 : n5) += static_cast<double>(t->t.ran);
    EXPECT_NEAR((n0 / 4) / (n5 / 4), 1024.0 / 335.0, 0.03 * 1024.0 / 335.0);
}

// 7 hogs start pinned to cpu 0, then all but one may run anywhere: idle
// cpus steal and balancing spreads them; the pinned one never moves; over
// the rest of the run everyone gets within 5% of the same service.
TEST(SchedPerCpu, IdleCpusStealAndAffinityIsRespected) {
    PerCpuSim sim(PolicyKind::EEVDF, 3, 4);
    std::vector<PTask*> t;
    for (int i = 0; i < 7; i++) t.push_back(&sim.add(0, CpuMask{1}));
    sim.run(100);
    for (int i = 1; i < 7; i++) t[i]->allowed = kAllCpus;
    std::vector<u64> before;
    for (PTask* x : t) before.push_back(x->t.ran);
    sim.run(6000);
    EXPECT_EQ(t[0]->cpu, 0);
    EXPECT_EQ(t[0]->migrations, 0u);
    EXPECT_GT(sim.migrations, 0u);
    u64 lo = ~u64{0}, hi = 0;
    for (int i = 0; i < 7; i++) {
        lo = std::min(lo, t[i]->t.ran - before[i]);
        hi = std::max(hi, t[i]->t.ran - before[i]);
    }
    EXPECT_LE(static_cast<double>(hi) / static_cast<double>(lo), 1.05);
}
