// sim/simulator.h - the simulation loop (model described in sim.h), a
// template over the concrete policy class and the queue mode.
//
// Invariants: a task is in exactly one state - not yet arrived, queued in
// the policy, running on one core (held in running[c] between ticks),
// blocked (in the sleepers heap), or finished. runnable_ counts queued+running
// tasks; the fluid reference (fluid.h) counts them per level.
//
// Compile cost: every policy's loop is a separate instantiation with the
// run-queue core and the policy inlined (policy x queue mode x fairness),
// most of schedsim's build. sim.cc only declares simulate_with<P>; the
// policies are instantiated in three files that build in parallel
// (sim_lists.cc: rr, dwrr, idwrr, mlfq; sim_eevdf.cc; sim_draw.cc: stride,
// lottery).
#pragma once

#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <memory>
#include <queue>
#include <vector>

#include "lib/sched/policies.h"
#include "sim/events.h"
#include "sim/fluid_world.h"
#include "sim/progress.h"
#include "sim/rng.h"
#include "sim/rq_env.h"
#include "sim/sim.h"
#include "sim/source.h"
#include "sim/task.h"

namespace schedsim::loop {

namespace qs = q::sched;

// EEVDF's vruntime shift for a run (sim.cc).
unsigned eevdf_vshift(uint64_t slice, uint64_t ticks);

using Core = SimCore;

// The loop is instantiated for each concrete policy class (all are final),
// so the per-core-tick policy calls are direct and inlined, not virtual.
template <typename P, bool kPerCpu>
class Simulator {
  public:
    Simulator(const Config& cfg, const std::vector<TaskSpec>& fixed)
        : cfg_(cfg),
          fixed_(fixed),
          source_(cfg, fixed),
          changes_(fixed),
          cores_(cfg.cores),
          fair_(cfg.fairness),
          world_(cfg, fixed) {
        init_queues();
        spec_task_.assign(fixed.size(), nullptr);
        kept_wakes_.assign(fixed.size(), 0);
    }

    [[gnu::noinline]] void run();  // the ticks (bench-sim.sh counts this function's instructions: not inlined)
    Result collect() const;

  private:
    void init_queues();
    void spawn(const TaskSpec& s, size_t fixed_index, uint64_t now);
    void make_runnable(Task& t);
    void leave_runnable(Task& t);
    i128 lag_now(const Task& t) const;
    // kFair: Config::fairness (lags sampled, the reference advanced), a
    // template parameter of the exact model's tick so its loops test nothing.
    template <bool kFair>
    void note_dispatch(Task& t);
    template <bool kFair>
    void note_deschedule(Task& t);
    template <bool kExact, bool kFair>
    void run_ticks(Progress& progress);
    void events(uint64_t now);
    void wake_at(uint64_t wake, Task& t);
    void arrivals(uint64_t now);
    void wakeups(uint64_t now);
    void core_tick(unsigned c, uint64_t now);
    void execute(Core& core, Task& t, uint64_t now);
    bool blocks_after_tick(Task& t, uint64_t now);
    bool stops_after_tick(Task& t, uint64_t now);
    static void set_remaining(Task& t, uint64_t ticks) {
        t.remaining = ticks;
        t.until_stop_check = t.may_block ? 1 : ticks;
    }
    bool next_burst(Task& t, uint64_t now);
    void sleep(Task& t, uint64_t now, uint64_t ticks);
    void wake_burst(size_t k, uint64_t now, int waker);
    void task_changes(uint64_t now);
    void change_level(Task& t, uint8_t level);
    void dispatched(Task& t, uint64_t now);
    void woken_dispatched(Task& t, uint64_t now);
    void tick_seed(uint64_t now);
    template <bool kFair>
    void tick_exact(uint64_t now);
    void drain_ipis();
    void tick_preempt(uint64_t now);
    // A turn ends --timer-late ticks after its turn_end: at `now` it is
    // over if turn_end <= turns_due(now) (turn_end >= 1, so 0 ends none).
    uint64_t turns_due(uint64_t now) const { return now >= cfg_.timer_late ? now - cfg_.timer_late : 0; }
    Task* pick(unsigned c, uint64_t now);
    template <bool kFair>
    void stop_exact(Core& core, uint64_t now);

    const Config& cfg_;
    const std::vector<TaskSpec>& fixed_;
    // Arrivals and blocking streams shared with the fluid reference: every
    // policy sees the same tasks and (per task, per executed tick) blocking
    // decisions.
    TaskSource source_;
    // The run queues: the kernel's core (lib/sched/runqueues.h), one policy
    // instance per queue.
    q::sched::RunQueues<SimEnv<P, kPerCpu>> rq_;
    std::vector<q::sched::PolicyStorage> storage_;
    std::deque<Task> tasks_;
    SleeperHeap<Task*> sleepers_;
    TaskChanges changes_;  // replay level and affinity changes, by tick
    // The first tick at which an arrival, a wake-up or a replay change is
    // due (kNever: none): the ticks before it skip events() altogether.
    uint64_t next_event_ = 0;
    std::vector<Task*> spec_task_;      // the task spawned from each fixed spec
    std::vector<uint64_t> kept_wakes_;  // per fixed spec: wake bursts that found it not waiting
    std::vector<Core> cores_;
    uint64_t runnable_ = 0;
    const bool fair_;   // Config::fairness: world_ runs and lags are sampled
    FluidWorld world_;  // the fluid reference schedule
    Result r_;
    uint64_t repicks_ = 0;  // picks of the task the core ran last (collect() derives ctx_switches)
};

template <typename P, bool kPerCpu>
void Simulator<P, kPerCpu>::init_queues() {
    q::sched::RqConfig rc;
    rc.percpu = kPerCpu;
    rc.ncpus = cfg_.cores;
    rc.slice = cfg_.slice;
    rc.table = cfg_.weights;
    rc.charge_at_wake = cfg_.model == Model::Exact;  // the seed harness charged after placing
    rq_.init(rc);
    rq_.env().cores = cores_.data();
    rq_.env().ncores = cfg_.cores;
    q::sched::PolicyConfig pc;
    pc.table = cfg_.weights;
    pc.slice = cfg_.slice;
    pc.sleep_decay = cfg_.sleep_decay;
    pc.vshift = eevdf_vshift(cfg_.slice, cfg_.ticks);
    storage_.resize(rq_.queues());
    for (unsigned i = 0; i < rq_.queues(); i++) {
        pc.queue = i;  // as the kernel: each queue's lottery draws its own sequence
        auto* p = static_cast<P*>(q::sched::construct_policy(cfg_.policy, storage_[i], pc));
        p->set_cpus(kPerCpu ? 1 : cfg_.cores);  // cores sharing the queue: EEVDF caps infeasible weights
        rq_.attach(i, p);
    }
}

template <typename P, bool kPerCpu>
void Simulator<P, kPerCpu>::make_runnable(Task&) {
    runnable_++;
}

template <typename P, bool kPerCpu>
void Simulator<P, kPerCpu>::leave_runnable(Task&) {
    runnable_--;
}

// Lag = fluid reference service - received service, now (a tick boundary;
// the reference has run through the previous tick). While t is not running
// its lag cannot fall (the reference only adds service), while it runs it
// cannot rise (at most one core per task), so its maximum is at a dispatch
// and its minimum at a deschedule, where these are called (and the end).
template <typename P, bool kPerCpu>
[[gnu::always_inline]] inline i128 Simulator<P, kPerCpu>::lag_now(const Task& t) const {
    return world_.service_minus(t.id, t.execs);
}

template <typename P, bool kPerCpu>
template <bool kFair>
[[gnu::always_inline]] inline void Simulator<P, kPerCpu>::note_dispatch(Task& t) {
    if constexpr (!kFair) return;
    const i128 lag = lag_now(t);
    if (lag > t.lag_hi) t.lag_hi = lag;
}

template <typename P, bool kPerCpu>
template <bool kFair>
[[gnu::always_inline]] inline void Simulator<P, kPerCpu>::note_deschedule(Task& t) {
    if constexpr (!kFair) return;
    const i128 lag = lag_now(t);
    if (lag < t.lag_lo) t.lag_lo = lag;
}

template <typename P, bool kPerCpu>
void Simulator<P, kPerCpu>::spawn(const TaskSpec& s, size_t fixed_index, uint64_t now) {
    Task& t = tasks_.emplace_back();
    if (!s.bursts.empty()) t.spec = &s;  // only fixed specs have bursts
    t.id = tasks_.size() - 1;
    if (fixed_index != SIZE_MAX) spec_task_[fixed_index] = &t;
    t.fixed = fixed_index;
    t.block_rng = TaskSource::block_stream(cfg_.seed, t.id);
    t.arrival = now;
    t.block_chance = s.block_chance;
    t.may_block = s.block_chance > 0;
    set_remaining(t, s.runtime);
    qs::set_priority(t.se, cfg_.weights, s.level);
    t.se.owner = &t;
    t.affinity = s.affinity;
    t.se.request = s.request;  // before its first enqueue: its first deadline uses it
    r_.spawned++;
    make_runnable(t);
    rq_.wake(t, now, false);
}

template <typename P, bool kPerCpu>
void Simulator<P, kPerCpu>::arrivals(uint64_t now) {
    source_.arrivals(now, [&](const TaskSpec& s, size_t fixed_index) { spawn(s, fixed_index, now); });
}

// Tick now's events, in order: arrivals, wake-ups, level and affinity
// changes (the
// wake-ups of tasks that sleep during the tick lower next_event_ as they
// are filed, wake_at()).
template <typename P, bool kPerCpu>
[[gnu::noinline]] void Simulator<P, kPerCpu>::events(uint64_t now) {
    arrivals(now);
    wakeups(now);
    if (changes_.due(now)) task_changes(now);
    next_event_ = std::min({source_.next_arrival(now), sleepers_.next(), changes_.next()});
}

template <typename P, bool kPerCpu>
void Simulator<P, kPerCpu>::wake_at(uint64_t wake, Task& t) {
    sleepers_.push(wake, &t);
    if (wake < next_event_) next_event_ = wake;
}

template <typename P, bool kPerCpu>
void Simulator<P, kPerCpu>::wakeups(uint64_t now) {
    while (sleepers_.due(now)) {
        Task& t = *sleepers_.pop();
        t.blocked = false;
        t.blocked_ticks += now - t.block_start;
        t.woke = now;
        t.undispatched = true;
        make_runnable(t);
        rq_.wake(t, now, true, t.sync_waker);
        t.sync_waker = -1;
    }
}

// Seed model. Executed slots are not counted here: executed = slots - idle
// (collect). Context switches count every change of task on a core,
// including its first dispatch, which collect() then subtracts once per
// core that ran (it derives them from the picks and repicks). Lag is not sampled during a seed-model run (it kept the
// seed loop's cost): a task's max_lag there is its lag at the end.
template <typename P, bool kPerCpu>
[[gnu::always_inline]] inline void Simulator<P, kPerCpu>::execute(Core& core, Task& t, uint64_t now) {
    t.execs++;
    if (t.undispatched) dispatched(t, now);
    if (core.last == &t) {
        repicks_++;
    } else {
        core.last = &t;
    }
    if (stops_after_tick(t, now)) {
        if (t.yielding) {  // the seed model re-picks every tick: nothing to give up
            t.yielding = false;
            core.running = &t;
            return;
        }
        leave_runnable(t);
        rq_.stop(t, now + 1);  // its last tick uncharged (the seed harness's quirk)
        return;
    }
    core.running = &t;
}

// After t executed tick `now`: does it stop being runnable (finished or
// blocked), or yield (replay: t.yielding)? kForever (2^64 - 1) never
// reaches 0: a run has fewer ticks.
// One decrement decides a tick that cannot stop t (until_stop_check).
template <typename P, bool kPerCpu>
[[gnu::always_inline]] inline bool Simulator<P, kPerCpu>::stops_after_tick(Task& t, uint64_t now) {
    if (--t.until_stop_check != 0) return false;  // a hog's every tick but its last
    if (!t.may_block) {
        t.remaining = 0;
    } else {
        t.until_stop_check = 1;
        if (--t.remaining != 0) return blocks_after_tick(t, now);
    }
    if (t.spec && next_burst(t, now)) return t.blocked || t.yielding;
    t.completion = now + 1;
    r_.finished++;
    return true;
}

// Replay: t's run burst is over. Bursts alternate run/sleep (replay.cc
// merges neighbours of one kind): sleep, then the next run starts at the
// wake-up; or (wrapping with repeat) run on, after a yield if one ended the
// run (t.yielding: the caller puts t back). False: no burst left.
template <typename P, bool kPerCpu>
bool Simulator<P, kPerCpu>::next_burst(Task& t, uint64_t now) {
    uint64_t sleep_ticks = 0;
    // A synchronous wake-up ("swake") comes from the waker's core (its
    // queue, percpu).
    auto wake = [&](size_t k, bool sync) { wake_burst(k, now, kPerCpu && sync ? t.queue : -1); };
    auto yielded = [&] { t.yielding = true; };
    if (!next_run_burst(*t.spec, t.burst, sleep_ticks, wake, yielded)) {
        t.yielding = false;
        return false;
    }
    if (sleep_ticks != kNoSleep) sleep(t, now, sleep_ticks);
    set_remaining(t, t.spec->bursts[t.burst].ticks);
    return true;
}

// Replay: a wake burst at the end of tick now wakes fixed task k for tick
// now + 1, if it is in a "sleep wait" (synchronously if waker >= 0: the
// waker's core); otherwise (running, runnable, in a timed sleep, or not
// arrived yet) k keeps the wake-up for its next wait.
template <typename P, bool kPerCpu>
void Simulator<P, kPerCpu>::wake_burst(size_t k, uint64_t now, int waker) {
    Task* w = spec_task_[k];
    if (w && w->waiting) {
        w->waiting = false;
        w->sync_waker = waker;
        wake_at(now + 1, *w);
    } else {
        kept_wakes_[k]++;
    }
}

// kForever ticks: a "sleep wait", until a wake burst (at once if one was
// kept for it: it wakes the next tick, as after "sleep 0").
template <typename P, bool kPerCpu>
void Simulator<P, kPerCpu>::sleep(Task& t, uint64_t now, uint64_t ticks) {
    r_.blocks++;
    t.blocks++;
    t.blocked = true;
    t.block_start = now + 1;
    if (ticks == kForever) {
        if (kept_wakes_[t.fixed] == 0) {
            t.waiting = true;
            return;
        }
        kept_wakes_[t.fixed]--;
        ticks = 0;
    }
    wake_at(now + 1 + ticks, t);
}

// Replay changes due at tick now, whatever the task's state: a level
// through reweight() (as the kernel's setpriority), an affinity through the
// run-queue core's set_affinity (as the kernel's setaffinity: percpu, a
// queued task on a core now excluded moves at once, a running one is told
// to reschedule, and this tick's put_back re-places it; a sleeper is placed
// by its new mask when it wakes).
template <typename P, bool kPerCpu>
void Simulator<P, kPerCpu>::task_changes(uint64_t now) {
    while (changes_.due(now)) {
        const TaskChanges::Change& c = changes_.pop();
        Task* t = spec_task_[c.spec];
        if (!t || t->completion != kNever) continue;
        if (c.cpus == 0) {
            change_level(*t, c.level);
        } else {
            rq_.set_affinity(*t, c.cpus, now);  // load_workload checked the mask against --cores
        }
    }
}

template <typename P, bool kPerCpu>
void Simulator<P, kPerCpu>::change_level(Task& t, uint8_t level) {
    rq_.set_weight(t, qs::weight_table(cfg_.weights)[level], level);
}

// After an executed tick that did not finish t: does it block now? (Its
// own stream: the k-th executed tick of a task decides the same way under
// every policy.)
template <typename P, bool kPerCpu>
[[gnu::always_inline]] inline bool Simulator<P, kPerCpu>::blocks_after_tick(Task& t, uint64_t now) {
    if (!t.may_block || !t.block_rng.chance(t.block_chance)) return false;
    sleep(t, now, cfg_.wake_delay);
    return true;
}

// First dispatch of t (at tick now): response time, and the latency of the
// wake-up it was waiting on, if any.
// Inline but for the latency's push (every task's first dispatch takes
// this path once: 400,000 tasks on 16 cores, the first 25,000 ticks).
template <typename P, bool kPerCpu>
[[gnu::always_inline]] inline void Simulator<P, kPerCpu>::dispatched(Task& t, uint64_t now) {
    t.undispatched = false;
    if (t.first_run == kNever) t.first_run = now;
    if (t.woke != kNever) woken_dispatched(t, now);
}

template <typename P, bool kPerCpu>
[[gnu::noinline]] void Simulator<P, kPerCpu>::woken_dispatched(Task& t, uint64_t now) {
    t.wake_lat.push_back(now - t.woke);
    t.woke = kNever;
}

template <typename P, bool kPerCpu>
[[gnu::always_inline]] inline void Simulator<P, kPerCpu>::core_tick(unsigned c, uint64_t now) {
    Core& core = cores_[c];
    if (Task* prev = core.running) {
        core.running = nullptr;
        rq_.charge(*prev, now);  // one tick: picked at now - 1
        rq_.put_back(*prev, now);
    }
    qs::RqTask* t = rq_.pick(c, now);
    if (!t) {
        r_.idle++;
        (runnable_ == 0 ? r_.forced_idle : r_.wasted_idle)++;
        return;
    }
    task_of(*t).dispatches++;
    execute(core, task_of(*t), now);
}

template <typename P, bool kPerCpu>
void Simulator<P, kPerCpu>::tick_seed(uint64_t now) {
    for (unsigned c = 0; c < cfg_.cores; c++) core_tick(c, now);  // nobody preempts: resched is not read
}

// Exact model, after the wake-ups (percpu): the cores that got an IPI
// drain their wake lists, as the kernel's IPI handler does; a woken task
// that preempts the running one there makes it reschedule.
template <typename P, bool kPerCpu>
void Simulator<P, kPerCpu>::drain_ipis() {
    uint64_t& pending = rq_.env().ipis;
    while (pending) {
        const unsigned c = static_cast<unsigned>(__builtin_ctzll(pending));
        pending &= pending - 1;
        if (rq_.drain(c)) cores_[c].resched = true;
    }
}

// Exact model, step 4's end for one core: its task executed tick now and
// finished or blocked; it is charged and stops (after the charge, as
// policy.h says). Or it yielded (replay): charged, it goes back giving up
// its turn, as the kernel's sched_yield does.
template <typename P, bool kPerCpu>
template <bool kFair>
[[gnu::always_inline]] inline void Simulator<P, kPerCpu>::stop_exact(Core& core, uint64_t now) {
    Task& t = *core.running;
    const bool yielded = t.yielding;
    if (!yielded) leave_runnable(t);
    note_deschedule<kFair>(t);
    rq_.charge(t, now + 1);
    if (yielded) {
        t.yielding = false;
        rq_.put_back(t, now + 1, decltype(rq_)::Yielded::Yes);
    } else {
        rq_.stop(t, now + 1);
    }
    core.running = nullptr;
    core.switch_end = now + 1 + cfg_.switch_cost;
}

// Exact model, --tick: the kernel's timer interrupt inside a slice (rq_tick):
// the running task, charged up to now, gives way if the policy says a queued
// task should take over (EEVDF: it is ineligible and an eligible one is due
// earlier).
template <typename P, bool kPerCpu>
void Simulator<P, kPerCpu>::tick_preempt(uint64_t now) {
    const uint64_t due = turns_due(now);
    for (unsigned c = 0; c < cfg_.cores; c++) {
        Core& core = cores_[c];
        const Task* t = core.running;
        if (t && !core.resched && t->turn_end > due && rq_.tick(c, now)) core.resched = true;
    }
}

// Core c picks (percpu: balancing first when due, as the kernel's
// scheduler loop does).
template <typename P, bool kPerCpu>
[[gnu::always_inline]] inline Task* Simulator<P, kPerCpu>::pick(unsigned c, uint64_t now) {
    if constexpr (kPerCpu) rq_.balance(c, now);
    qs::RqTask* t = rq_.pick(c, now);
    if (!t) return nullptr;
    task_of(*t).dispatches++;
    return &task_of(*t);
}

template <typename P, bool kPerCpu>
template <bool kFair>
void Simulator<P, kPerCpu>::tick_exact(uint64_t now) {
    if (kPerCpu && rq_.env().ipis) drain_ipis();
    const uint64_t due = turns_due(now);  // computed once a tick, not per core
    const uint64_t switch_cost = cfg_.switch_cost;
    const unsigned ncores = cfg_.cores;
    Core* const cores = cores_.data();
    if (cfg_.tick_period && now % cfg_.tick_period == 0) tick_preempt(now);
    for (unsigned c = 0; c < ncores; c++) {
        Core& core = cores[c];
        Task* t = core.running;
        if (t && (t->turn_end <= due || core.resched)) {
            note_deschedule<kFair>(*t);
            rq_.charge(*t, now);
            rq_.put_back(*t, now);
            core.running = nullptr;
            core.switch_end = now + switch_cost;
        }
        core.resched = false;
    }
    // Every core without a task picks, then every running task executes the
    // tick; the tasks that finish or block stop after every core has picked
    // (stops change the policy's state, which later picks would see).
    Core* stopping[q::sched::kMaxCpus];
    unsigned nstop = 0;
    for (unsigned c = 0; c < ncores; c++) {
        Core& core = cores[c];
        Task* t = core.running;
        if (!t) {
            t = now >= core.switch_end ? pick(c, now) : nullptr;
            if (!t) {
                r_.idle++;
                (runnable_ == 0 ? r_.forced_idle : r_.wasted_idle)++;
                continue;
            }
            core.running = t;
            if (core.last == t) {
                repicks_++;
            } else {
                core.last = t;
                note_dispatch<kFair>(*t);
            }
            if (t->undispatched) dispatched(*t, now);
        }
        t->execs++;
        if (stops_after_tick(*t, now)) stopping[nstop++] = &core;
    }
    // The fluid reference's tick `now` (after the picks: a dispatch measures
    // lag at the tick's start; its begin() was at the start of the tick).
    if constexpr (kFair) world_.advance(now);
    for (unsigned k = 0; k < nstop; k++) stop_exact<kFair>(*stopping[k], now);
}

template <typename P, bool kPerCpu>
void Simulator<P, kPerCpu>::run() {
    Progress progress(cfg_);
    if (cfg_.model == Model::Exact) {
        if (fair_) {
            run_ticks<true, true>(progress);
        } else {
            run_ticks<true, false>(progress);
        }
    } else {
        if (fair_) {
            run_ticks<false, true>(progress);
        } else {
            run_ticks<false, false>(progress);
        }
    }
}

// The ticks of one model (kExact) with or without the fluid reference
// (kFair): a tick with no event due costs its cores' work and no more.
template <typename P, bool kPerCpu>
template <bool kExact, bool kFair>
void Simulator<P, kPerCpu>::run_ticks(Progress& progress) {
    const uint64_t ticks = cfg_.ticks;
    for (uint64_t now = 0; now < ticks; now++) {
        rq_.env().new_tick(now);
        if constexpr (kFair) world_.begin(now);  // first: every task spawned below is known there
        if (now >= next_event_) events(now);
        if constexpr (kExact) {
            tick_exact<kFair>(now);
        } else {
            if constexpr (kFair) world_.advance(now);
            tick_seed(now);
        }
        progress.update(now, ticks);
    }
}

// Without --fairness the fairness figures are NaN (a reader that forgot to
// ask for them gets no plausible zero; the report prints "not measured").
inline void unmeasured(Result& r) {
    const double nan = std::nan("");
    r.jain = r.worst_lag = r.max_lag = nan;
    for (TaskStats& t : r.tasks) t.max_lag = t.fluid = nan;
}

template <typename P, bool kPerCpu>
Result Simulator<P, kPerCpu>::collect() const {
    Result r = r_;
    const uint64_t end = cfg_.ticks;
    r.executed = static_cast<uint64_t>(cfg_.cores) * end - r.idle;
    // A context switch is a pick of another task than the core's last
    // one, the first pick of each core excepted (counted as the picks that
    // were not repicks: the loops count only the rarer repick).
    for (const Task& t : tasks_) r.ctx_switches += t.dispatches;
    r.ctx_switches -= repicks_;
    for (const Core& core : cores_) r.ctx_switches -= core.last != nullptr;
    r.policy = rq_.policy(0).name();
    r.migrations = rq_.env().migrations;
    r.percpu = kPerCpu;
    r.fairness = fair_;
    r.ticks = end;
    r.cores = cfg_.cores;
    r.alive = r.spawned - r.finished;
    const double slots = static_cast<double>(cfg_.cores) * static_cast<double>(end);
    r.util = slots > 0 ? static_cast<double>(r.executed) / slots : 0;
    const double usable = slots - static_cast<double>(r.forced_idle);
    r.efficiency = usable > 0 ? static_cast<double>(r.executed) / usable : 0;
    r.ctx_rate = r.executed ? static_cast<double>(r.ctx_switches) / static_cast<double>(r.executed) : 0;
    double turn = 0, wait = 0, resp = 0, sx = 0, sxx = 0;
    uint64_t nx = 0;
    double lvl_execs[qs::kLevels] = {}, lvl_wait[qs::kLevels] = {}, lvl_resp[qs::kLevels] = {};
    std::vector<uint64_t> all_lat;
    r.tasks.reserve(tasks_.size());
    for (const Task& t : tasks_) {
        const uint64_t stop = t.completion != kNever ? t.completion : end;
        const uint64_t blocked = t.blocked_ticks + (t.blocked ? end - t.block_start : 0);
        const uint64_t w = stop - t.arrival - t.execs - blocked;
        const uint64_t rsp = (t.first_run != kNever ? t.first_run : end) - t.arrival;
        if (t.completion != kNever) turn += static_cast<double>(t.completion - t.arrival);
        wait += static_cast<double>(w);
        resp += static_cast<double>(rsp);
        if (w > r.max_wait) r.max_wait = w;
        const unsigned l = t.se.level;
        r.levels[l].samples++;
        lvl_execs[l] += static_cast<double>(t.execs);
        lvl_wait[l] += static_cast<double>(w);
        lvl_resp[l] += static_cast<double>(rsp);
        const i128 fluid = world_.known(t.id) ? world_.service(t.id) : 0;
        if (fluid > 0) {
            const double x = static_cast<double>(t.execs) / FluidReference::ticks(fluid);
            sx += x;
            sxx += x * x;
            nx++;
        }
        i128 lag = fluid - static_cast<i128>(t.execs) * FluidReference::kOne;
        if (lag < 0) lag = -lag;
        r.worst_lag = std::fmax(r.worst_lag, FluidReference::ticks(lag));
        i128 extreme = t.lag_hi > -t.lag_lo ? t.lag_hi : -t.lag_lo;
        if (lag > extreme) extreme = lag;
        const double max_lag = FluidReference::ticks(extreme);
        r.max_lag = std::fmax(r.max_lag, max_lag);
        TaskStats& ts = r.tasks.emplace_back();
        ts.id = t.id;
        ts.arrival = t.arrival;
        ts.level = l;
        ts.weight = t.se.weight;
        ts.executed = t.execs;
        ts.dispatches = t.dispatches;
        ts.waited = w;
        ts.blocks = t.blocks;
        ts.migrations = t.migrations;
        ts.max_lag = max_lag;
        ts.fluid = FluidReference::ticks(fluid);
        std::vector<uint64_t> lat = t.wake_lat;
        if (t.woke != kNever) lat.push_back(end - t.woke);
        ts.wakeups = lat.size();
        all_lat.insert(all_lat.end(), lat.begin(), lat.end());
        ts.wake_p50 = percentile(lat, 50);
        ts.wake_p99 = percentile(lat, 99);
        ts.wake_max = lat.empty() ? 0 : lat.back();
    }
    r.wakeups = all_lat.size();
    r.wake_p50 = percentile(all_lat, 50);
    r.wake_p99 = percentile(all_lat, 99);
    r.wake_max = all_lat.empty() ? 0 : all_lat.back();
    const double n = static_cast<double>(tasks_.size());
    r.any_finished = r.finished > 0;
    r.avg_turnaround = r.finished ? turn / static_cast<double>(r.finished) : 0;
    r.avg_wait = n > 0 ? wait / n : 0;
    r.avg_response = n > 0 ? resp / n : 0;
    r.jain = (nx && sxx > 0) ? sx * sx / (static_cast<double>(nx) * sxx) : 1.0;
    if (!fair_) unmeasured(r);
    for (unsigned l = 0; l < qs::kLevels; l++) {
        LevelStats& s = r.levels[l];
        s.weight = qs::weight_table(cfg_.weights)[l];
        const double k = s.samples ? static_cast<double>(s.samples) : 1.0;
        s.avg_execs = lvl_execs[l] / k;
        s.avg_wait = lvl_wait[l] / k;
        s.avg_resp = lvl_resp[l] / k;
    }
    return r;
}

template <typename P, bool kPerCpu>
Result simulate_as(const Config& cfg, const std::vector<TaskSpec>& fixed_tasks) {
    auto sim = std::make_unique<Simulator<P, kPerCpu>>(cfg, fixed_tasks);
    sim->run();
    return sim->collect();
}

template <typename P>
Result simulate_with(const Config& cfg, const std::vector<TaskSpec>& fixed_tasks) {
    if (cfg.queues == Queues::PerCpu) return simulate_as<P, true>(cfg, fixed_tasks);
    return simulate_as<P, false>(cfg, fixed_tasks);
}

}  // namespace schedsim::loop

// One policy's loops, instantiated in its file (sim_lists.cc, ...), inside
// namespace schedsim; sim.cc declares the same ones built elsewhere.
#define SCHEDSIM_INSTANTIATE(type) \
    template Result loop::simulate_with<q::sched::type>(const Config&, const std::vector<TaskSpec>&)
#define SCHEDSIM_BUILT_ELSEWHERE(type) \
    extern template Result loop::simulate_with<q::sched::type>(const Config&, const std::vector<TaskSpec>&)
