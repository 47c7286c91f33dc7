// lib/sched/weights.h - the two priority-to-weight tables.
//
// Policies see weights, never priorities. Two tables of 40 entries exist:
//
//   kLinuxNiceWeight[i]  Linux's sched_prio_to_weight: index i = nice + 20.
//                        LOWER index = HEAVIER: [0] = nice -20 = 88761,
//                        [20] = nice 0 = 1024, [39] = nice 19 = 15.
//                        This is the user-facing table of the kernel.
//   kSeedLevelWeight[i]  the seed harness's 40 levels, as its "Theor. Weight"
//                        column prints them. HIGHER level = HEAVIER:
//                        [0] = 11, [20] = 1024, [39] = 71053. The values are
//                        the harness's own integers (close to, but not
//                        exactly, 1024 * 1.25^(level - 20)).
//
// kInvWeight tables hold 2^32 / weight (Linux's wmult idea) for callers that
// want a multiply instead of a divide. Everything here is constexpr.
#pragma once

#include "lib/sched/knobs.h"
#include "lib/sched/policy.h"

namespace q::sched {

inline constexpr u32 kNiceWeightDefault = 1024;

inline constexpr u32 kLinuxNiceWeight[kLevels] = {
    88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916, 9548, 7620, 6100, 4904,
    3906,  3121,  2501,  1991,  1586,  1277,  1024,  820,   655,   526,   423,  335,  272,  215,
    172,   137,   110,   87,    70,    56,    45,    36,    29,    23,    18,   15,
};

inline constexpr u32 kSeedLevelWeight[kLevels] = {
    11,   14,   18,   23,    29,    36,    46,    57,    72,    90,    112,   140,   175,  219,
    274,  343,  428,  535,   669,   836,   1024,  1280,  1600,  2000,  2500,  3125,  3906, 4882,
    6103, 7629, 9536, 11920, 14901, 18626, 23283, 29103, 36379, 45474, 56843, 71053,
};

enum class WeightTable : u8 { Seed, Linux };

constexpr const u32* weight_table(WeightTable t) {
    return t == WeightTable::Linux ? kLinuxNiceWeight : kSeedLevelWeight;
}

// How a policy is built (construct_policy in registry.h; every policy has a
// constructor from it and takes what it needs).
struct PolicyConfig {
    WeightTable table = WeightTable::Linux;  // queue weights for dwrr/idwrr
    u32 price = 1024;                        // credit one slice costs
    Time slice = 1;                          // time units of one slice
    unsigned vshift = 20;                    // EEVDF vruntime fixed point
    // EEVDF: a negative lag decays while its task sleeps (eevdf.h,
    // "Sleeping lag"; Linux's DELAY_DEQUEUE). false keeps every lag until
    // the next wake-up (the paper's EEVDF: fluid-exact for sleepers).
    bool sleep_decay = true;
    // Boot-time knobs (knobs.h), in the caller's time units: each policy
    // reads its own; none given leaves every policy's defaults.
    Knobs knobs;
    // Which run queue the instance serves (one per hart with per-hart
    // queues): randomised policies seed from it, so harts do not all draw
    // one sequence.
    u32 queue = 0;
};

// nice -20..19 -> index into kLinuxNiceWeight.
constexpr u8 nice_to_index(int nice) {
    if (nice < -20) nice = -20;
    if (nice > 19) nice = 19;
    return static_cast<u8>(nice + 20);
}

// Sets both the queue index and the weight of e from table t.
constexpr void set_priority(Entity& e, WeightTable t, u8 index) {
    if (index >= kLevels) index = kLevels - 1;
    e.level = index;
    e.weight = weight_table(t)[index];
}

namespace detail {
struct InvTable {
    u32 v[kLevels];
};
constexpr InvTable make_inv(const u32* w) {
    InvTable t{};
    for (unsigned i = 0; i < kLevels; i++) t.v[i] = static_cast<u32>((u64{1} << 32) / w[i]);
    return t;
}
}  // namespace detail

// 2^32 / weight for each table entry.
inline constexpr detail::InvTable kLinuxInvWeight = detail::make_inv(kLinuxNiceWeight);
inline constexpr detail::InvTable kSeedInvWeight = detail::make_inv(kSeedLevelWeight);

}  // namespace q::sched
