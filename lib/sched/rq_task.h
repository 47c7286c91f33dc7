// lib/sched/rq_task.h - what the run-queue core (lib/sched/runqueues.h)
// keeps per task: the policy entity and the queue bookkeeping. Each task
// embeds one (the kernel's Proc::rq, schedsim's Task::rq); the fields are
// the core's, under the lock of the task's queue unless marked, and its
// owner only reads them (affinity, migrations, charged_until after a pick).
#pragma once

#include "lib/list.h"
#include "lib/sched/balance.h"

namespace q::sched {

inline constexpr Time kNoTime = ~Time{0};

// Why a task changed queues (the kernel's trace records it).
enum class MoveReason : u8 { Steal = 0, Balance = 1, Affinity = 2 };

struct RqTask {
    Entity se;
    ListNode member;              // on its queue's member list (counted and drained)
    ListNode fresh;               // on its queue's fresh list
    RqTask* wake_next = nullptr;  // link in a hart's wake list
    CpuMask affinity = kAllCpus;  // harts it may run on (percpu only)
    Service service;              // CPU time with a half-life (balancing)
    Service runnable;             // time runnable until its last stop, same half-life
    Time last_ran = kNoTime;      // when it last stopped (placement's "warm")
    Time woke_at = 0;             // when it last became runnable (wake)
    Time charged_until = 0;       // picked: charged to the policy up to here
    Time turn_end = 0;            // picked: when its turn ends (pick + a slice or turn_left)
    Time turn_left = 0;           // put back preempted: the rest of its turn (0: none; its pick takes it)
    u64 migrations = 0;           // times moved between queues
    i32 queue = -1;               // queue it is counted on, or was last on
    bool counted = false;         // counted in its queue's load and nr
    bool in_fresh = false;        // counted in its queue's fresh_load
    bool moved = false;           // migrated and not picked since
    bool waking = false;          // woken, queued, not picked since (pull)

    // A new task in a reused slot: no lag, no credit, no history; weight,
    // level and request are kept (the caller sets them). Only for a task
    // the run queues do not hold.
    void reset() {
        se.reset();
        wake_next = nullptr;
        affinity = kAllCpus;
        service = runnable = {};
        last_ran = kNoTime;
        woke_at = charged_until = turn_end = turn_left = 0;
        migrations = 0;
        queue = -1;
        counted = in_fresh = moved = waking = false;
    }
};

static_assert(__builtin_offsetof(RqTask, se) == 0, "the core finds an RqTask from its entity");

}  // namespace q::sched
