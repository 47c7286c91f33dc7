// tests/host/kfs_log_test.cc - log bookkeeping (lib/fs/log_logic.h).
#include "lib/fs/log_logic.h"

#include <gtest/gtest.h>

namespace {

using q::u32;
using q::fs::Absorb;
using q::fs::LogHeader;

constexpr u32 kCap = q::fs::log_capacity(q::param::kLogBlocks);
constexpr u32 kM = q::param::kMaxOpBlocks;
constexpr u32 kPins = q::fs::kLogPinBudget;

TEST(KfsLog, CapacityExcludesHeaderAndIsBounded) {
    EXPECT_EQ(q::fs::log_capacity(q::param::kLogBlocks), u32(q::param::kLogBlocks - 1));
    EXPECT_EQ(q::fs::log_capacity(1000), u32(q::param::kLogBlocks));
    EXPECT_EQ(q::fs::log_capacity(0), 0u);
    EXPECT_EQ(q::fs::log_capacity(1), 0u);
}

TEST(KfsLog, HeaderFitsOneSector) {
    // The header write is the commit point: one sector, written atomically.
    EXPECT_LE(sizeof(LogHeader), 512u);
}

TEST(KfsLog, AbsorbsRepeatedBlocksWithinTheOpenGroup) {
    LogHeader h{};
    EXPECT_EQ(q::fs::log_absorb(h, 0, 29, 100), Absorb::Added);
    EXPECT_EQ(q::fs::log_absorb(h, 0, 29, 200), Absorb::Added);
    EXPECT_EQ(q::fs::log_absorb(h, 0, 29, 100), Absorb::Already);
    EXPECT_EQ(q::fs::log_absorb(h, 0, 29, 200), Absorb::Already);
    EXPECT_EQ(h.n, 2u);
    EXPECT_EQ(h.block[0], 100u);
    EXPECT_EQ(h.block[1], 200u);
}

TEST(KfsLog, ABlockOfACommittedTransactionGetsANewSlotButNoNewPin) {
    LogHeader h{};
    ASSERT_EQ(q::fs::log_absorb(h, 0, 29, 100), Absorb::Added);
    ASSERT_EQ(q::fs::log_absorb(h, 0, 29, 200), Absorb::Added);
    const u32 committed = h.n;  // that group committed; a new one opens
    EXPECT_EQ(q::fs::log_absorb(h, committed, 29, 200), Absorb::Relogged);
    EXPECT_EQ(q::fs::log_absorb(h, committed, 29, 300), Absorb::Added);
    EXPECT_EQ(q::fs::log_absorb(h, committed, 29, 200), Absorb::Already);  // absorbed in its new slot
    EXPECT_EQ(h.n, 4u);
    EXPECT_EQ(h.block[2], 200u);
    EXPECT_EQ(h.block[3], 300u);
}

TEST(KfsLog, LastSlotOfEachBlockIsTheOneReplayKeeps) {
    LogHeader h{};
    h.n = 5;
    const u32 blocks[5] = {7, 8, 7, 9, 8};
    for (u32 i = 0; i < 5; i++) h.block[i] = blocks[i];
    const bool last[5] = {false, false, true, true, true};
    for (u32 i = 0; i < 5; i++) EXPECT_EQ(q::fs::log_last_slot(h, i), last[i]) << i;
}

TEST(KfsLog, ReportsFullWithoutOverflowing) {
    LogHeader h{};
    for (u32 b = 0; b < 3; b++) EXPECT_EQ(q::fs::log_absorb(h, 0, 3, 50 + b), Absorb::Added);
    EXPECT_EQ(q::fs::log_absorb(h, 0, 3, 99), Absorb::Full);
    EXPECT_EQ(q::fs::log_absorb(h, 0, 3, 51), Absorb::Already);  // still absorbable
    EXPECT_EQ(q::fs::log_absorb(h, 3, 3, 51), Absorb::Full);     // a new group needs a slot
    EXPECT_EQ(h.n, 3u);
}

TEST(KfsLog, AdmissionReservesWorstCaseInSlotsAndPins) {
    EXPECT_TRUE(q::fs::log_admits(0, 0, 0, kCap));
    EXPECT_TRUE(q::fs::log_admits(0, 0, 1, kCap));  // a group of two
    EXPECT_TRUE(q::fs::log_admits(kCap - kM, 0, 0, kCap));
    EXPECT_FALSE(q::fs::log_admits(kCap - kM + 1, 0, 0, kCap));  // slots
    EXPECT_TRUE(q::fs::log_admits(0, kPins - kM, 0, kCap));
    EXPECT_FALSE(q::fs::log_admits(0, kPins - kM + 1, 0, kCap));  // pins
    // A log too small for two operations admits one at a time.
    EXPECT_TRUE(q::fs::log_admits(0, 0, 0, 15));
    EXPECT_FALSE(q::fs::log_admits(0, 0, 1, 15));
}

TEST(KfsLog, InstallsWhenAGroupCouldNotBegin) {
    EXPECT_FALSE(q::fs::log_must_install(0, 0, kCap));
    EXPECT_FALSE(q::fs::log_must_install(kCap - 2 * kM, 0, kCap));
    EXPECT_TRUE(q::fs::log_must_install(kCap - 2 * kM + 1, 0, kCap));
    EXPECT_FALSE(q::fs::log_must_install(5, kPins - 2 * kM, kCap));
    EXPECT_TRUE(q::fs::log_must_install(5, kPins - 2 * kM + 1, kCap));
    EXPECT_TRUE(q::fs::log_must_install(1, 1, 15));  // small log: install after every commit
    // After an install (empty log) an operation is always admitted.
    EXPECT_TRUE(q::fs::log_admits(0, 0, 0, q::fs::log_capacity(q::param::kMaxOpBlocks + 1)));
}

// Model the kernel's use: groups of admitted operations, each writing its
// full budget of blocks (some new, some logged before), commits, and
// installs when log_must_install says so. Slots and pins never overflow and
// after every commit (or install) an operation can begin.
TEST(KfsLog, AdmittedGroupsNeverOverflowSlotsOrPins) {
    for (u32 cap : {u32(15), u32(29), kCap}) {
        LogHeader h{};
        u32 committed = 0, pinned = 0, next = 1000;
        for (int round = 0; round < 200; round++) {
            u32 outstanding = 0;
            while (q::fs::log_admits(h.n, pinned, outstanding, cap)) outstanding++;
            ASSERT_GE(outstanding, 1u) << cap;
            for (u32 op = 0; op < outstanding; op++) {
                for (u32 i = 0; i < kM; i++) {
                    // Every third write goes to a block logged before (if any).
                    const u32 b = (i % 3 == 0 && h.n > 0) ? h.block[(round + i) % h.n] : next++;
                    const Absorb a = q::fs::log_absorb(h, committed, cap, b);
                    ASSERT_NE(a, Absorb::Full) << cap;
                    if (a == Absorb::Added) pinned++;
                }
            }
            ASSERT_LE(h.n, cap);
            ASSERT_LE(pinned, kPins);
            committed = h.n;
            if (q::fs::log_must_install(h.n, pinned, cap)) h.n = committed = pinned = 0;
        }
    }
}

TEST(KfsLog, HeaderValidity) {
    LogHeader h{};
    h.n = 29;
    EXPECT_TRUE(q::fs::log_header_valid(h, 29));
    h.n = 30;
    EXPECT_FALSE(q::fs::log_header_valid(h, 29));
}

}  // namespace
