// tests/host/sched_idwrr_test.cc - the interleaved DWRR's pick (idwrr.h,
// masks and arithmetic sweeps) takes exactly the decisions of the seed's
// visit-by-visit loop: a model that visits one non-empty queue at a time
// (refill below the price, else pay and take the head) is run beside the
// policy on random enqueues, dequeues, reweights and picks from several
// cpus, and every pick and every balance must agree. Sparse queues of light
// levels exercise the whole-sweep path, dense ones the passed-queue refills.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <memory>
#include <vector>

#include "lib/sched/idwrr.h"
#include "lib/sched/prng.h"
#include "sched_test_util.h"

using namespace qt;

namespace {

// The seed's loop, one visit at a time, on its own FIFOs of entity pointers.
struct IdwrrVisitModel {
    IdwrrVisitModel(const u32* weights, u64 p) : w(weights), price(p) {}
    const u32* w;
    u64 price;
    std::deque<Entity*> q[kLevels];
    u64 balance[4][kLevels] = {};
    unsigned last[4] = {kLevels - 1, kLevels - 1, kLevels - 1, kLevels - 1};

    bool any() const {
        for (const auto& f : q)
            if (!f.empty()) return true;
        return false;
    }
    Entity* pick(unsigned cpu) {
        if (!any()) return nullptr;
        for (unsigned i = last[cpu];;) {
            i = (i + 1) % kLevels;
            if (q[i].empty()) continue;
            if (balance[cpu][i] < price) {
                balance[cpu][i] += w[i];
                continue;
            }
            balance[cpu][i] -= price;
            last[cpu] = i;
            Entity* e = q[i].front();
            q[i].pop_front();
            return e;
        }
    }
    void remove(Entity* e) {
        auto& f = q[e->level];
        f.erase(std::find(f.begin(), f.end(), e));
    }
};

// ops random operations on n entities of levels [lo, hi), cpus 0..3.
void idwrr_against_visits(WeightTable table, u64 seed, int n, unsigned lo, unsigned hi, int ops) {
    const u32* w = weight_table(table);
    InterleavedDwrrFor<4> pol(w, 1024);
    IdwrrVisitModel model(w, 1024);
    Prng rng(seed);
    auto tasks = make_tasks(n);
    std::vector<Entity*> out;  // picked, not queued
    for (auto& t : tasks) {
        t->e.level = static_cast<u8>(lo + rng.below(hi - lo));
        out.push_back(&t->e);
    }
    int picks = 0;
    for (int op = 0; op < ops; op++) {
        const u64 r = rng.below(10);
        if (r < 3 && !out.empty()) {  // enqueue
            const size_t k = rng.below(out.size());
            Entity* e = out[k];
            out.erase(out.begin() + static_cast<long>(k));
            pol.enqueue(*e, 0);
            model.q[e->level].push_back(e);
        } else if (r < 4) {  // reweight, queued or not
            Entity& e = tasks[rng.below(tasks.size())]->e;
            const bool queued = e.queued;
            if (queued) model.remove(&e);
            const u8 level = static_cast<u8>(lo + rng.below(hi - lo));
            pol.reweight(e, w[level], level);
            if (queued) model.q[level].push_back(&e);
        } else if (r < 5) {  // dequeue a queued one
            Entity& e = tasks[rng.below(tasks.size())]->e;
            if (!e.queued) continue;
            pol.dequeue(e);
            model.remove(&e);
            out.push_back(&e);
        } else {  // pick
            const unsigned cpu = static_cast<unsigned>(rng.below(4));
            Entity* want = model.pick(cpu);
            Entity* got = pol.pick(cpu, 0);
            ASSERT_EQ(got, want) << "seed " << seed << " op " << op;
            if (got) {
                EXPECT_EQ(got->cpu, cpu);
                out.push_back(got);
                picks++;
            }
            for (unsigned l = 0; l < kLevels; l++)
                ASSERT_EQ(pol.balance(cpu, l), model.balance[cpu][l])
                    << "seed " << seed << " op " << op << " level " << l;
        }
    }
    EXPECT_GT(picks, ops / 4);  // most enqueues (3 in 10 ops) are picked again
}

}  // namespace

TEST(SchedIdwrr, PicksWhatTheVisitLoopPicksDense) {
    for (u64 seed : {1u, 2u, 3u}) idwrr_against_visits(WeightTable::Seed, seed, 300, 0, kLevels, 20000);
    for (u64 seed : {4u, 5u}) idwrr_against_visits(WeightTable::Linux, seed, 300, 0, kLevels, 20000);
}

// A few tasks of light levels (seed table: weights 11..~700 < the price):
// most picks find no rich queue and sweep many times.
TEST(SchedIdwrr, PicksWhatTheVisitLoopPicksSparseLight) {
    for (u64 seed : {6u, 7u, 8u}) idwrr_against_visits(WeightTable::Seed, seed, 6, 0, 12, 20000);
    for (u64 seed : {9u, 10u}) idwrr_against_visits(WeightTable::Linux, seed, 6, 30, kLevels, 20000);
}
