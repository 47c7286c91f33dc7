// tests/host/sched_protocol_test.cc - EEVDF driven on the kernel's protocol
// (kernel/proc/sched.cc, runqueue.cc) in continuous time, one hart.
//
// The kernel charges a running process when it gives up the hart and, since
// the fix of issue 23 finding 1, also before a wake-up is placed and at a
// timer tick (Linux's update_curr() before place_entity()). KernelHart below
// replays exactly those calls: pick, run until the slice ends (slice end =
// pick + slice, timer_new_slice), a wake-up = [charge the current task up to
// now] + enqueue + preempts(woken, current) -> charge, put back, pick.
// Without the charge at wake-up the woken task is placed against a V that
// leaves out the running task's time since its pick, so a sleeper is
// credited with its sleep: one hog + one sleeper got 0.5000 of the CPU for
// every run/sleep pattern below; the fluid shares are r / (2r + s).
#include <gtest/gtest.h>

#include "lib/sched/eevdf.h"
#include "tests/host/sched_test_util.h"

using namespace qt;

namespace {

struct Sleeper {
    Task t;
    Time run = 0, sleep = 0;  // CPU per burst, sleep after it
    Time left = 0;            // CPU left in the current burst
    Time wake_at = 0;         // when asleep
    bool asleep = false;
};

// One hart on the kernel's protocol. charge_at_wake selects the fixed
// protocol (true) or the one before the fix (false).
class KernelHart {
  public:
    KernelHart(Policy& p, Time slice, bool charge_at_wake) : p_(p), slice_(slice), charge_at_wake_(charge_at_wake) {}

    void start(std::vector<Task*> hogs, Sleeper& s) {
        for (Task* h : hogs) p_.enqueue(h->e, 0);
        s_ = &s;
        s.left = s.run;
        p_.enqueue(s.t.e, 0);
        dispatch(0);
    }

    // Runs until `end`; returns the sleeper's CPU time.
    void run_until(Time end) {
        while (now_ < end) {
            Time next = slice_end_;
            const bool s_runs = cur_ == &s_->t.e;
            if (s_runs && charged_ + s_->left < next) next = charged_ + s_->left;
            if (s_->asleep && s_->wake_at < next) next = s_->wake_at;
            now_ = next;
            if (s_runs && now_ == charged_ + s_->left) {
                charge();
                p_.stop(*cur_);
                s_->asleep = true;
                s_->wake_at = now_ + s_->sleep;
                dispatch(now_);
            } else if (s_->asleep && now_ == s_->wake_at) {
                wake();
            } else {
                put_back();
                dispatch(now_);
            }
        }
    }

  private:
    void charge() {
        const Time ran = now_ - charged_;
        if (ran == 0) return;
        p_.charge(*cur_, ran);
        task_of(cur_).ran += ran;
        if (cur_ == &s_->t.e) s_->left -= ran;
        charged_ = now_;
    }
    void put_back() {
        charge();
        p_.enqueue(*cur_, now_);
    }
    void dispatch(Time now) {
        cur_ = p_.pick(0, now);
        ASSERT_NE(cur_, nullptr);
        pick_ = charged_ = now;
        slice_end_ = now + slice_;
    }
    void wake() {
        s_->asleep = false;
        s_->left = s_->run;
        if (charge_at_wake_) charge();
        p_.enqueue(s_->t.e, now_);
        if (p_.preempts(s_->t.e, *cur_)) {
            put_back();
            dispatch(now_);
        }
    }

    Policy& p_;
    Time slice_;
    bool charge_at_wake_;
    Sleeper* s_ = nullptr;
    Entity* cur_ = nullptr;
    Time now_ = 0, pick_ = 0, charged_ = 0, slice_end_ = 0;
};

double sleeper_share(Time run, Time sleep, bool charge_at_wake) {
    PolicyConfig c;
    c.slice = 400;
    c.vshift = 16;
    Eevdf eevdf(c);
    Task hog;
    hog.e.owner = &hog;
    Sleeper s;
    s.t.e.owner = &s.t;
    s.run = run;
    s.sleep = sleep;
    KernelHart hart(eevdf, 400, charge_at_wake);
    hart.start({&hog}, s);
    constexpr Time kEnd = 4'000'000;
    hart.run_until(kEnd);
    return static_cast<double>(s.t.ran) / static_cast<double>(s.t.ran + hog.ran);
}

struct Case {
    Time run, sleep;
    double fluid;
};

TEST(SchedProtocol, SleeperGetsFluidShareWhenChargedAtWake) {
    for (Case k : {Case{300, 100, 3.0 / 7}, Case{100, 100, 1.0 / 3}, Case{200, 50, 4.0 / 9}}) {
        EXPECT_NEAR(sleeper_share(k.run, k.sleep, true), k.fluid, 0.002) << k.run << "/" << k.sleep;
    }
}

// The protocol before the fix: the same harness without the wake-up charge
// credits the sleeper (documents what the charge repairs).
TEST(SchedProtocol, WithoutChargeAtWakeSleeperIsCreditedItsSleep) {
    for (Case k : {Case{300, 100, 3.0 / 7}, Case{100, 100, 1.0 / 3}, Case{200, 50, 4.0 / 9}}) {
        EXPECT_GT(sleeper_share(k.run, k.sleep, false), k.fluid + 0.03) << k.run << "/" << k.sleep;
    }
}

}  // namespace

// Issue 23: a running task that has run ahead of V (ineligible once charged)
// yields to an eligible woken task even when its own deadline is earlier
// (Linux's pick_eevdf drops an ineligible curr); before, preempts() compared
// deadlines only and the woken task waited out the slice.
TEST(SchedProtocol, IneligibleRunningTaskIsPreemptedAtWake) {
    PolicyConfig c;
    c.slice = 400;
    c.vshift = 16;
    Eevdf eevdf(c);
    auto t = make_tasks(3);
    eevdf.enqueue(t[0]->e, 0);
    eevdf.enqueue(t[1]->e, 0);
    Entity* a = eevdf.pick(0, 0);
    eevdf.charge(*a, 300);  // the kernel's charge at the wake-up
    ASSERT_FALSE(eevdf.eligible(*a));
    eevdf.enqueue(t[2]->e, 300);  // new: lag 0, eligible, deadline V + slice
    ASSERT_TRUE(eevdf.eligible(t[2]->e));
    ASSERT_GE(t[2]->e.deadline, a->deadline);  // deadlines alone say no
    EXPECT_TRUE(eevdf.preempts(t[2]->e, *a));
}

// At a tick: the running task past its request (deadline renewed, so later
// than the queued one's) and ineligible yields to the eligible queued task.
TEST(SchedProtocol, IneligibleRunningTaskIsPreemptedAtTick) {
    PolicyConfig c;
    c.slice = 400;
    c.vshift = 16;
    Eevdf eevdf(c);
    auto t = make_tasks(2);
    eevdf.enqueue(t[0]->e, 0);
    eevdf.enqueue(t[1]->e, 0);
    Entity* a = eevdf.pick(0, 0);
    eevdf.charge(*a, 100);
    EXPECT_FALSE(eevdf.preempts_current(*a));  // b's deadline is not earlier
    eevdf.charge(*a, 350);                     // past its request: renewed
    EXPECT_TRUE(eevdf.preempts_current(*a));
}
