// tests/host/sched_smp_test.cc - EEVDF on several cpus sharing one queue:
// infeasible weights (a weight that asks for more than one cpu) and bounded
// sums over long runs, driving the policy directly.
//
// The oracle is the fluid schedule with weight readjustment (Chandra et al.,
// "Surplus Fair Scheduling", OSDI 2000): a task never gets more than one
// cpu; the heaviest tasks whose weight asks for more are given one cpu each
// and the others share the remaining cpus by weight. The driver advances in
// steps of one pick (`step` time units): every cpu charges and puts back (or
// stops) what it ran, arrivals and wake-ups are enqueued, every cpu picks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "tests/host/sched_test_util.h"

// Undefined behaviour (a signed overflow in the sums) fails the sanitizer
// build instead of printing a line nobody reads.
extern "C" const char* __ubsan_default_options() { return "halt_on_error=1:print_stacktrace=1"; }

using namespace qt;

namespace {

// Fluid shares (fraction of one cpu) of tasks with weights w on m cpus.
std::vector<double> fluid_shares(const std::vector<double>& w, unsigned m) {
    std::vector<double> share(w.size(), 0);
    if (w.empty()) return share;
    if (w.size() <= m) {
        std::fill(share.begin(), share.end(), 1.0);
        return share;
    }
    std::vector<usize> order(w.size());
    for (usize i = 0; i < order.size(); i++) order[i] = i;
    std::sort(order.begin(), order.end(), [&](usize a, usize b) { return w[a] > w[b]; });
    double rest = 0;
    for (double x : w) rest += x;
    unsigned k = 0;
    while (k < m && w[order[k]] * (m - k) > rest) rest -= w[order[k++]];
    for (usize j = 0; j < order.size(); j++) share[order[j]] = j < k ? 1.0 : w[order[j]] * (m - k) / rest;
    return share;
}

struct SimTask {
    Task t;
    int nice = 0;
    Time arrive = 0;
    Time awake = 0;   // periodic sleeper: runnable for `awake`, then sleeps
    Time asleep = 0;  // for `asleep` (0: a hog)
    bool runnable = false;
    bool slept = false;
    Time phase_start = 0;  // of the current runnable or sleeping phase
    double ideal = 0;      // fluid service
    double worst_lag = 0;
};

class SmpSim {
  public:
    SmpSim(Policy& p, unsigned cpus, Time step) : p_(p), cpus_(cpus), step_(step), running_(cpus, nullptr) {
        p_.set_cpus(cpus);
    }

    SimTask& add(int nice, Time arrive, Time awake = 0, Time asleep = 0) {
        tasks_.push_back(std::make_unique<SimTask>());
        SimTask& s = *tasks_.back();
        s.t.id = static_cast<int>(tasks_.size() - 1);
        s.t.e.owner = &s;
        s.nice = nice;
        s.arrive = arrive;
        s.awake = awake;
        s.asleep = asleep;
        set_priority(s.t.e, WeightTable::Linux, nice_to_index(nice));
        return s;
    }

    Time now() const { return now_; }
    const std::vector<std::unique_ptr<SimTask>>& tasks() const { return tasks_; }

    // One step: put back what ran, admit arrivals and wake-ups, pick.
    void step() {
        for (unsigned c = 0; c < cpus_; c++) {
            Entity* e = running_[c];
            if (!e) continue;
            SimTask& s = sim_of(e);
            p_.charge(*e, step_);
            if (s.asleep && now_ - s.phase_start >= s.awake) {
                p_.stop(*e);
                s.runnable = false;
                s.slept = true;
                s.phase_start = now_;
            } else {
                p_.enqueue(*e, now_);
            }
            running_[c] = nullptr;
        }
        for (auto& s : tasks_) {
            if (s->runnable || now_ < s->arrive) continue;
            if (s->slept && now_ - s->phase_start < s->asleep) continue;
            s->runnable = true;
            s->phase_start = now_;
            p_.enqueue(s->t.e, now_);
        }
        std::vector<double> w;
        std::vector<SimTask*> on;
        for (auto& s : tasks_) {
            if (!s->runnable) continue;
            w.push_back(s->t.e.weight);
            on.push_back(s.get());
        }
        const std::vector<double> share = fluid_shares(w, cpus_);
        for (usize i = 0; i < on.size(); i++) on[i]->ideal += share[i] * static_cast<double>(step_);
        for (unsigned c = 0; c < cpus_; c++) {
            Entity* e = p_.pick(c, now_);
            running_[c] = e;
            if (!e) continue;
            SimTask& s = sim_of(e);
            s.t.ran += step_;
            s.t.picks++;
        }
        now_ += step_;
        for (auto& s : tasks_) {
            const double lag = std::fabs(s->ideal - static_cast<double>(s->t.ran));
            s->worst_lag = std::max(s->worst_lag, lag);
        }
    }

    void run_until(Time end) {
        while (now_ < end) step();
    }

  private:
    static SimTask& sim_of(Entity* e) { return *static_cast<SimTask*>(e->owner); }

    Policy& p_;
    unsigned cpus_;
    Time step_;
    Time now_ = 0;
    std::vector<Entity*> running_;
    std::vector<std::unique_ptr<SimTask>> tasks_;
};

// The schedsim case: cpus, heavy nice -20 hogs and a nice 19 hog
// from tick 0, a nice 0 hog from half time; returns the nice 19 task's
// ticks over the second half.
u64 nice19_second_half(unsigned cpus, unsigned heavy, Time end, Time slice) {
    PolicyConfig cfg;
    cfg.slice = slice;
    PolicyBox box(PolicyKind::EEVDF, cfg);
    SmpSim sim(*box.p, cpus, slice);
    for (unsigned i = 0; i < heavy; i++) sim.add(-20, 0);
    SimTask& light = sim.add(19, 0);
    sim.add(0, end / 2);
    sim.run_until(end / 2);
    const u64 before = light.t.ran;
    sim.run_until(end);
    return light.t.ran - before;
}

}  // namespace

TEST(SchedSmpOracle, FluidSharesCapAtOneCpu) {
    const auto s = fluid_shares({88761, 15, 1024}, 2);
    EXPECT_DOUBLE_EQ(s[0], 1.0);
    EXPECT_NEAR(s[1], 15.0 / 1039.0, 1e-12);
    EXPECT_NEAR(s[2], 1024.0 / 1039.0, 1e-12);
    const auto t = fluid_shares({1, 1, 1, 1}, 2);
    for (double x : t) EXPECT_DOUBLE_EQ(x, 0.5);
}

// Regression (issue 12): 2 cpus, nice -20 and nice 19 hogs from tick 0, a
// nice 0 hog from tick 1,000,000. Before weight readjustment the nice 19
// task got 0 ticks of the second million (it had run ahead of V, which the
// heavy task held back); the capped fluid share is 15/1039 of a cpu.
TEST(SchedSmpEevdf, InfeasibleWeightTwoCpus) {
    const double want = 1e6 * 15.0 / 1039.0;  // 14,437
    const double got = static_cast<double>(nice19_second_half(2, 1, 2'000'000, 1));
    EXPECT_NEAR(got / want, 1.0, 0.30) << "nice 19 got " << got << " ticks, fluid " << want;
}

// The same on 3 cpus with two nice -20 hogs (each asks for more than one
// cpu), over 3e7 ticks in picks of 10 ticks.
TEST(SchedSmpEevdf, InfeasibleWeightThreeCpus) {
    const double want = 1.5e7 * 15.0 / 1039.0;  // 216,554
    const double got = static_cast<double>(nice19_second_half(3, 2, 30'000'000, 10));
    EXPECT_NEAR(got / want, 1.0, 0.30) << "nice 19 got " << got << " ticks, fluid " << want;
}

// Hogs with infeasible weights and late arrivals: every task's service
// stays within a few slices of the capped fluid schedule at every tick (the
// code before weight readjustment: 28,049 ticks behind for a late nice 0).
TEST(SchedSmpEevdf, LagBoundedAgainstCappedFluid) {
    PolicyBox box(PolicyKind::EEVDF, PolicyConfig{});
    SmpSim sim(*box.p, 3, 1);
    sim.add(-20, 0);
    sim.add(-15, 0);
    sim.add(19, 0);
    sim.add(5, 0);
    sim.add(0, 50'000);
    sim.add(0, 100'000);
    sim.add(10, 150'000);
    sim.run_until(300'000);
    for (auto& s : sim.tasks()) EXPECT_LE(s->worst_lag, 3.0) << "task " << s->t.id << " nice " << s->nice;
}

namespace {

// floor(sum w_i v_i / sum w_i) over the runnable tasks, w = the effective
// weight EEVDF uses (exact, 128-bit).
i64 weighted_average(const std::vector<std::unique_ptr<SimTask>>& tasks) {
    __int128 s = 0, w = 0;
    for (auto& t : tasks) {
        if (!t->runnable) continue;
        s += static_cast<__int128>(t->t.e.eevdf.eweight) * t->t.e.eevdf.vruntime;
        w += t->t.e.eevdf.eweight;
    }
    __int128 q = s / w;
    if (s % w < 0) q--;
    return static_cast<i64>(q);
}

}  // namespace

// Regression (issue 12): the kernel's exact EEVDF configuration (time in
// 10 MHz timer cycles, slice 100 ms (xv6's, boot arg slice=100000), vruntime
// shift 16; see rq_init in kernel/proc/runqueue.cc and kTimerHz) on 3 harts
// sharing one queue for 24 hours of simulated time, in picks of one slice:
// two nice -20 hogs and a nice 19 hog from boot (the nice -20 ones ask for
// more than a hart each), a nice 0 hog from minute 20, a nice 5 task that
// sleeps 2 s after every 3 s, a nice -5 hog from hour 2. Before the fix the
// sums overflowed after about 20 minutes (UBSan) and the nice 0 task
// starved for half an hour. Now: V is exactly the weighted average (no
// wrap-around), the sums stay small, and no task's service falls more than
// a few slices behind the capped fluid schedule at any time.
TEST(SchedSmpEevdf, KernelConfigurationOneDay) {
    constexpr Time kHz = 10'000'000;
    constexpr Time kSlice = kHz / 10;
    constexpr Time kMinute = 60 * kHz;
    constexpr double kS = static_cast<double>(kSlice);
    PolicyConfig cfg;
    cfg.slice = kSlice;
    cfg.vshift = 16;
    // Against the capped fluid schedule, which keeps lags: the paper's EEVDF.
    // With the decay the nice 5 task (3 s run / 2 s sleep) stops each
    // cycle up to a slice ahead and is forgiven it: 0.217 over its fluid
    // share in its worst hour (what Linux's DELAY_DEQUEUE does too).
    cfg.sleep_decay = false;
    PolicyBox box(PolicyKind::EEVDF, cfg);
    auto& ev = static_cast<Eevdf&>(*box.p);
    SmpSim sim(ev, 3, kSlice);
    sim.add(-20, 0);
    sim.add(-20, 0);
    sim.add(19, 0);
    sim.add(0, 20 * kMinute);
    sim.add(5, 0, 3 * kHz, 2 * kHz);
    sim.add(-5, 120 * kMinute);
    const usize n = sim.tasks().size();
    std::vector<double> ran_m(n), ideal_m(n), ran_h(n), ideal_h(n);
    auto mark = [&](std::vector<double>& ran, std::vector<double>& ideal) {
        for (usize i = 0; i < n; i++) {
            ran[i] = static_cast<double>(sim.tasks()[i]->t.ran);
            ideal[i] = sim.tasks()[i]->ideal;
        }
    };
    mark(ran_m, ideal_m);
    mark(ran_h, ideal_h);
    double worst_minute = 1e9, worst_hour = 0;
    while (sim.now() < 24 * 60 * kMinute) {
        sim.run_until(sim.now() + kMinute);
        const u64 minute = sim.now() / kMinute;
        ASSERT_EQ(ev.virtual_time(), weighted_average(sim.tasks())) << "at minute " << minute;
        // |sum_wv| < W after every re-anchoring, plus what the charges of
        // one round (3 slices) add.
        const i64 bound = static_cast<i64>(ev.total_weight()) + 3 * static_cast<i64>(kSlice << 16);
        ASSERT_LT(std::abs(ev.sum_wv()), bound) << "at minute " << minute;
        for (usize i = 0; i < n; i++) {
            const SimTask& s = *sim.tasks()[i];
            // No starvation: every minute, at least half the fluid service
            // less two slices (a nice 19 task's is 6 to 9 slices a minute).
            const double got = static_cast<double>(s.t.ran) - ran_m[i], want = s.ideal - ideal_m[i];
            EXPECT_GE(got, 0.5 * want - 2 * kS) << "task " << i << " nice " << s.nice << " minute " << minute;
            if (want > 4 * kS) worst_minute = std::min(worst_minute, got / want);
        }
        mark(ran_m, ideal_m);
        if (minute % 60 != 0) continue;
        // Every hour: within 5% (plus 10 slices) of the fluid service. The
        // worst, 4.2%, is the nice 19 task in hour 1: while the sleeper
        // sleeps the three others have a hart each (lags are cleared), while
        // it is awake (3 s = 30 slices) nice 19's fluid share is 1.3 slices
        // and it gets 1 or 2 whole ones, the excess forgiven at the next
        // clearing.
        for (usize i = 0; i < n; i++) {
            const SimTask& s = *sim.tasks()[i];
            const double got = static_cast<double>(s.t.ran) - ran_h[i], want = s.ideal - ideal_h[i];
            EXPECT_NEAR(got, want, 0.05 * want + 10 * kS)
                << "task " << i << " nice " << s.nice << " hour " << minute / 60;
            if (want > 0) worst_hour = std::max(worst_hour, std::fabs(got / want - 1));
        }
        mark(ran_h, ideal_h);
    }
    std::printf("worst minute got/fluid %.3f, worst hour |got/fluid - 1| %.4f\n", worst_minute, worst_hour);
}

namespace {

// A member's lag in time units: (V - v) * eweight, V counting it.
double time_lag(const Eevdf& ev, const Entity& e) {
    const i64 lag = (ev.virtual_time() - e.eevdf.vruntime) * static_cast<i64>(e.eevdf.eweight);
    return static_cast<double>(lag) / static_cast<double>(i64{1} << 16);
}

// Two cpus, nice 0 tasks a and b and `heavy` at the given nice: all three
// run for 350 units in turns of 50 (every cpu charged, put back, picks
// again), then the task `who` runs 30 more alone, so it is ahead of V.
struct CappedQueue {
    Eevdf ev;
    Task a, b, heavy;
    Time now = 0;

    explicit CappedQueue(int nice) : ev(config()) {
        ev.set_cpus(2);
        set_priority(a.e, WeightTable::Linux, nice_to_index(0));
        set_priority(b.e, WeightTable::Linux, nice_to_index(0));
        set_priority(heavy.e, WeightTable::Linux, nice_to_index(nice));
        for (Task* t : {&a, &b, &heavy}) ev.enqueue(t->e, 0);
        Entity* run[2] = {ev.pick(0, 0), ev.pick(1, 0)};
        for (int step = 0; step < 7; step++) {
            now += 50;
            for (Entity* e : run) ev.charge(*e, 50);
            for (Entity* e : run) ev.enqueue(*e, now);
            for (unsigned c = 0; c < 2; c++) run[c] = ev.pick(c, now);
        }
        running[0] = run[0];
        running[1] = run[1];
    }
    static PolicyConfig config() {
        PolicyConfig c;
        c.slice = 400;
        c.vshift = 16;
        c.sleep_decay = false;  // a rejoin is placed by the lag it left with
        return c;
    }
    // `who` (running) runs 30 more while the other cpu runs 5.
    void run_ahead(Task& who) {
        ASSERT_TRUE(running[0] == &who.e || running[1] == &who.e);
        Entity* other = running[0] == &who.e ? running[1] : running[0];
        now += 30;
        ev.charge(who.e, 30);
        ev.charge(*other, 5);
    }
    Entity* running[2] = {};
};

}  // namespace

// Issue 23 finding 2 named placement's lag inflation, (W + w) / W with the
// newcomer's full weight, which readjust() may cap right after the join.
// The rule that makes it exact: a task leaves the sums with its lag
// rescaled to its full weight, joins at its full weight with that lag (the
// others, whose lags summed to 0, now sum to -lag: each gives its part by
// its effective weight, as on one cpu), and every change of effective
// weight (the cap) keeps a member's lag in time units and moves no one
// else's. So a capped task that stops and rejoins keeps its lag in time
// units (within the rounding of the saved lag: weight / 2^16 units),
// whether the join caps it (heavy rejoins) or re-weights another member
// (b rejoins: heavy goes from the settled 1024 back to a cap of 2048).
TEST(SchedSmpEevdf, ARejoinKeepsItsLagThroughTheWeightCap) {
    // Rejoins `who` and checks every lag: who's as it left, the others' less
    // their part of it.
    auto rejoin = [](CappedQueue& q, Task& who, const char* what) {
        const double lag = time_lag(q.ev, who.e);
        ASSERT_GT(lag < 0 ? -lag : lag, 2.0) << what;
        q.ev.stop(who.e);
        std::vector<Task*> others;
        for (Task* t : {&q.a, &q.b, &q.heavy})
            if (t != &who) others.push_back(t);
        double w = 0;
        for (Task* t : others) w += t->e.eevdf.eweight;
        std::vector<double> want;
        for (Task* t : others) want.push_back(time_lag(q.ev, t->e) - lag * t->e.eevdf.eweight / w);
        q.ev.enqueue(who.e, q.now);
        EXPECT_EQ(q.heavy.e.eevdf.eweight, 2048u) << what;
        EXPECT_NEAR(time_lag(q.ev, who.e), lag, 1.5) << what;
        for (usize i = 0; i < others.size(); i++) EXPECT_NEAR(time_lag(q.ev, others[i]->e), want[i], 1.5) << what;
    };
    for (int nice : {-20, -10}) {
        CappedQueue q(nice);
        ASSERT_EQ(q.heavy.e.eevdf.eweight, 2048u) << "capped at what a and b give one cpu";
        q.run_ahead(q.heavy);
        rejoin(q, q.heavy, nice == -20 ? "nice -20 rejoins" : "nice -10 rejoins");
    }
    CappedQueue q(-20);
    Task& light = q.running[0] == &q.a.e || q.running[1] == &q.a.e ? q.a : q.b;
    q.run_ahead(light);
    rejoin(q, light, "a nice 0 task rejoins beside a settled nice -20");
}
