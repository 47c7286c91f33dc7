// kernel/proc/runqueue.cc - the run queues: the policy library inside the kernel.
//
// Every queue (one in single mode, one per hart in percpu mode) holds one
// instance of every policy, constructed at boot into static storage (no
// heap, no global constructors) with the kernel's configuration: Linux nice
// weights, price 1024, time in timer cycles, the current slice, EEVDF shift
// 16. One policy kind is current on every queue; a queue's policies are
// called only under its lock.
//
// Protocol with kernel/proc/sched.cc: rq_pick() removes a process and
// records the pick time in running_since; when the process stops running,
// sched_switch() charges it (rq_charge) and, if it is still runnable, puts
// it back (rq_enqueue) at pick time + time charged, so a policy can tell
// "put back right after running" from "woke up"; otherwise (sleeping,
// zombie) it reports the stop (rq_stop). The running processes are also
// charged up to now before a wake-up is placed on their queue (the target
// hart's, or every hart's with one shared queue) and at every timer
// interrupt (rq_tick), so a placement or a comparison never sees a virtual
// time that leaves out a current run (Linux: update_curr() before
// place_entity(); without it EEVDF credited a sleeper with its sleep: 0.5000
// of the CPU beside a hog where the fluid share is 0.4286, see
// tests/host/sched_protocol_test.cc). Proc::charged_until, under the queue's
// lock, says how far a picked process is charged. A process counts in its queue's
// load (sum of weights) and nr from rq_wake until rq_stop (Proc::rq_counted).
//
// Remote wake-ups (percpu): a process woken for another hart's queue is
// not enqueued by the waker; it is pushed on that hart's wake list (a
// lock-free stack: compare-and-swap on the head) and the hart is sent an
// IPI; the hart moves the list into its own queue under its own lock
// (rq_drain, from the IPI and before every pick) and decides there whether
// the woken process preempts what it runs. So a wake-up never takes
// another hart's queue lock (Linux: the ttwu wake list); only stealing and
// balancing do. On the list a process is Runnable and counted in the
// queue's load (placement sees it) but not queued: stealing and balancing
// pass it by.
//
// percpu mode: rq_wake places by select_cpu (the previous hart if its queue
// is empty, else an empty queue, else a hart whose running process the woken
// one would preempt there - Policy::preempts_on, unlocked hints, the IPI of
// the remote wake-up then preempts - else the previous one if the process ran
// there within a slice and it is not more than its weight heavier, else the
// least loaded); an empty queue steals the most behind waiting process of
// the queue with the most waiting; before every pick a hart pulls another
// queue's lead if it is a woken process not run since, waiting behind a
// process it did not preempt, that beats its own lead (pull; RunQueue.waking
// says which queues hold one); rq_balance (every two slices per hart,
// staggered) pulls by PullChooser: a move that lowers the larger load (the
// one leaving the least imbalance), else an equal-load rotation that makes
// fair shares of equal tasks. Loads for balancing count only processes
// runnable for a slice or more (short-lived wakers are ignored). "Behind"
// compares CPU time per weight with a half-life of 64 slices
// (Proc::bal_service), so an old head start is forgotten. Candidates
// are found by an unlocked scan of the process table (hints) and re-checked
// under both queue locks; a moved process is not moved again before it runs.
// Migration keeps lag (lib/sched/balance.h migrate: EEVDF re-bases the
// vruntime from the source's V to the destination's).
//
// Switching policy drains every queued process from the old policy into
// the new one of the same queue, and takes the running processes out of the
// old policy's bookkeeping (stop; the new one sees them from their next
// enqueue); their lag is reset.
#include "kernel/proc/runqueue.h"

#include "kernel/arch/riscv/plic.h"
#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/obs/trace.h"
#include "kernel/proc/internal.h"
#include "lib/sched/balance.h"
#include "lib/sched/registry.h"

namespace q {

namespace {

struct RunQueue {
    SpinLock lock{"runqueue"};
    sched::PolicyStorage storage[sched::kPolicyKinds];
    sched::Policy* policies[sched::kPolicyKinds] = {};
    // Guarded by lock; read without it as hints by other harts.
    u64 load = 0;               // sum of the weights of its processes (queued, running or
    u32 nr = 0;                 // its processes                     on its wake list)
    u64 next_balance = 0;       // private to the owning hart
    Proc* wake_list = nullptr;  // remote wake-ups, pushed lock-free (newest first)
    u32 waking = 0;             // queued woken processes not run since (pull's hint)
    // Picked from this queue and not yet put back or stopped, by hart
    // (charged before a wake-up is placed: charge_current).
    Proc* curr[param::kMaxCpus] = {};
    // Lock statistics (guarded by lock; updated right after acquiring it).
    u64 acquisitions = 0;
    u64 contentions = 0;
    u64 spin_cycles = 0;
    u64 handoffs = 0;      // acquisitions by another hart than the last holder
    int last_holder = -1;  // hart that last held the lock

    void acquire() {
        const u64 waited = lock.acquire_timed();
        acquisitions++;
        const int me = cpuid();
        if (me != last_holder) {
            if (last_holder >= 0) handoffs++;
            last_holder = me;
        }
        if (waited) {
            contentions++;
            spin_cycles += waited;
        }
    }
    void release() { lock.release(); }
};

// RAII: one queue's lock, counted.
class RqLock {
  public:
    explicit RqLock(RunQueue& q) : q_(q) { q_.acquire(); }
    ~RqLock() { q_.release(); }
    RqLock(const RqLock&) = delete;
    RqLock& operator=(const RqLock&) = delete;

  private:
    RunQueue& q_;
};

constinit RunQueue g_rqs[param::kMaxCpus];
constinit unsigned g_kind = 0;  // index of the current policy kind
constinit bool g_percpu = true;
constinit int g_ncpus = 1;
constinit u64 g_slice = 1;
constinit u64 g_half_life = 64;  // of Proc::bal_service: 64 slices

u64 service(const Proc& p, u64 now) { return p.bal_service.at(now, g_half_life); }

sched::Policy& policy(RunQueue& q) { return *q.policies[g_kind]; }
int queue_index(const Proc* p) { return g_percpu && p->rq >= 0 ? p->rq : 0; }

// Lock the queue p is on; p->rq may change until its queue's lock is held.
RunQueue& lock_queue_of(Proc* p) {
    for (;;) {
        const int i = queue_index(p);
        g_rqs[i].acquire();
        if (queue_index(p) == i) return g_rqs[i];
        g_rqs[i].release();
    }
}

// RAII for lock_queue_of.
class QueueGuard {
  public:
    explicit QueueGuard(Proc* p) : q_(lock_queue_of(p)) {}
    ~QueueGuard() { q_.release(); }
    QueueGuard(const QueueGuard&) = delete;
    QueueGuard& operator=(const QueueGuard&) = delete;
    RunQueue& queue() { return q_; }

  private:
    RunQueue& q_;
};

// Two queues' locks in index order.
class PairGuard {
  public:
    PairGuard(int a, int b) : lo_(a < b ? a : b), hi_(a < b ? b : a) {
        g_rqs[lo_].acquire();
        g_rqs[hi_].acquire();
    }
    ~PairGuard() {
        g_rqs[hi_].release();
        g_rqs[lo_].release();
    }
    PairGuard(const PairGuard&) = delete;
    PairGuard& operator=(const PairGuard&) = delete;

  private:
    int lo_, hi_;
};

// Unlocked snapshot of every queue's load (hints).
void snapshot(sched::QueueLoad* out) {
    for (int i = 0; i < g_ncpus; i++) {
        out[i] = sched::QueueLoad{};
        out[i].load = __atomic_load_n(&g_rqs[i].load, __ATOMIC_RELAXED);
        out[i].nr = __atomic_load_n(&g_rqs[i].nr, __ATOMIC_RELAXED);
        out[i].running = g_cpus[i].proc ? 1 : 0;
    }
}

// load and nr change by atomic adds: a remote wake-up counts its process
// when it pushes it (so the next placement sees it), without the lock.
void count(RunQueue& q, Proc* p) {
    __atomic_fetch_add(&q.load, p->se.weight, __ATOMIC_RELAXED);
    __atomic_fetch_add(&q.nr, 1, __ATOMIC_RELAXED);
    p->rq_counted = true;
}

void uncount(RunQueue& q, Proc* p) {
    __atomic_fetch_sub(&q.load, p->se.weight, __ATOMIC_RELAXED);
    __atomic_fetch_sub(&q.nr, 1, __ATOMIC_RELAXED);
    p->rq_counted = false;
}

// Move p (believed queued on src) to dst if it still is; the caller holds
// both queues' locks. Returns whether it moved.
bool migrate_locked(Proc* p, int src, int dst, u64 now, trace::MigrateReason why) {
    if (p->rq != src || !p->se.queued || !p->rq_counted || !sched::mask_has(p->affinity, static_cast<unsigned>(dst)))
        return false;
    sched::migrate(policy(g_rqs[src]), policy(g_rqs[dst]), p->se, now);
    if (p->woken) {  // the pull hint follows it
        if (g_rqs[src].waking) g_rqs[src].waking--;
        g_rqs[dst].waking++;
    }
    uncount(g_rqs[src], p);
    p->rq = dst;
    count(g_rqs[dst], p);
    p->moved = true;
    p->stat_migrations++;
    trace_migrate(p->tid, src, dst, why);
    return true;
}

bool try_migrate(Proc* p, int src, int dst, u64 now, trace::MigrateReason why) {
    PairGuard g(src, dst);
    return migrate_locked(p, src, dst, now, why);
}

// The most behind waiting process of queue src that may run on dst.
Proc* steal_candidate(int src, int dst, u64 now) {
    Proc* best = nullptr;
    for (Proc& p : g_procs) {
        if (p.rq != src || !p.se.queued || p.moved || !sched::mask_has(p.affinity, static_cast<unsigned>(dst)))
            continue;
        if (!best || sched::behind(service(p, now), p.se.weight, service(*best, now), best->se.weight)) best = &p;
    }
    return best;
}

void steal(int cpu, u64 now) {
    sched::QueueLoad q[param::kMaxCpus];
    snapshot(q);
    const int victim = sched::steal_victim(q, static_cast<unsigned>(g_ncpus), static_cast<unsigned>(cpu));
    if (victim < 0) return;
    if (Proc* p = steal_candidate(victim, cpu, now)) try_migrate(p, victim, cpu, now, trace::MigrateReason::Steal);
}

// p waits on queue `target` behind the running process: an idle hart it may
// use (every queue was busy when it was placed, one has emptied since) is
// woken to steal it rather than sleep until its next tick.
void wake_thief(Proc* woken, int target) {
    for (int i = 0; i < g_ncpus; i++) {
        if (i != target && g_cpus[i].proc == nullptr && g_cpus[i].idle &&
            sched::mask_has(woken->affinity, static_cast<unsigned>(i))) {
            send_ipi(i);
            return;
        }
    }
}

// Wake a hart for p, just queued on queue `target`. percpu: `preempt` says
// (decided under the target's lock) whether p should preempt the process
// running there.
void kick(Proc* woken, int target, bool preempt) {
    if (g_percpu) {
        Cpu& c = g_cpus[target];
        if (c.proc == nullptr && c.idle) {
            send_ipi(target);
            return;
        }
        if (preempt) {
            c.need_resched = true;
            send_ipi(target);
            return;
        }
        wake_thief(woken, target);
        return;
    }
    // One queue: an idle hart takes it at once; otherwise preempt a hart
    // whose running process the woken one should preempt. Reads of other
    // harts' state are hints: a stale one costs one spurious reschedule.
    for (int i = 0; i < g_ncpus; i++) {
        if (g_cpus[i].proc == nullptr && g_cpus[i].idle) {
            send_ipi(i);
            return;
        }
    }
    RqLock g(g_rqs[0]);
    for (int i = 0; i < g_ncpus; i++) {
        Proc* running = g_cpus[i].proc;
        if (running && running != woken && policy(g_rqs[0]).preempts(woken->se, running->se)) {
            g_cpus[i].need_resched = true;
            send_ipi(i);
            return;
        }
    }
}

// Under queue q's lock: should p, just queued there, preempt what runs on
// hart `target` (percpu)?
bool should_preempt(RunQueue& q, Proc* p, int target) {
    Proc* running = g_cpus[target].proc;
    return running && running != p && running->rq == target && policy(q).preempts(p->se, running->se);
}

bool same(const char* a, const char* b) { return strncmp(a, b, 16) == 0; }

// Under q's lock: charge p (picked from q) up to `end` for what was not
// charged yet.
void charge_to(RunQueue& q, Proc* p, u64 end) {
    if (end <= p->charged_until) return;
    const u64 ran = end - p->charged_until;
    p->charged_until = end;
    policy(q).charge(p->se, ran);
    p->bal_service.add(ran, end, g_half_life);
}

// Under q's lock, before anything is placed on q or compared with what runs
// on hart `cpu` (-1: every hart; one shared queue): charge the running
// processes up to now, so the virtual time includes their current runs
// (Linux: update_curr() before place_entity()).
void charge_current(RunQueue& q, int cpu, u64 now) {
    if (cpu >= 0) {
        if (q.curr[cpu]) charge_to(q, q.curr[cpu], now);
        return;
    }
    for (int i = 0; i < g_ncpus; i++)
        if (q.curr[i]) charge_to(q, q.curr[i], now);
}

// p, picked from q, is put back or stops: no hart runs it from q any more.
void clear_current(RunQueue& q, Proc* p) {
    for (int i = 0; i < g_ncpus; i++)
        if (q.curr[i] == p) q.curr[i] = nullptr;
}

// Bit c: p, woken, would preempt what runs on hart c (Policy::preempts_on).
// Hints read without c's lock, as the loads are: rq_drain decides there.
u64 preempt_mask(const Proc* p, u64 now) {
    u64 m = 0;
    for (int c = 0; c < g_ncpus; c++) {
        const Proc* r = g_cpus[c].proc;
        if (!r || r == p || r->rq != c || !sched::mask_has(p->affinity, static_cast<unsigned>(c))) continue;
        if (policy(g_rqs[c]).preempts_on(p->se, r->se, now)) m |= 1ull << c;
    }
    return m;
}

// Before a pick: take another queue's lead if it is a woken process not run
// since, waiting behind one it did not preempt, and it beats this queue's
// lead (balance.h pull_beats). Only queues whose hint says they hold such
// a process are locked (recorded as a steal in traces).
void pull(int cpu, u64 now) {
    for (int i = 0; i < g_ncpus; i++) {
        if (i == cpu || __atomic_load_n(&g_rqs[i].waking, __ATOMIC_RELAXED) == 0) continue;
        PairGuard g(cpu, i);
        RunQueue& q = g_rqs[i];
        charge_current(q, i, now);
        const sched::Lead l = policy(q).lead();
        Proc* p = l.e ? static_cast<Proc*>(l.e->owner) : nullptr;
        const Proc* r = q.curr[i];
        if (!p || !p->woken || p->moved || !r || policy(q).preempts(p->se, r->se)) continue;
        if (!sched::pull_beats(l, policy(g_rqs[cpu]).lead())) continue;
        if (migrate_locked(p, i, cpu, now, trace::MigrateReason::Steal)) return;
    }
}

}  // namespace

void rq_init(const RqSetup& setup) {
    const int ncpus = setup.ncpus;
    const char* mode = setup.mode;
    const char* policy_name = setup.policy;
    g_ncpus = ncpus < 1 ? 1 : (ncpus > param::kMaxCpus ? param::kMaxCpus : ncpus);
    g_slice = setup.slice_cycles ? setup.slice_cycles : 1;
    g_half_life = 64 * g_slice;
    if (mode && *mode && !same(mode, "percpu")) {
        if (same(mode, "single")) {
            g_percpu = false;
        } else {
            kprintf("sched: unknown rq mode '%s', using percpu\n", mode);
        }
    }
    sched::PolicyConfig config;
    config.table = sched::WeightTable::Linux;
    config.price = 1024;
    config.slice = g_slice;
    config.vshift = 16;
    config.mlfq_boost = setup.mlfq_boost;
    config.mlfq_io_reset = setup.mlfq_io_reset;
    const int queues = g_percpu ? g_ncpus : 1;
    for (int i = 0; i < queues; i++) {
        config.queue = static_cast<u32>(i);  // each hart's lottery draws its own sequence
        for (unsigned k = 0; k < sched::kPolicyKinds; k++) {
            RunQueue& q = g_rqs[i];
            q.policies[k] = sched::construct_policy(static_cast<sched::PolicyKind>(k), q.storage[k], config);
            // Harts sharing the queue: EEVDF caps weights that ask for more
            // than one of them (lib/sched/eevdf.h).
            q.policies[k]->set_cpus(g_percpu ? 1u : static_cast<unsigned>(g_ncpus));
        }
        g_rqs[i].next_balance = static_cast<u64>(i) * g_slice / static_cast<u64>(g_ncpus);
    }
    sched::PolicyKind kind;
    sched::parse_policy(kDefaultPolicy, kind);
    if (policy_name && *policy_name) {
        if (!sched::parse_policy(policy_name, kind)) {
            kprintf("sched: unknown policy '%s', using %s\n", policy_name, kDefaultPolicy);
        }
    }
    g_kind = static_cast<unsigned>(kind);
}

namespace {

// Queue p (woken) on queue `target` at time now, under its lock, counting
// it there unless push_remote already did; returns whether p should
// preempt what runs on hart target.
bool enqueue_woken(RunQueue& q, Proc* p, int target, u64 now) {
    RqLock g(q);
    if (!p->rq_counted) count(q, p);  // a remote wake-up counted it when it pushed it
    charge_current(q, g_percpu ? target : -1, now);
    policy(q).enqueue(p->se, now);
    if (p->woken) q.waking++;
    trace_enqueue(p, target, q.nr);
    return g_percpu && should_preempt(q, p, target);
}

void push_remote(Proc* p, int target) {
    RunQueue& q = g_rqs[target];
    count(q, p);
    Proc* head = __atomic_load_n(&q.wake_list, __ATOMIC_RELAXED);
    do {
        p->wake_next = head;
    } while (!__atomic_compare_exchange_n(&q.wake_list, &head, p, true, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
    send_ipi(target);
}

}  // namespace

void rq_wake(Proc* p, u64 now) {
    int target = 0;
    if (g_percpu) {
        sched::QueueLoad q[param::kMaxCpus];
        snapshot(q);
        const bool warm = p->rq >= 0 && now - p->last_ran < g_slice;
        target = sched::select_cpu(q, static_cast<unsigned>(g_ncpus), p->rq, p->affinity, warm, p->se.weight,
                                   preempt_mask(p, now));
    }
    p->rq = target;
    p->woke_at = now;
    trace_wake(p, target);
    if (g_percpu && target != mycpu()->id) {
        push_remote(p, target);
        return;
    }
    const bool preempt = enqueue_woken(g_rqs[target], p, target, now);
    kick(p, target, preempt);
}

bool rq_drain(int cpu) {
    if (!g_percpu) return false;
    RunQueue& q = g_rqs[cpu];
    if (!__atomic_load_n(&q.wake_list, __ATOMIC_RELAXED)) return false;
    Proc* list = __atomic_exchange_n(&q.wake_list, nullptr, __ATOMIC_ACQUIRE);
    // Oldest first.
    Proc* fifo = nullptr;
    while (list) {
        Proc* next = list->wake_next;
        list->wake_next = fifo;
        fifo = list;
        list = next;
    }
    bool preempt = false;
    while (fifo) {
        Proc* p = fifo;
        fifo = p->wake_next;
        p->wake_next = nullptr;
        if (enqueue_woken(q, p, cpu, now_cycles())) {
            preempt = true;
        } else if (g_cpus[cpu].proc) {
            wake_thief(p, cpu);  // it waits here: an idle hart may steal it
        }
    }
    if (preempt) g_cpus[cpu].need_resched = true;
    return preempt;
}

void rq_enqueue(Proc* p, u64 now) {
    {
        QueueGuard g(p);
        clear_current(g.queue(), p);
        if (!g_percpu || sched::mask_has(p->affinity, static_cast<unsigned>(p->rq))) {
            policy(g.queue()).enqueue(p->se, now);
            trace_enqueue(p, queue_index(p), g.queue().nr);
            return;
        }
        // Its affinity no longer allows this hart: it leaves the queue (as
        // if it stopped, keeping its lag) and is placed anew.
        policy(g.queue()).stop(p->se);
        uncount(g.queue(), p);
        p->stat_migrations++;
    }
    rq_wake(p, now);
}

Proc* rq_pick(int cpu) {
    RunQueue& q = g_rqs[g_percpu ? cpu : 0];
    rq_drain(cpu);
    const u64 start = now_cycles();
    if (g_percpu && __atomic_load_n(&q.nr, __ATOMIC_RELAXED) == 0) steal(cpu, start);
    if (g_percpu && g_ncpus > 1) pull(cpu, start);
    RqLock g(q);
    const u64 now = now_cycles();
    sched::Entity* e = policy(q).pick(static_cast<unsigned>(cpu), now);
    if (!e) return nullptr;
    Proc* p = static_cast<Proc*>(e->owner);
    if (p->woken && q.waking) q.waking--;
    trace_pick(p, g_percpu ? cpu : 0, q.nr);
    p->running_since = now;
    p->charged_until = now;
    q.curr[cpu] = p;
    p->moved = false;
    return p;
}

void rq_balance(int cpu, u64 now) {
    if (!g_percpu || g_ncpus < 2) return;
    RunQueue& self = g_rqs[cpu];
    if (now < self.next_balance) return;
    self.next_balance = now + 2 * g_slice;
    sched::QueueLoad q[param::kMaxCpus];
    snapshot(q);
    // Loads for balancing count only processes runnable for a slice or
    // more: a short-lived waker (a nice -20 process that runs 50 us every
    // tick) would otherwise make its queue look heavy for an instant and
    // pull a process away from it, to be pulled back a balance later.
    // Also each queue's least served process (service per weight), for
    // rotations.
    for (int i = 0; i < g_ncpus; i++) q[i].load = 0;
    for (Proc& p : g_procs) {
        if (!p.rq_counted || p.rq < 0 || p.rq >= g_ncpus) continue;
        sched::QueueLoad& l = q[p.rq];
        if (now - p.woke_at >= g_slice) l.load += p.se.weight;
        const u64 s = service(p, now);
        if (l.min_weight == 0 || sched::behind(s, p.se.weight, l.min_service, l.min_weight)) {
            l.min_service = s;
            l.min_weight = p.se.weight;
        }
    }
    sched::PullChooser pc(q, static_cast<unsigned>(cpu));
    for (Proc& p : g_procs) {
        if (!p.se.queued || p.rq < 0 || p.rq >= g_ncpus || !sched::mask_has(p.affinity, static_cast<unsigned>(cpu)))
            continue;
        pc.offer(&p, static_cast<unsigned>(p.rq), p.se.weight, service(p, now), p.moved);
    }
    if (pc.best())
        try_migrate(static_cast<Proc*>(pc.best()), static_cast<int>(pc.src()), cpu, now, trace::MigrateReason::Balance);
}

void rq_charge(Proc* p, u64 end) {
    QueueGuard g(p);
    charge_to(g.queue(), p, end);
}

bool rq_tick(int cpu, u64 now) {
    RunQueue& q = g_rqs[g_percpu ? cpu : 0];
    RqLock g(q);
    charge_current(q, cpu, now);
    Proc* p = q.curr[cpu];
    return p && policy(q).preempts_current(p->se);
}

void rq_stop(Proc* p) {
    QueueGuard g(p);
    clear_current(g.queue(), p);
    policy(g.queue()).stop(p->se);
    if (p->rq_counted) uncount(g.queue(), p);
    p->last_ran = now_cycles();
}

bool rq_set_policy(const char* name) {
    sched::PolicyKind kind;
    if (!sched::parse_policy(name, kind)) return false;
    const unsigned next = static_cast<unsigned>(kind);
    const int queues = g_percpu ? g_ncpus : 1;
    for (int i = 0; i < queues; i++) g_rqs[i].acquire();  // index order
    if (next != g_kind) {
        const u64 now = now_cycles();
        for (int i = 0; i < queues; i++) {
            sched::Policy& old = *g_rqs[i].policies[g_kind];
            sched::Policy& now_p = *g_rqs[i].policies[next];
            while (sched::Entity* e = old.pick(static_cast<unsigned>(i), now)) {
                old.forget(*e);
                now_p.enqueue(*e, now);
            }
        }
        // Every other process (running, or picked and not yet dispatched,
        // or sleeping; its se is under its queue's lock, all held) leaves
        // the old policy too, so no policy counts a process it will not
        // hear from again.
        for (Proc& p : g_procs) {
            if (p.state == ProcState::Unused || p.se.queued) continue;
            g_rqs[queue_index(&p)].policies[g_kind]->forget(p.se);
        }
        g_kind = next;
    }
    for (int i = queues - 1; i >= 0; i--) g_rqs[i].release();
    return true;
}

const char* rq_policy_name() { return sched::policy_name(static_cast<sched::PolicyKind>(g_kind)); }

const char* rq_mode_name() { return g_percpu ? "percpu" : "single"; }

bool rq_set_affinity(Proc* p, u64 mask) {
    const u64 harts = g_ncpus >= 64 ? ~0ull : (1ull << g_ncpus) - 1;
    if ((mask & harts) == 0) return false;
    p->affinity = mask;
    if (!g_percpu) return true;  // one queue: placement does not apply
    // Queued on a hart it may not use now: move it at once. Running there:
    // make that hart reschedule; rq_enqueue re-places it when it is put back.
    const int cpu = p->running_on;
    if (p->se.queued && p->rq >= 0 && !sched::mask_has(mask, static_cast<unsigned>(p->rq))) {
        sched::QueueLoad q[param::kMaxCpus];
        snapshot(q);
        const int dst = sched::select_cpu(q, static_cast<unsigned>(g_ncpus), -1, mask, false, p->se.weight);
        try_migrate(p, p->rq, dst, now_cycles(), trace::MigrateReason::Affinity);
        kick(p, dst, false);
    } else if (cpu >= 0 && !sched::mask_has(mask, static_cast<unsigned>(cpu))) {
        g_cpus[cpu].need_resched = true;
        send_ipi(cpu);
    }
    return true;
}

bool rq_stat(int queue, RqStat& out) {
    const int queues = g_percpu ? g_ncpus : 1;
    if (queue < 0 || queue >= queues) return false;
    RunQueue& q = g_rqs[queue];
    RqLock g(q);
    out.acquisitions = q.acquisitions;
    out.contentions = q.contentions;
    out.spin_cycles = q.spin_cycles;
    out.handoffs = q.handoffs;
    out.load = q.load;
    out.nr = q.nr;
    out.queues = static_cast<u32>(queues);
    return true;
}

int rq_mlfq_level(Proc* p) {
    QueueGuard g(p);  // the policy changes only under every queue's lock
    if (g_kind != static_cast<unsigned>(sched::PolicyKind::MLFQ)) return -1;
    const auto& mlfq = static_cast<const sched::Mlfq&>(policy(g.queue()));
    return static_cast<int>(mlfq.level(p->se, now_cycles()));
}

void rq_set_nice(Proc* p, int nice) {
    QueueGuard g(p);
    p->nice = nice;
    const u8 index = sched::nice_to_index(nice);
    const u32 w = sched::kLinuxNiceWeight[index];
    if (p->rq_counted) {
        __atomic_fetch_add(&g.queue().load, w, __ATOMIC_RELAXED);
        __atomic_fetch_sub(&g.queue().load, p->se.weight, __ATOMIC_RELAXED);
    }
    policy(g.queue()).reweight(p->se, w, index);
}

void rq_set_request(Proc* p, u64 cycles) {
    QueueGuard g(p);
    policy(g.queue()).set_request(p->se, cycles);
}

}  // namespace q
