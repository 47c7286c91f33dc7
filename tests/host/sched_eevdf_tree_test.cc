// tests/host/sched_eevdf_tree_test.cc - the EEVDF tree (with its groups of
// tasks sharing (deadline, vruntime)) against a brute-force reference: the
// first entity in (deadline, seq) order whose vruntime passes v <= L.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "lib/sched/eevdf_tree.h"

namespace {

using namespace q;
using namespace q::sched;

const Entity* reference(const std::vector<Entity>& e, const std::vector<bool>& in, i64 limit) {
    const Entity* best = nullptr;
    for (usize j = 0; j < e.size(); j++) {
        if (!in[j] || e[j].eevdf.vruntime > limit) continue;
        if (!best || e[j].eevdf.deadline < best->eevdf.deadline ||
            (e[j].eevdf.deadline == best->eevdf.deadline && e[j].seq < best->seq))
            best = &e[j];
    }
    return best;
}

// Few distinct keys, so groups form, split and empty all the time.
TEST(SchedEevdfTree, GroupsMatchPerTaskOrder) {
    for (int round = 0; round < 300; round++) {
        std::mt19937_64 rng(static_cast<u64>(round));
        auto r = [&](u64 n) { return static_cast<i64>(rng() % n); };
        const int n = 1 + static_cast<int>(r(60));
        const i64 deadlines = 1 + r(6), vruntimes = 1 + r(4);
        std::vector<Entity> e(static_cast<usize>(n));
        std::vector<bool> in(static_cast<usize>(n), false);
        EevdfTree tree;
        u64 seq = 0;
        for (int step = 0; step < 1000; step++) {
            const usize i = static_cast<usize>(r(n));
            if (!in[i]) {
                e[i].eevdf.deadline = r(deadlines);
                e[i].eevdf.vruntime = r(vruntimes);
                e[i].seq = seq++;
                tree.insert(e[i]);
                in[i] = true;
            } else if (r(2)) {
                tree.erase(e[i]);
                in[i] = false;
            }
            ASSERT_GE(tree.check(), 0) << "round " << round << " step " << step;
            for (i64 limit = -1; limit <= vruntimes; limit++) {
                const Entity* got = tree.first_passing([=](i64 v) { return v <= limit; });
                ASSERT_EQ(got, reference(e, in, limit)) << "round " << round << " step " << step;
            }
        }
    }
}

}  // namespace
