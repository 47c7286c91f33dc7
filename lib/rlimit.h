// lib/rlimit.h - how many processes a user may have: root's reserve and
// RLIMIT_NPROC (pure, host-tested; the kernel applies it in
// kernel/proc/proc.cc:alloc_proc, the calls are in kernel/proc/rlimit.cc).
//
// The rule, Linux's:
//   - the last param::kRootReserveProcs process slots are root's, so root
//     can always run kill and ps however full the table is (Linux 2.4 kept
//     MIN_TASKS_LEFT_FOR_ROOT = 4 for the same reason);
//   - a process not running as root may not fork once its real user has
//     RLIMIT_NPROC processes (every slot that is not free counts: running,
//     sleeping, and zombies not yet reaped), as in Linux, whose default
//     limit is likewise half the table;
//   - root (effective uid 0) is bound by neither;
//   - each process carries its own soft (cur) and hard (max) limit,
//     inherited at fork; setrlimit may set cur up to max and lower max, and
//     only root may raise max.
// Invariant: total functions of their arguments, no side effects.
#pragma once

#include "lib/fs/perm.h"
#include "lib/params.h"
#include "lib/types.h"

namespace q::rlimit {

constexpr u64 kInfinity = ~u64{0};
constexpr int kNproc = 6;  // RLIMIT_NPROC, Linux's resource number

struct Limit {
    u64 cur = kInfinity;  // enforced
    u64 max = kInfinity;  // ceiling for cur
};

constexpr int kUserSlots = param::kMaxProcs - param::kRootReserveProcs;
constexpr Limit kDefaultNproc{static_cast<u64>(kUserSlots / 2), static_cast<u64>(kUserSlots / 2)};

// May a process running as c take a slot, with `used` of the kMaxProcs
// slots taken, `mine` of them by processes of c's real uid?
constexpr bool may_take_slot(const perm::Cred& c, int used, int mine, const Limit& nproc) {
    if (used >= param::kMaxProcs) return false;
    if (c.root()) return true;
    if (used >= kUserSlots) return false;
    return static_cast<u64>(mine) < nproc.cur;
}

// May c change a limit from `old` to `want`?
constexpr bool may_set(const perm::Cred& c, const Limit& old, const Limit& want) {
    if (want.cur > want.max) return false;
    return want.max <= old.max || c.root();
}

}  // namespace q::rlimit
