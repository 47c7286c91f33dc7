// lib/sched/runqueues_run.h - the run-queue core's protocol calls: wake-up
// (placement, the wake list, waking or preempting a hart), pick, put back,
// stop, the timer tick, reweighting and switching policy. Part of
// RunQueues<Env> (lib/sched/runqueues.h has the design, the protocol and
// the locking rules); included at the end of runqueues.h only.
#pragma once

#include "lib/sched/runqueues.h"

namespace q::sched {

// ---- wake-up --------------------------------------------------------------

// Bit c: t, woken, would preempt what runs on hart c (Policy::preempts_on).
// Hints read without c's lock, as the loads are: drain decides there.
template <class Env>
CpuMask RunQueues<Env>::preempt_mask(const RqTask& t, Time now) {
    if (ncpus_ < 2) return 0;
    CpuMask m = 0;
    // Without the queues' locks: counted as a hint reader, so a policy
    // switch does not build over a policy this is still calling.
    if constexpr (Env::kConcurrent) __atomic_fetch_add(&hint_readers_, 1u, __ATOMIC_SEQ_CST);
    for (unsigned c = 0; c < ncpus_; c++) {
        const RqTask* r = ld(cur_[c]);
        if (!r || r == &t || !mask_has(t.affinity, c)) continue;
        const P* p = Env::kConcurrent ? __atomic_load_n(&q_[c].policy, __ATOMIC_ACQUIRE) : q_[c].policy;
        if (p->preempts_on(t.se, r->se, now) || outserved(*p, t, *r, c, now)) m |= CpuMask{1} << c;
    }
    if constexpr (Env::kConcurrent) __atomic_fetch_sub(&hint_readers_, 1u, __ATOMIC_RELEASE);
    return m;
}

// percpu: r, running on hart c, has had a larger share per weight of the
// time it was runnable than t, woken (CPU time over time runnable, both
// with the balancer's half-life: what one queue's EEVDF makes equal), and
// nothing on c weighs that: r runs alone there (`joined`: t, if already
// counted on c), or has been runnable a slice or more (a hog among
// sleepers). A queue's virtual time is its own: a hog alone on its hart is
// at lag 0 there whatever it has had, so a woken task placed beside it
// waited out its request, while on one queue the same hog runs ahead of
// every task's virtual time and the woken task preempts it. Then t is
// placed as if it preempted r (preempt_mask) and r forfeits the rest of
// its request (enqueue_woken: Policy::yield, EEVDF's forfeit). Issue 23;
// docs/benchmarks.md has the figures. Only for a policy whose yield
// forfeits (p: c's). t's time runnable is its stretches until its last
// stop; r's adds the stretch it is in. Hints: r's fields are read without
// c's lock.
template <class Env>
bool RunQueues<Env>::outserved(const P& p, const RqTask& t, const RqTask& r, unsigned c, Time now, u32 joined) const {
    if (!percpu() || ncpus_ < 2 || !p.forfeits()) return false;
    const Time since = ld(r.woke_at);
    if (nr(c) != 1 + joined && now < since + slice_) return false;
    return served_more(r, since, t, now);
}

// r (runnable since `since`, its wake-up, now included) has had a larger
// share of its runnable time per weight than t (its stretches until its
// last stop). r's fields may be hints (read without its queue's lock).
template <class Env>
bool RunQueues<Env>::served_more(const RqTask& r, Time since, const RqTask& t, Time now) const {
    const u64 e = epoch(now);
    const Service rs{ld(r.service.value), ld(r.service.epoch)};
    Service rr{ld(r.runnable.value), ld(r.runnable.epoch)};
    rr.add_span(since, now, half_life_);
    const u64 st = share(service(t, e), t.runnable.in_epoch(e));
    return st * ld(r.se.weight) < share(rs.in_epoch(e), rr.in_epoch(e)) * t.se.weight;
}

// percpu, under queue i's lock: the policy picked t, runnable a slice or
// more; if a task woken within a slice waits here (up to kScan of the
// fresh list) that t outserved (served_more), t forfeits its request and
// the pick is made again. Returns the entity to run. (Placement rule 2b,
// docs/scheduling.md: a hog that ran alone ran up no debt on its queue,
// so beside far heavier tasks it was picked whenever they had run a hair
// ahead of V, and ran until the next tick while they waited.)
template <class Env>
Entity* RunQueues<Env>::forfeit_pick(unsigned i, RqTask& t, unsigned cpu, Time now) {
    Queue& q = q_[i];
    if (now - t.woke_at < slice_) return &t.se;
    unsigned n = 0;
    for (RqTask* f = q.fresh.front(); f && n < kScan; f = q.fresh.next(*f), n++) {
        if (f == &t || !f->se.queued || !served_more(t, t.woke_at, *f, now)) continue;
        q.policy->yield(t.se);
        q.policy->enqueue(t.se, now);
        return q.policy->pick(cpu, now);
    }
    return &t.se;
}

// A synchronous wake-up (its waker, on hart w, sleeps soon: a pipe write)
// may queue t on hart w if the waker's queue holds nothing else that t
// does not outweigh: w, else -1. The waker is the task running on w (the
// kernel), or has just left it (schedsim's replay, which delivers a wake-up
// the tick after its waker's run ended).
template <class Env>
int RunQueues<Env>::sync_cpu(const RqTask& t, int w) const {
    if (w < 0 || static_cast<unsigned>(w) >= ncpus_) return -1;
    const RqTask* r = ld(cur_[w]);
    if (r == &t) return -1;
    const u64 l = load(static_cast<unsigned>(w));
    const u64 waker = r ? r->se.weight : 0;
    const u64 rest = l > waker ? l - waker : 0;
    if (rest == 0) return w;
    return rest <= ~u32{0} && outweighs(t.se.weight, static_cast<u32>(rest)) ? w : -1;
}

template <class Env>
int RunQueues<Env>::wake(RqTask& t, Time now, bool woken, int waker) {
    unsigned target = 0;
    int affine = -1;
    if (percpu()) {
        Loads buf;
        const bool warm = t.queue >= 0 && t.last_ran != kNoTime && now - t.last_ran < slice_;
        if (sync_wakes_) affine = sync_cpu(t, waker);
        const int c =
            select_cpu(view(buf), ncpus_, t.queue, t.affinity, warm, t.se.weight, preempt_mask(t, now), affine);
        target = c > 0 ? static_cast<unsigned>(c) : 0;
    }
    st(t.queue, static_cast<i32>(target));
    t.woke_at = now;
    t.waking = woken && percpu();
    env_.on_wake(t, target, sync_wakes_ && waker >= 0);
    // A sync placement is queued at once, as a local one: the kernel's
    // waker is on that hart (schedsim's wake-ups come from no core).
    const bool local = static_cast<int>(target) == env_.this_cpu() || static_cast<int>(target) == affine;
    if (percpu() && !local) {
        push_remote(t, target);
        return static_cast<int>(target);
    }
    Kick k = enqueue_woken(target, t, target, now);
    // Queued behind its waker by a synchronous wake-up: the waker is about
    // to sleep, and preempting it would delay what it still has to do (the
    // other wake-ups of its round); a tick preempts a waker that runs on.
    if (percpu() && static_cast<int>(target) == affine && k.preempt) k = {};
    kick(t, target, k);
    return static_cast<int>(target);
}

// Queue t (woken) on queue i at time now, under its lock, counting it there
// unless push_remote already did; returns which hart to wake or preempt for
// it (percpu: preempt hart `target` or nobody; single: wake an idle hart,
// else preempt the first hart whose running task it preempts).
template <class Env>
typename RunQueues<Env>::Kick RunQueues<Env>::enqueue_woken(unsigned i, RqTask& t, unsigned target, Time now) {
    Guard g(*this, i);
    Queue& q = q_[i];
    if (!t.counted) count(i, t, true);
    link(i, t);
    if (charge_at_wake_) charge_current(percpu() ? static_cast<int>(target) : -1, now);
    q.policy->enqueue(t.se, now);
    if (t.waking) waking_in(i);
    env_.on_enqueue(t, target, nr(i));
    if (percpu()) {
        RqTask* r = cur_[target];
        if (!r || r == &t) return {};
        const Kick preempt{static_cast<int>(target), true};
        if (q.policy->preempts(t.se, r->se)) return preempt;
        if (!outserved(*q.policy, t, *r, target, now, 1)) return {};
        q.policy->yield(r->se);  // r forfeits: asked again, after it
        return q.policy->preempts(t.se, r->se) ? preempt : Kick{};
    }
    for (unsigned c = 0; c < ncpus_; c++)
        if (!cur_[c] && env_.idle(c)) return {static_cast<int>(c), false};
    for (unsigned c = 0; c < ncpus_; c++) {
        const RqTask* r = cur_[c];
        if (r && r != &t && !env_.resched_pending(c) && q.policy->preempts(t.se, r->se))
            return {static_cast<int>(c), true};
    }
    return {};
}

template <class Env>
void RunQueues<Env>::push_remote(RqTask& t, unsigned target) {
    Queue& q = q_[target];
    count(target, t, true);
    if constexpr (Env::kConcurrent) {
        RqTask* head = __atomic_load_n(&q.wake_list, __ATOMIC_RELAXED);
        do {
            t.wake_next = head;
        } while (!__atomic_compare_exchange_n(&q.wake_list, &head, &t, true, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
    } else {
        t.wake_next = q.wake_list;
        q.wake_list = &t;
    }
    env_.ipi(target);
}

// Wake a hart for t, just queued on queue `target` (k: enqueue_woken's).
template <class Env>
void RunQueues<Env>::kick(const RqTask& t, unsigned target, Kick k) {
    if (k.hart >= 0) {
        const unsigned c = static_cast<unsigned>(k.hart);
        if (k.preempt) {
            env_.resched(c);
        } else {
            env_.ipi(c);
        }
    } else if (percpu()) {
        if (!ld(cur_[target]) && env_.idle(target)) {
            env_.ipi(target);
        } else {
            wake_thief(t, target);
        }
    }
}

// t waits on queue `target` behind the running task: an idle hart it may
// use (every queue was busy when it was placed, one has emptied since) is
// woken to steal it rather than sleep until its next tick, else a hart
// running a much lighter task is made to pick (below).
template <class Env>
void RunQueues<Env>::wake_thief(const RqTask& t, unsigned target) {
    for (unsigned c = 0; c < ncpus_; c++) {
        if (c != target && !ld(cur_[c]) && env_.idle(c) && mask_has(t.affinity, c)) {
            env_.ipi(c);
            return;
        }
    }
    kick_lighter(t, target);
}

// t, woken within a slice, waits on queue `target`: a hart running a task
// of at most half its weight reschedules, and its pick pulls t
// (pull_heavy). Hints: the pull re-checks under the locks.
template <class Env>
void RunQueues<Env>::kick_lighter(const RqTask& t, unsigned target) {
    for (unsigned c = 0; c < ncpus_; c++) {
        const RqTask* r = ld(cur_[c]);
        if (c == target || !r || !mask_has(t.affinity, c) || env_.resched_pending(c)) continue;
        if (outweighs(t.se.weight, ld(r->se.weight))) {
            env_.resched(c);
            return;
        }
    }
}

// drain() found the wake list not empty: queue it, oldest first.
template <class Env>
bool RunQueues<Env>::drain_list(unsigned cpu) {
    Queue& q = q_[cpu];
    RqTask* list;
    if constexpr (Env::kConcurrent) {
        list = __atomic_exchange_n(&q.wake_list, nullptr, __ATOMIC_ACQUIRE);
    } else {
        list = q.wake_list;
        q.wake_list = nullptr;
    }
    RqTask* fifo = nullptr;  // oldest first
    while (list) {
        RqTask* next = list->wake_next;
        list->wake_next = fifo;
        fifo = list;
        list = next;
    }
    bool preempt = false;
    while (fifo) {
        RqTask* t = fifo;
        fifo = t->wake_next;
        t->wake_next = nullptr;
        if (enqueue_woken(cpu, *t, cpu, env_.now()).preempt) {
            preempt = true;
        } else if (ld(cur_[cpu])) {
            wake_thief(*t, cpu);  // it waits here: an idle hart may steal it
        }
    }
    return preempt;
}

// ---- the running task -------------------------------------------------------

template <class Env>
inline RqTask* RunQueues<Env>::pick(unsigned cpu, Time now, bool reread) {
    const unsigned i = percpu() ? cpu : 0;
    if (percpu()) {
        drain(cpu);
        if (nr(i) == 0) steal(cpu, now);
        pull(cpu, now);  // one hart: no other queue holds a woken task
    }
    Guard g(*this, i);
    Queue& q = q_[i];
    if (reread) now = env_.now();
    if (percpu()) expire(i, now);
    Entity* e = q.policy->pick(cpu, now);
    if (!e) return nullptr;
    if (pick_forfeit_ && percpu() && ncpus_ > 1 && q.policy->forfeits() && !q.fresh.empty())
        e = forfeit_pick(i, task_of(e), cpu, now);
    RqTask& t = task_of(e);
    if (percpu()) {
        if (t.waking) {
            t.waking = false;
            waking_out(i);
        }
        t.moved = false;
    }
    env_.on_pick(t, i, nr(i));
    t.charged_until = now;
    Time turn = slice_;
    if (t.turn_left) {  // resumes a turn a preemption cut
        turn = t.turn_left;
        t.turn_left = 0;
    }
    t.turn_end = now + turn;
    set_current(cpu, &t);
    return &t;
}

template <class Env>
inline void RunQueues<Env>::put_back(RqTask& t, Time now, Yielded yielded) {
    unsigned src = 0;
    bool fresh = false, moved_out = false;
    {
        TaskGuard g(*this, t);
        const unsigned i = g.index();
        src = i;
        clear_current(t);
        if (yielded == Yielded::Yes) {
            q_[i].policy->yield(t.se);  // and its next turn is whole
        } else {
            suspend_turn(t, now);
        }
        if (!percpu() || ((t.affinity >> i) & 1) != 0) {  // i < kMax <= 64: mask_has's bound holds
            q_[i].policy->enqueue(t.se, now);
            env_.on_enqueue(t, i, nr(i));
            fresh = percpu() && t.in_fresh;
        } else {
            // Its affinity no longer allows this hart: it leaves the queue
            // (as if it stopped, keeping its lag) and is placed anew; the
            // move is reported as the queued case's is (on_migrate: the
            // kernel's Migrate record, schedsim's migration count).
            q_[i].policy->stop(t.se);
            unlink(i, t);
            uncount(i, t);
            t.migrations++;
            t.runnable.add_span(t.woke_at, now, half_life_);  // wake() starts a new stretch
            moved_out = true;
        }
    }
    // Put back within a slice of its wake-up (preempted by a woken task,
    // typically): another hart may take it as it may a woken task.
    if (fresh) kick_lighter(t, src);
    if (!moved_out) return;
    const int dst = wake(t, now, false);
    env_.on_migrate(t, src, static_cast<unsigned>(dst), MoveReason::Affinity);
}

template <class Env>
inline void RunQueues<Env>::stop(RqTask& t, Time now) {
    TaskGuard g(*this, t);
    const unsigned i = g.index();
    clear_current(t);
    q_[i].policy->stop(t.se);
    if (t.counted) {
        unlink(i, t);
        uncount(i, t);
    }
    t.last_ran = now;
    if (percpu()) t.runnable.add_span(t.woke_at, now, half_life_);  // outserved's share
}

template <class Env>
bool RunQueues<Env>::tick(unsigned cpu, Time now) {
    const unsigned i = percpu() ? cpu : 0;
    Guard g(*this, i);
    charge_current(static_cast<int>(cpu), now);
    if (percpu()) expire(i, now);
    const RqTask* t = cur_[cpu];
    if (!t) return false;
    return q_[i].policy->preempts_current(t->se) || (percpu() && heavy_waits_elsewhere(cpu, t->se.weight));
}

// percpu: another queue has a task waiting that was woken within a slice
// and may weigh twice `weight` (hints: the pick's pull_heavy decides).
template <class Env>
bool RunQueues<Env>::heavy_waits_elsewhere(unsigned cpu, u32 weight) const {
    for (CpuMask m = ld(fresh_mask_) & ~(CpuMask{1} << cpu); m; m &= m - 1) {
        const unsigned i = ctz64(m);
        if (i >= ncpus_) break;
        if (heavy_fresh(i, weight)) return true;
    }
    return false;
}

template <class Env>
void RunQueues<Env>::set_weight(RqTask& t, u32 weight, u8 level) {
    TaskGuard g(*this, t);
    const unsigned i = g.index();
    if (t.counted) {
        changed();
        if constexpr (Env::kConcurrent) {
            add(reweights_, u64{1});
        } else {
            for (unsigned c = 0; c < queues(); c++) q_[c].next_balance = 0;  // balance() is due
        }
        const u64 old = t.se.weight;
        add(loads_[i].load, static_cast<u64>(weight));
        sub(loads_[i].load, old);
        if (t.in_fresh) {
            add(q_[i].fresh_load, static_cast<u64>(weight));
            sub(q_[i].fresh_load, old);
        }
        if (t.member.linked()) {
            level_out(q_[i], t.se.level);
            level_in(q_[i], level);
        }
        if (t.fresh.linked()) {
            fresh_level(q_[i], t.se.level, false);
            fresh_level(q_[i], level, true);
        }
    }
    q_[i].policy->reweight(t.se, weight, level);
}

// The old policies let go of every task (each forgets it, so no hook of
// a task still points into an old policy: the queued ones are picked, in
// order, then forgotten), every task's policy part is cleared (the switch
// drops lag and credit), the new policies are built and published, and the
// drained tasks are queued in them in the order they left. Placement's
// hint (preempt_mask) calls a queue's policy without its lock, so a policy
// may still be in use just after it stops being current: make(i) builds
// in storage other than the current policy's (the owner alternates two),
// and before it runs no hint reader is left in any policy but the current
// ones (readers that come later find the current ones).
template <class Env>
template <class Make, class EachTask>
void RunQueues<Env>::switch_policy(Make make, Time now, EachTask each_task) {
    const unsigned n = queues();
    for (unsigned i = 0; i < n; i++) q_[i].lock.acquire();  // index order
    each_task([&](RqTask& t) {
        if (!t.se.queued) q_[queue_of(t)].policy->forget(t.se);
    });
    List<Entity, &Entity::link> drained;
    for (unsigned i = 0; i < n; i++) {
        P& old = *q_[i].policy;
        while (Entity* e = old.pick(i, now)) {
            old.forget(*e);
            drained.push_back(*e);
        }
    }
    each_task([](RqTask& t) { t.se.reset_part(); });
    if constexpr (Env::kConcurrent) {
        while (__atomic_load_n(&hint_readers_, __ATOMIC_ACQUIRE) != 0) {}
    }
    for (unsigned i = 0; i < n; i++) {
        P* p = make(i);
        if constexpr (Env::kConcurrent) {
            __atomic_store_n(&q_[i].policy, p, __ATOMIC_RELEASE);
        } else {
            q_[i].policy = p;
        }
    }
    while (Entity* e = drained.pop_front()) q_[queue_of(task_of(e))].policy->enqueue(*e, now);
    for (unsigned i = n; i-- > 0;) q_[i].lock.release();
}

}  // namespace q::sched
