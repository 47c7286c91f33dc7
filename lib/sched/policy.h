// lib/sched/policy.h - the interface every scheduling policy implements.
//
// A policy orders runnable tasks. It never owns or allocates them: each task
// embeds an Entity (intrusive hooks plus per-policy bookkeeping) and the
// caller (the kernel's process table, or the simulator) owns its storage.
//
// Protocol (the same in the kernel and in schedsim):
//   enqueue(e, now)  e became runnable (new, woken, or preempted and put back)
//   dequeue(e)       e is queued but must leave (killed, policy switch)
//   pick(cpu, now)   remove and return the next task to run on cpu, or null
//   charge(e, ran)   e (running, not queued) used `ran` time units since it
//                    was picked or last charged
// A running task is not in the queue; after it runs, the caller charges it
// and, if still runnable, enqueues it again.
//
// Time units are the caller's (simulator ticks, kernel timer cycles); only
// ratios matter to the policies. Weights, not priorities, reach a policy.
#pragma once

#include "lib/list.h"
#include "lib/types.h"

namespace q::sched {

using Time = u64;

struct Entity {
    // Set by the caller.
    u32 weight = 1024;   // share weight (nice 0 = 1024)
    u8 level = 20;       // queue index 0..39 for queue-based policies
    void* owner = nullptr;

    // Policy-private state.
    ListNode link;
    bool queued = false;
    // EEVDF state and tree hooks.
    i64 vruntime = 0;
    i64 deadline = 0;
    i64 vlag = 0;
    i64 min_deadline = 0;  // subtree augment
    Entity* left = nullptr;
    Entity* right = nullptr;
    Entity* parent = nullptr;
    bool red = false;
};

class Policy {
  public:
    virtual ~Policy() = default;
    virtual const char* name() const = 0;
    virtual void enqueue(Entity& e, Time now) = 0;
    virtual void dequeue(Entity& e) = 0;
    virtual Entity* pick(unsigned cpu, Time now) = 0;
    virtual void charge(Entity& e, Time ran) = 0;
    // Should a newly woken `woken` preempt `running`?
    virtual bool preempts(const Entity& woken, const Entity& running) const = 0;
    // Change weight/level of e (queued or running) keeping its lag/credit.
    virtual void reweight(Entity& e, u32 weight, u8 level) = 0;
    virtual usize size() const = 0;
};

}  // namespace q::sched
