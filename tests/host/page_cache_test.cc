// tests/host/page_cache_test.cc - the page cache's index (lib/vm/page_cache.h):
// lookups by file page, one frame per page, the idle list in least
// recently used order, removal from the middle of chains and lists, the
// kernel's unsettled mark.
#include <gtest/gtest.h>

#include <vector>

#include "lib/vm/page_cache.h"

namespace {

using q::vm::PageIndex;
using q::vm::PageKey;

struct Index {
    std::vector<unsigned char> mem;
    PageIndex idx;
    explicit Index(q::u32 frames) : mem(PageIndex::bytes_for(frames)) { idx.init(frames, mem.data()); }
};

TEST(PageIndex, FindsWhatWasInserted) {
    Index t(64);
    EXPECT_EQ(t.idx.find({1, 7, 0}), PageIndex::kNone);
    ASSERT_TRUE(t.idx.insert(3, {1, 7, 0}));
    ASSERT_TRUE(t.idx.insert(4, {1, 7, 1}));
    ASSERT_TRUE(t.idx.insert(5, {1, 8, 0}));
    EXPECT_EQ(t.idx.find({1, 7, 0}), 3u);
    EXPECT_EQ(t.idx.find({1, 7, 1}), 4u);
    EXPECT_EQ(t.idx.find({1, 8, 0}), 5u);
    EXPECT_EQ(t.idx.find({2, 7, 0}), PageIndex::kNone);  // another device
    EXPECT_EQ(t.idx.size(), 3u);
    EXPECT_EQ(t.idx.idle(), 0u);  // inserted busy: the inserting fault maps it
}

TEST(PageIndex, OneFramePerPageAndOnePagePerFrame) {
    Index t(64);
    ASSERT_TRUE(t.idx.insert(3, {1, 7, 0}));
    EXPECT_FALSE(t.idx.insert(9, {1, 7, 0}));   // the page is cached already
    EXPECT_FALSE(t.idx.insert(3, {1, 7, 2}));   // the frame holds another page
    EXPECT_FALSE(t.idx.insert(64, {1, 9, 0}));  // no such frame
    EXPECT_EQ(t.idx.size(), 1u);
    EXPECT_EQ(t.idx.key_of(3).page, 0u);
}

TEST(PageIndex, ChainsSurviveRemovalFromTheMiddle) {
    Index t(16);  // 16 buckets: 15 keys of one file collide somewhere
    for (q::u32 f = 0; f < 16; f++) ASSERT_TRUE(t.idx.insert(f, {1, 42, f * 16}));
    for (q::u32 f = 0; f < 16; f += 3) t.idx.remove(f);
    for (q::u32 f = 0; f < 16; f++) {
        const bool gone = f % 3 == 0;
        EXPECT_EQ(t.idx.find({1, 42, f * 16}), gone ? PageIndex::kNone : f) << f;
        EXPECT_EQ(t.idx.cached(f), !gone);
    }
    EXPECT_EQ(t.idx.size(), 10u);
    t.idx.remove(0);  // twice: nothing
    EXPECT_EQ(t.idx.size(), 10u);
}

TEST(PageIndex, IdleFramesLeaveLeastRecentlyUsedFirst) {
    Index t(8);
    for (q::u32 f = 0; f < 4; f++) ASSERT_TRUE(t.idx.insert(f, {1, 1, f}));
    EXPECT_EQ(t.idx.oldest_idle(), PageIndex::kNone);  // all busy: nothing to evict
    t.idx.make_idle(2);
    t.idx.make_idle(0);
    t.idx.make_idle(3);
    EXPECT_EQ(t.idx.idle(), 3u);
    EXPECT_EQ(t.idx.oldest_idle(), 2u);
    t.idx.make_busy(2);  // mapped again: not a victim
    EXPECT_EQ(t.idx.oldest_idle(), 0u);
    t.idx.make_idle(2);  // idle again: now the most recent
    t.idx.remove(0);     // evicted
    EXPECT_EQ(t.idx.oldest_idle(), 3u);
    t.idx.remove(3);
    EXPECT_EQ(t.idx.oldest_idle(), 2u);
    t.idx.remove(2);
    EXPECT_EQ(t.idx.oldest_idle(), PageIndex::kNone);
    EXPECT_EQ(t.idx.idle(), 0u);
    EXPECT_EQ(t.idx.size(), 1u);  // frame 1, busy all along
    EXPECT_FALSE(t.idx.is_idle(1));
}

TEST(PageIndex, MakeIdleTwiceCountsOnce) {
    Index t(8);
    ASSERT_TRUE(t.idx.insert(5, {1, 1, 0}));
    t.idx.make_idle(5);
    t.idx.make_idle(5);
    EXPECT_EQ(t.idx.idle(), 1u);
    t.idx.make_idle(6);  // not cached: nothing
    EXPECT_EQ(t.idx.idle(), 1u);
    t.idx.remove(5);
    EXPECT_EQ(t.idx.idle(), 0u);
    EXPECT_TRUE(t.idx.insert(5, {1, 1, 0}));  // the frame may be cached anew
}

// The kernel marks a busy frame whose count is not yet settled: the mark
// lasts through remove() (for the last user's put) and goes when the frame
// turns idle or is cached anew; an idle frame cannot be marked.
TEST(PageIndex, UnsettledMarkKeptUntilIdleOrReinserted) {
    Index t(8);
    ASSERT_TRUE(t.idx.insert(3, {1, 2, 0}));
    EXPECT_FALSE(t.idx.unsettled(3));
    t.idx.mark_unsettled(3, true);
    EXPECT_TRUE(t.idx.unsettled(3));
    t.idx.make_idle(3);
    EXPECT_FALSE(t.idx.unsettled(3));
    t.idx.mark_unsettled(3, true);  // idle: no mark
    EXPECT_FALSE(t.idx.unsettled(3));
    t.idx.make_busy(3);
    t.idx.mark_unsettled(3, true);
    t.idx.remove(3);
    EXPECT_TRUE(t.idx.unsettled(3));  // its last user still settles it
    ASSERT_TRUE(t.idx.insert(3, {1, 2, 1}));
    EXPECT_FALSE(t.idx.unsettled(3));
    t.idx.mark_unsettled(9, true);  // out of range: nothing
    EXPECT_FALSE(t.idx.unsettled(9));
}

TEST(PageIndex, BucketsGrowWithFrames) {
    EXPECT_EQ(PageIndex::buckets_for(8), 16u);
    EXPECT_EQ(PageIndex::buckets_for(32768), 4096u);
    EXPECT_GE(PageIndex::bytes_for(32768), 32768u * sizeof(PageIndex::Rec));
}

}  // namespace
