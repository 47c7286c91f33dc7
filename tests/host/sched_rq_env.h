// tests/host/sched_rq_env.h - environments for driving the run-queue core
// (lib/sched/runqueues.h) in host tests: a sequential one whose harts,
// clock and IPIs the test sets by hand (SeqEnv), and RqBox, which owns the
// policies of every queue.
#pragma once

#include <memory>
#include <vector>

#include "lib/sched/registry.h"
#include "lib/sched/runqueues.h"

namespace qt {

using namespace q;
using namespace q::sched;

// A hart-less world: the test is every hart, sets the time and which hart
// it is, and reads what the core asked of the harts.
struct SeqEnv {
    using Policy = q::sched::Policy;
    struct Lock {
        static inline u64 acquired = 0;  // every queue's acquisitions, for tests that count them
        void acquire() { acquired++; }
        void release() {}
    };
    static constexpr bool kConcurrent = false;
    static constexpr unsigned kMaxCpus = 8;
    static constexpr int kPerCpu = -1;

    Time clock = 0;
    int cpu = -1;                // the hart making the calls (-1: none)
    bool asleep[kMaxCpus] = {};  // idle: waits for an IPI
    bool resched_flag[kMaxCpus] = {};
    int ipis[kMaxCpus] = {};
    struct Move {
        RqTask* t;
        unsigned src, dst;
        MoveReason why;
    };
    std::vector<Move> moves;

    Time now() const { return clock; }
    int this_cpu() const { return cpu; }
    bool idle(unsigned c) const { return asleep[c]; }
    bool resched_pending(unsigned c) const { return resched_flag[c]; }
    void ipi(unsigned c) { ipis[c]++; }
    void resched(unsigned c) {
        resched_flag[c] = true;
        ipis[c]++;
    }
    void on_wake(RqTask&, unsigned, bool) {}
    void on_enqueue(RqTask&, unsigned, u32) {}
    void on_pick(RqTask&, unsigned, u32) {}
    void on_migrate(RqTask& t, unsigned src, unsigned dst, MoveReason why) { moves.push_back({&t, src, dst, why}); }
};

// The core and one policy instance per queue, configured like the kernel's
// (Linux weights, price 1024, EEVDF shift 16) with the given slice.
template <class Env>
struct RqBox {
    RunQueues<Env> rq;
    std::vector<PolicyStorage> storage;

    RqBox(PolicyKind kind, bool percpu, unsigned ncpus, Time slice, bool charge_at_wake = true, bool sleep_decay = true,
          bool pick_forfeit = true)
        : storage(ncpus) {
        RqConfig rc;
        rc.percpu = percpu;
        rc.ncpus = ncpus;
        rc.slice = slice;
        rc.charge_at_wake = charge_at_wake;
        rc.pick_forfeit = pick_forfeit;
        rq.init(rc);
        PolicyConfig pc;
        pc.table = WeightTable::Linux;
        pc.price = 1024;
        pc.slice = slice;
        pc.vshift = 16;
        pc.sleep_decay = sleep_decay;
        for (unsigned i = 0; i < rq.queues(); i++) {
            pc.queue = i;
            Policy* p = construct_policy(kind, storage[i], pc);
            p->set_cpus(percpu ? 1 : ncpus);
            rq.attach(i, static_cast<typename Env::Policy*>(p));
        }
    }
};

// A task for the core: its RqTask first, owner set, plus test counters.
struct RTask {
    RqTask rq;
    int id = 0;
    Time ran = 0;  // time it ran (the test's own count)
    u64 picks = 0;
};

inline std::vector<std::unique_ptr<RTask>> make_rtasks(int n, int nice = 0) {
    std::vector<std::unique_ptr<RTask>> v;
    for (int i = 0; i < n; i++) {
        v.push_back(std::make_unique<RTask>());
        RTask& t = *v.back();
        t.id = i;
        t.rq.se.owner = &t;
        set_priority(t.rq.se, WeightTable::Linux, nice_to_index(nice));
    }
    return v;
}

inline RTask& rtask(RqTask* t) { return *static_cast<RTask*>(t->se.owner); }

}  // namespace qt
