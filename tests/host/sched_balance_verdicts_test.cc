// tests/host/sched_balance_verdicts_test.cc - schedsim's shortcuts in the
// run-queue core (lib/sched/runqueues_move.h: balanced(), quiet_until()
// and the reweight shortcut) against the core as the kernel runs it
// (balancing whenever a balance is due): the same moves and times, with
// fewer locks taken where they skip balances that could move nothing.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "tests/host/sched_rq_env.h"

using namespace qt;

namespace {

// The same harts as SeqEnv's, but declared concurrent: the core skips
// schedsim's shortcuts (balance verdicts, quiet_until; a reweight makes
// balances due through reweights_) and balances whenever one is due, as
// the kernel does. Run by one thread, its atomics are plain accesses.
struct UncachedEnv : SeqEnv {
    static constexpr bool kConcurrent = true;
};

// Hogs on per-hart queues in continuous time (Harts' protocol), on either
// environment; at slice `renice_at` task 0 changes weight (to nice
// `renice_to`), so the reweight shortcut is exercised too. Returns what
// every hart did: the moves (task, source, destination, why) and each
// task's time run.
struct VerdictRun {
    std::vector<std::tuple<int, unsigned, unsigned, MoveReason>> moves;
    std::vector<Time> ran;
    u64 locks = 0;  // queue locks taken (not compared: what the verdicts save)
    bool operator==(const VerdictRun& o) const { return moves == o.moves && ran == o.ran; }
};

template <class Env>
VerdictRun run_hogs_for_verdicts(PolicyKind k, unsigned harts, const std::vector<int>& nices, int slices, int renice_at,
                                 int renice_to) {
    const Time slice = 100;
    RqBox<Env> b(k, true, harts, slice);
    std::vector<std::unique_ptr<RTask>> t;
    for (size_t i = 0; i < nices.size(); i++) {
        t.push_back(std::move(make_rtasks(1, nices[i])[0]));
        t.back()->id = static_cast<int>(i);
    }
    Env& env = b.rq.env();
    env.cpu = -1;
    const u64 locks = SeqEnv::Lock::acquired;
    for (auto& x : t) b.rq.wake(x->rq, 0, false);
    std::vector<RqTask*> cur(harts, nullptr);
    Time now = 0;
    for (int s = 0; s < slices; s++) {
        if (s == renice_at) {
            const u8 level = nice_to_index(renice_to);
            b.rq.set_weight(t[0]->rq, weight_table(WeightTable::Linux)[level], level);
        }
        for (unsigned c = 0; c < harts; c++) {
            env.cpu = static_cast<int>(c);
            env.clock = now;
            if (RqTask* r = cur[c]) {
                rtask(r).ran += now - r->charged_until;
                b.rq.charge(*r, now);
                b.rq.put_back(*r, now);
            }
            b.rq.balance(c, now);
            cur[c] = b.rq.pick(c);
        }
        now += slice;
    }
    VerdictRun out;
    for (const auto& m : env.moves) out.moves.emplace_back(rtask(m.t).id, m.src, m.dst, m.why);
    for (auto& x : t) out.ran.push_back(x->ran);
    out.locks = SeqEnv::Lock::acquired - locks;
    return out;
}

}  // namespace

// schedsim's core skips a balance only when it cannot move anything
// (quiet_until's verdict; balance.h's rotations) and makes balances due at
// a reweight without counting reweights: the moves and every task's time
// are those of the core that balances whenever due (the kernel's), with
// fewer locks taken where equal hogs rotate. Equal
// hogs that rotate (8 on 3 harts: 3 / 3 / 2; 7 on 4: 2 / 2 / 2 / 1),
// unequal weights, and a renice in the middle of each run.
TEST(SchedRunQueues, BalanceVerdictsSkipOnlyBalancesThatMoveNothing) {
    const std::vector<int> eight(8, 0), seven(7, 0), mixed = {0, 0, 0, 5, 5, 5, 5, -3, 10};
    const std::vector<std::pair<const std::vector<int>*, unsigned>> cases = {
        {&eight, 3}, {&seven, 4}, {&mixed, 3}, {&mixed, 4}};
    for (PolicyKind k : {PolicyKind::EEVDF, PolicyKind::DWRR, PolicyKind::IDWRR, PolicyKind::RR, PolicyKind::STRIDE}) {
        size_t moves = 0;
        for (const auto& [nices, harts] : cases) {
            SCOPED_TRACE(std::string(policy_name(k)) + " harts " + std::to_string(harts) + " tasks " +
                         std::to_string(nices->size()));
            const VerdictRun seq = run_hogs_for_verdicts<SeqEnv>(k, harts, *nices, 3000, 1200, 7);
            const VerdictRun all = run_hogs_for_verdicts<UncachedEnv>(k, harts, *nices, 3000, 1200, 7);
            EXPECT_EQ(seq.moves.size(), all.moves.size());
            EXPECT_TRUE(seq == all);
            // Equal hogs rotate: most balances can move nothing until a
            // rotation is due, and schedsim's core skips them without
            // locking (eevdf, 8 on 3 harts: 34,409 locks against 36,650;
            // issue 23 finding 5: schedsim's per-hart mode cost 1.67-1.85x
            // one queue, all of it in such balances).
            if (nices != &mixed) {
                EXPECT_LT(seq.locks, all.locks);
            }
            moves += all.moves.size();
        }
        EXPECT_GT(moves, 500u) << policy_name(k);
    }
}
