// kernel/proc/runqueue.h - the kernel's ready queue over the policy library.
//
// One global run queue shared by all harts, ordered by the current policy
// from lib/sched (round robin, DWRR, interleaved DWRR or EEVDF), guarded by
// one spinlock. Lock order: a process's lock before the run-queue lock.
// A running process is never in the queue (EEVDF still counts it in its
// virtual time until it is put back or stopped).
#pragma once

#include "lib/types.h"

namespace q {

struct Proc;

// The policy used when the boot arguments name none (see README).
constexpr const char* kDefaultPolicy = "eevdf";

void rq_init(const char* policy_name, u64 slice_cycles, int ncpus);
// p becomes runnable at time now (caller holds p->lock, state = Runnable).
void rq_enqueue(Proc* p, u64 now);
// After waking p: wake an idle hart, or preempt one p should preempt.
void rq_kick(Proc* woken);
// Next process for this hart, removed from the queue, or null; sets its
// running_since to the pick time.
Proc* rq_pick(int cpu);
// Account `ran` timer cycles of CPU to p (a running process).
void rq_charge(Proc* p, u64 ran);
// p (running, charged) is not runnable any more (sleeping, zombie).
void rq_stop(Proc* p);
// Switch policy; every queued process moves to the new one. False if unknown.
bool rq_set_policy(const char* name);
const char* rq_policy_name();
// Set nice (-20..19): weight from the Linux table, kept across policies.
void rq_set_nice(Proc* p, int nice);
u32 nice_to_weight(int nice);

}  // namespace q
