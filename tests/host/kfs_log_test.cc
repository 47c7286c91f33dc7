// tests/host/kfs_log_test.cc - log bookkeeping (lib/fs/log_logic.h).
#include "lib/fs/log_logic.h"

#include <gtest/gtest.h>

namespace {

using q::fs::Absorb;
using q::fs::LogHeader;

TEST(KfsLog, CapacityExcludesHeaderAndIsBounded) {
    EXPECT_EQ(q::fs::log_capacity(q::param::kLogBlocks), q::u32(q::param::kLogBlocks - 1));
    EXPECT_EQ(q::fs::log_capacity(1000), q::u32(q::param::kLogBlocks));
    EXPECT_EQ(q::fs::log_capacity(0), 0u);
    EXPECT_EQ(q::fs::log_capacity(1), 0u);
}

TEST(KfsLog, AbsorbsRepeatedBlocks) {
    LogHeader h{};
    EXPECT_EQ(q::fs::log_absorb(h, 29, 100), Absorb::Added);
    EXPECT_EQ(q::fs::log_absorb(h, 29, 200), Absorb::Added);
    EXPECT_EQ(q::fs::log_absorb(h, 29, 100), Absorb::Already);
    EXPECT_EQ(q::fs::log_absorb(h, 29, 200), Absorb::Already);
    EXPECT_EQ(h.n, 2u);
    EXPECT_EQ(h.block[0], 100u);
    EXPECT_EQ(h.block[1], 200u);
}

TEST(KfsLog, ReportsFullWithoutOverflowing) {
    LogHeader h{};
    for (q::u32 b = 0; b < 3; b++) EXPECT_EQ(q::fs::log_absorb(h, 3, 50 + b), Absorb::Added);
    EXPECT_EQ(q::fs::log_absorb(h, 3, 99), Absorb::Full);
    EXPECT_EQ(q::fs::log_absorb(h, 3, 51), Absorb::Already);  // still absorbable
    EXPECT_EQ(h.n, 3u);
}

TEST(KfsLog, AdmissionReservesWorstCase) {
    const q::u32 cap = q::fs::log_capacity(q::param::kLogBlocks);  // 29
    const q::u32 m = q::param::kMaxOpBlocks;                       // 10
    EXPECT_TRUE(q::fs::log_admits(0, 0, cap));
    EXPECT_TRUE(q::fs::log_admits(0, 1, cap));   // two ops: 20 <= 29
    EXPECT_FALSE(q::fs::log_admits(0, 2, cap));  // three ops: 30 > 29
    EXPECT_TRUE(q::fs::log_admits(cap - m, 0, cap));
    EXPECT_FALSE(q::fs::log_admits(cap - m + 1, 0, cap));
}

TEST(KfsLog, AdmittedOpsNeverOverflow) {
    // Every admitted op writes its full budget of distinct blocks: never Full.
    const q::u32 cap = q::fs::log_capacity(q::param::kLogBlocks);
    LogHeader h{};
    q::u32 outstanding = 0, next = 1000;
    while (q::fs::log_admits(h.n, outstanding, cap)) outstanding++;
    for (q::u32 op = 0; op < outstanding; op++)
        for (int i = 0; i < q::param::kMaxOpBlocks; i++) EXPECT_EQ(q::fs::log_absorb(h, cap, next++), Absorb::Added);
    EXPECT_LE(h.n, cap);
}

TEST(KfsLog, HeaderValidity) {
    LogHeader h{};
    h.n = 29;
    EXPECT_TRUE(q::fs::log_header_valid(h, 29));
    h.n = 30;
    EXPECT_FALSE(q::fs::log_header_valid(h, 29));
}

}  // namespace
