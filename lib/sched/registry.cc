// lib/sched/registry.cc - names -> policies (see registry.h).
#include "lib/sched/registry.h"

namespace q::sched {

namespace {

// A placement new of our own (tagged, so it cannot clash with <new>, which
// the cross toolchain cannot include freestanding).
struct InPlace {};

}  // namespace
}  // namespace q::sched

inline void* operator new(q::usize, void* where, q::sched::InPlace) noexcept { return where; }

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

Policy* construct_policy(PolicyKind kind, PolicyStorage& storage, const PolicyConfig& c) {
    void* p = storage.bytes;
    switch (kind) {
#define Q_SCHED_CONSTRUCT(k, cls, name) \
    case PolicyKind::k:                 \
        return new (p, InPlace{}) cls(c);
        Q_SCHED_POLICIES(Q_SCHED_CONSTRUCT)
#undef Q_SCHED_CONSTRUCT
    }
    return nullptr;
}

}  // namespace q::sched
