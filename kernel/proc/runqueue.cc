// kernel/proc/runqueue.cc - the run queue: the policy library inside the kernel.
//
// Every policy object lives in static storage (constinit: no constructors
// run at boot) and exactly one is current. All calls into it happen under
// g_rq_lock. Switching policy drains every queued process from the old one
// into the new one in pick order, so nobody is lost and everyone stays
// runnable. Weights come from the Linux nice table (lib/sched/weights.h);
// the queue index of queue-based policies is nice + 20.
#include "kernel/proc/runqueue.h"

#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/proc/internal.h"
#include "lib/sched/dwrr.h"
#include "lib/sched/idwrr.h"
#include "lib/sched/rr.h"
#include "lib/sched/weights.h"

namespace q {

namespace {

SpinLock g_rq_lock("runqueue");
constinit sched::RoundRobin g_rr;
constinit sched::Dwrr g_dwrr(sched::kLinuxNiceWeight, 1024, param::kDefaultSliceCycles);
constinit sched::InterleavedDwrr g_idwrr(sched::kLinuxNiceWeight, 1024);

struct Named {
    const char* name;
    sched::Policy* policy;
};
constinit Named g_policies[] = {
    {"rr", &g_rr},
    {"dwrr", &g_dwrr},
    {"idwrr", &g_idwrr},
};
sched::Policy* g_current = &g_rr;

sched::Policy* find(const char* name) {
    for (const Named& n : g_policies) {
        if (strncmp(n.name, name, 16) == 0) return n.policy;
    }
    return nullptr;
}

}  // namespace

void rq_init(const char* policy_name) {
    if (policy_name && *policy_name) {
        if (sched::Policy* p = find(policy_name)) {
            g_current = p;
        } else {
            kprintf("sched: unknown policy '%s', using %s\n", policy_name, g_current->name());
        }
    }
}

u32 nice_to_weight(int nice) { return sched::kLinuxNiceWeight[sched::nice_to_index(nice)]; }

void rq_enqueue(Proc* p) {
    LockGuard g(g_rq_lock);
    g_current->enqueue(p->se, now_cycles());
}

Proc* rq_pick(int cpu) {
    LockGuard g(g_rq_lock);
    sched::Entity* e = g_current->pick(static_cast<unsigned>(cpu), now_cycles());
    return e ? static_cast<Proc*>(e->owner) : nullptr;
}

void rq_charge(Proc* p, u64 ran) {
    LockGuard g(g_rq_lock);
    g_current->charge(p->se, ran);
}

bool rq_preempts(Proc* woken, Proc* running) {
    LockGuard g(g_rq_lock);
    return g_current->preempts(woken->se, running->se);
}

bool rq_set_policy(const char* name) {
    sched::Policy* next = find(name);
    if (!next) return false;
    LockGuard g(g_rq_lock);
    if (next == g_current) return true;
    const u64 now = now_cycles();
    while (sched::Entity* e = g_current->pick(0, now)) next->enqueue(*e, now);
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
