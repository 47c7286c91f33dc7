// lib/sched/balance.h - placement and load balancing for per-cpu run queues.
//
// Pure decisions over a snapshot of the queues (QueueLoad per cpu), made
// by the run-queue core (lib/sched/runqueues.h, which the kernel and
// schedsim run) and host tests; the caller owns the queues, their locks and
// the task lists. Snapshots may be stale (the
// kernel reads other harts' counters without their locks): every decision
// is a hint that the caller re-checks under the locks before acting, and a
// stale one costs at most a needless or missed move.
//
// Load is the sum of the weights of a queue's tasks, queued and running (a
// task counts on the queue it was last put on until it stops).
//
//   select_cpu   where a new or woken task goes: its previous cpu if that
//                queue is empty; else any empty queue it may use (scanning
//                from prev + 1, so wake-ups spread); else `sync`, the
//                waker's cpu, for a synchronous wake-up whose waker is about
//                to sleep and runs there with nothing else the woken task
//                does not outweigh (the caller decides; -1: none; Linux
//                wake_affine_idle, WF_SYNC); else a cpu whose
//                running task it would preempt (`preempts`, bit c: the
//                caller asked the policy, Policy::preempts_on): prev if it
//                is one, else the first from prev + 1; else its previous
//                cpu if `warm` (it ran there recently: its cache may hold
//                its data) and that queue is at most its own weight heavier
//                than the lightest; else the least loaded queue (ties: fewer
//                tasks, then the lowest index). Only cpus in `allowed`.
//                (Issue 23 finding 3: without the preemption rule a woken
//                latency-sensitive task went to the least loaded queue and
//                waited out a hog's slice there while on another hart it
//                would have preempted at once.)
//   steal_victim a cpu whose queue emptied pulls (work stealing): from the
//                queue with the most waiting (queued, not running) tasks.
//   busiest      periodic balancing: the most loaded other queue, if its
//                load exceeds ours.
//   judge_move   moving a queued task of weight w from a queue of load ls to
//                one of load ld: Improves if w < ls - ld (the larger of the
//                two loads drops); Rotates if w == ls - ld and the source's
//                least served task is behind the destination's (less service
//                per weight): the loads only swap, so the source becomes the
//                light queue and its tasks catch up; equal tasks so take
//                turns on the lighter queue, which is what makes 8 equal
//                hogs on 3 cpus fair; No otherwise (the imbalance would grow).
//   PullChooser  periodic balancing for cpu `self`: the caller offers every
//                queued task of another queue that may run on self (one
//                moved since it last ran only for a move that Improves:
//                rotating it again before it runs would be ping-pong, but it
//                must be able to leave a queue that a short-lived waker made
//                look light);
//                the chooser keeps the best move: one that Improves (the
//                one leaving the least imbalance |ls - ld - 2w| between the
//                two queues, then the task most behind) before one that
//                Rotates (the task most ahead leaves, the source's others
//                gain). Every queue is considered, not the first busiest
//                one only, so the turns go round every queue.
//   behind       service-per-weight order (a's service / weight < b's),
//                exact in 64 bits for service < 2^47 time units.
//   Service      the service a rotation compares: CPU time with a half-life
//                (halved every `half_life` time units, in whole steps), so
//                a head start (a task forked earlier) is forgotten instead
//                of being paid back by fewer turns on the light queue.
//   migrate      moves a queued entity between two policy instances keeping
//                its lag: src.dequeue() records vlag = V_src - v, and
//                dst.enqueue() (not a requeue: the entity is not on a cpu)
//                places it at v = V_dst - vlag (EEVDF: the vruntime is re-based
//                from V_src to V_dst; the lag clamp of placement applies).
//                The caller holds both queues' locks.
#pragma once

#include "lib/sched/policy.h"

namespace q::sched {

using CpuMask = u64;  // bit c: may run on cpu c (kMaxCpus == 64)
inline constexpr CpuMask kAllCpus = ~CpuMask{0};

constexpr bool mask_has(CpuMask m, unsigned cpu) { return cpu < kMaxCpus && ((m >> cpu) & 1) != 0; }

struct QueueLoad {
    u64 load = 0;     // sum of weights of the queue's tasks (queued and running)
    u32 nr = 0;       // the queue's tasks (queued and running)
    u32 running = 0;  // 1 if a task of this queue is on its cpu
    // The task with the least service per weight on the queue (for
    // rotations; min_weight 0: unknown or empty).
    u64 min_service = 0;
    u32 min_weight = 0;
};

int select_cpu(const QueueLoad* q, unsigned n, int prev, CpuMask allowed, bool warm, u32 weight, CpuMask preempts = 0,
               int sync = -1);
int steal_victim(const QueueLoad* q, unsigned n, unsigned self);
// A pick on a per-cpu queue pulls another queue's lead (a woken task that
// has not run since: the caller checks) when it is eligible there and due
// sooner than the local lead, or the local queue has no eligible lead.
// Without it a woken task placed behind a busy hart waited there while
// another hart picked a hog (issue 23 finding 3).
constexpr bool pull_beats(const Lead& remote, const Lead& local) {
    return remote.e && remote.eligible && (!local.e || !local.eligible || remote.due < local.due);
}
int busiest(const QueueLoad* q, unsigned n, unsigned self);

enum class Move : u8 { No, Rotates, Improves };  // in order of preference

constexpr bool behind(u64 service_a, u32 weight_a, u64 service_b, u32 weight_b) {
    return service_a * weight_b < service_b * weight_a;
}

// Inline: a balance judges every task it is offered.
constexpr Move judge_move(const QueueLoad& src, const QueueLoad& dst, u32 weight) {
    if (weight == 0 || src.load <= dst.load) return Move::No;
    const u64 diff = src.load - dst.load;
    if (weight < diff) return Move::Improves;
    if (weight == diff && src.min_weight != 0 &&
        (dst.min_weight == 0 || behind(src.min_service, src.min_weight, dst.min_service, dst.min_weight)))
        return Move::Rotates;
    return Move::No;
}

class PullChooser {
  public:
    PullChooser(const QueueLoad* q, unsigned self) : q_(q), self_(self) {}

    // moved: the task was migrated and has not run since; it may still move
    // to lower an imbalance, but not for a rotation (no ping-pong).
    void offer(void* task, unsigned src, u32 weight, u64 service, bool moved = false) {
        if (src == self_) return;
        const Move m = judge_move(q_[src], q_[self_], weight);
        if (m == Move::No || (moved && m == Move::Rotates)) return;
        // What is left of the imbalance between the two queues after it.
        const u64 diff = q_[src].load - q_[self_].load;  // > 0: judge_move
        const u64 twice = 2 * static_cast<u64>(weight);
        const u64 left = diff > twice ? diff - twice : twice - diff;
        if (best_) {
            if (m < move_) return;
            if (m == move_) {
                // Improves: the least imbalance left, then the most behind;
                // Rotates: the most ahead first.
                bool better;
                if (m == Move::Improves) {
                    better = left < left_ || (left == left_ && behind(service, weight, service_, weight_));
                } else {
                    better = behind(service_, weight_, service, weight);
                }
                if (!better) return;
            }
        }
        left_ = left;
        best_ = task;
        src_ = src;
        move_ = m;
        service_ = service;
        weight_ = weight;
    }
    void* best() const { return best_; }
    unsigned src() const { return src_; }
    Move move() const { return move_; }

  private:
    const QueueLoad* q_;
    unsigned self_;
    void* best_ = nullptr;
    unsigned src_ = 0;
    Move move_ = Move::No;
    u64 service_ = 0;
    u32 weight_ = 0;
    u64 left_ = 0;
};

struct Service {
    u64 value = 0;
    u64 epoch = 0;  // now / half_life when value was last decayed

    // value as of `now`. Every task halves at the same instants (multiples
    // of half_life), so values stay comparable.
    constexpr u64 at(Time now, Time half_life) const { return in_epoch(half_life ? now / half_life : 0); }
    // value in half-life epoch e (= now / half_life: one division for a
    // whole scan).
    constexpr u64 in_epoch(u64 e) const {
        if (e <= epoch) return value;
        const u64 h = e - epoch;
        return h >= 64 ? 0 : value >> h;
    }
    // Account `ran` at `now`.
    constexpr void add(Time ran, Time now, Time half_life) { add_in_epoch(ran, half_life ? now / half_life : 0); }
    // Account `ran` in half-life epoch e (decaying first only when e is a
    // new epoch, as at() would).
    constexpr void add_in_epoch(Time ran, u64 e) {
        if (e > epoch) {
            const u64 h = e - epoch;
            value = h >= 64 ? 0 : value >> h;
            epoch = e;
        }
        value += ran;
    }
    // Account the stretch [from, to) as if each unit of it were added
    // when it passed (the part in an earlier epoch halved once for each
    // epoch since); O(1) per epoch crossed, at most 64.
    constexpr void add_span(Time from, Time to, Time half_life) {
        if (to <= from) return;
        if (half_life == 0) return add_in_epoch(to - from, 0);
        const u64 e0 = from / half_life, e = to / half_life;
        u64 v = e == e0 ? to - from : to - e * half_life;
        for (u64 k = e - e0 >= 64 ? e - 63 : e0; k < e; k++) {
            const Time start = k == e0 ? from : k * half_life;
            v += ((k + 1) * half_life - start) >> (e - k);
        }
        add_in_epoch(v, e);
    }
};

// A task of weight `heavy` is moved to, or makes pick, a hart that would run
// one of weight `light` instead (RunQueues::pull_heavy, kick_lighter).
constexpr bool outweighs(u32 heavy, u32 light) { return heavy >= 2 * u64{light}; }

inline void migrate(Policy& src, Policy& dst, Entity& e, Time now, bool forgive = false) {
    src.dequeue(e);  // queued, so not marked running (EEVDF's on_cpu) either
    if (forgive) dst.arrive(e);
    dst.enqueue(e, now);
}

}  // namespace q::sched
