// lib/sched/registry.cc - names -> policies (see registry.h).
#include "lib/sched/registry.h"

namespace q::sched {

namespace {

#define Q_SCHED_NAME(kind, cls, name) name,
constexpr const char* kNames[kPolicyKinds] = {Q_SCHED_POLICIES(Q_SCHED_NAME)};
#undef Q_SCHED_NAME

bool same(const char* a, const char* b) {
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

}  // namespace

const char* policy_name(PolicyKind kind) { return kNames[static_cast<unsigned>(kind)]; }

bool parse_policy(const char* name, PolicyKind& out) {
    if (!name) return false;
    for (unsigned i = 0; i < kPolicyKinds; i++) {
        if (same(name, kNames[i])) {
            out = static_cast<PolicyKind>(i);
            return true;
        }
    }
    return false;
}

}  // namespace q::sched
