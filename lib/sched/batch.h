// lib/sched/batch.h - OSTEP chapter 7's batch policies: FIFO, SJF, STCF.
//
// Design. These need what a kernel never knows, how much work a job has
// left, so they are not in policies.h (not in the kernel's `sched NAME` or
// schedsim's --policy list); the simulator builds them with a JobWork, its
// oracle of job lengths: shorter(a, b) says whether a needs less time to
// finish than b (a comparison rather than a number, so callers with
// fractional lengths, like scheduler.py's, compare exactly).
//   Fifo  runs jobs in arrival (enqueue) order, each to completion.
//   Sjf   runs the shortest waiting job, each to completion (a shorter job
//         arriving meanwhile waits): non-preemptive.
//   Stcf  runs the job with the least work left, re-deciding at every pick,
//         and a woken/arriving job preempts a running one that has strictly
//         more left (shortest time-to-completion first).
// Ties go to the earliest enqueued job. Under the Policy protocol (policy.h)
// a running job is put back after every slice; "to completion" means a job
// put back after running (Entity.picked) is picked again before any job
// that has not started: put-back jobs wait in resumed_ (FIFO), the others
// in waiting_. Stcf scans resumed_ first, so on a tie the job that was
// running keeps the CPU. With several CPUs a resumed job may continue on
// another CPU (the simulator's business). Weights and levels are ignored.
//
// Invariants: every queued entity is in exactly one of resumed_/waiting_
// with e.queued set; count_ is their total; picked is set from pick until
// the job is put back or stopped. pick is O(n) for Sjf and Stcf.
#pragma once

#include "lib/sched/policy.h"
#include "lib/seam.h"

namespace q::sched {

// The caller's knowledge of job lengths.
class JobWork {
  public:
    // Does a need less time to finish than b?
    virtual bool shorter(const Entity& a, const Entity& b) const = 0;

  protected:
    constexpr JobWork() = default;
    ~JobWork() = default;
};

class BatchPolicy : public Policy {
  public:
    void enqueue(Entity& e, Time now) override;
    void dequeue(Entity& e) override;
    Entity* pick(unsigned cpu, Time now) override;
    void charge(Entity&, Time) override {}
    void stop(Entity& e) override { e.picked = false; }
    void forget(Entity& e) override { e.picked = false; }
    bool preempts(const Entity&, const Entity&) const override { return false; }
    void reweight(Entity& e, u32 weight, u8 level) override;
    usize size() const override { return count_; }

  protected:
    enum class Kind { Fifo, Sjf, Stcf };
    constexpr BatchPolicy(Kind k, const JobWork* work) : kind_(k), work_(work) {}
    ~BatchPolicy() = default;
    Kind kind_;
    const JobWork* work_;

  private:
    Entity* shortest(List<Entity, &Entity::link>& list, Entity* best);
    List<Entity, &Entity::link> resumed_, waiting_;
    usize count_ = 0;
};

class Fifo final : public BatchPolicy {
  public:
    constexpr Fifo() : BatchPolicy(Kind::Fifo, nullptr) {}
    const char* name() const override { return "fifo"; }
};

class Sjf final : public BatchPolicy {
  public:
    explicit constexpr Sjf(const JobWork& work) : BatchPolicy(Kind::Sjf, &work) {}
    const char* name() const override { return "sjf"; }
};

class Stcf final : public BatchPolicy {
  public:
    explicit constexpr Stcf(const JobWork& work) : BatchPolicy(Kind::Stcf, &work) {}
    const char* name() const override { return "stcf"; }
    bool preempts(const Entity& woken, const Entity& running) const override { return work_->shorter(woken, running); }
};

}  // namespace q::sched
