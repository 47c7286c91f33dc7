// lib/sched/registry.h - names -> policies, without a heap.
//
// The policies are listed once, in lib/sched/policies.h; everything here is
// generated from that list. parse_policy("rr" | "dwrr" | ...) gives a
// PolicyKind, and construct_policy(kind, storage, config) placement-
// constructs a fresh instance (each policy has a constructor from
// PolicyConfig) into caller-provided PolicyStorage: the kernel keeps one of
// each kind per run queue, the simulator one per run. The storage must outlive
// the policy; a policy needs no destruction (all policies are trivially
// destructible).
#pragma once

#include "lib/sched/dwrr.h"
#include "lib/sched/eevdf.h"
#include "lib/sched/idwrr.h"
#include "lib/sched/lottery.h"
#include "lib/sched/mlfq.h"
#include "lib/sched/policies.h"
#include "lib/sched/rr.h"
#include "lib/sched/stride.h"
#include "lib/sched/weights.h"

namespace q::sched {

#define Q_SCHED_KIND(kind, cls, name) kind,
enum class PolicyKind : u8 { Q_SCHED_POLICIES(Q_SCHED_KIND) };
#undef Q_SCHED_KIND
#define Q_SCHED_ONE(kind, cls, name) +1
inline constexpr unsigned kPolicyKinds = 0 Q_SCHED_POLICIES(Q_SCHED_ONE);
#undef Q_SCHED_ONE

namespace detail {
template <typename... T>
constexpr usize max_size() {
    usize m = 0;
    ((m = sizeof(T) > m ? sizeof(T) : m), ...);
    return m;
}
}  // namespace detail

#define Q_SCHED_CLASS(kind, cls, name) , cls
struct PolicyStorage {
    alignas(8) unsigned char bytes[detail::max_size<void * Q_SCHED_POLICIES(Q_SCHED_CLASS)>()];
};
#undef Q_SCHED_CLASS

const char* policy_name(PolicyKind kind);
// Parses a policy name; returns false (and leaves out alone) if unknown.
bool parse_policy(const char* name, PolicyKind& out);
Policy* construct_policy(PolicyKind kind, PolicyStorage& storage, const PolicyConfig& config);

}  // namespace q::sched
