// tests/host/sched_runqueues_threads_test.cc - the run-queue core's races,
// with real threads: each std::thread plays a hart (its pick, charge, put
// back or stop, balance, drain) or a waker, on the core's concurrent
// protocol (relaxed atomics, the lock-free wake list, spin locks per
// queue). A task's own mutex stands for the kernel's p->lock: held by a
// waker around wake(), by a hart from the charge to the put-back or stop,
// and around set_affinity, as the kernel holds it.
//
// What must hold however the threads interleave: no task runs on two harts
// at once, every wake-up is picked exactly once (none lost on a wake list,
// none doubled), and when the threads stop every queue's counts (nr, load)
// and its policy's size match the tasks on it.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "tests/host/sched_rq_env.h"

using namespace qt;

namespace {

class Spin {
  public:
    void acquire() {
        while (f_.exchange(true, std::memory_order_acquire)) std::this_thread::yield();
    }
    void release() { f_.store(false, std::memory_order_release); }

  private:
    std::atomic<bool> f_{false};
};

thread_local int t_hart = -1;  // the hart this thread plays (-1: a waker)

struct ThreadEnv {
    using Policy = q::sched::Policy;
    using Lock = Spin;
    static constexpr bool kConcurrent = true;
    static constexpr unsigned kMaxCpus = 4;
    static constexpr int kPerCpu = 1;

    std::atomic<Time> clock{1};
    std::atomic<bool> need[kMaxCpus] = {};
    std::atomic<int> ipis[kMaxCpus] = {};
    std::atomic<u64> moves{0};

    Time now() { return clock.fetch_add(1, std::memory_order_relaxed); }
    int this_cpu() const { return t_hart; }
    bool idle(unsigned) const { return false; }  // the harts never sleep: they spin
    bool resched_pending(unsigned c) const { return need[c].load(std::memory_order_relaxed); }
    void ipi(unsigned c) { ipis[c].fetch_add(1, std::memory_order_relaxed); }
    void resched(unsigned c) {
        need[c].store(true, std::memory_order_relaxed);
        ipi(c);
    }
    void on_wake(RqTask&, unsigned, bool) {}
    void on_enqueue(RqTask&, unsigned, u32) {}
    void on_pick(RqTask&, unsigned, u32) {}
    void on_migrate(RqTask&, unsigned, unsigned, MoveReason) { moves.fetch_add(1, std::memory_order_relaxed); }
};

struct TTask {
    RqTask rq;
    std::mutex plock;                   // the kernel's p->lock
    std::atomic<bool> runnable{false};  // woken and not stopped since
    std::atomic<bool> on_hart{false};   // picked and not put back or stopped
    std::atomic<u64> picks{0}, wakes{0};
};

using TBox = RqBox<ThreadEnv>;

std::vector<std::unique_ptr<TTask>> make_ttasks(int n) {
    std::vector<std::unique_ptr<TTask>> v;
    for (int i = 0; i < n; i++) {
        v.push_back(std::make_unique<TTask>());
        v.back()->rq.se.owner = v.back().get();
        set_priority(v.back()->rq.se, WeightTable::Linux, nice_to_index(i % 7 - 3));
    }
    return v;
}

TTask& ttask(RqTask* t) { return *static_cast<TTask*>(t->se.owner); }

// One hart's loop: drain, balance, pick, run, charge, then put back or (with
// probability sleep_pct %) stop. Returns when `stop` is set.
void hart_loop(TBox& b, unsigned c, std::atomic<bool>& stop, int sleep_pct, std::atomic<int>& failures) {
    t_hart = static_cast<int>(c);
    ThreadEnv& env = b.rq.env();
    std::mt19937 rng(c * 7919 + 1);
    while (!stop.load(std::memory_order_relaxed)) {
        env.need[c].store(false, std::memory_order_relaxed);
        b.rq.drain(c);
        b.rq.balance(c, env.now());
        RqTask* t = b.rq.pick(c);
        if (!t) {
            std::this_thread::yield();
            continue;
        }
        TTask& x = ttask(t);
        x.picks.fetch_add(1, std::memory_order_relaxed);
        if (x.on_hart.exchange(true)) failures++;  // runs on another hart too
        for (int k = static_cast<int>(rng() % 50); k > 0; k--) {
            if (k % 16 == 0) b.rq.tick(c, env.now());
        }
        std::lock_guard<std::mutex> g(x.plock);
        b.rq.charge(*t, env.now());
        x.on_hart.store(false);
        if (static_cast<int>(rng() % 100) < sleep_pct) {
            b.rq.stop(*t, env.now());
            x.runnable.store(false, std::memory_order_release);
        } else {
            b.rq.put_back(*t, env.now());
        }
    }
}

// Wakes every stopped task, again and again, from no hart (every wake-up of
// a per-cpu queue then goes through a wake list); sometimes changes a
// task's affinity. Until `stop`.
void waker_loop(TBox& b, std::vector<std::unique_ptr<TTask>>& tasks, std::atomic<bool>& stop, unsigned seed,
                bool affinity) {
    t_hart = -1;
    ThreadEnv& env = b.rq.env();
    std::mt19937 rng(seed);
    while (!stop.load(std::memory_order_relaxed)) {
        TTask& x = *tasks[rng() % tasks.size()];
        std::lock_guard<std::mutex> g(x.plock);
        if (affinity && rng() % 8 == 0) {
            const CpuMask m = rng() % 2 ? kAllCpus : CpuMask{1} << (rng() % b.rq.ncpus());
            EXPECT_TRUE(b.rq.set_affinity(x.rq, m, env.now()));
        }
        if (x.runnable.load(std::memory_order_acquire)) continue;
        x.runnable.store(true, std::memory_order_relaxed);
        x.wakes.fetch_add(1, std::memory_order_relaxed);
        b.rq.wake(x.rq, env.now(), true);
    }
}

// Until the tasks' counters (wakes or picks) add up to n, or 60 s passed
// (the check after it then fails): counts, not time, so a busy host only
// makes it slower.
void wait_for(std::vector<std::unique_ptr<TTask>>& tasks, std::atomic<u64> TTask::*counter, u64 n) {
    for (int i = 0; i < 60000; i++) {
        u64 sum = 0;
        for (auto& t : tasks) sum += ((*t).*counter).load(std::memory_order_relaxed);
        if (sum >= n) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

// After the threads stopped: the harts drain their wake lists; then every
// queue's counts and policy size are those of the tasks on it, and every
// task that is runnable is counted on exactly one queue.
void check_counts(TBox& b, std::vector<std::unique_ptr<TTask>>& tasks) {
    for (unsigned c = 0; c < b.rq.ncpus(); c++) {
        t_hart = static_cast<int>(c);
        b.rq.drain(c);
    }
    for (unsigned i = 0; i < b.rq.queues(); i++) {
        u32 nr = 0, queued = 0;
        u64 load = 0;
        for (auto& t : tasks) {
            if (!t->rq.counted || t->rq.queue != static_cast<i32>(i)) continue;
            nr++;
            load += t->rq.se.weight;
            queued += t->rq.se.queued;
        }
        EXPECT_EQ(b.rq.nr(i), nr) << "queue " << i;
        EXPECT_EQ(b.rq.load(i), load) << "queue " << i;
        EXPECT_EQ(b.rq.policy(i).size(), queued) << "queue " << i;
    }
    for (auto& t : tasks) EXPECT_EQ(t->rq.counted, t->runnable.load()) << "a task counted iff runnable";
}

}  // namespace

// Several wakers hand tasks to one hart through its wake list while it
// drains, picks and stops them: every wake-up is picked once.
TEST(SchedRunQueuesThreads, WakeListHandOffLosesNothing) {
    for (PolicyKind k : {PolicyKind::EEVDF, PolicyKind::RR}) {
        TBox b(k, true, 2, 50);
        auto tasks = make_ttasks(24);
        for (auto& t : tasks) t->rq.affinity = CpuMask{1} << 1;  // only hart 1: every wake-up is remote
        std::atomic<bool> hart_stop{false}, wakers_stop{false};
        std::atomic<int> failures{0};
        std::thread hart(hart_loop, std::ref(b), 1u, std::ref(hart_stop), 100, std::ref(failures));
        std::vector<std::thread> wakers;
        for (unsigned w = 0; w < 3; w++)
            wakers.emplace_back(waker_loop, std::ref(b), std::ref(tasks), std::ref(wakers_stop), w + 1, false);
        wait_for(tasks, &TTask::wakes, 3000);
        wakers_stop = true;
        for (auto& w : wakers) w.join();
        // Let the hart finish what was woken (everything is picked once), or
        // give up after 10 s.
        for (int i = 0; i < 10000; i++) {
            u64 woken = 0, picked = 0;
            for (auto& t : tasks) {
                woken += t->wakes;
                picked += t->picks;
            }
            if (woken == picked) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        hart_stop = true;
        hart.join();
        u64 woken = 0, picked = 0;
        for (auto& t : tasks) {
            woken += t->wakes;
            picked += t->picks;
            EXPECT_EQ(t->wakes.load(), t->picks.load());
        }
        EXPECT_GE(woken, 3000u) << policy_name(k);
        EXPECT_EQ(woken, picked) << policy_name(k);
        EXPECT_EQ(failures.load(), 0);
        check_counts(b, tasks);
    }
}

// Four harts pick, run, put back and stop while two threads wake and
// change affinities: stealing, pulling, balancing and migrating under the
// queue locks race with remote wake-ups; no task ever runs twice at once
// and the counts add up when it stops.
TEST(SchedRunQueuesThreads, ConcurrentHartsWakersAndMovesKeepCounts) {
    for (PolicyKind k : {PolicyKind::EEVDF, PolicyKind::RR}) {
        TBox b(k, true, 4, 40);
        auto tasks = make_ttasks(40);
        std::atomic<bool> stop{false};
        std::atomic<int> failures{0};
        std::vector<std::thread> threads;
        for (unsigned c = 0; c < 4; c++)
            threads.emplace_back(hart_loop, std::ref(b), c, std::ref(stop), 30, std::ref(failures));
        for (unsigned w = 0; w < 2; w++)
            threads.emplace_back(waker_loop, std::ref(b), std::ref(tasks), std::ref(stop), 100 + w, true);
        wait_for(tasks, &TTask::picks, 20000);
        stop = true;
        for (auto& t : threads) t.join();
        u64 picks = 0;
        for (auto& t : tasks) picks += t->picks;
        EXPECT_GE(picks, 20000u) << policy_name(k);
        EXPECT_GT(b.rq.env().moves.load(), 0u) << policy_name(k);
        EXPECT_EQ(failures.load(), 0) << policy_name(k);
        check_counts(b, tasks);
    }
}
