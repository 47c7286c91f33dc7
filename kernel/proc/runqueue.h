// kernel/proc/runqueue.h - the kernel's ready queues: the run-queue core
// (lib/sched/runqueues.h, shared with schedsim) over the policy library.
//
// Two designs, chosen at boot (rq=percpu|single, default percpu):
//   single  one queue shared by every hart under one lock (xv6, OSTEP's
//           SQMS): EEVDF caps infeasible weights (set_cpus(ncpus)).
//   percpu  one queue per hart, each with its own lock and its own instance
//           of the current policy (OSTEP's MQMS): new and woken processes are
//           placed by lib/sched/balance.h, a hart whose queue is empty
//           steals, a pick pulls a better woken lead, and every hart
//           balances by load every two slices.
// A wake-up for another hart's queue goes on that hart's lock-free wake
// list and an IPI; the hart queues it itself (rq_drain).
// Lock order: a process's lock before any run-queue lock; two run-queue
// locks in index order. A process's queue (Proc::rq.queue) changes only
// under that queue's lock and the new one's, so holding the lock of the
// queue a process is on pins it there. A running process is never in a
// queue, but still counts in its queue's load (and in EEVDF's virtual time)
// until it is put back or stopped.
#pragma once

#include "lib/sched/weights.h"
#include "lib/types.h"

namespace q {

struct Proc;

// The policy used when the boot arguments name none (see README).
constexpr const char* kDefaultPolicy = "eevdf";

// What the boot arguments chose (kernel/main.cc, lib/boot_args.h).
struct RqSetup {
    const char* policy = "";  // a policy name (lib/sched/registry.h), or empty: kDefaultPolicy
    const char* mode = "";    // "percpu", "single", or empty (percpu)
    u64 slice_cycles = 1;
    int ncpus = 1;
    sched::Knobs knobs;        // the policies' boot knobs (lib/sched/knobs.h), times in timer cycles
    bool sync_wakes = true;    // sched::RqConfig::sync_wakes
    bool pick_forfeit = true;  // sched::RqConfig::pick_forfeit
};
void rq_init(const RqSetup& setup);
// p became runnable (new or woken; caller holds p->lock, state Runnable):
// choose its queue, queue it at time now, wake or preempt a hart for it.
// sync: the caller wakes p and sleeps soon (a pipe write), so p may be
// queued behind it on this hart (lib/sched/balance.h select_cpu).
void rq_wake(Proc* p, u64 now, bool sync = false);
// percpu: move the processes other harts woke for this hart's queue into it
// (called from the IPI and by rq_pick); true if one should preempt the
// process running here (need_resched is then set).
bool rq_drain(int cpu);
// p (running, charged, still runnable) goes back to its queue at time now;
// yielded: it gave the hart up itself (yield_turn), with the rest of its
// turn.
void rq_enqueue(Proc* p, u64 now, bool yielded = false);
// Next process for this hart, removed from the queue, or null (percpu: an
// empty queue first steals from the busiest); sets its running_since.
Proc* rq_pick(int cpu);
// Periodic balancing for this hart (percpu; no-op when not due).
void rq_balance(int cpu, u64 now);
// Charge p (running) for its CPU time up to `end` (what was not charged yet:
// a wake-up or a tick may have charged part of its run already).
void rq_charge(Proc* p, u64 end);
// A timer interrupt on hart cpu at time now: charge what runs there; true
// if it should yield to a queued process now (Policy::preempts_current).
bool rq_tick(int cpu, u64 now);
// p (running, charged) is not runnable any more (sleeping, zombie).
void rq_stop(Proc* p);
// Switch policy on every queue; queued processes move to the new one.
bool rq_set_policy(const char* name);
const char* rq_policy_name();
const char* rq_mode_name();
// Restrict p to the harts in mask (caller holds p->lock); false if mask
// names no hart. percpu: a queued p on a hart now excluded moves at once, a
// running one is rescheduled and re-placed. single: stored, not enforced.
bool rq_set_affinity(Proc* p, u64 mask);
struct RqStat {
    u64 acquisitions, contentions, spin_cycles, load;
    u32 nr, queues;
    u64 handoffs;
};
// Statistics of queue i (its lock's acquisitions since boot); false if no
// such queue.
bool rq_stat(int queue, RqStat& out);
// What p's current policy shows of it (lib/sched/policy.h View; e.g. the
// MLFQ queue it runs from next, -1 under another policy).
sched::View rq_describe(Proc* p);
// Set nice (-20..19): weight from the Linux table, kept across policies.
void rq_set_nice(Proc* p, int nice);
// Set p's request size in timer cycles (0 = the slice; caller holds
// p->lock): EEVDF's deadline, kept across policies (the others ignore it).
void rq_set_request(Proc* p, u64 cycles);

}  // namespace q
