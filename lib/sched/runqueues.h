// lib/sched/runqueues.h - the run-queue core: one implementation of the
// run queues, driven by the kernel (kernel/proc/runqueue.cc) and by schedsim
// (sim/sim.cc) on the same protocol, so what the simulator predicts is what
// the kernel decides.
//
// RunQueues<Env> holds one queue (single mode: every hart shares it, xv6's
// design, OSTEP's SQMS) or one per hart (percpu: OSTEP's MQMS), each with
// its lock and one policy instance (lib/sched/policy.h) supplied by the
// owner (attach). Everything the two worlds do differently goes through
// Env, one small seam:
//   Env::Policy   the policy type (the kernel's virtual Policy, or schedsim's
//                 concrete final class, so its calls are direct)
//   Env::Lock     acquire()/release() (the kernel's counted spinlock; a no-op
//                 in the sequential simulator; a real lock in host tests)
//   Env::kConcurrent  harts run in parallel: counters read by other harts
//                 use relaxed atomics, the wake list compare-and-swap
//   Env::kMaxCpus size of the per-hart arrays
//   Env::kPerCpu  -1: the mode is chosen at init; 0/1: fixed (schedsim
//                 instantiates each, so the single queue's calls test nothing)
//   now(), this_cpu() (-1: no hart, an event of the simulator), idle(c)
//   (hart c sleeps until an IPI), resched_pending(c), ipi(c), resched(c)
//   (make hart c reschedule: need_resched + IPI), and trace hooks on_wake,
//   on_enqueue, on_pick, on_migrate.
// Each task embeds an RqTask (its policy Entity plus the core's per-task
// state); Entity::owner points at the embedding object, not at the RqTask.
//
// Protocol (the caller's side; kernel/proc/sched.cc, sim/sim.cc):
//   wake(t, now, woken)  t became runnable (new, or woken if `woken`): place
//                 it, queue it, and wake or preempt a hart for it;
//   pick(cpu)     next task for hart cpu, removed from its queue (percpu:
//                 after draining the wake list, stealing if the queue is
//                 empty, and pulling a better woken lead); records the pick
//                 time in charged_until and when its turn ends in turn_end
//                 (the caller's timer ends it then): a slice from the pick,
//                 or the rest of the turn a preemption interrupted;
//   charge(t, end) charge t (running) up to `end` for what was not charged;
//   put_back(t, now) t (running, charged, still runnable) goes back;
//                 put_back(t, now, Yielded::Yes): it gave the hart up
//                 itself (sched_yield), see Turns;
//   stop(t, now)  t (running, charged) is not runnable any more;
//   tick(cpu, now) a timer interrupt: charge what runs on cpu; true if it
//                 should yield (Policy::preempts_current);
//   balance(cpu, now) percpu, before a pick: periodic balancing when due;
//   drain(cpu)    percpu: queue what other harts woke for cpu (its IPI);
//                 true if one should preempt what runs there (the caller
//                 reschedules).
// The running tasks are charged up to now before a wake-up is placed on
// their queue (the target hart's, or every hart's on one shared queue), at
// every tick, and before a pull compares leads, so a placement or a
// comparison never sees a virtual time that leaves out a current run
// (Linux: update_curr() before place_entity(); issue 23 finding 1).
//
// Turns: a pick gives a task a turn of one slice, which the caller's timer
// ends (the kernel's slice timer, schedsim's slice end). A task put back
// before its turn ended (preempted by a woken task, at a tick, or asked to
// reschedule) keeps the rest, and its next pick gives it that rest, not a
// fresh slice; a task that stops starts its next turn whole. So a
// preemption never lengthens a task's run between two turn ends (it did: a
// hog preempted after 246 us and picked again ran 759 us more, and an
// interactive task woken behind it waited for all of it). A task that
// yields (sched_yield) gives up the rest of its turn and the policy may
// move it back (Policy::yield: EEVDF forfeits the rest of its request).
//
// Remote wake-ups (percpu): a task woken for another hart's queue is pushed
// on that hart's wake list (a lock-free stack) and the hart gets an IPI; it
// queues the list itself under its own lock (drain) and decides there
// whether the woken task preempts what it runs. A wake-up never takes
// another hart's queue lock (Linux: the ttwu wake list); only stealing,
// pulling and balancing do. On the list a task is counted in the queue's
// load (placement sees it) but not queued: nothing moves it.
//
// Placement (percpu, lib/sched/balance.h select_cpu): the previous hart if
// its queue is empty, else an empty queue, else, for a synchronous wake-up
// (its waker sleeps soon: a pipe write), the waker's hart if the waker runs
// there with nothing the woken task does not outweigh (queued behind the
// waker, not preempting it), else a hart whose running task
// the woken one would preempt there (Policy::preempts_on) or has had less
// of its runnable time than a lone or long runnable task there (outserved:
// that task forfeits the rest of its request), else the previous
// one if the task stopped there within a slice and it is not more than its
// weight heavier than the lightest, else the least loaded. The same test
// at a pick (forfeit_pick): a task runnable a slice or more that the
// policy picks while a task woken within a slice waits on its queue, one
// it outserved, forfeits its request and the pick is made again (a queue's
// virtual time is its own: a hog that ran alone ran up no debt there, and
// is picked whenever heavier tasks have run a hair ahead). Single mode: an
// idle hart is woken for it, else the first hart whose running task it
// preempts (and is not already asked to reschedule) reschedules.
// Movement (percpu; runqueues_move.h): an empty queue steals the most
// behind waiting task of the queue with the most waiting; before every pick
// a hart pulls another queue's lead if it is a woken task not run since,
// waiting behind a task it did not preempt, that beats its own lead, else
// a task woken within a slice waiting elsewhere that weighs at least twice
// its own lead (pull_heavy; a hart running a task that light is made to
// pick when such a task is woken or put back behind another); every
// two slices (staggered) a hart balances (PullChooser). Steal and balance
// look at no more than kScan tasks of a queue, round-robin over its member
// list (Linux bounds its scan at nr_migrate, 32). Balancing counts only
// tasks runnable for a slice or more ("settled"): a short-lived waker would
// otherwise make its queue look heavy for an instant and pull a task away.
// "Fresh" tasks (woken less than a slice ago) are kept on a per-queue list
// that the owning hart expires, in wake order, at its picks and ticks.
//
// Locks: a queue's lock guards its policy, lists and per-task fields of its
// tasks; two queue locks are taken in index order. A task's queue
// (RqTask::queue) changes only under the old and the new queue's locks, or,
// while the task is in no queue, by its waker (the kernel holds the task's
// own lock then); lock_queue_of re-checks after locking. load, nr,
// fresh_load, waking and the per-hart current task are read without locks
// by other harts as hints; every decision taken on a hint is re-checked
// under the locks before it acts, and a stale one costs at most a needless
// or missed move. Placement also asks other queues' policies for a hint
// (preempts_on) without their locks, so switch_policy never builds a new
// policy over one such a hint may still be calling (hint_readers_). Invariants: a task is counted (load, nr) on exactly
// one queue from wake() to stop(); it is linked (members, levels) there unless it is on the wake list; se.queued iff it
// is in that queue's policy; a running task is in no policy queue but stays counted.
#pragma once

#include "lib/list.h"
#include "lib/sched/balance.h"
#include "lib/sched/levels.h"
#include "lib/sched/rq_task.h"
#include "lib/sched/weights.h"

namespace q::sched {

struct RqConfig {
    bool percpu = true;
    unsigned ncpus = 1;
    Time slice = 1;
    WeightTable table = WeightTable::Linux;  // the weights tasks have, by level
    // Charge the running tasks before a wake-up is placed (the protocol). Off
    // only to reproduce what came before issue 23 finding 1's fix: the seed
    // harness (schedsim --model seed) and the protocol tests' "before".
    bool charge_at_wake = true;
    // A synchronous wake-up may queue the woken task behind its waker
    // (wake(..., waker); lib/sched/balance.h select_cpu). Off: the
    // measurements' "before" (docs/benchmarks.md).
    bool sync_wakes = true;
    // percpu, a policy whose yield forfeits (EEVDF): a long runnable task
    // picked beside a woken task it outserved forfeits its request
    // (RunQueues::forfeit_pick). Off: the measurements' "before".
    bool pick_forfeit = true;
};

template <class Env>
class RunQueues {
  public:
    using P = typename Env::Policy;
    using Lock = typename Env::Lock;
    static constexpr unsigned kMax = Env::kMaxCpus;
    static constexpr unsigned kScan = 16;
    static_assert(kMax <= kMaxCpus);

    constexpr RunQueues() = default;
    RunQueues(const RunQueues&) = delete;
    RunQueues& operator=(const RunQueues&) = delete;

    void init(const RqConfig& c);
    // The policy instance of queue i (before use, or by switch_policy).
    void attach(unsigned i, P* p) { q_[i].policy = p; }
    Env& env() { return env_; }
    const Env& env() const { return env_; }

    bool percpu() const {
        if constexpr (Env::kPerCpu >= 0) return Env::kPerCpu != 0;
        return percpu_;
    }
    unsigned ncpus() const { return ncpus_; }
    unsigned queues() const { return percpu() ? ncpus_ : 1; }
    Time slice() const { return slice_; }
    P& policy(unsigned i) { return *q_[i].policy; }
    const P& policy(unsigned i) const { return *q_[i].policy; }
    Lock& lock(unsigned i) { return q_[i].lock; }
    u64 load(unsigned i) const { return ld(loads_[i].load); }
    u32 nr(unsigned i) const { return ld(loads_[i].nr); }
    RqTask* current(unsigned cpu) const { return ld(cur_[cpu]); }
    // Queue index of t (0 in single mode, and for a task never placed).
    unsigned queue_of(const RqTask& t) const {
        const i32 i = ld(t.queue);
        return percpu() && i >= 0 ? static_cast<unsigned>(i) : 0;
    }

    // The calls made at every pick are inlined into their caller (one
    // caller each in the kernel; schedsim's loop runs them per core-tick).
    // waker: the hart of a synchronous waker (one that sleeps soon: a pipe
    // write), else -1 (see sync_cpu).
    int wake(RqTask& t, Time now, bool woken, int waker = -1);
    bool drain(unsigned cpu) {
        if (!percpu() || !ld(q_[cpu].wake_list)) return false;
        return drain_list(cpu);
    }
    // pick(cpu): the time is read from Env before stealing and again under
    // the queue's lock (the pick time); pick(cpu, now): both are `now`.
    RqTask* pick(unsigned cpu) { return pick(cpu, env_.now(), true); }
    [[gnu::always_inline]] RqTask* pick(unsigned cpu, Time now, bool reread = false);
    [[gnu::always_inline]] void charge(RqTask& t, Time end) {
        TaskGuard g(*this, t);
        charge_to(t, end);
    }
    enum class Yielded : bool { No, Yes };
    [[gnu::always_inline]] void put_back(RqTask& t, Time now, Yielded yielded = Yielded::No);
    [[gnu::always_inline]] void stop(RqTask& t, Time now);
    bool tick(unsigned cpu, Time now);
    // Due every two slices, and at the next tick after a reweight anywhere
    // (a renice changes the loads at once; waiting up to two slices let a
    // task flipping nice -20 / 19 every 7 ticks keep a hart to itself).
    // Sequential (schedsim): set_weight makes every hart's balance due
    // instead of counting reweights, so a pick that is not due compares
    // one time.
    void balance(unsigned cpu, Time now) {
        if (!percpu()) return;
        Queue& q = q_[cpu];
        if constexpr (Env::kConcurrent) {
            const u64 rw = ld(reweights_);
            if (now < q.next_balance && rw == q.reweights_seen) return;
            q.reweights_seen = rw;
        } else {
            if (now < q.next_balance) return;
        }
        if (ncpus_ < 2) return;
        q.next_balance = now + 2 * slice_;
        if constexpr (!Env::kConcurrent) {
            if (quiet_[cpu].version == version_ && now < quiet_[cpu].until) return;
        }
        balance_due(cpu, now);
    }
    bool set_affinity(RqTask& t, CpuMask mask, Time now);
    void set_weight(RqTask& t, u32 weight, u8 level);
    // f(policy, queue index) under the lock of t's queue (policy reads and
    // knobs).
    template <class F>
    decltype(auto) with_policy_of(RqTask& t, F f) {
        TaskGuard g(*this, t);
        return f(policy(g.index()), g.index());
    }
    // Every queue moves to the policy make(i) returns (P*), built after the
    // old one is drained, in storage other than the current policy's (which
    // a lockless hint may still be reading; the one before it is free);
    // queued tasks move into it, every task starts afresh there
    // (each_task(f) calls f(RqTask&) for every task that exists). All queue
    // locks held.
    template <class Make, class EachTask>
    void switch_policy(Make make, Time now, EachTask each_task);

  private:
    struct Queue {
        Lock lock{};
        P* policy = nullptr;
        RqTask* wake_list = nullptr;  // remote wake-ups, newest first (lock-free)
        u64 fresh_load = 0;           // weights of tasks woken less than a slice ago
        u32 waking = 0;               // queued woken tasks not picked since (waking_in/out)
        Time next_balance = 0;        // private to the owning hart
        u64 reweights_seen = 0;       // reweights_ at its last balance; private too
        List<RqTask, &RqTask::member> members;
        List<RqTask, &RqTask::fresh> fresh;  // in wake order
        u32 nmembers = 0;
        RqTask* cursor = nullptr;        // next member to scan (null: the first)
        u32 levels[kLevels] = {};        // members per level
        u64 level_bits = 0;              // levels with members
        u32 min_weight = 0;              // the lightest member's weight (0: none)
        u32 fresh_levels[kLevels] = {};  // fresh-list tasks per level
        u64 fresh_level_bits = 0;        // levels with fresh-list tasks
        u32 max_fresh_weight = 0;        // the heaviest fresh-list task's weight (0: none)
    };

    // RAII: one queue's lock.
    class Guard {
      public:
        Guard(RunQueues& r, unsigned i) : r_(r), i_(i) { r_.q_[i].lock.acquire(); }
        ~Guard() { r_.q_[i_].lock.release(); }
        Guard(const Guard&) = delete;
        Guard& operator=(const Guard&) = delete;

      private:
        RunQueues& r_;
        unsigned i_;
    };
    // RAII: the lock of the queue t is on (lock_queue_of).
    class TaskGuard {
      public:
        TaskGuard(RunQueues& r, const RqTask& t) : r_(r), i_(r.lock_queue_of(t)) {}
        ~TaskGuard() { r_.q_[i_].lock.release(); }
        TaskGuard(const TaskGuard&) = delete;
        TaskGuard& operator=(const TaskGuard&) = delete;
        unsigned index() const { return i_; }

      private:
        RunQueues& r_;
        unsigned i_;
    };
    // Two queues' locks in index order (one if a == b).
    class PairGuard {
      public:
        PairGuard(RunQueues& r, unsigned a, unsigned b) : r_(r), lo_(a < b ? a : b), hi_(a < b ? b : a) {
            r_.q_[lo_].lock.acquire();
            if (hi_ != lo_) r_.q_[hi_].lock.acquire();
        }
        ~PairGuard() {
            if (hi_ != lo_) r_.q_[hi_].lock.release();
            r_.q_[lo_].lock.release();
        }
        PairGuard(const PairGuard&) = delete;
        PairGuard& operator=(const PairGuard&) = delete;

      private:
        RunQueues& r_;
        unsigned lo_, hi_;
    };

    // Room for every queue's QueueLoad, left uninitialised (callers fill the
    // first ncpus_).
    union Loads {
        QueueLoad q[kMax];
        Loads() {}
    };

    // Relaxed atomics where harts run in parallel, plain accesses otherwise.
    template <class T>
    static T ld(const T& x) {
        if constexpr (Env::kConcurrent) return __atomic_load_n(&x, __ATOMIC_RELAXED);
        return x;
    }
    template <class T>
    static void st(T& x, T v) {
        if constexpr (Env::kConcurrent) {
            __atomic_store_n(&x, v, __ATOMIC_RELAXED);
        } else {
            x = v;
        }
    }
    template <class T>
    static void add(T& x, T v) {
        if constexpr (Env::kConcurrent) {
            __atomic_fetch_add(&x, v, __ATOMIC_RELAXED);
        } else {
            x += v;
        }
    }
    template <class T>
    static void sub(T& x, T v) {
        if constexpr (Env::kConcurrent) {
            __atomic_fetch_sub(&x, v, __ATOMIC_RELAXED);
        } else {
            x -= v;
        }
    }

    static RqTask& task_of(const Entity* e) {
        // The core sets nothing in Entity::owner; it finds the RqTask
        // around the entity (se is its first member).
        return *reinterpret_cast<RqTask*>(const_cast<Entity*>(e));
    }
    [[gnu::always_inline]] unsigned lock_queue_of(const RqTask& t);
    // The loads as select_cpu and steal_victim read them: in place when
    // nobody changes them concurrently, else a relaxed snapshot into buf.
    const QueueLoad* view(Loads& buf) const;
    // A change of loads, fresh loads, members or member weights (schedsim's
    // balance keeps a verdict only until one).
    void changed() {
        if constexpr (!Env::kConcurrent) version_++;
    }
    void waking_in(unsigned i);
    void waking_out(unsigned i);
    void fresh_changed(unsigned i);

    void count(unsigned i, RqTask& t, bool fresh);
    void uncount(unsigned i, RqTask& t);
    void link(unsigned i, RqTask& t);
    void unlink(unsigned i, RqTask& t);
    void level_in(Queue& q, u8 level);
    void level_out(Queue& q, u8 level);
    void fresh_in(unsigned i, RqTask& t);
    void fresh_out(unsigned i, RqTask& t);
    void fresh_level(Queue& q, u8 level, bool in);
    // The lightest and heaviest weights among levels `bits` (0, 0: none).
    struct Weights {
        u32 lightest = 0, heaviest = 0;
    };
    Weights weights_of(u64 bits) const;
    // Under queue i's lock: tasks runnable for a slice or more leave the
    // fresh list (in wake order; one migrated in out of order waits for
    // those before it).
    void expire(unsigned i, Time now) {
        const RqTask* t = q_[i].fresh.front();
        if (t && now - t->woke_at >= slice_) expire_list(i, now);
    }
    void expire_list(unsigned i, Time now);

    [[gnu::always_inline]] void charge_to(RqTask& t, Time end);
    void charge_current(int cpu, Time now);
    [[gnu::always_inline]] void set_current(unsigned cpu, RqTask* t);
    [[gnu::always_inline]] void clear_current(RqTask& t);
    // t (picked) is put back at `now`: what is left of its turn, if it was
    // preempted before the turn ended, is its next pick's turn.
    // (turn_left is 0 here: the pick took it.)
    static void suspend_turn(RqTask& t, Time now) {
        if (now < t.turn_end) t.turn_left = t.turn_end - now;
    }
    CpuMask preempt_mask(const RqTask& t, Time now);
    // Who to wake for a task just queued: hart (-1: nobody), and whether to
    // preempt what it runs (else it is idle: an IPI wakes it).
    struct Kick {
        int hart = -1;
        bool preempt = false;
    };
    int sync_cpu(const RqTask& t, int waker) const;
    Kick enqueue_woken(unsigned i, RqTask& t, unsigned target, Time now);
    void push_remote(RqTask& t, unsigned target);
    void kick(const RqTask& t, unsigned target, Kick k);
    void wake_thief(const RqTask& t, unsigned target);
    void kick_lighter(const RqTask& t, unsigned target);

    // runqueues_move.h
    bool migrate_locked(RqTask& t, unsigned src, unsigned dst, Time now, MoveReason why, bool forgive = false);
    bool try_migrate(RqTask& t, unsigned src, unsigned dst, Time now, MoveReason why);
    template <class F>
    void scan(unsigned i, F&& f);
    // Services compared in one scan: in the half-life epoch of `now`.
    u64 epoch(Time now) const { return now / half_life_; }
    static u64 service(const RqTask& t, u64 epoch) { return t.service.in_epoch(epoch); }
    bool outserved(const P& p, const RqTask& t, const RqTask& r, unsigned c, Time now, u32 joined = 0) const;
    bool served_more(const RqTask& r, Time since, const RqTask& t, Time now) const;
    Entity* forfeit_pick(unsigned i, RqTask& t, unsigned cpu, Time now);
    // ran / runnable in 1/2^16, at most 1 (0 for a task never runnable), so
    // a share times a weight (< 2^32) fits.
    static u64 share(u64 ran, u64 runnable) {
        if (ran >= runnable) return runnable == 0 ? 0 : u64{1} << 16;
        return (ran << 16) / runnable;
    }
    static void least_served(RqTask* const* seen, usize n, QueueLoad& l, u64 epoch);
    bool drain_list(unsigned cpu);
    void balance_due(unsigned self, Time now);
    void steal(unsigned cpu, Time now);
    // Before a pick (percpu): a woken task waiting elsewhere may be pulled.
    void pull(unsigned cpu, Time now) {
        const CpuMask others = ~(CpuMask{1} << cpu);
        if ((ld(waking_mask_) & others) && pull_lead(cpu, now)) return;
        if (ld(fresh_mask_) & others) pull_heavy(cpu, now);
    }
    bool pull_lead(unsigned cpu, Time now);
    bool heavy_waits_elsewhere(unsigned cpu, u32 weight) const;
    // Queue i has a task waiting, woken within a slice, that may outweigh
    // `weight` (hints: pull_heavy decides under the locks).
    bool heavy_fresh(unsigned i, u32 weight) const {
        return ld(loads_[i].nr) > ld(loads_[i].running) && outweighs(ld(q_[i].max_fresh_weight), weight);
    }
    void pull_heavy(unsigned cpu, Time now);
    bool could_move(unsigned i, u64 dst_load) const;
    u64 settled(unsigned i) const;
    Time quiet_until(unsigned self, Time now);
    bool balanced(unsigned self);
    // A queue's least served member and its lightest member weight.
    struct Least {
        u64 service = 0;
        u32 weight = 0;  // 0: no members
        u32 lightest = ~u32{0};
    };
    Least least_member(unsigned i, u64 epoch);
    u64 deficit(unsigned i, u64 epoch, const Least& src);

    Env env_{};
    bool percpu_ = true;
    bool charge_at_wake_ = true;
    bool sync_wakes_ = true;
    bool pick_forfeit_ = true;
    unsigned ncpus_ = 1;
    Time slice_ = 1;
    Time half_life_ = 64;
    WeightTable table_ = WeightTable::Linux;
    Queue q_[kMax];
    QueueLoad loads_[kMax] = {};  // load, nr, running (percpu) of each queue
    RqTask* cur_[kMax] = {};      // picked by hart c, not put back or stopped
    CpuMask waking_mask_ = 0;     // queues with waking > 0
    CpuMask fresh_mask_ = 0;      // queues whose fresh list is not empty (fresh_changed)
    u32 hint_readers_ = 0;        // harts in preempt_mask (switch_policy waits)
    // schedsim only (sequential): changes of loads, members and weights,
    // and per hart a verdict of balance_due: no balance of the hart before
    // `until` moves anything while nothing changes (quiet_until).
    u64 version_ = 0, cached_ = ~u64{0};
    u64 reweights_ = 0;     // counted tasks reweighted (set_weight; the kernel): balance soon
    u64 max_settled_ = 0;   // as of version cached_: the largest settled load,
    u32 lightest_all_ = 0;  // the lightest member weight of any queue
    struct Quiet {
        u64 version = ~u64{0};
        Time until = 0;
    };
    Quiet quiet_[kMax];
};

// ---- set-up ---------------------------------------------------------------

template <class Env>
void RunQueues<Env>::init(const RqConfig& c) {
    percpu_ = c.percpu;
    charge_at_wake_ = c.charge_at_wake;
    sync_wakes_ = c.sync_wakes;
    pick_forfeit_ = c.pick_forfeit;
    ncpus_ = c.ncpus < 1 ? 1 : (c.ncpus > kMax ? kMax : c.ncpus);
    slice_ = c.slice ? c.slice : 1;
    half_life_ = 64 * slice_;
    table_ = c.table;
    for (unsigned i = 0; i < queues(); i++) q_[i].next_balance = static_cast<Time>(i) * 2 * slice_ / ncpus_;
}

// ---- bookkeeping ----------------------------------------------------------

// Lock the queue t is on; t.queue may change until that queue's lock is held.
template <class Env>
inline unsigned RunQueues<Env>::lock_queue_of(const RqTask& t) {
    for (;;) {
        const unsigned i = queue_of(t);
        q_[i].lock.acquire();
        if (queue_of(t) == i) return i;
        q_[i].lock.release();
    }
}

template <class Env>
const QueueLoad* RunQueues<Env>::view(Loads& buf) const {
    if constexpr (!Env::kConcurrent) {
        (void)buf;
        return loads_;
    }
    for (unsigned i = 0; i < ncpus_; i++) {
        buf.q[i] = QueueLoad{};
        buf.q[i].load = ld(loads_[i].load);
        buf.q[i].nr = ld(loads_[i].nr);
        buf.q[i].running = ld(loads_[i].running);
    }
    return buf.q;
}

// Under queue i's lock: a woken task not picked since joins / leaves it
// (waking_mask_ says which queues hold one: pull looks only there).
template <class Env>
void RunQueues<Env>::waking_in(unsigned i) {
    if (q_[i].waking++ == 0) {
        if constexpr (Env::kConcurrent) {
            __atomic_fetch_or(&waking_mask_, CpuMask{1} << i, __ATOMIC_RELAXED);
        } else {
            waking_mask_ |= CpuMask{1} << i;
        }
    }
}

// Under queue i's lock, after its fresh list changed: fresh_mask_'s bit
// (pull_heavy looks only there).
template <class Env>
void RunQueues<Env>::fresh_changed(unsigned i) {
    const CpuMask bit = CpuMask{1} << i;
    const bool any = q_[i].fresh.front() != nullptr;
    if constexpr (Env::kConcurrent) {
        if (any) {
            __atomic_fetch_or(&fresh_mask_, bit, __ATOMIC_RELAXED);
        } else {
            __atomic_fetch_and(&fresh_mask_, ~bit, __ATOMIC_RELAXED);
        }
    } else {
        fresh_mask_ = any ? fresh_mask_ | bit : fresh_mask_ & ~bit;
    }
}

template <class Env>
void RunQueues<Env>::waking_out(unsigned i) {
    if (q_[i].waking == 0 || --q_[i].waking != 0) return;
    if constexpr (Env::kConcurrent) {
        __atomic_fetch_and(&waking_mask_, ~(CpuMask{1} << i), __ATOMIC_RELAXED);
    } else {
        waking_mask_ &= ~(CpuMask{1} << i);
    }
}

// load, nr and fresh_load change by atomic adds: a remote wake-up counts
// its task when it pushes it (so the next placement sees it), without the
// queue's lock. fresh: t just became runnable (not a migration).
template <class Env>
void RunQueues<Env>::count(unsigned i, RqTask& t, bool fresh) {
    add(loads_[i].load, static_cast<u64>(t.se.weight));
    add(loads_[i].nr, 1u);
    if (fresh) {
        add(q_[i].fresh_load, static_cast<u64>(t.se.weight));
        t.in_fresh = true;
    }
    t.counted = true;
    changed();
}

// Under queue i's lock.
template <class Env>
void RunQueues<Env>::uncount(unsigned i, RqTask& t) {
    sub(loads_[i].load, static_cast<u64>(t.se.weight));
    sub(loads_[i].nr, 1u);
    if (t.in_fresh) {
        sub(q_[i].fresh_load, static_cast<u64>(t.se.weight));
        t.in_fresh = false;
        if (t.fresh.linked()) fresh_out(i, t);
    }
    t.counted = false;
    changed();
}

// Under queue i's lock: t (counted there) joins its lists.
template <class Env>
void RunQueues<Env>::link(unsigned i, RqTask& t) {
    Queue& q = q_[i];
    changed();  // a drained task was counted at its wake-up, is a member now
    q.members.push_back(t);
    q.nmembers++;
    if (t.in_fresh) fresh_in(i, t);
    level_in(q, t.se.level);
}

template <class Env>
void RunQueues<Env>::unlink(unsigned i, RqTask& t) {
    Queue& q = q_[i];
    if (q.cursor == &t) q.cursor = q.members.next(t);
    q.members.remove(t);
    q.nmembers--;
    level_out(q, t.se.level);
}

template <class Env>
void RunQueues<Env>::level_in(Queue& q, u8 level) {
    if (q.levels[level]++ == 0) {
        q.level_bits |= u64{1} << level;
        st(q.min_weight, weights_of(q.level_bits).lightest);
        changed();
    }
}

template <class Env>
void RunQueues<Env>::level_out(Queue& q, u8 level) {
    if (--q.levels[level] == 0) {
        q.level_bits &= ~(u64{1} << level);
        st(q.min_weight, weights_of(q.level_bits).lightest);
        changed();
    }
}

// Both tables are monotonic in the level, so the lightest and heaviest
// weights among levels `bits` are at its two ends.
template <class Env>
typename RunQueues<Env>::Weights RunQueues<Env>::weights_of(u64 bits) const {
    if (!bits) return {};
    const u32* w = weight_table(table_);
    const u32 lo = w[ctz64(bits)], hi = w[msb64(bits)];
    return lo < hi ? Weights{lo, hi} : Weights{hi, lo};
}

// Under queue i's lock: t joins / leaves queue i's fresh list (the levels
// give max_fresh_weight, pull_heavy's hint).
template <class Env>
void RunQueues<Env>::fresh_in(unsigned i, RqTask& t) {
    q_[i].fresh.push_back(t);
    fresh_level(q_[i], t.se.level, true);
    fresh_changed(i);
}

template <class Env>
void RunQueues<Env>::fresh_out(unsigned i, RqTask& t) {
    q_[i].fresh.remove(t);
    fresh_level(q_[i], t.se.level, false);
    fresh_changed(i);
}

// One fresh-list task more (in) or fewer at `level`.
template <class Env>
void RunQueues<Env>::fresh_level(Queue& q, u8 level, bool in) {
    const u64 bit = u64{1} << level;
    if (in ? q.fresh_levels[level]++ != 0 : --q.fresh_levels[level] != 0) return;
    q.fresh_level_bits = in ? q.fresh_level_bits | bit : q.fresh_level_bits & ~bit;
    st(q.max_fresh_weight, weights_of(q.fresh_level_bits).heaviest);
}

template <class Env>
void RunQueues<Env>::expire_list(unsigned i, Time now) {
    Queue& q = q_[i];
    while (RqTask* t = q.fresh.front()) {
        if (now - t->woke_at < slice_) return;
        fresh_out(i, *t);
        t->in_fresh = false;
        sub(q.fresh_load, static_cast<u64>(t->se.weight));
        changed();
    }
}

// ---- charging -------------------------------------------------------------

// Under t's queue's lock: charge t (picked) up to `end` for what was not
// charged yet.
template <class Env>
inline void RunQueues<Env>::charge_to(RqTask& t, Time end) {
    if (end <= t.charged_until) return;
    const Time ran = end - t.charged_until;
    t.charged_until = end;
    q_[queue_of(t)].policy->charge(t.se, ran);
    if (percpu()) t.service.add_in_epoch(ran, epoch(end));
}

// Under the lock of the queue hart `cpu` picks from, before anything is
// placed there or compared with what runs on cpu (-1: every hart; one
// shared queue): charge the running tasks up to now.
template <class Env>
void RunQueues<Env>::charge_current(int cpu, Time now) {
    if (cpu >= 0) {
        if (RqTask* t = cur_[cpu]) charge_to(*t, now);
        return;
    }
    for (unsigned c = 0; c < ncpus_; c++)
        if (RqTask* t = cur_[c]) charge_to(*t, now);
}

template <class Env>
inline void RunQueues<Env>::set_current(unsigned cpu, RqTask* t) {
    st(cur_[cpu], t);
    if (percpu()) st(loads_[cpu].running, t ? 1u : 0u);
}

// Under t's queue's lock: t, picked, is put back or stops (its policy
// recorded the hart in se.cpu at the pick).
template <class Env>
inline void RunQueues<Env>::clear_current(RqTask& t) {
    set_current(t.se.cpu, nullptr);
}

}  // namespace q::sched

#include "lib/sched/runqueues_move.h"
#include "lib/sched/runqueues_run.h"
