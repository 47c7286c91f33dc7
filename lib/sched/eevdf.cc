// lib/sched/eevdf.cc - EEVDF (see eevdf.h for the model, the weight
// readjustment on several cpus, and the bounds).
#include "lib/sched/eevdf.h"

#include "lib/seam.h"

namespace q::sched {

namespace {

i64 clamp(i64 v, i64 lo, i64 hi) { return v < lo ? lo : (v > hi ? hi : v); }

}  // namespace

bool Eevdf::eligible(const Entity& e) const {
    return e.eevdf.vruntime <= virtual_time();  // exact: V is the floor of the average
}

// Where a task with saved lag vlag (measured against V including itself)
// goes so that its lag after joining equals vlag: v = V - vlag * (W + w) / W.
i64 Eevdf::place(const Entity& e) const {
    const i64 limit = lag_limit(e.eevdf.eweight);
    const i64 lag = clamp(e.eevdf.vlag, -limit, limit);
    if (total_weight_ == 0) return idle_v_ - lag;
    return virtual_time() - lag - lag * static_cast<i64>(e.eevdf.eweight) / static_cast<i64>(total_weight_);
}

// Sleeping lag (Linux's DELAY_DEQUEUE, equivalent at wake-up): a task that
// stops with negative lag would not be picked before V reaches its
// vruntime whether it sleeps or waits, so Linux leaves it queued (in the
// average, not pickable) until its lag reaches 0, then dequeues it with lag 0
// (DELAY_ZERO); a wake-up before that keeps its vruntime. Here it leaves the
// sums at stop and its lag is advanced at the wake-up by the virtual time
// that would have passed with it in the average: dt (now - stop time) of
// ncpus harts' service over the queue's weight plus its own, V's rate while
// every hart is busy; never past 0, so a sleeper is not rewarded either. An
// idle queue decays it at full rate (Linux picks, and so dequeues, a delayed
// task at once there). Measured in real time, not in this queue's V, so a
// task that wakes on another hart's queue decays the same. A sleep of 2^32
// time units or more clears it, as does one whose decay in fixed point would
// not fit 62 bits (never with the kernel's shift of 16; schedsim's shift is
// up to 30, sim.cc eevdf_vshift).
void Eevdf::decay(Entity& e, Time now) const {
    e.eevdf.vlag = decayed_lag(e, now);
    e.eevdf.delayed = false;
}

i64 Eevdf::decayed_lag(const Entity& e, Time now) const {
    if (e.eevdf.vlag >= 0) return e.eevdf.vlag;
    const Time dt = now > e.eevdf.run_until ? now - e.eevdf.run_until : 0;
    if (dt >= (Time(1) << 32)) return 0;
    const u64 x = dt * ncpus_;              // < 2^38 (kMaxCpus = 64)
    if (x >> (62 - shift_) != 0) return 0;  // x << shift_ would overflow: more than any debt
    const u64 dv = (x << shift_) / (total_weight_ + e.weight);
    return static_cast<u64>(-e.eevdf.vlag) <= dv ? 0 : e.eevdf.vlag + static_cast<i64>(dv);
}

// Where enqueue(woken, now) would put it here (decayed, clamped lag; the
// unfinished part of its request), then preempts()'s test against running.
// A woken task with negative lag is not eligible on joining, so it does
// not preempt; one with lag >= 0 is.
bool Eevdf::preempts_on(const Entity& woken, const Entity& running, Time now) const {
    const i64 limit = lag_limit(woken.weight);
    const i64 lag = clamp(woken.eevdf.delayed ? decayed_lag(woken, now) : woken.eevdf.vlag, -limit, limit);
    if (lag < 0) return false;
    if (!running.eevdf.on_cpu) return false;
    // Placement calls this without the queue's lock (a hint, re-checked by
    // the enqueue): read each sum once, so a change between two reads
    // cannot make W zero after it was tested (a division by zero).
    const i64 w = static_cast<i64>(__atomic_load_n(&total_weight_, __ATOMIC_RELAXED));
    const i64 sum = __atomic_load_n(&sum_wv_, __ATOMIC_RELAXED);
    i64 V = __atomic_load_n(&idle_v_, __ATOMIC_RELAXED);
    if (w != 0) {
        i64 q = sum / w;
        if (sum % w < 0) q--;  // floor
        V = __atomic_load_n(&v0_, __ATOMIC_RELAXED) + q;
    }
    if (running.eevdf.vruntime > V) return true;  // running is ineligible
    const i64 v = w == 0 ? V - lag : V - lag - lag * static_cast<i64>(woken.weight) / w;
    const Time r = woken.request ? woken.request : slice_;
    const i64 vs = static_cast<i64>((r << shift_) / woken.weight);
    const i64 rest = woken.eevdf.deadline - woken.eevdf.vruntime;
    return v + (rest <= 0 || rest > vs ? vs : rest) < running.eevdf.deadline;
}

void Eevdf::dequeue(Entity& e) {
    Q_ASSERT(e.queued);
    e.eevdf.vlag = virtual_time() - e.eevdf.vruntime;
    remove(e);
    leave(e);
    readjust();
}

// A running task that has run ahead of V (ineligible; the caller charged
// it up to now) yields to any eligible woken task, as Linux's pick_eevdf()
// drops an ineligible curr; an eligible one only to an earlier deadline.
bool Eevdf::preempts(const Entity& woken, const Entity& running) const {
    if (!eligible(woken)) return false;
    if (running.eevdf.on_cpu && !eligible(running)) return true;
    return woken.eevdf.deadline < running.eevdf.deadline;
}

// At a tick: running (charged up to now) is ineligible and a queued task is
// eligible with an earlier deadline.
bool Eevdf::preempts_current(const Entity& running) const {
    if (!running.eevdf.on_cpu || tree_.empty() || eligible(running)) return false;
    const i64 v = virtual_time();
    const Entity* e = tree_.first_passing([=](i64 x) { return x <= v; });
    return e && e->eevdf.deadline < running.eevdf.deadline;
}

// pick()'s choice without taking it: the eligible queued task with the
// earliest deadline (or, when none is eligible, the least ineligible).
Lead Eevdf::lead() const {
    if (tree_.empty()) return {};
    const i64 v = virtual_time();
    const i64 limit = v < tree_.root()->eevdf.min_vruntime ? tree_.root()->eevdf.min_vruntime : v;
    const Entity* e = tree_.first_passing([=](i64 x) { return x <= limit; });
    if (!e) return {};
    return {e, e->eevdf.deadline - v, e->eevdf.vruntime <= v};
}

// A running task (in the sums) leaves them with its old weight, is placed
// by its scaled lag against the others and joins again with the new weight.
void Eevdf::reweight(Entity& e, u32 weight, u8 level) {
    Q_ASSERT(weight > 0);
    const bool was_queued = e.queued;
    const bool running = e.eevdf.on_cpu && !was_queued;
    if (was_queued || running) {
        e.eevdf.vlag = virtual_time() - e.eevdf.vruntime;
        if (was_queued) remove(e);
        leave(e);  // now eweight == weight, vlag in its units
    }
    const i64 rest = e.eevdf.deadline - e.eevdf.vruntime;
    e.eevdf.vlag = e.eevdf.vlag * static_cast<i64>(e.weight) / static_cast<i64>(weight);
    const i64 new_rest = rest * static_cast<i64>(e.weight) / static_cast<i64>(weight);
    e.weight = weight;
    e.eevdf.eweight = weight;
    e.level = level;
    e.eevdf.vrem = 0;
    if (was_queued) {
        e.eevdf.deadline = e.eevdf.vruntime + new_rest;
        enqueue(e, 0);  // placed by its lag; readjusts
    } else {
        e.eevdf.vruntime = place(e);
        e.eevdf.deadline = e.eevdf.vruntime + new_rest;
        if (running) {
            join(e);
            readjust();
        } else {
            readjust();  // (a sleeping task's old weight may have been the max)
        }
    }
}

// A new request takes effect at the task's next deadline, or at once if
// what is left of the current one is longer than the new request (a queued
// task is re-inserted at its earlier deadline; vruntime and lag unchanged).
void Eevdf::set_request(Entity& e, Time request) {
    e.request = request;
    if (!e.queued && !e.eevdf.on_cpu) e.eevdf.eweight = e.weight;  // outside the sums: its own weight
    const i64 vs = vrequest(e);
    if (e.eevdf.deadline - e.eevdf.vruntime <= vs) return;
    const bool queued = e.queued;
    if (queued) remove(e);
    e.eevdf.deadline = e.eevdf.vruntime + vs;
    if (queued) insert(e, true);
}

void Eevdf::set_cpus(unsigned n) {
    ncpus_ = n < 1 ? 1 : (n > kMaxCpus ? kMaxCpus : n);
    readjust();
}

// The scan of eevdf.h: the m heaviest weights (descending, insertion into a
// small array), then k and the cap, then every member whose effective
// weight changes is re-weighted.
void Eevdf::readjust_slow() {
    const unsigned m = ncpus_;
    u32 cap = 0;  // none
    if (m > 1 && members_count_ > 0) {
        u32 top[kMaxCpus];
        unsigned n = 0;
        for (Entity& x : members_) {
            const u32 w = x.weight;
            if (n == m && w <= top[m - 1]) continue;
            unsigned i = n < m ? n++ : m - 1;
            for (; i > 0 && top[i - 1] < w; i--) top[i] = top[i - 1];
            top[i] = w;
        }
        max_weight_ = top[0];  // NOLINT(clang-analyzer-core.uninitialized.Assign): members_count_ > 0 members wrote it
        if (members_count_ <= m) {
            // Everyone has a cpu, which is all any task can get: equal
            // effective weights, lags kept (see eevdf.h: clearing them
            // wiped the credit of heavy tasks that sleep).
            settle();
            return;
        } else {
            // k < m: at k = m - 1 the test is top[m-1] <= rest, which holds.
            u64 rest = real_weight_;
            unsigned k = 0;
            // top[0..n) were written, and n >= m here (more members than m).
            // NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult)
            while (k<m&& static_cast<u64>(top[k]) * (m - k)> rest) rest -= top[k++];
            Q_ASSERT(k < m);
            if (k > 0) cap = static_cast<u32>(rest / (m - k));  // >= top[k] >= 1
        }
    }
    usize capped = 0;
    for (Entity& x : members_) {
        const u32 target = (cap != 0 && x.weight > cap) ? cap : x.weight;
        if (target != x.eevdf.eweight) set_eweight(x, target);
        if (target != x.weight) capped++;
    }
    capped_ = capped;
}

// At most m members on m cpus: every member gets eweight = the least weight
// among them, keeping its lag in time units (set_eweight) up to two slices.
void Eevdf::settle() {
    u32 least = 0;
    for (Entity& x : members_)
        if (least == 0 || x.weight < least) least = x.weight;
    usize capped = 0;
    for (Entity& x : members_) {
        if (x.eevdf.eweight != least) set_eweight(x, least);
        if (x.eevdf.eweight != x.weight) capped++;
    }
    capped_ = capped;
    // Nobody competes, so no lag grows beyond what placement allows (two
    // slices): a light task running ahead on its own cpu while a heavy one
    // was preempted by short-lived wakers must not carry an unbounded debt
    // (it starved when a third task arrived: issue 12's 2-hart case).
    const i64 v = virtual_time();
    for (Entity& x : members_) {
        const i64 limit = lag_limit(x.eevdf.eweight);
        const i64 lag = v - x.eevdf.vruntime;
        if (lag >= -limit && lag <= limit) continue;
        const bool queued = x.queued;
        if (queued) remove(x);
        sub_sums(x);
        const i64 nv = v - (lag < 0 ? -limit : limit);
        x.eevdf.deadline += nv - x.eevdf.vruntime;
        x.eevdf.vruntime = nv;
        x.eevdf.vrem = 0;
        add_sums(x);
        if (queued) insert(x, true);
    }
}

// A member (queued or running) changes effective weight keeping its lag in
// time units (lag * eweight) and the rest of its request: it leaves the
// sums, is placed against the others by the scaled lag (not clamped: this
// is not a wake-up) and joins again; a queued one is re-inserted in the tree.
// The member list is not touched (readjust_slow iterates over it).
void Eevdf::set_eweight(Entity& e, u32 w) {
    Q_ASSERT(w > 0);
    const bool queued = e.queued;
    const i64 old = e.eevdf.eweight;
    const i64 lag = (virtual_time() - e.eevdf.vruntime) * old / w;
    const i64 rest = (e.eevdf.deadline - e.eevdf.vruntime) * old / w;
    if (queued) remove(e);
    sub_sums(e);
    e.eevdf.eweight = w;
    e.eevdf.vrem = 0;
    if (total_weight_ != 0) {
        e.eevdf.vruntime = virtual_time() - lag - lag * static_cast<i64>(w) / static_cast<i64>(total_weight_);
    }
    const i64 vs = vrequest(e);
    e.eevdf.deadline = e.eevdf.vruntime + (rest <= 0 || rest > vs ? vs : rest);
    e.eevdf.vlag = lag;
    add_sums(e);
    if (queued) insert(e, true);
}

}  // namespace q::sched
