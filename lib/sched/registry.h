// lib/sched/registry.h - names -> policies, without a heap.
//
// Two ways to get a policy:
//   policy_by_name("rr" | "dwrr" | "idwrr" | "eevdf")
//       returns one of four constinit instances with static storage,
//       configured for the kernel (Linux nice table, price 1024, slice 1
//       time unit, EEVDF shift 20). Repeated calls return the same object.
//   construct_policy(kind, storage, config)
//       placement-constructs a fresh instance into caller-provided
//       PolicyStorage (the simulator runs several policies side by side).
// The storage must outlive the policy; a policy needs no destruction (all
// policies are trivially destructible).
#pragma once

#include "lib/sched/dwrr.h"
#include "lib/sched/eevdf.h"
#include "lib/sched/idwrr.h"
#include "lib/sched/rr.h"
#include "lib/sched/weights.h"

namespace q::sched {

enum class PolicyKind : u8 { RR, DWRR, IDWRR, EEVDF };
inline constexpr unsigned kPolicyKinds = 4;

// Every policy once, in PolicyKind order: X(Kind, Class). Programs that
// need each concrete class (schedsim instantiates its loop per class) expand
// this instead of listing policies themselves; names come from
// policy_name(). A new policy is added here and in this registry only.
#define Q_SCHED_POLICIES(X) X(RR, RoundRobin) X(DWRR, Dwrr) X(IDWRR, InterleavedDwrr) X(EEVDF, Eevdf)

struct PolicyConfig {
    WeightTable table = WeightTable::Linux;  // queue weights for dwrr/idwrr
    u32 price = 1024;                        // credit one slice costs
    Time slice = 1;                          // time units of one slice
    unsigned vshift = 20;                    // EEVDF vruntime fixed point
};

namespace detail {
template <typename... T>
constexpr usize max_size() {
    usize m = 0;
    ((m = sizeof(T) > m ? sizeof(T) : m), ...);
    return m;
}
}  // namespace detail

struct PolicyStorage {
    alignas(8) unsigned char bytes[detail::max_size<RoundRobin, Dwrr, InterleavedDwrr, Eevdf>()];
};

const char* policy_name(PolicyKind kind);
// Parses a policy name; returns false (and leaves out alone) if unknown.
bool parse_policy(const char* name, PolicyKind& out);
Policy* construct_policy(PolicyKind kind, PolicyStorage& storage, const PolicyConfig& config);
// Static instance by name, or null for an unknown name.
Policy* policy_by_name(const char* name);

}  // namespace q::sched
