// kernel/proc/runqueue.cc - the kernel's run queues: the run-queue core of
// lib/sched/runqueues.h with the kernel's environment.
//
// The decisions (queue modes, placement, the wake list, stealing, pulling,
// balancing, the charge/enqueue/stop protocol) are the core's, shared with
// schedsim and host-tested there; this file supplies what only the kernel
// has (KernelEnv): counted spinlocks, the time CSR, IPIs and need_resched,
// the idle flag of each hart's scheduler loop, the tracer's records, and
// Proc (each embeds the core's per-task state as Proc::rq, whose entity's
// owner is the Proc).
//
// Every queue (one in single mode, one per hart in percpu mode) holds one
// instance of the current policy kind, built into static storage sized for
// the kernel's harts (no heap, no global constructors) with the kernel's
// configuration: Linux nice weights, price 1024, time in timer cycles, the
// current slice, EEVDF shift 16. Switching drains every queued process
// from the old policy, clears every process's policy state (their lag and
// credit are dropped), builds the new policy in the other of two storage
// slots (the old one may still be read by a lockless placement hint) and
// queues the drained processes there (the core's switch_policy).
//
// Lock order: a process's lock before any run-queue lock; two run-queue
// locks in index order (the core's rule).
#include "kernel/proc/runqueue.h"

#include "kernel/arch/riscv/plic.h"
#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/obs/trace.h"
#include "kernel/proc/internal.h"
#include "kernel/sync/counted_lock.h"
#include "lib/sched/registry.h"
#include "lib/sched/runqueues.h"

namespace q {

namespace {

Proc& proc_of(sched::RqTask& t) { return *static_cast<Proc*>(t.se.owner); }

trace::MigrateReason trace_reason(sched::MoveReason why) {
    switch (why) {
        case sched::MoveReason::Steal:
            return trace::MigrateReason::Steal;
        case sched::MoveReason::Balance:
            return trace::MigrateReason::Balance;
        case sched::MoveReason::Affinity:
            break;
    }
    return trace::MigrateReason::Affinity;
}

// What the run-queue core needs of the kernel. Reads of other harts' state
// are hints (the core re-checks under the locks).
struct KernelEnv {
    using Policy = sched::Policy;
    using Lock = CountedLock;
    static constexpr bool kConcurrent = true;
    static constexpr unsigned kMaxCpus = param::kMaxCpus;
    static constexpr int kPerCpu = -1;  // chosen at boot (rq=)

    sched::Time now() { return now_cycles(); }
    int this_cpu() { return cpuid(); }
    bool idle(unsigned c) { return __atomic_load_n(&g_cpus[c].idle, __ATOMIC_RELAXED); }
    bool resched_pending(unsigned c) { return __atomic_load_n(&g_cpus[c].need_resched, __ATOMIC_RELAXED); }
    void ipi(unsigned c) { send_ipi(static_cast<int>(c)); }
    void resched(unsigned c) {
        g_cpus[c].need_resched = true;
        send_ipi(static_cast<int>(c));
    }
    void on_wake(sched::RqTask& t, unsigned queue, bool sync) {
        trace_wake(&proc_of(t), static_cast<int>(queue), sync);
    }
    // Under the queue's lock (the policy's view of t is read there).
    void on_enqueue(sched::RqTask& t, unsigned queue, u32 nr) {
        trace_enqueue(&proc_of(t), static_cast<int>(queue), nr, [&] { return describe(t, queue); });
    }
    void on_pick(sched::RqTask& t, unsigned queue, u32 nr) {
        trace_pick(&proc_of(t), static_cast<int>(queue), nr, [&] { return describe(t, queue); });
    }
    static sched::View describe(const sched::RqTask& t, unsigned queue);
    void on_migrate(sched::RqTask& t, unsigned src, unsigned dst, sched::MoveReason why) {
        trace_migrate(proc_of(t).tid, static_cast<int>(src), static_cast<int>(dst), trace_reason(why));
    }
};

using Rq = sched::RunQueues<KernelEnv>;
constinit Rq g_rq;
// One policy instance per queue, sized for the kernel's harts, of the
// current kind, in g_storage[g_slot]; a switch builds the next ones in the
// other slot (placement may still be reading the current ones without
// their locks: the core's switch_policy).
constinit sched::PolicyStorageFor<param::kMaxCpus> g_storage[2][param::kMaxCpus]{};
constinit unsigned g_slot = 0;
constinit sched::PolicyConfig g_config;  // how every queue's policy is built (rq_init)
constinit unsigned g_kind = 0;           // index of the current policy kind

// The run queues, their policies included, stay small (issue 27: every
// queue used to hold all seven policies sized for 64 cpus, 1.2 MB of bss).
static_assert(sizeof(g_rq) + sizeof(g_storage) < 64 * 1024, "run-queue storage under 64 KiB");

// Builds queue i's policy of kind `kind` in slot `slot` (at boot, and at a
// switch in the slot the current policies are not in).
sched::Policy* build_policy(unsigned i, unsigned kind, unsigned slot) {
    sched::PolicyConfig config = g_config;
    config.queue = i;  // each hart's lottery draws its own sequence
    sched::Policy* p = sched::construct_policy(static_cast<sched::PolicyKind>(kind), g_storage[slot][i], config);
    // Harts sharing the queue: EEVDF caps weights that ask for more than one
    // of them (lib/sched/eevdf.h).
    p->set_cpus(g_rq.percpu() ? 1u : g_rq.ncpus());
    return p;
}

sched::View KernelEnv::describe(const sched::RqTask& t, unsigned queue) {
    return g_rq.policy(queue).describe(t.se, now_cycles());
}

bool same(const char* a, const char* b) { return strncmp(a, b, 16) == 0; }

// Every process that exists, for a policy switch.
void each_proc(auto f) {
    for (Proc& p : g_procs)
        if (p.state != ProcState::Unused) f(p.rq);
}

}  // namespace

void rq_init(const RqSetup& setup) {
    const char* mode = setup.mode;
    const char* policy_name = setup.policy;
    bool percpu = true;
    if (mode && *mode && !same(mode, "percpu")) {
        if (same(mode, "single")) {
            percpu = false;
        } else {
            kprintf("sched: unknown rq mode '%s', using percpu\n", mode);
        }
    }
    sched::RqConfig rc;
    rc.percpu = percpu;
    rc.ncpus = setup.ncpus < 1 ? 1u : static_cast<unsigned>(setup.ncpus);
    rc.slice = setup.slice_cycles ? setup.slice_cycles : 1;
    rc.table = sched::WeightTable::Linux;
    rc.sync_wakes = setup.sync_wakes;
    rc.pick_forfeit = setup.pick_forfeit;
    g_rq.init(rc);
    g_config.table = sched::WeightTable::Linux;
    g_config.price = 1024;
    g_config.slice = g_rq.slice();
    g_config.vshift = 16;
    g_config.knobs = setup.knobs;
    sched::PolicyKind kind;
    sched::parse_policy(kDefaultPolicy, kind);
    if (policy_name && *policy_name) {
        if (!sched::parse_policy(policy_name, kind)) {
            kprintf("sched: unknown policy '%s', using %s\n", policy_name, kDefaultPolicy);
        }
    }
    g_kind = static_cast<unsigned>(kind);
    for (unsigned i = 0; i < g_rq.queues(); i++) g_rq.attach(i, build_policy(i, g_kind, g_slot));
}

void rq_wake(Proc* p, u64 now, bool sync) { g_rq.wake(p->rq, now, p->woken, sync ? cpuid() : -1); }

bool rq_drain(int cpu) {
    if (!g_rq.drain(static_cast<unsigned>(cpu))) return false;
    g_cpus[cpu].need_resched = true;
    return true;
}

void rq_enqueue(Proc* p, u64 now, bool yielded) {
    g_rq.put_back(p->rq, now, yielded ? Rq::Yielded::Yes : Rq::Yielded::No);
}

Proc* rq_pick(int cpu) {
    sched::RqTask* t = g_rq.pick(static_cast<unsigned>(cpu));
    if (!t) return nullptr;
    Proc& p = proc_of(*t);
    p.running_since = t->charged_until;
    return &p;
}

void rq_balance(int cpu, u64 now) { g_rq.balance(static_cast<unsigned>(cpu), now); }

void rq_charge(Proc* p, u64 end) { g_rq.charge(p->rq, end); }

bool rq_tick(int cpu, u64 now) { return g_rq.tick(static_cast<unsigned>(cpu), now); }

void rq_stop(Proc* p) { g_rq.stop(p->rq, now_cycles()); }

bool rq_set_policy(const char* name) {
    sched::PolicyKind kind;
    if (!sched::parse_policy(name, kind)) return false;
    const unsigned next = static_cast<unsigned>(kind);
    if (next == g_kind) return true;
    // make() runs under every queue's lock: the kind, the slot and the
    // policies change together even if two harts switch at once.
    auto make = [&](unsigned i) {
        if (i == 0) g_slot ^= 1;
        g_kind = next;
        return build_policy(i, next, g_slot);
    };
    g_rq.switch_policy(make, now_cycles(), [](auto f) { each_proc(f); });
    return true;
}

const char* rq_policy_name() { return sched::policy_name(static_cast<sched::PolicyKind>(g_kind)); }

const char* rq_mode_name() { return g_rq.percpu() ? "percpu" : "single"; }

bool rq_set_affinity(Proc* p, u64 mask) { return g_rq.set_affinity(p->rq, mask, now_cycles()); }

bool rq_stat(int queue, RqStat& out) {
    if (queue < 0 || static_cast<unsigned>(queue) >= g_rq.queues()) return false;
    const unsigned i = static_cast<unsigned>(queue);
    CountedLock& l = g_rq.lock(i);
    l.acquire();
    out.acquisitions = l.acquisitions;
    out.contentions = l.contentions;
    out.spin_cycles = l.spin_cycles;
    out.handoffs = l.handoffs;
    out.load = g_rq.load(i);
    out.nr = g_rq.nr(i);
    out.queues = g_rq.queues();
    l.release();
    return true;
}

sched::View rq_describe(Proc* p) {
    // The queue's policy changes only under every queue's lock.
    return g_rq.with_policy_of(p->rq,
                               [&](sched::Policy& pol, unsigned) { return pol.describe(p->rq.se, now_cycles()); });
}

void rq_set_nice(Proc* p, int nice) {
    p->nice = nice;
    const u8 index = sched::nice_to_index(nice);
    g_rq.set_weight(p->rq, sched::kLinuxNiceWeight[index], index);
}

void rq_set_request(Proc* p, u64 cycles) {
    g_rq.with_policy_of(p->rq, [&](sched::Policy& pol, unsigned) { pol.set_request(p->rq.se, cycles); });
}

}  // namespace q
