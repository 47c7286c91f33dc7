// tests/host/sched_batch_test.cc - lib/sched/batch.h: FIFO, SJF and STCF
// through the Policy protocol, on OSTEP chapter 7's worked examples.
//
// run_batch() is a one-CPU batch simulator in time units: at each unit the
// jobs arriving then are enqueued, the running job (if any) was put back
// after its unit (the protocol), and pick chooses who runs the next unit.
// The chapter's figures: three 10-unit jobs under FIFO finish at 10, 20,
// 30 (average turnaround 20); A = 100, B = C = 10 at 0: FIFO 110, SJF 50;
// A = 100 at 0, B = C = 10 at 10: SJF 103.33 (B and C wait for A), STCF 50
// (A is preempted at 10 and finishes at 120).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "lib/sched/batch.h"

namespace {

using namespace q;
using namespace q::sched;

struct Job {
    Entity e;
    char name;
    Time arrival, length, left, finish = 0;
};

Job& job_of(const Entity& e) { return *static_cast<Job*>(e.owner); }

struct LeftWork final : JobWork {
    bool shorter(const Entity& a, const Entity& b) const override { return job_of(a).left < job_of(b).left; }
};

struct Spec {
    char name;
    Time arrival, length;
};

// Runs the jobs; returns the run order, one letter per time unit.
std::string run_batch(Policy& p, std::vector<std::unique_ptr<Job>>& jobs, const std::vector<Spec>& specs) {
    for (const Spec& s : specs) {
        jobs.push_back(std::make_unique<Job>());
        Job& j = *jobs.back();
        j.name = s.name;
        j.arrival = s.arrival;
        j.length = j.left = s.length;
        j.e.owner = &j;
    }
    std::string trace;
    size_t done = 0;
    for (Time now = 0; done < jobs.size() && now < 10000; now++) {
        for (auto& j : jobs) {
            if (j->arrival == now) p.enqueue(j->e, now);
        }
        Entity* e = p.pick(0, now);
        if (!e) {
            trace += '-';
            continue;
        }
        Job& j = job_of(*e);
        trace += j.name;
        j.left--;
        p.charge(*e, 1);
        if (j.left == 0) {
            j.finish = now + 1;
            p.stop(*e);
            done++;
        } else {
            p.enqueue(*e, now + 1);
        }
    }
    return trace;
}

double mean_turnaround(const std::vector<std::unique_ptr<Job>>& jobs) {
    double sum = 0;
    for (const auto& j : jobs) sum += static_cast<double>(j->finish - j->arrival);
    return sum / static_cast<double>(jobs.size());
}

// Run-length form of a trace: "A100B10C10".
std::string runs(const std::string& t) {
    std::string out;
    for (size_t i = 0; i < t.size();) {
        size_t k = i;
        while (k < t.size() && t[k] == t[i]) k++;
        out += t[i] + std::to_string(k - i);
        i = k;
    }
    return out;
}

}  // namespace

TEST(SchedBatch, FifoChapterExamples) {
    Fifo p;
    std::vector<std::unique_ptr<Job>> a;
    EXPECT_EQ(runs(run_batch(p, a, {{'A', 0, 10}, {'B', 0, 10}, {'C', 0, 10}})), "A10B10C10");
    EXPECT_DOUBLE_EQ(mean_turnaround(a), 20.0);
    Fifo p2;
    std::vector<std::unique_ptr<Job>> b;
    EXPECT_EQ(runs(run_batch(p2, b, {{'A', 0, 100}, {'B', 0, 10}, {'C', 0, 10}})), "A100B10C10");
    EXPECT_DOUBLE_EQ(mean_turnaround(b), 110.0);  // the convoy effect
}

TEST(SchedBatch, SjfChapterExamples) {
    LeftWork w;
    Sjf p(w);
    std::vector<std::unique_ptr<Job>> a;
    EXPECT_EQ(runs(run_batch(p, a, {{'A', 0, 100}, {'B', 0, 10}, {'C', 0, 10}})), "B10C10A100");
    EXPECT_DOUBLE_EQ(mean_turnaround(a), 50.0);
    // Late arrivals wait for A: turnarounds 100, 100, 110.
    Sjf p2(w);
    std::vector<std::unique_ptr<Job>> b;
    EXPECT_EQ(runs(run_batch(p2, b, {{'A', 0, 100}, {'B', 10, 10}, {'C', 10, 10}})), "A100B10C10");
    EXPECT_NEAR(mean_turnaround(b), 103.333333, 1e-5);
    // Equal lengths keep arrival order.
    Sjf p3(w);
    std::vector<std::unique_ptr<Job>> c;
    EXPECT_EQ(runs(run_batch(p3, c, {{'A', 0, 5}, {'B', 0, 3}, {'C', 0, 5}, {'D', 0, 3}})), "B3D3A5C5");
}

TEST(SchedBatch, StcfChapterExamples) {
    LeftWork w;
    Stcf p(w);
    std::vector<std::unique_ptr<Job>> a;
    EXPECT_EQ(runs(run_batch(p, a, {{'A', 0, 100}, {'B', 10, 10}, {'C', 10, 10}})), "A10B10C10A90");
    EXPECT_DOUBLE_EQ(mean_turnaround(a), 50.0);
    // A tie keeps the running job on the CPU: B arrives at 2 with 3 left,
    // as A has; A finishes first.
    Stcf p2(w);
    std::vector<std::unique_ptr<Job>> b;
    EXPECT_EQ(runs(run_batch(p2, b, {{'A', 0, 5}, {'B', 2, 3}})), "A5B3");
    // A shorter job preempts: B (2) arrives at 2 when A has 3 left and
    // runs; C (1) arrives at 3 when B has 1 left: a tie, B keeps the CPU.
    Stcf p3(w);
    std::vector<std::unique_ptr<Job>> c;
    EXPECT_EQ(runs(run_batch(p3, c, {{'A', 0, 5}, {'B', 2, 2}, {'C', 3, 1}})), "A2B2C1A3");
    // Idle time before the first arrival.
    Stcf p4(w);
    std::vector<std::unique_ptr<Job>> d;
    EXPECT_EQ(run_batch(p4, d, {{'A', 2, 2}}), "--AA");
}

TEST(SchedBatch, PreemptsDequeueAndSize) {
    LeftWork w;
    Fifo f;
    Sjf s(w);
    Stcf t(w);
    std::vector<std::unique_ptr<Job>> jobs;
    for (Time len : {3, 5, 5}) {
        jobs.push_back(std::make_unique<Job>());
        jobs.back()->left = jobs.back()->length = len;
        jobs.back()->e.owner = jobs.back().get();
    }
    const Entity &short3 = jobs[0]->e, &long5 = jobs[1]->e, &other5 = jobs[2]->e;
    EXPECT_TRUE(t.preempts(short3, long5));
    EXPECT_FALSE(t.preempts(long5, short3));
    EXPECT_FALSE(t.preempts(other5, long5));  // strictly shorter only
    EXPECT_FALSE(f.preempts(short3, long5));
    EXPECT_FALSE(s.preempts(short3, long5));
    for (Policy* p : std::initializer_list<Policy*>{&f, &s, &t}) {
        for (auto& j : jobs) p->enqueue(j->e, 0);
        EXPECT_EQ(p->size(), 3u) << p->name();
        p->dequeue(jobs[0]->e);
        EXPECT_EQ(p->size(), 2u);
        Entity* e = p->pick(0, 0);
        ASSERT_EQ(e, &jobs[1]->e) << p->name();  // the 5s tie: first enqueued
        p->stop(*e);
        EXPECT_EQ(p->pick(0, 0), &jobs[2]->e);
        EXPECT_EQ(p->pick(0, 0), nullptr);
        EXPECT_EQ(p->size(), 0u);
        jobs[2]->e.picked = false;
    }
    EXPECT_STREQ(f.name(), "fifo");
    EXPECT_STREQ(s.name(), "sjf");
    EXPECT_STREQ(t.name(), "stcf");
}
