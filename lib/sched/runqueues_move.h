// lib/sched/runqueues_move.h - the run-queue core's moves between per-hart
// queues: migration, stealing, pulling a woken lead, periodic balancing and
// affinity changes. Part of RunQueues<Env> (lib/sched/runqueues.h has the
// design and the locking rules); included at the end of runqueues.h only.
//
// Every move is decided on hints (loads read without locks, a sample of a
// queue's members taken under its lock and released) and re-checked under
// both queues' locks by migrate_locked before it happens: the task must
// still be queued on the source, counted there, and allowed on the
// destination. Migration keeps lag (balance.h migrate: EEVDF re-bases the
// vruntime from the source's V to the destination's); a moved task is not
// moved again for a rotation or a steal before it runs (RqTask::moved).
#pragma once

#include "lib/sched/runqueues.h"

namespace q::sched {

// Under both queues' locks: move t (believed queued on src) to dst if it
// still is. Returns whether it moved.
template <class Env>
bool RunQueues<Env>::migrate_locked(RqTask& t, unsigned src, unsigned dst, Time now, MoveReason why, bool forgive) {
    if (t.queue != static_cast<i32>(src) || !t.se.queued || !t.counted || !mask_has(t.affinity, dst)) return false;
    migrate(*q_[src].policy, *q_[dst].policy, t.se, now, forgive);
    if (t.waking) {  // the pull hint follows it
        waking_out(src);
        waking_in(dst);
    }
    const bool fresh = t.in_fresh;
    unlink(src, t);
    uncount(src, t);
    st(t.queue, static_cast<i32>(dst));
    count(dst, t, fresh);
    link(dst, t);
    t.moved = true;
    t.migrations++;
    env_.on_migrate(t, src, dst, why);
    return true;
}

template <class Env>
bool RunQueues<Env>::try_migrate(RqTask& t, unsigned src, unsigned dst, Time now, MoveReason why) {
    PairGuard g(*this, src, dst);
    return migrate_locked(t, src, dst, now, why);
}

// Under queue i's lock: f(task) for up to kScan members of queue i,
// round-robin (the next scan starts where this one stopped).
template <class Env>
template <class F>
void RunQueues<Env>::scan(unsigned i, F&& f) {
    Queue& q = q_[i];
    const u32 k = q.nmembers < kScan ? q.nmembers : kScan;
    RqTask* t = q.cursor ? q.cursor : q.members.front();
    for (u32 j = 0; j < k; j++) {
        RqTask* next = q.members.next(*t);
        f(*t);
        t = next ? next : q.members.front();
    }
    q.cursor = t;
}

// Queue i's least served task among `seen` (for rotations).
template <class Env>
void RunQueues<Env>::least_served(RqTask* const* seen, usize n, QueueLoad& l, u64 epoch) {
    for (usize j = 0; j < n; j++) {
        const RqTask& t = *seen[j];
        const u64 s = service(t, epoch);
        // l is one of view()'s QueueLoads (Loads is left uninitialised, and
        // view() fills every one a balance reads).
        // NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult)
        if (l.min_weight == 0 || behind(s, t.se.weight, l.min_service, l.min_weight)) {
            l.min_service = s;
            l.min_weight = t.se.weight;
        }
    }
}

// An empty queue takes the most behind waiting task of the queue with the
// most waiting.
template <class Env>
void RunQueues<Env>::steal(unsigned cpu, Time now) {
    Loads buf;
    const int victim = steal_victim(view(buf), ncpus_, cpu);
    if (victim < 0) return;
    const unsigned v = static_cast<unsigned>(victim);
    PairGuard g(*this, cpu, v);
    RqTask* best = nullptr;
    const u64 e = epoch(now);
    scan(v, [&](RqTask& t) {
        if (!t.se.queued || t.moved || !mask_has(t.affinity, cpu)) return;
        if (!best || behind(service(t, e), t.se.weight, service(*best, e), best->se.weight)) best = &t;
    });
    if (best) migrate_locked(*best, v, cpu, now, MoveReason::Steal);
}

// Before a pick: take another queue's lead if it is a woken task not run
// since, waiting behind one it did not preempt, and it beats this queue's
// lead (balance.h pull_beats). Only queues whose hint says they hold such
// a task are locked; the first that qualifies moves.
template <class Env>
bool RunQueues<Env>::pull_lead(unsigned cpu, Time now) {
    for (CpuMask m = ld(waking_mask_) & ~(CpuMask{1} << cpu); m; m &= m - 1) {
        const unsigned i = ctz64(m);
        if (i >= ncpus_) break;
        PairGuard g(*this, cpu, i);
        charge_current(static_cast<int>(i), now);
        const Lead l = q_[i].policy->lead();
        if (!l.e) continue;
        RqTask& t = task_of(l.e);
        const RqTask* r = cur_[i];
        if (!t.waking || t.moved || !r || q_[i].policy->preempts(t.se, r->se)) continue;
        if (!pull_beats(l, q_[cpu].policy->lead())) continue;
        if (migrate_locked(t, i, cpu, now, MoveReason::Steal)) return true;
    }
    return false;
}

// Before a pick, when pull_lead took nothing: a task woken within a slice,
// waiting on another queue (up to kScan of its fresh list), that weighs at
// least twice this queue's lead, which this hart would run meanwhile, moves
// here, its debt to the queue it leaves forgiven (Policy::arrive): what one
// shared queue does for it, the first hart free of heavier work taking it.
// (Issue 23 finding 3, the reniced benchmark on 2 harts: the nice -10
// threads waited for each other on one hart while the other ran a nice +10
// hog with nothing else queued, 1,158 of the hogs' 1,184 ms, against
// 125-127 ms each with one queue.) Only tasks woken within a slice (run
// since or not: one preempted by the task woken after it waits too):
// tasks that stay runnable are the balancer's, which keeps the weighted
// shares (pulling those for their weight broke them).
template <class Env>
void RunQueues<Env>::pull_heavy(unsigned cpu, Time now) {
    // The local lead is a member, so at least this heavy (0: no lead).
    const u32 lightest_here = ld(q_[cpu].min_weight);
    if (!lightest_here) return;
    for (CpuMask m = ld(fresh_mask_) & ~(CpuMask{1} << cpu); m; m &= m - 1) {
        const unsigned i = ctz64(m);
        if (i >= ncpus_) break;
        if (!heavy_fresh(i, lightest_here)) continue;  // none waits there that outweighs the lead
        PairGuard g(*this, cpu, i);
        const Lead local = q_[cpu].policy->lead();
        if (!local.e || !cur_[i]) continue;
        unsigned n = 0;
        for (RqTask* t = q_[i].fresh.front(); t && n < kScan; t = q_[i].fresh.next(*t), n++) {
            if (t->moved || !t->se.queued || !mask_has(t->affinity, cpu)) continue;
            if (!outweighs(t->se.weight, local.e->weight)) continue;
            if (migrate_locked(*t, i, cpu, now, MoveReason::Steal, true)) return;
        }
    }
}

// Queue i's load counting settled tasks only (a hint).
template <class Env>
u64 RunQueues<Env>::settled(unsigned i) const {
    const u64 fresh = ld(q_[i].fresh_load), load = ld(loads_[i].load);
    return load > fresh ? load - fresh : 0;
}

// Could a task of queue i move to a queue of load `dst_load`? Only one
// lighter than the difference of settled loads, or as heavy (a rotation),
// and only if one is waiting (judge_move): so only if the lightest is no
// heavier than the difference.
template <class Env>
bool RunQueues<Env>::could_move(unsigned i, u64 dst_load) const {
    if (ld(loads_[i].nr) <= ld(loads_[i].running)) return false;
    const u64 load = settled(i);
    if (load <= dst_load) return false;
    const u32 lightest = ld(q_[i].min_weight);
    return lightest != 0 && lightest <= load - dst_load;
}

// Periodic balancing for hart self (percpu; every two slices, staggered;
// balance() tests whether it is due):
// pull the move PullChooser likes best among up to kScan tasks of every
// queue that could give one. Loads count settled tasks only.
// schedsim (sequential) first asks quiet_until whether any balance could
// move a task before the loads or members change, and skips those that
// cannot (8 equal hogs on 3 cores: with 3 / 3 / 2 tasks the light hart
// otherwise searched for a rotation at every balance, 3.4 of them a move).
template <class Env>
void RunQueues<Env>::balance_due(unsigned self, Time now) {
    if constexpr (!Env::kConcurrent) {
        const Time until = balanced(self) ? kNoTime : quiet_until(self, now);
        if (until > now) {
            quiet_[self] = Quiet{version_, until};
            return;
        }
    }
    const u64 self_load = settled(self);
    CpuMask sources = 0;  // queues a task could come from
    for (unsigned i = 0; i < ncpus_; i++)
        if (i != self && could_move(i, self_load)) sources |= CpuMask{1} << i;
    if (!sources) return;
    Loads loads;  // what the chooser compares: settled loads, least served tasks
    QueueLoad* snap = loads.q;
    for (unsigned i = 0; i < ncpus_; i++) {
        snap[i] = QueueLoad{};
        snap[i].load = settled(i);
        snap[i].nr = ld(loads_[i].nr);
        snap[i].running = ld(loads_[i].running);
    }
    RqTask* seen[kScan];
    usize n = 0;
    const u64 e = epoch(now);
    {
        Guard g(*this, self);
        scan(self, [&](RqTask& t) { seen[n++] = &t; });
        least_served(seen, n, snap[self], e);
    }
    PullChooser pc(snap, self);
    for (; sources; sources &= sources - 1) {
        const unsigned i = ctz64(sources);
        Guard g(*this, i);
        n = 0;
        scan(i, [&](RqTask& t) { seen[n++] = &t; });
        least_served(seen, n, snap[i], e);
        for (usize j = 0; j < n; j++) {
            RqTask& t = *seen[j];
            if (t.se.queued && mask_has(t.affinity, self)) pc.offer(&t, i, t.se.weight, service(t, e), t.moved);
        }
    }
    if (pc.best()) try_migrate(*static_cast<RqTask*>(pc.best()), pc.src(), self, now, MoveReason::Balance);
}

// schedsim: no queue is heavier than self's by the lightest member weight
// of any queue, so none could give it a task (could_move); the figures are
// recomputed only after a change.
template <class Env>
bool RunQueues<Env>::balanced(unsigned self) {
    if (cached_ != version_) {
        cached_ = version_;
        max_settled_ = 0;
        lightest_all_ = ~u32{0};
        for (unsigned i = 0; i < ncpus_; i++) {
            if (settled(i) > max_settled_) max_settled_ = settled(i);
            if (q_[i].min_weight && q_[i].min_weight < lightest_all_) lightest_all_ = q_[i].min_weight;
        }
    }
    const u64 mine = settled(self);
    return max_settled_ <= mine || max_settled_ - mine < lightest_all_;
}

template <class Env>
typename RunQueues<Env>::Least RunQueues<Env>::least_member(unsigned i, u64 epoch) {
    Least l;
    for (RqTask* t = q_[i].members.front(); t; t = q_[i].members.next(*t)) {
        const u64 s = service(*t, epoch);
        const u32 w = t->se.weight;
        if (l.weight == 0 || behind(s, w, l.service, l.weight)) {
            l.service = s;
            l.weight = w;
        }
        if (w < l.lightest) l.lightest = w;
    }
    return l;
}

// Service queue i's members must gain, in all, before every one of them is
// ahead of src's least served (judge_move's condition for a rotation from
// src): sum over members k of floor(s * w_k / w) + 1 - s_k where positive.
template <class Env>
u64 RunQueues<Env>::deficit(unsigned i, u64 epoch, const Least& src) {
    u64 d = 0;
    for (RqTask* t = q_[i].members.front(); t; t = q_[i].members.next(*t)) {
        const u32 w = t->se.weight;
        const u64 need = (w == src.weight ? src.service : src.service * w / src.weight) + 1;
        const u64 have = service(*t, epoch);
        if (need > have) d += need - have;
    }
    return d;
}

// schedsim: a time before which no balance of hart self moves a task while
// version_ stays (now: one may move now). A source (could_move's) with a
// member lighter than the difference of loads may give one at any balance
// (an Improves, as soon as that member is queued): now. One whose lightest
// member is as heavy as the difference can only give a rotation, which
// needs its least served task behind every member of self's queue. Until
// the loads or members change, its least served only gains (within a
// half-life epoch), and self's members gain at most the time its hart runs
// from `base` (its current task was charged up to there), so not before
// they have gained deficit(): the verdict lasts until base + deficit, or
// the epoch's end. The deficit grows with the source's service per weight,
// so only the least served source's is computed (the earliest end). Queues
// of more than kScan members: now (a scan moves their cursor).
template <class Env>
Time RunQueues<Env>::quiet_until(unsigned self, Time now) {
    const u64 mine = settled(self), e = epoch(now);
    Least least;  // the least served of every source that can only rotate
    for (unsigned i = 0; i < ncpus_; i++) {
        const u64 load = settled(i);
        if (i == self || load <= mine || q_[i].min_weight == 0 || q_[i].min_weight > load - mine) continue;
        if (q_[i].nmembers > kScan || q_[self].nmembers > kScan) return now;
        const Least src = least_member(i, e);
        if (src.lightest < load - mine) return now;
        if (src.lightest > load - mine) continue;
        if (q_[self].nmembers == 0) return now;
        if (least.weight == 0 || behind(src.service, src.weight, least.service, least.weight)) least = src;
    }
    if (least.weight == 0) return kNoTime;
    const RqTask* r = cur_[self];
    const Time base = r && r->charged_until < now ? r->charged_until : now;
    const Time end = base + deficit(self, e, least);
    if (end <= now) return now;
    const Time epoch_end = (e + 1) * half_life_;
    return epoch_end < end ? epoch_end : end;
}

// Restrict t to the harts in mask (the caller keeps t from being woken or
// stopped meanwhile: the kernel holds its lock); false if mask names no
// hart. percpu: a queued t on a hart now excluded moves at once, a running
// one is rescheduled and re-placed when put back. single: stored only.
template <class Env>
bool RunQueues<Env>::set_affinity(RqTask& t, CpuMask mask, Time now) {
    const CpuMask harts = ncpus_ >= 64 ? ~CpuMask{0} : (CpuMask{1} << ncpus_) - 1;
    if ((mask & harts) == 0) return false;
    t.affinity = mask;
    if (!percpu()) return true;
    const int src = ld(t.queue);
    const unsigned hart = t.se.cpu;
    const int cpu = hart < ncpus_ && ld(cur_[hart]) == &t ? static_cast<int>(hart) : -1;  // running there
    if (t.se.queued && src >= 0 && !mask_has(mask, static_cast<unsigned>(src))) {
        Loads buf;
        const int dst = select_cpu(view(buf), ncpus_, -1, mask, false, t.se.weight);
        try_migrate(t, static_cast<unsigned>(src), static_cast<unsigned>(dst), now, MoveReason::Affinity);
        kick(t, static_cast<unsigned>(dst), Kick{});
    } else if (cpu >= 0 && !mask_has(mask, static_cast<unsigned>(cpu))) {
        env_.resched(static_cast<unsigned>(cpu));
    }
    return true;
}

}  // namespace q::sched
