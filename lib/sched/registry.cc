// lib/sched/registry.cc - names -> policies (see registry.h).
//
// The static instances are constinit: constant-initialised, so the kernel
// needs no constructors to run and registers no destructors.
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

constexpr const char* kNames[kPolicyKinds] = {"rr", "dwrr", "idwrr", "eevdf"};

bool same(const char* a, const char* b) {
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

constinit RoundRobin g_rr;
constinit Dwrr g_dwrr(kLinuxNiceWeight, 1024, 1);
constinit InterleavedDwrr g_idwrr(kLinuxNiceWeight, 1024);
constinit Eevdf g_eevdf(1, 20);

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
    const u32* w = weight_table(c.table);
    switch (kind) {
        case PolicyKind::RR: return new (p, InPlace{}) RoundRobin();
        case PolicyKind::DWRR: return new (p, InPlace{}) Dwrr(w, c.price, c.slice);
        case PolicyKind::IDWRR: return new (p, InPlace{}) InterleavedDwrr(w, c.price);
        case PolicyKind::EEVDF: return new (p, InPlace{}) Eevdf(c.slice, c.vshift);
    }
    return nullptr;
}

Policy* policy_by_name(const char* name) {
    PolicyKind k;
    if (!parse_policy(name, k)) return nullptr;
    switch (k) {
        case PolicyKind::RR: return &g_rr;
        case PolicyKind::DWRR: return &g_dwrr;
        case PolicyKind::IDWRR: return &g_idwrr;
        case PolicyKind::EEVDF: return &g_eevdf;
    }
    return nullptr;
}

}  // namespace q::sched
