// sim/sim.cc - schedsim's entry point: simulate() runs the loop
// (simulator.h) instantiated for the configured policy, and the helpers
// the loop and the report share. The loops of the seven policies below are
// built in sim_lists.cc, sim_eevdf.cc and sim_draw.cc, which compile in
// parallel; a policy added to Q_SCHED_POLICIES later (exercise 3) needs no
// list of its own: its loop is built here, where simulate() names it.
#include "sim/sim.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "lib/sched/policies.h"
#include "sim/simulator.h"

namespace schedsim {

namespace qs = q::sched;

SCHEDSIM_BUILT_ELSEWHERE(RoundRobin);
SCHEDSIM_BUILT_ELSEWHERE(Dwrr);
SCHEDSIM_BUILT_ELSEWHERE(InterleavedDwrr);
SCHEDSIM_BUILT_ELSEWHERE(Mlfq);
SCHEDSIM_BUILT_ELSEWHERE(Eevdf);
SCHEDSIM_BUILT_ELSEWHERE(Stride);
SCHEDSIM_BUILT_ELSEWHERE(Lottery);

namespace loop {

// EEVDF's vruntime fixed point: slice << vshift about 2^30 (the kernel's
// 7,500-cycle slice << 16 is 2^29), at least the old 20, and low enough
// that the lightest task's vruntime (weight >= 11 > 2^3) cannot overflow
// in `ticks`. A reweight rescales a lag with one rounding of under a
// vruntime unit, w / 2^vshift ticks: with a fixed 20 at slice 1 a task
// flipping nice -20 / 19 every 7 ticks drifted 1,048 ticks ahead in 800k
// ticks, with 30 it stays within a tick (schedsim_reweight_test.cc).
unsigned eevdf_vshift(uint64_t slice, uint64_t ticks) {
    const int from_slice = 30 - std::bit_width(slice - 1);
    const int room = 62 + 3 - std::bit_width(ticks);
    return static_cast<unsigned>(std::min(std::max(from_slice, 20), room));
}

}  // namespace loop

uint64_t percentile(std::vector<uint64_t>& v, unsigned p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t rank = (v.size() * p + 99) / 100;  // ceil(n * p / 100)
    return v[rank ? rank - 1 : 0];
}

// A replay with wake bursts or waits has no fluid reference (its sleeps
// end when a waker gets there, which only a schedule decides): it runs as
// with --fairness off.
Result simulate(const Config& cfg_in, const std::vector<TaskSpec>& fixed_tasks) {
    Config cfg = cfg_in;
    for (const TaskSpec& s : fixed_tasks) cfg.fairness = cfg.fairness && !s.causal;
    switch (cfg.policy) {
#define SCHEDSIM_CASE(kind, type, name) \
    case qs::PolicyKind::kind:          \
        return loop::simulate_with<qs::type>(cfg, fixed_tasks);
        Q_SCHED_POLICIES(SCHEDSIM_CASE)
#undef SCHEDSIM_CASE
    }
    throw std::logic_error("unknown policy");
}

}  // namespace schedsim
