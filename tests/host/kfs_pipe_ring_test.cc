// tests/host/kfs_pipe_ring_test.cc - the pipe ring buffer (lib/fs/pipe_ring.h).
#include "lib/fs/pipe_ring.h"

#include <gtest/gtest.h>

#include <cstring>
#include <deque>
#include <random>

namespace {

using Ring = q::fs::PipeRing<8>;

TEST(KfsPipeRing, StartsEmpty) {
    Ring r;
    EXPECT_TRUE(r.empty());
    EXPECT_FALSE(r.full());
    EXPECT_EQ(r.space(), 8u);
    q::u8 c;
    EXPECT_FALSE(r.pop(c));
}

TEST(KfsPipeRing, FillsToCapacityThenRefuses) {
    Ring r;
    for (int i = 0; i < 8; i++) EXPECT_TRUE(r.push(static_cast<q::u8>(i)));
    EXPECT_TRUE(r.full());
    EXPECT_FALSE(r.push(99));
    EXPECT_EQ(r.write_span(100).len, 0u);
    q::u8 c;
    for (int i = 0; i < 8; i++) {
        ASSERT_TRUE(r.pop(c));
        EXPECT_EQ(c, i);
    }
    EXPECT_TRUE(r.empty());
    EXPECT_EQ(r.read_span(100).len, 0u);
}

TEST(KfsPipeRing, SpansStopAtTheWrap) {
    Ring r;
    for (int i = 0; i < 6; i++) ASSERT_TRUE(r.push('a'));
    q::u8 c;
    for (int i = 0; i < 6; i++) ASSERT_TRUE(r.pop(c));
    // Write position is 6: only 2 contiguous bytes before the wrap.
    auto w = r.write_span(100);
    EXPECT_EQ(w.len, 2u);
    std::memcpy(w.data, "xy", 2);
    r.commit_write(2);
    w = r.write_span(100);
    EXPECT_EQ(w.len, 6u);  // wrapped to index 0, 6 free
    std::memcpy(w.data, "z", 1);
    r.commit_write(1);
    auto s = r.read_span(100);
    ASSERT_EQ(s.len, 2u);
    EXPECT_EQ(std::memcmp(s.data, "xy", 2), 0);
    r.commit_read(2);
    s = r.read_span(100);
    ASSERT_EQ(s.len, 1u);
    EXPECT_EQ(s.data[0], 'z');
}

TEST(KfsPipeRing, SecondPieceBeforeTheFirstIsCommitted) {
    Ring r;
    r.reset_counters(5);  // write position 5: 3 bytes to the wrap
    auto a = r.write_span(7);
    ASSERT_EQ(a.len, 3u);
    std::memcpy(a.data, "abc", 3);
    auto b = r.write_span_after(a.len, 7 - a.len);
    ASSERT_EQ(b.len, 4u);  // from index 0
    std::memcpy(b.data, "defg", 4);
    EXPECT_TRUE(r.empty());  // nothing committed yet
    r.commit_write(a.len + b.len);
    EXPECT_EQ(r.write_span_after(0, 100).len, 1u);
    EXPECT_EQ(r.write_span_after(1, 100).len, 0u);  // the ring is full after that byte
    char got[8] = {};
    for (int i = 0; i < 7; i++) ASSERT_TRUE(r.pop(reinterpret_cast<q::u8&>(got[i])));
    EXPECT_STREQ(got, "abcdefg");
}

// Writes of at most N bytes go in whole: a writer that started nothing
// waits for room for all of it; a longer write takes what room there is.
TEST(KfsPipeRing, ShortWritesWaitForRoomForAllOfThem) {
    q::fs::PipeRing<16> r;
    for (int i = 0; i < 10; i++) ASSERT_TRUE(r.push(1));  // 6 free
    EXPECT_TRUE(r.writer_may_copy(6, 0));
    EXPECT_FALSE(r.writer_may_copy(7, 0));   // would be split
    EXPECT_FALSE(r.writer_may_copy(16, 0));  // exactly N: still whole
    EXPECT_TRUE(r.writer_may_copy(17, 0));   // longer than the ring: in pieces
    EXPECT_TRUE(r.writer_may_copy(17, 10));
    for (int i = 0; i < 6; i++) ASSERT_TRUE(r.push(1));  // full
    EXPECT_FALSE(r.writer_may_copy(17, 10));
    EXPECT_FALSE(r.writer_may_copy(1, 0));
}

TEST(KfsPipeRing, SpanRespectsMax) {
    Ring r;
    EXPECT_EQ(r.write_span(3).len, 3u);
    r.commit_write(3);
    EXPECT_EQ(r.read_span(1).len, 1u);
}

TEST(KfsPipeRing, CountersWrapAround32Bits) {
    Ring r;
    r.reset_counters(0xFFFFFFFCu);
    for (int i = 0; i < 8; i++) ASSERT_TRUE(r.push(static_cast<q::u8>(i)));
    EXPECT_TRUE(r.full());
    q::u8 c;
    for (int i = 0; i < 8; i++) {
        ASSERT_TRUE(r.pop(c));
        EXPECT_EQ(c, i);
    }
    EXPECT_TRUE(r.empty());
}

TEST(KfsPipeRing, CommitBeyondAvailableDies) {
    EXPECT_DEATH(
        {
            Ring r;
            r.commit_read(1);
        },
        "pipe ring");
}

TEST(KfsPipeRing, RandomisedAgainstDeque) {
    q::fs::PipeRing<16> r;
    std::deque<q::u8> model;
    std::mt19937 rng(42);
    r.reset_counters(0xFFFFFF00u);
    for (int step = 0; step < 20000; step++) {
        const q::u32 want = rng() % 20;
        if (rng() % 2) {
            auto s = r.write_span(want);
            ASSERT_LE(s.len, r.space());
            for (q::u32 i = 0; i < s.len; i++) {
                s.data[i] = static_cast<q::u8>(rng());
                model.push_back(s.data[i]);
            }
            r.commit_write(s.len);
        } else {
            auto s = r.read_span(want);
            for (q::u32 i = 0; i < s.len; i++) {
                ASSERT_FALSE(model.empty());
                EXPECT_EQ(s.data[i], model.front());
                model.pop_front();
            }
            r.commit_read(s.len);
        }
        ASSERT_EQ(r.used(), model.size());
        ASSERT_EQ(r.full(), model.size() == 16);
    }
}

}  // namespace
