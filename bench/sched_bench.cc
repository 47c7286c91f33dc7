// bench/sched_bench.cc - cost of one pick + charge + re-enqueue per policy
// at 1k, 10k and 100k queued tasks (levels spread over the 40 seed levels).
// O(1) policies should show flat times; EEVDF grows like log n.
#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

#include "lib/sched/registry.h"

using namespace q::sched;

namespace {

void pick_charge(benchmark::State& state, PolicyKind kind) {
    const auto n = static_cast<size_t>(state.range(0));
    PolicyConfig cfg;
    cfg.table = WeightTable::Seed;
    auto storage = std::make_unique<PolicyStorage>();
    Policy* p = construct_policy(kind, *storage, cfg);
    std::vector<Entity> tasks(n);
    for (size_t i = 0; i < n; i++) {
        set_priority(tasks[i], WeightTable::Seed, static_cast<q::u8>(i % kLevels));
        p->enqueue(tasks[i], 0);
    }
    Time now = 0;
    for (auto _ : state) {
        Entity* e = p->pick(0, now);
        p->charge(*e, 1);
        now++;
        p->enqueue(*e, now);
        benchmark::DoNotOptimize(e);
    }
    state.SetLabel(policy_name(kind));
}

}  // namespace

BENCHMARK_CAPTURE(pick_charge, rr, PolicyKind::RR)->Arg(1000)->Arg(10000)->Arg(100000);
BENCHMARK_CAPTURE(pick_charge, dwrr, PolicyKind::DWRR)->Arg(1000)->Arg(10000)->Arg(100000);
BENCHMARK_CAPTURE(pick_charge, idwrr, PolicyKind::IDWRR)->Arg(1000)->Arg(10000)->Arg(100000);
BENCHMARK_CAPTURE(pick_charge, eevdf, PolicyKind::EEVDF)->Arg(1000)->Arg(10000)->Arg(100000);

BENCHMARK_MAIN();
