// lib/sched/registry.h - names -> policies, without a heap.
//
// The policies are listed once, in lib/sched/policies.h; everything here is
// generated from that list. parse_policy("rr" | "dwrr" | ...) gives a
// PolicyKind, and construct_policy(kind, storage, config) placement-
// constructs a fresh instance (each policy has a constructor from
// PolicyConfig) into caller-provided PolicyStorage: the kernel keeps one
// per run queue (PolicyStorageFor its hart count) and builds the next policy
// over the current one at a switch, the simulator one per queue of a run.
// The storage must outlive the policy; a policy needs no destruction (all
// policies are trivially destructible, checked at construction).
#pragma once

#include "lib/in_place.h"
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

// Room for any one policy built for at most kCpus cpus (ForCpus, policy.h).
#define Q_SCHED_CLASS(kind, cls, name) , typename ForCpus<cls, kCpus>::type
template <unsigned kCpus>
struct PolicyStorageFor {
    alignas(8) unsigned char bytes[detail::max_size<void * Q_SCHED_POLICIES(Q_SCHED_CLASS)>()];
};
#undef Q_SCHED_CLASS
using PolicyStorage = PolicyStorageFor<kMaxCpus>;

const char* policy_name(PolicyKind kind);
// Parses a policy name; returns false (and leaves out alone) if unknown.
bool parse_policy(const char* name, PolicyKind& out);

// Builds a fresh policy of `kind` (sized for kCpus cpus) in `storage`,
// which may hold another policy (trivially destructible: it just ends).
template <unsigned kCpus>
Policy* construct_policy(PolicyKind kind, PolicyStorageFor<kCpus>& storage, const PolicyConfig& c) {
    void* p = storage.bytes;
    switch (kind) {
#define Q_SCHED_CONSTRUCT(k, cls, name)                                \
    case PolicyKind::k: {                                              \
        using T = typename ForCpus<cls, kCpus>::type;                  \
        static_assert(__has_trivial_destructor(T) && alignof(T) <= 8); \
        return new (p, InPlace{}) T(c);                                \
    }
        Q_SCHED_POLICIES(Q_SCHED_CONSTRUCT)
#undef Q_SCHED_CONSTRUCT
    }
    return nullptr;
}

}  // namespace q::sched
