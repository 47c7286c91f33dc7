// lib/sched/policy.h - the interface every scheduling policy implements.
//
// A policy orders runnable tasks. It never owns or allocates them: each task
// embeds an Entity (intrusive hooks plus per-policy bookkeeping) and the
// caller (the kernel's process table, or the simulator) owns its storage.
//
// Protocol (the same in the kernel and in schedsim):
//   enqueue(e, now)  e became runnable (new, woken, or preempted and put back)
//   dequeue(e)       e is queued but must leave (migrating to another queue)
//   pick(cpu, now)   remove and return the next task to run on cpu, or null;
//                    the task's e.cpu is then cpu (the run-queue core reads it)
//   charge(e, ran)   e (running, not queued) used `ran` time units since it
//                    was picked or last charged
//   stop(e)          e (running, not queued, already charged) stops being
//                    runnable (sleeps, blocks, exits): it leaves the policy
//                    until its next enqueue. Default: nothing.
//   forget(e)        e is not queued here and leaves this policy for good
//                    (the kernel switches policy): if the policy still
//                    counts e (EEVDF counts a picked task until stop), it
//                    stops counting it, and e's lag here is dropped.
//                    Default: nothing.
// A running task is not in the queue; after it runs, the caller charges it
// and, if still runnable, enqueues it again, otherwise calls stop(). A policy
// may keep running tasks in its bookkeeping (EEVDF counts them in its virtual
// time from pick to stop), so every pick must end in an enqueue or a stop.
// All calls are made under one lock (the kernel's run-queue lock); policies
// are not thread-safe.
//
// Time units are the caller's (simulator ticks, kernel timer cycles); only
// ratios matter to the policies. Weights, not priorities, reach a policy.
//
// Entity.level convention: it is a queue index 0..kLevels-1 for the
// queue-based policies (dwrr, idwrr). The policy gives queue i the weight
// queue_weights[i] of the table it was configured with (see weights.h), so
// the direction (is level 0 light or heavy?) is the table's: with the seed
// table level 0 is the lightest, with the Linux table (index = nice + 20)
// level 0 is the heaviest. Entity.weight is what EEVDF uses; set both with
// set_priority() in weights.h so they always agree.
//
// Destructors: Policy's destructor is protected and non-virtual so that
// policies can be constinit globals in the kernel (no atexit registration);
// a policy is never deleted through a Policy*.
#pragma once

#include "lib/list.h"
#include "lib/types.h"

namespace q::sched {

using Time = u64;

constexpr unsigned kLevels = 40;   // queues of the queue-based policies
constexpr unsigned kMaxCpus = 64;  // per-cpu state is kept in fixed arrays

struct Entity;

// Each policy's own per-task state (its "part" of the Entity, below). Every
// part is plain data whose fresh state (no lag, no credit) is all zero bytes:
// Entity::reset_part() clears it so.
struct EevdfPart {
    // Tree ordered by deadline, augmented with the minimum vruntime of each
    // subtree (eevdf_tree.h); hooks left/right/parent are the common ones.
    i64 vruntime;
    i64 deadline;
    i64 vlag;
    i64 min_vruntime;  // subtree augment
    Time run_until;    // pick time + time charged since the pick
                       // (at stop: when it stopped)
    // Groups: queued entities with equal (deadline, vruntime) may share one
    // tree node (the group's first by seq); members form a ring.
    Entity* gnext;
    Entity* gprev;
    u32 eweight;   // effective weight, min(weight, cap) while in its sums
                   // (see eevdf.h), else weight (set before each use)
    u32 vrem;      // remainder of the vruntime division (exact shares)
    bool on_cpu;   // picked and not enqueued or stopped since (then
                   // counted in its virtual time)
    bool delayed;  // stopped with negative lag, which decays while it
                   // sleeps (eevdf.h, "Sleeping lag")
    bool red;      // tree node colour
};
struct StridePart {
    u64 prem;  // remainder of the pass division
    i64 pass;  // pass value
    i64 plag;  // pass - global pass when it left a queue
};
struct LotteryPart {
    u64 subtree_tickets;  // tickets of the queued tasks in its treap subtree
};
struct MlfqPart {
    Time used;  // time used at its queue (the allotment)
    Time turn;  // time used in its current quantum
    u64 epoch;  // boost period it was last placed in
    u8 mq;      // its queue, 0 = the highest priority
};

// A task as a policy sees it: a common part (what the caller sets, what the
// run-queue core reads, and the intrusive hooks every policy's queue links
// through) and the part of the one policy that holds it now. The parts
// share storage (a union as large as the largest), so an entity costs
// one policy's state, not every policy's. A policy touches only its own
// member of the union; whoever moves an entity to another policy (the kernel's
// policy switch: lib/sched/runqueues_run.h switch_policy) clears the part
// first (reset_part), and a fresh task starts cleared (reset).
struct Entity {
    // Set by the caller.
    u32 weight = 1024;  // share weight (nice 0 = 1024)
    u8 level = 20;      // queue index 0..39 for queue-based policies
    void* owner = nullptr;
    // Request size (EEVDF's second knob; Linux's sched_attr.sched_runtime):
    // the run it asks for at a time, in the caller's units; 0 = the policy's
    // slice. Set with Policy::set_request; reset() keeps it (like weight).
    Time request = 0;

    // Common policy state, read by the run-queue core.
    bool queued = false;  // in its policy's queue
    u16 cpu = 0;          // cpu of the last pick (dwrr charges that cpu's queue)
    // Hooks: a list link (rr, dwrr, idwrr, mlfq; EEVDF's list of the tasks
    // in its sums) and tree links (EEVDF's tree, stride's and lottery's
    // treaps, treap.h), with seq, the enqueue order the trees break ties
    // by. A task is in one policy at a time, so they are shared.
    bool picked = false;  // picked by stride/mlfq/batch, not yet put back or stopped
    ListNode link;
    u64 seq = 0;
    Entity* left = nullptr;
    Entity* right = nullptr;
    Entity* parent = nullptr;

    // The current policy's part (see above): one of these, all zero when
    // fresh. EevdfPart is the largest (static_assert below), so clearing
    // it clears every part's bytes.
    union {
        EevdfPart eevdf{};
        StridePart stride;
        LotteryPart lottery;
        MlfqPart mlfq;
    };

    // Forget the policy's state (a new policy's fresh state: no lag, no
    // credit). Only for an entity no policy holds (not queued, not in a
    // tree) or whose policy is being replaced.
    void reset_part() {
        picked = false;
        seq = 0;
        eevdf = EevdfPart{};
    }
    // Forget all policy state (a reused task slot starts afresh). Only for
    // an entity no policy holds (not queued, stopped).
    void reset() {
        queued = false;
        cpu = 0;
        left = right = parent = nullptr;
        reset_part();
    }
};

static_assert(sizeof(EevdfPart) >= sizeof(StridePart) && sizeof(EevdfPart) >= sizeof(LotteryPart) &&
                  sizeof(EevdfPart) >= sizeof(MlfqPart),
              "EEVDF's part is the largest: clearing it clears them all");
static_assert(__is_trivially_copyable(EevdfPart) && __is_trivially_copyable(StridePart) &&
                  __is_trivially_copyable(LotteryPart) && __is_trivially_copyable(MlfqPart),
              "parts are plain data: clearing them is a copy of zero bytes");

// What a queue's pick() would return now and how soon it is due, so that
// the leads of several queues of one policy can be compared (a pick pulls a
// remote woken task that beats its own lead: lib/sched/balance.h
// pull_beats). due: its deadline minus the queue's virtual time (smaller =
// sooner); eligible: it is not ahead of the queue's virtual time.
struct Lead {
    const Entity* e = nullptr;
    i64 due = 0;
    bool eligible = false;
};

// What a policy lets the rest of the system see of one of its tasks: the
// tracer's records, the mlfqlevel system call (and whatever ps or procfs
// come to show) read this, never the policy's fields. A policy fills the
// values that mean something to it; the rest keep these defaults.
struct View {
    i64 vtime = 0;   // its virtual time (EEVDF: vruntime)
    i64 ahead = 0;   // how far its deadline lies past vtime (EEVDF)
    i32 level = -1;  // the queue it runs from next, 0 = top (MLFQ)
};

class Policy {
  public:
    virtual const char* name() const = 0;
    virtual void enqueue(Entity& e, Time now) = 0;
    virtual void dequeue(Entity& e) = 0;
    virtual Entity* pick(unsigned cpu, Time now) = 0;
    virtual void charge(Entity& e, Time ran) = 0;
    // e, running and charged, is no longer runnable (see the protocol).
    virtual void stop(Entity& e) { (void)e; }
    // e, running and charged, gives the cpu up of its own accord
    // (sched_yield) and is about to be put back. Default: nothing (the put
    // back already queues it behind its peers). EEVDF: an eligible task
    // forfeits the rest of its request, as Linux's yield does.
    virtual void yield(Entity& e) { (void)e; }
    // Does yield() move a running task behind a task just queued, so that
    // it preempts? Only then may a woken task claim the hart of a task that
    // outserved it (RunQueues::outserved). Default: no. EEVDF: yes.
    virtual bool forfeits() const { return false; }
    // e, not queued, leaves this policy for good (see the protocol).
    virtual void forget(Entity& e) { (void)e; }
    // Should a newly woken `woken` preempt `running`?
    virtual bool preempts(const Entity& woken, const Entity& running) const = 0;
    // Placement (per-cpu queues): would `woken`, not in this queue, preempt
    // `running` (this queue's running task, charged up to now) if it were
    // enqueued here at `now`? Reads only; a hint for choosing a queue
    // (lib/sched/balance.h select_cpu). Default: preempts(woken, running)
    // (their comparisons do not depend on the queue). EEVDF: where
    // enqueue() would place it against this queue's virtual time.
    virtual bool preempts_on(const Entity& woken, const Entity& running, Time now) const {
        (void)now;
        return preempts(woken, running);
    }
    // e, not queued, joins this queue from another one, pulled for its
    // weight (RunQueues::pull_heavy): EEVDF forgives a debt (negative lag)
    // it owes the tasks of the queue it left. Default: nothing.
    virtual void arrive(Entity& e) { (void)e; }
    // The lead of this queue (see Lead). Default: none, so nothing is pulled
    // (only EEVDF compares leads across queues).
    virtual Lead lead() const { return {}; }
    // At a tick (running charged up to now): should a queued task take over
    // before running's slice ends? Default: no (EEVDF: running is
    // ineligible and an eligible queued task has an earlier deadline).
    virtual bool preempts_current(const Entity& running) const {
        (void)running;
        return false;
    }
    // What may be shown of e (see View) at time now; e is this policy's
    // (queued, running or stopped). Reads only. Default: nothing.
    virtual View describe(const Entity& e, Time now) const {
        (void)e;
        (void)now;
        return {};
    }
    // Set e's request size (0 = the slice; queued, running or not runnable).
    // Only EEVDF uses it (a shorter request, an earlier deadline); the other
    // policies just store it. Default: store.
    virtual void set_request(Entity& e, Time request) { e.request = request; }
    // Change weight/level of e (queued or running) keeping its lag/credit.
    virtual void reweight(Entity& e, u32 weight, u8 level) = 0;
    virtual usize size() const = 0;
    // How many cpus share this queue (1 for a per-cpu queue). EEVDF caps a
    // weight that asks for more than one cpu (see eevdf.h); the others do
    // not need it. Default: nothing.
    virtual void set_cpus(unsigned n) { (void)n; }

  protected:
    constexpr Policy() = default;
    ~Policy() = default;
    Policy(const Policy&) = delete;
    Policy& operator=(const Policy&) = delete;
};

// The class of policy P for a caller whose queues are picked from by at
// most kCpus cpus: P itself, unless P keeps per-cpu state, whose header then
// specialises this (dwrr.h, idwrr.h) to size that state by kCpus. The
// kernel builds its policies for its own hart count (registry.h
// PolicyStorageFor), the simulator for kMaxCpus.
template <class P, unsigned kCpus>
struct ForCpus {
    using type = P;
};

}  // namespace q::sched
