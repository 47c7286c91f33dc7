// sim/queues.h - schedsim's run queues: one shared queue (--queues single,
// OSTEP's SQMS, xv6's design) or one per core (--queues percpu, MQMS, the
// kernel's default), each an instance of the policy under test.
//
// percpu follows the kernel (kernel/proc/runqueue.cc) through the same
// decisions of lib/sched/balance.h:
//   place    a new or woken task goes where select_cpu says (its previous
//            core if its queue is empty, else an empty queue, else - exact
//            model - a core whose running task it would preempt there
//            (Policy::preempts_on), else the previous one if warm - it
//            stopped within a slice - and at most its weight heavier than
//            the lightest, else the least loaded), among the cores its
//            affinity allows; the core it preempts is told to reschedule
//            (sim.cc wake_preempt), as the kernel's IPI does;
//   steal    a core whose queue is empty, about to pick, takes the most
//            behind waiting task (service per weight) of the queue with the
//            most waiting (steal_victim);
//   pull     (exact model) a core about to pick first takes another queue's
//            lead if it is a woken task that has not run since and beats
//            the local lead (balance.h pull_beats; only queues holding such
//            a task are looked at);
//   balance  every 2 slices per core (staggered), a core pulls the move
//            PullChooser likes best (one that lowers the larger load, else
//            an equal-load rotation);
//   migrate  keeps the task's lag (EEVDF re-bases its vruntime).
// Where the simulator differs from the kernel, for cost: loads are the
// plain sums of weights (the kernel counts only tasks runnable for a slice
// or more), and a steal or balance looks at no more than kScan (16) tasks
// of a queue (Linux bounds its scan at nr_migrate, 32), taken round-robin from the queue's
// member list, so over a few balances every task is seen; a queue is
// skipped at once when no task on it could move by weight (none lighter
// than the difference of loads and none as heavy: per-level counts tell).
// The simulator is sequential: no locks, and loads are exact, not hints.
//
// Affinity (TaskSpec::affinity) is honoured in percpu mode only, like the
// kernel, whose single queue ignores it.
//
// Invariants: a task is counted on exactly one queue (load, nr, members,
// level counts) from place() to stop(); e.queued iff it is in that queue's
// policy; a running task stays on the queue of the core running it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "lib/sched/balance.h"
#include "lib/sched/registry.h"
#include "lib/sched/weights.h"
#include "sim/task.h"

namespace schedsim {

// kPerCpu: the run's queue mode (Config::queues), a template parameter so
// that the single queue's hot calls carry no per-call mode test.
template <typename P, bool kPerCpu>
class QueueSet {
  public:
    static constexpr unsigned kScan = 16;

    explicit QueueSet(const Config& cfg)
        : percpu_(kPerCpu),
          exact_(cfg.model == Model::Exact),
          n_(percpu_ ? cfg.cores : 1),
          slice_(cfg.slice),
          half_life_(64 * cfg.slice),
          table_(cfg.weights),
          storage_(n_),
          pol_(n_),
          q_(n_),
          load_(n_),
          snap_(n_),
          running_(n_) {
        q::sched::PolicyConfig pc;
        pc.table = cfg.weights;
        pc.slice = cfg.slice;
        pc.sleep_decay = cfg.sleep_decay;
        for (unsigned i = 0; i < n_; i++) {
            pc.queue = i;  // as the kernel: each queue's lottery draws its own sequence
            pol_[i] = static_cast<P*>(q::sched::construct_policy(cfg.policy, storage_[i], pc));
            // Cores sharing the queue: EEVDF caps infeasible weights.
            pol_[i]->set_cpus(percpu_ ? 1 : cfg.cores);
            q_[i].next_balance = static_cast<uint64_t>(i) * 2 * cfg.slice / n_;
        }
        single_ = pol_[0];
    }

    bool percpu() const { return percpu_; }
    P& of(const Task& t) {
        if constexpr (kPerCpu) return *pol_[t.q < 0 ? 0 : t.q];
        return *single_;
    }
    uint64_t migrations() const { return migrations_; }
    const char* name() const { return pol_[0]->name(); }

    // A new or woken task becomes runnable: choose its queue, count it
    // there and enqueue it. Returns the queue.
    unsigned place(Task& t, uint64_t now) {
        unsigned target = 0;
        if constexpr (kPerCpu) {
            const bool warm = t.q >= 0 && t.last_ran != kNever && now - t.last_ran < slice_;
            target = static_cast<unsigned>(
                q::sched::select_cpu(load_.data(), n_, t.q, t.affinity, warm, t.e.weight, preempt_mask(t, now)));
        }
        t.q = static_cast<int>(target);
        count(t);
        pol_[target]->enqueue(t.e, now);
        if (kPerCpu && t.woke != kNever) {
            t.waking = true;
            q_[target].waking++;
        }
        return target;
    }

    // t ran on core `core` and is put back on its queue.
    void requeue(Task& t, unsigned core, uint64_t now) {
        if constexpr (kPerCpu) {
            load_[core].running = 0;
            running_[core] = nullptr;
        }
        of(t).enqueue(t.e, now);
    }

    void charge(Task& t, uint64_t ran, uint64_t now) {
        of(t).charge(t.e, ran);
        if constexpr (kPerCpu) t.service.add(ran, now, half_life_);
    }

    // t, running on `core` and charged, stops being runnable (after tick now).
    void stop(Task& t, unsigned core, uint64_t now) {
        of(t).stop(t.e);
        if constexpr (kPerCpu) {
            load_[core].running = 0;
            running_[core] = nullptr;
        }
        uncount(t);
        t.last_ran = now + 1;
    }

    void reweight(Task& t, uint32_t weight, uint8_t level) {
        if (t.counted) {
            Queue& q = q_[t.q];
            load_[t.q].load = load_[t.q].load - t.e.weight + weight;
            version_++;
            level_out(q, t.e.level);
            level_in(q, level);
        }
        of(t).reweight(t.e, weight, level);
    }

    // Core `core` picks (percpu: after stealing if its queue is empty, and
    // balancing when due). The single queue's pick is inline in the loop.
    [[gnu::always_inline]] q::sched::Entity* pick(unsigned core, uint64_t now) {
        if constexpr (!kPerCpu) return single_->pick(core, now);
        return pick_percpu(core, now);
    }

  private:
    q::sched::Entity* pick_percpu(unsigned core, uint64_t now) {
        if (load_[core].nr == 0) steal(core, now);
        if (n_ > 1 && now >= q_[core].next_balance) {
            q_[core].next_balance = now + 2 * slice_;
            balance(core, now);
        }
        if (exact_ && n_ > 1) pull(core, now);
        q::sched::Entity* e = pol_[core]->pick(core, now);
        if (e) {
            Task& t = *static_cast<Task*>(e->owner);
            if (t.waking) {
                t.waking = false;
                q_[core].waking--;
            }
            static_cast<Task*>(e->owner)->moved = false;
            load_[core].running = 1;
            running_[core] = static_cast<Task*>(e->owner);
        }
        return e;
    }

    // load_[i] (load, nr, running) is kept up to date, so the decisions of
    // balance.h read it in place; min_service/min_weight stay 0 there.
    struct Queue {
        std::vector<Task*> members;  // counted here, queued or running
        uint64_t next_balance = 0;
        size_t cursor = 0;                        // where the next bounded scan starts
        uint32_t levels[q::sched::kLevels] = {};  // tasks per level
        uint64_t level_bits = 0;                  // levels with tasks
        uint32_t min_weight = 0;                  // the lightest task's weight (0: none)
        uint32_t waking = 0;                      // queued woken tasks that have not run since (pull)
    };

    // Bit c: t, enqueued on core c's queue now, would preempt the task
    // running there (exact model: every running task is charged up to now
    // when placements happen). Only cores with queued work and a runner:
    // an empty queue is taken before this is asked.
    q::sched::CpuMask preempt_mask(const Task& t, uint64_t now) const {
        if (!exact_ || n_ < 2) return 0;
        q::sched::CpuMask m = 0;
        for (unsigned c = 0; c < n_; c++) {
            const Task* r = running_[c];
            if (r && r != &t && q::sched::mask_has(t.affinity, c) && pol_[c]->preempts_on(t.e, r->e, now))
                m |= q::sched::CpuMask{1} << c;
        }
        return m;
    }

    void level_in(Queue& q, uint8_t level) {
        if (q.levels[level]++ == 0) {
            q.level_bits |= uint64_t{1} << level;
            q.min_weight = lightest(q.level_bits);
        }
    }
    void level_out(Queue& q, uint8_t level) {
        if (--q.levels[level] == 0) {
            q.level_bits &= ~(uint64_t{1} << level);
            q.min_weight = lightest(q.level_bits);
        }
    }
    // The lightest weight among levels `bits` (both tables are monotonic in
    // the level, so it is at one end).
    uint32_t lightest(uint64_t bits) const {
        if (!bits) return 0;
        const uint32_t* w = q::sched::weight_table(table_);
        const uint32_t lo = w[__builtin_ctzll(bits)], hi = w[63 - __builtin_clzll(bits)];
        return lo < hi ? lo : hi;
    }

    void count(Task& t) {
        Queue& q = q_[t.q];
        load_[t.q].load += t.e.weight;
        load_[t.q].nr++;
        version_++;
        t.qpos = q.members.size();
        q.members.push_back(&t);
        level_in(q, t.e.level);
        t.counted = true;
    }
    void uncount(Task& t) {
        Queue& q = q_[t.q];
        load_[t.q].load -= t.e.weight;
        load_[t.q].nr--;
        version_++;
        Task* last = q.members.back();
        q.members[t.qpos] = last;
        last->qpos = t.qpos;
        q.members.pop_back();
        level_out(q, t.e.level);
        t.counted = false;
    }

    // Calls f(task) for up to kScan members of queue i, round-robin.
    template <typename F>
    void scan(unsigned i, F&& f) {
        Queue& q = q_[i];
        const size_t n = q.members.size();
        if (n == 0) return;
        const size_t k = n < kScan ? n : kScan;
        size_t at = q.cursor % n;
        for (size_t j = 0; j < k; j++) {
            f(*q.members[at]);
            if (++at == n) at = 0;
        }
        q.cursor = at;
    }

    uint64_t service(const Task& t, uint64_t now) const { return t.service.at(now, half_life_); }

    // The best remote lead that is a woken task not run since, allowed
    // here and beating the local lead, moves here.
    void pull(unsigned core, uint64_t now) {
        q::sched::Lead best = pol_[core]->lead();
        Task* take = nullptr;
        for (unsigned i = 0; i < n_; i++) {
            if (i == core || q_[i].waking == 0) continue;
            const q::sched::Lead l = pol_[i]->lead();
            if (!l.e) continue;
            Task& t = *static_cast<Task*>(l.e->owner);
            if (!t.waking || t.moved || !q::sched::mask_has(t.affinity, core) || !q::sched::pull_beats(l, best))
                continue;
            // Not one its own core is about to run: it preempted what runs there.
            const Task* r = running_[i];
            if (!r || pol_[i]->preempts(*l.e, r->e)) continue;
            best = l;
            take = &t;
        }
        if (take) migrate(*take, core, now);
    }

    void migrate(Task& t, unsigned dst, uint64_t now) {
        if (t.waking) {
            q_[t.q].waking--;
            q_[dst].waking++;
        }
        q::sched::migrate(*pol_[t.q], *pol_[dst], t.e, now);
        uncount(t);
        t.q = static_cast<int>(dst);
        count(t);
        t.moved = true;
        t.migrations++;
        migrations_++;
    }

    void steal(unsigned core, uint64_t now) {
        const int victim = q::sched::steal_victim(load_.data(), n_, core);
        if (victim < 0) return;
        Task* best = nullptr;
        scan(static_cast<unsigned>(victim), [&](Task& t) {
            if (!t.e.queued || t.moved || !q::sched::mask_has(t.affinity, core)) return;
            if (!best || q::sched::behind(service(t, now), t.e.weight, service(*best, now), best->e.weight)) best = &t;
        });
        if (best) migrate(*best, core, now);
    }

    // Queue i's least served task among the tasks seen (for rotations).
    void least_served(Task* const* seen, size_t n, q::sched::QueueLoad& l, uint64_t now) const {
        for (size_t j = 0; j < n; j++) {
            const Task& t = *seen[j];
            const uint64_t s = service(t, now);
            if (l.min_weight == 0 || q::sched::behind(s, t.e.weight, l.min_service, l.min_weight)) {
                l.min_service = s;
                l.min_weight = t.e.weight;
            }
        }
    }

    // Up to kScan members of queue i into seen; returns how many.
    size_t sample(unsigned i, Task** seen) {
        size_t n = 0;
        scan(i, [&](Task& t) { seen[n++] = &t; });
        return n;
    }

    void balance(unsigned self, uint64_t now) {
        const uint64_t self_load = load_[self].load;
        // Quick exit: no queue is heavier than this one by its lightest
        // task's weight (the heaviest load and the lightest weight are
        // recomputed only after a load changed).
        if (cached_ != version_) {
            cached_ = version_;
            max_load_ = 0;
            lightest_ = ~uint32_t{0};
            for (unsigned i = 0; i < n_; i++) {
                if (load_[i].load > max_load_) max_load_ = load_[i].load;
                if (q_[i].min_weight && q_[i].min_weight < lightest_) lightest_ = q_[i].min_weight;
            }
        }
        if (max_load_ <= self_load || max_load_ - self_load < lightest_) return;
        uint64_t sources = 0;  // queues a task could come from
        for (unsigned i = 0; i < n_; i++) {
            if (i != self && could_move(i, self_load)) sources |= uint64_t{1} << i;
        }
        if (!sources) return;
        q::sched::QueueLoad* snap = snap_.data();  // the chooser's copy, with least served tasks
        std::copy(load_.begin(), load_.end(), snap);
        Task* seen[kScan];
        least_served(seen, sample(self, seen), snap[self], now);
        q::sched::PullChooser pc(snap, self);
        for (; sources; sources &= sources - 1) {
            const unsigned i = static_cast<unsigned>(__builtin_ctzll(sources));
            const size_t n = sample(i, seen);
            least_served(seen, n, snap[i], now);
            for (size_t j = 0; j < n; j++) {
                Task& t = *seen[j];
                if (t.e.queued && q::sched::mask_has(t.affinity, self))
                    pc.offer(&t, i, t.e.weight, service(t, now), t.moved);
            }
        }
        if (pc.best()) migrate(*static_cast<Task*>(pc.best()), self, now);
    }

    // Could a task of queue i move to a queue of load `dst_load`? Only one
    // lighter than the difference of loads, or as heavy (a rotation), and
    // only if one is waiting (judge_move): so only if the lightest is no
    // heavier than the difference.
    bool could_move(unsigned i, uint64_t dst_load) const {
        const q::sched::QueueLoad& l = load_[i];
        if (l.nr <= l.running || l.load <= dst_load) return false;
        return q_[i].min_weight <= l.load - dst_load;
    }

    bool percpu_, exact_;
    unsigned n_;
    uint64_t slice_, half_life_;
    q::sched::WeightTable table_;
    std::vector<q::sched::PolicyStorage> storage_;
    std::vector<P*> pol_;
    P* single_ = nullptr;  // pol_[0]
    std::vector<Queue> q_;
    std::vector<q::sched::QueueLoad> load_, snap_;
    std::vector<const Task*> running_;              // percpu: the task core c runs (picked, not put back or stopped)
    uint64_t version_ = 0, cached_ = ~uint64_t{0};  // load changes; when max_load_/lightest_ were computed
    uint64_t max_load_ = 0;
    uint32_t lightest_ = 0;
    uint64_t migrations_ = 0;
};

}  // namespace schedsim
