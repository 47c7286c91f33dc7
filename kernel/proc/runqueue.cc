// kernel/proc/runqueue.cc - the run queue: the policy library inside the kernel.
//
// One instance of every policy is constructed at boot into static storage
// (no heap, no global constructors) with the kernel's configuration: Linux
// nice weights, price 1024, time in timer cycles, the current slice. Exactly
// one is current; every call into it happens under g_rq_lock.
//
// Protocol with kernel/proc/sched.cc: rq_pick() removes a process and
// records the pick time in running_since; when the process stops running,
// sched_switch() charges it (rq_charge) and, if it is still runnable,
// enqueues it at pick time + time charged, so a policy can tell "put back
// right after running" from "woke up"; otherwise (sleeping, zombie) it
// reports the stop (rq_stop): EEVDF counts running processes in its virtual
// time from the pick until the enqueue or the stop.
//
// Switching policy drains every queued process from the old policy into
// the new one, so nobody is lost and everyone stays runnable, and takes the
// running processes out of the old policy's bookkeeping (stop; the new one
// sees them only from their next enqueue); per-policy bookkeeping (lag) is
// reset for them. Weights come from the Linux nice table; the queue index
// of queue-based policies is nice + 20.
#include "kernel/proc/runqueue.h"

#include "kernel/arch/riscv/plic.h"
#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/proc/internal.h"
#include "lib/sched/registry.h"

namespace q {

namespace {

SpinLock g_rq_lock("runqueue");
sched::PolicyStorage g_storage[sched::kPolicyKinds];
sched::Policy* g_policies[sched::kPolicyKinds];
sched::Policy* g_current = nullptr;
int g_ncpus = 1;

sched::Policy* find(const char* name) {
    sched::PolicyKind kind;
    if (!sched::parse_policy(name, kind)) return nullptr;
    return g_policies[static_cast<unsigned>(kind)];
}

}  // namespace

void rq_init(const char* policy_name, u64 slice_cycles, int ncpus) {
    sched::PolicyConfig config;
    config.table = sched::WeightTable::Linux;
    config.price = 1024;
    config.slice = slice_cycles;
    config.vshift = 16;
    for (unsigned k = 0; k < sched::kPolicyKinds; k++) {
        g_policies[k] = sched::construct_policy(static_cast<sched::PolicyKind>(k), g_storage[k], config);
        // Every hart shares the queue: EEVDF caps weights that ask for more
        // than one hart (lib/sched/eevdf.h).
        g_policies[k]->set_cpus(static_cast<unsigned>(ncpus));
    }
    g_current = find(kDefaultPolicy);
    g_ncpus = ncpus;
    if (policy_name && *policy_name) {
        if (sched::Policy* p = find(policy_name)) {
            g_current = p;
        } else {
            kprintf("sched: unknown policy '%s', using %s\n", policy_name, g_current->name());
        }
    }
}

u32 nice_to_weight(int nice) { return sched::kLinuxNiceWeight[sched::nice_to_index(nice)]; }

void rq_enqueue(Proc* p, u64 now) {
    LockGuard g(g_rq_lock);
    g_current->enqueue(p->se, now);
}

Proc* rq_pick(int cpu) {
    LockGuard g(g_rq_lock);
    const u64 now = now_cycles();
    sched::Entity* e = g_current->pick(static_cast<unsigned>(cpu), now);
    if (!e) return nullptr;
    Proc* p = static_cast<Proc*>(e->owner);
    p->running_since = now;
    return p;
}

void rq_charge(Proc* p, u64 ran) {
    LockGuard g(g_rq_lock);
    g_current->charge(p->se, ran);
}

void rq_stop(Proc* p) {
    LockGuard g(g_rq_lock);
    g_current->stop(p->se);
}

void rq_kick(Proc* woken) {
    // An idle hart takes it at once; otherwise preempt a hart whose running
    // process the woken one should preempt. Reads of other harts' state are
    // hints: a stale one costs at most one spurious reschedule.
    for (int i = 0; i < g_ncpus; i++) {
        if (g_cpus[i].proc == nullptr && g_cpus[i].idle) {
            send_ipi(i);
            return;
        }
    }
    LockGuard g(g_rq_lock);
    for (int i = 0; i < g_ncpus; i++) {
        Proc* running = g_cpus[i].proc;
        if (running && running != woken && g_current->preempts(woken->se, running->se)) {
            g_cpus[i].need_resched = true;
            send_ipi(i);
            return;
        }
    }
}

bool rq_set_policy(const char* name) {
    sched::Policy* next = find(name);
    if (!next) return false;
    LockGuard g(g_rq_lock);
    if (next == g_current) return true;
    const u64 now = now_cycles();
    while (sched::Entity* e = g_current->pick(0, now)) {
        g_current->stop(*e);
        e->vlag = 0;
        e->on_cpu = false;
        next->enqueue(*e, now);
    }
    // Running processes (picked, not yet put back or stopped; all se state
    // is under g_rq_lock) leave the old policy's sums too, so neither policy
    // counts a process it will not hear from again.
    for (Proc& p : g_procs) {
        if (!p.se.on_cpu) continue;
        g_current->stop(p.se);
        p.se.vlag = 0;
        p.se.on_cpu = false;
    }
    g_current = next;
    return true;
}

const char* rq_policy_name() { return g_current->name(); }

void rq_set_nice(Proc* p, int nice) {
    LockGuard g(g_rq_lock);
    p->nice = nice;
    const u8 index = sched::nice_to_index(nice);
    g_current->reweight(p->se, sched::kLinuxNiceWeight[index], index);
}

}  // namespace q
