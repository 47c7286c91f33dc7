// tests/host/rlimit_test.cc - who may take a process slot (lib/rlimit.h):
// root's reserve, RLIMIT_NPROC per real user, and setrlimit's rule (issue
// 24's finding 5: a student's fork bomb held all 64 slots and root could
// not run kill or ps).
#include <gtest/gtest.h>

#include "lib/rlimit.h"

// The binary's test files compile as one unit (mk/tests.mk's host_test):
// this file's names stay in its own namespace.
namespace rlimit_test {

using q::perm::Cred;
using q::rlimit::kDefaultNproc;
using q::rlimit::kInfinity;
using q::rlimit::kUserSlots;
using q::rlimit::Limit;
using q::rlimit::may_set;
using q::rlimit::may_take_slot;
namespace param = q::param;

namespace {

constexpr Cred kRoot{};
constexpr Cred kStudent{1000, 1000, 1000, 1000};
constexpr Limit kNoLimit{};

TEST(Rlimit, TheLastSlotsAreRoots) {
    static_assert(param::kRootReserveProcs >= 4, "room for a shell, kill and ps");
    EXPECT_TRUE(may_take_slot(kStudent, kUserSlots - 1, 0, kNoLimit));
    EXPECT_FALSE(may_take_slot(kStudent, kUserSlots, 0, kNoLimit));
    EXPECT_TRUE(may_take_slot(kRoot, kUserSlots, 0, kNoLimit));
    EXPECT_TRUE(may_take_slot(kRoot, param::kMaxProcs - 1, 0, kNoLimit));
    EXPECT_FALSE(may_take_slot(kRoot, param::kMaxProcs, 0, kNoLimit));  // the table is full
}

TEST(Rlimit, NprocCountsTheRealUsersProcesses) {
    const Limit five{5, 5};
    EXPECT_TRUE(may_take_slot(kStudent, 10, 4, five));
    EXPECT_FALSE(may_take_slot(kStudent, 10, 5, five));
    EXPECT_TRUE(may_take_slot(kRoot, 10, 500, five));  // root is exempt
}

TEST(Rlimit, TheDefaultIsHalfTheUserSlots) {
    EXPECT_EQ(kDefaultNproc.cur, static_cast<q::u64>(kUserSlots / 2));
    EXPECT_EQ(kDefaultNproc.max, kDefaultNproc.cur);
    // Two users at their default limit still leave root its reserve.
    EXPECT_LE(2 * kDefaultNproc.cur, static_cast<q::u64>(kUserSlots));
}

TEST(Rlimit, SetrlimitRaisesMaxOnlyForRoot) {
    const Limit old{10, 20};
    EXPECT_TRUE(may_set(kStudent, old, Limit{20, 20}));  // cur up to max
    EXPECT_TRUE(may_set(kStudent, old, Limit{5, 10}));   // lower both
    EXPECT_FALSE(may_set(kStudent, old, Limit{10, 21}));
    EXPECT_FALSE(may_set(kStudent, old, Limit{21, 20}));  // cur above max
    EXPECT_TRUE(may_set(kRoot, old, Limit{kInfinity, kInfinity}));
    EXPECT_FALSE(may_set(kRoot, old, Limit{30, 25}));  // not even root: cur above max
}

}  // namespace

}  // namespace rlimit_test
