// tests/host/kfs_bcache_test.cc - the growing buffer cache (kernel/fs/bio.cc)
// and its sizing rules (lib/fs/bcache_policy.h), on the host stand-in kernel
// (tests/host/kfs_env.cc): its kalloc has a pool of g_env.pool_pages pages
// and asks the cache for pages back when it runs dry, as the kernel's does.
// Checks: the cache grows on misses while memory is above the reserve, a
// file that fits is then read with no disk reads, borrowed pages count as
// free, every idle slab comes back under pressure (coldest first), held
// blocks are never given back, and the fixed floor works with no memory.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "kernel/fs/fs.h"
#include "kernel/fs/testing.h"
#include "kernel/mm/kalloc.h"
#include "kernel/syscall.h"
#include "lib/fs/bcache_policy.h"
#include "lib/fs/log_logic.h"
#include "lib/params.h"
#include "tests/host/kfs_calls.h"
#include "tests/host/kfs_env.h"

using namespace q;
using namespace kfs_calls;

namespace {

// struct bcachestat (lib/abi/abi.h) under another name: the ABI header's
// struct stat clashes with the host's.
struct KBcStat {
    unsigned long bufs, fixed, pages, hits, misses, disk_reads, disk_writes, grows, shrinks;
};
static_assert(sizeof(KBcStat) == 72);

KBcStat stat_now() {
    KBcStat s{};
    kfs_args(kfs_ptr(&s));
    EXPECT_EQ(kfs_a0(sys_bcstat()), 0);
    return s;
}

i64 rw_(bool write, int fd, void* buf, int n) { return write ? write_(fd, buf, n) : read_(fd, buf, n); }

constexpr int kFileBlocks = 200;  // well past the 30 fixed buffers

// Write /big: kFileBlocks blocks, each filled with its index.
void write_big() {
    const int fd = static_cast<int>(open_("/big", kCreate | kRdWr));
    ASSERT_GE(fd, 0);
    std::vector<u8> blk(fs::kBlockSize);
    for (int i = 0; i < kFileBlocks; i++) {
        std::memset(blk.data(), i & 0xff, blk.size());
        ASSERT_EQ(rw_(true, fd, blk.data(), static_cast<int>(blk.size())), i64(blk.size()));
    }
    close_(fd);
}

// Read /big through, checking its contents.
void read_big() {
    const int fd = static_cast<int>(open_("/big", kRdOnly));
    ASSERT_GE(fd, 0);
    std::vector<u8> blk(fs::kBlockSize);
    for (int i = 0; i < kFileBlocks; i++) {
        ASSERT_EQ(rw_(false, fd, blk.data(), static_cast<int>(blk.size())), i64(blk.size()));
        ASSERT_EQ(blk[0], i & 0xff) << "block " << i;
        ASSERT_EQ(blk[fs::kBlockSize - 1], i & 0xff) << "block " << i;
    }
    close_(fd);
}

class KfsBcache : public ::testing::Test {
  protected:
    void SetUp() override { kfs_boot(kfs_mkfs(2000, 200)); }
};

TEST(KfsBcachePolicy, ReserveIsAnEighthWithAFloor) {
    EXPECT_EQ(bcache::reserve_pages(32768), 4096u);
    EXPECT_EQ(bcache::reserve_pages(100), bcache::kMinReservePages);
    const u64 r = bcache::reserve_pages(32768);
    EXPECT_TRUE(bcache::may_grow(r + bcache::kSlabPages, 32768));
    EXPECT_FALSE(bcache::may_grow(r + bcache::kSlabPages - 1, 32768));
    EXPECT_FALSE(bcache::may_grow(0, 0));
}

TEST(KfsBcachePolicy, BucketsSpreadConsecutiveBlocks) {
    std::vector<int> seen(bcache::kHashBuckets, 0);
    for (u32 b = 0; b < bcache::kHashBuckets; b++) {
        const u32 k = bcache::bucket(1, b);
        ASSERT_LT(k, bcache::kHashBuckets);
        seen[k]++;
    }
    for (int n : seen) EXPECT_EQ(n, 1);  // a device's first kHashBuckets blocks: one per chain
    EXPECT_NE(bcache::bucket(1, 7), bcache::bucket(2, 7));
}

TEST_F(KfsBcache, StartsWithTheFixedFloorOnly) {
    const KBcStat s = stat_now();
    EXPECT_EQ(s.fixed, u64(param::kBufs));
    EXPECT_EQ(s.bufs, u64(param::kBufs));
    EXPECT_EQ(s.pages, 0u);
    EXPECT_EQ(g_env.pages_out, 0u);
}

TEST_F(KfsBcache, GrowsSoAFileThatFitsIsReadWithoutTheDisk) {
    write_big();
    read_big();
    const KBcStat grown = stat_now();
    EXPECT_GT(grown.bufs, u64(kFileBlocks));
    EXPECT_EQ(grown.pages, grown.grows * bcache::kSlabPages);
    EXPECT_EQ(g_env.pages_out, grown.pages);
    const u64 reads = g_env.stats.blocks_read;
    read_big();
    read_big();
    EXPECT_EQ(g_env.stats.blocks_read, reads) << "a second pass over a cached file went to the disk";
    const KBcStat again = stat_now();
    EXPECT_EQ(again.misses, grown.misses);
    EXPECT_GE(again.hits, grown.hits + 2 * kFileBlocks);
    EXPECT_EQ(again.disk_reads, grown.disk_reads);
}

TEST_F(KfsBcache, BorrowedPagesCountAsFree) {
    const u64 before = kalloc_free_pages();
    write_big();
    read_big();
    EXPECT_GT(stat_now().pages, 0u);
    EXPECT_LT(kalloc_pool_pages(), before);
    EXPECT_EQ(kalloc_free_pages(), before);
}

// A reader of the free count may come between any two steps of the
// allocator's: a slab's pages count as free from the moment the cache
// takes them until it links the slab, and from unlinking until each is
// freed, so no step leaves the count moved while the cache grows or gives
// its slabs back. Before, growing showed it up to a slab (9 pages) low
// (hostile filecount's first round could not be judged), and so did a
// slab going back.
TEST_F(KfsBcache, FreeCountNeverMovesAsSlabsComeAndGo) {
    write_big();
    log_flush();
    kfs_give_back(~0ull);
    ASSERT_EQ(stat_now().pages, 0u);
    const u64 before = kalloc_free_pages();
    g_env.watch_free = true;
    g_env.free_low = g_env.free_high = before;
    read_big();
    const KBcStat grown = stat_now();
    EXPECT_GE(grown.grows, 2u);
    EXPECT_EQ(g_env.free_low, before) << "growing the cache showed fewer free pages";
    EXPECT_EQ(g_env.free_high, before);
    EXPECT_EQ(kfs_give_back(~0ull), grown.pages);
    EXPECT_EQ(g_env.free_low, before) << "giving a slab back showed fewer free pages";
    EXPECT_EQ(g_env.free_high, before);
    EXPECT_EQ(g_env.copying, 0u);
    g_env.watch_free = false;
}

TEST_F(KfsBcache, StopsGrowingAtTheReserve) {
    // A pool where the reserve leaves room for exactly two slabs.
    g_env.pool_pages = bcache::kMinReservePages + 2 * bcache::kSlabPages;
    write_big();
    read_big();
    const KBcStat s = stat_now();
    EXPECT_EQ(s.grows, 2u);
    EXPECT_EQ(s.bufs, param::kBufs + 2 * u64(bcache::kSlabBufs));
    read_big();  // still correct when the file does not fit
}

TEST_F(KfsBcache, GivesEveryIdleSlabBackToAMemoryHog) {
    write_big();
    log_flush();  // no block pinned by the log: the cache is idle
    read_big();
    const KBcStat grown = stat_now();
    ASSERT_GT(grown.pages, 0u);
    const u64 free_before = kalloc_free_pages();
    // The hog takes every page it can; with an idle cache that is all of them.
    std::vector<void*> hog;
    for (void* p; (p = kalloc()) != nullptr;) hog.push_back(p);
    EXPECT_EQ(hog.size(), free_before);
    const KBcStat after = stat_now();
    EXPECT_EQ(after.pages, 0u);
    EXPECT_EQ(after.bufs, u64(param::kBufs));
    EXPECT_EQ(after.shrinks, grown.grows);
    EXPECT_EQ(kalloc_free_pages(), 0u);
    read_big();  // the fixed floor still serves every read
    EXPECT_EQ(stat_now().pages, 0u);
    for (void* p : hog) kfree(p);
    read_big();  // and the cache grows again once memory is back
    EXPECT_GT(stat_now().pages, 0u);
}

TEST_F(KfsBcache, NeverGivesBackAHeldBlock) {
    write_big();
    log_flush();
    read_big();
    const u32 data0 = fs::first_data_block(superblock());
    // Hold a block that sits in a slab (the last one read is in the newest).
    const KBcStat grown = stat_now();
    ASSERT_GE(grown.grows, 2u);
    {
        // A block of /big written late, so cached in a slab, not a fixed buffer.
        BufRef held(param::kRootDev, data0 + kFileBlocks);
        const u8 first = held.data()[0];
        std::vector<void*> hog;
        for (void* p; (p = kalloc()) != nullptr;) hog.push_back(p);
        const KBcStat s = stat_now();
        EXPECT_EQ(s.pages, u64(bcache::kSlabPages));  // only the held block's slab stays
        EXPECT_EQ(held.data()[0], first);
        for (void* p : hog) kfree(p);
    }
    EXPECT_EQ(kfs_give_back(~0ull), u64(bcache::kSlabPages));  // released: it goes too
    EXPECT_EQ(stat_now().pages, 0u);
}

// Blocks the log has committed but not installed stay pinned: a reference
// each until the install. A pinned block in a slab kept the whole slab (9
// pages) from a process growing until memory ran out, with no file-system
// call to install the log in between (xv6's usertests: "lost some free
// pages"). give_back moves such blocks to the fixed floor, so the hog gets
// every page while the blocks stay pinned, and they still reach the disk.
TEST_F(KfsBcache, PinnedLogBlocksDoNotKeepTheirSlabsFromAHog) {
    write_big();  // leaves committed blocks pinned (the install is deferred)
    ASSERT_GT(log_stats().pinned, 0u);
    const u64 pinned = log_stats().pinned;
    ASSERT_GT(stat_now().pages, 0u);
    const u64 free_before = kalloc_free_pages();
    std::vector<void*> hog;
    for (void* p; (p = kalloc()) != nullptr;) hog.push_back(p);
    EXPECT_EQ(hog.size(), free_before) << "pinned log blocks kept their slabs";
    EXPECT_EQ(stat_now().pages, 0u);
    EXPECT_EQ(log_stats().pinned, pinned) << "the blocks moved; the log was not installed";
    read_big();  // the moved copies are the newest
    for (void* p : hog) kfree(p);
    log_flush();
    kfs_boot(g_env.disk);
    read_big();  // and they reached the disk
}

// When memory is short, every commit installs the log as well, so blocks do
// not stay pinned (on the fixed floor) longer than they must.
TEST_F(KfsBcache, MemoryPressureInstallsTheLog) {
    write_big();
    ASSERT_GT(log_stats().pinned, 0u);
    std::vector<void*> hog;
    for (void* p; (p = kalloc()) != nullptr;) hog.push_back(p);
    const u64 installs = log_stats().installs;
    const int fd = static_cast<int>(open_("/small", kCreate | kRdWr));  // one call under pressure
    ASSERT_GE(fd, 0);
    close_(fd);
    EXPECT_GT(log_stats().installs, installs);
    EXPECT_EQ(log_stats().pinned, 0u);
    for (void* p : hog) kfree(p);
    read_big();  // every block still reads back
}

// With memory exhausted the cache is its fixed floor alone. Even with the
// log's whole pin budget used, the floor holds the blocks the most
// operations admission lets run hold at once (fs::kOpHeldBufs each), and
// one more, so no operation waits forever for a buffer (lib/fs/log_logic.h).
// Before the floor was sized for it, 29 pins left one buffer of 30.
TEST_F(KfsBcache, FloorHoldsEveryPinAndTheRunningOperationsBlocks) {
    g_env.pool_pages = 0;
    const u32 data0 = fs::first_data_block(superblock());
    const u32 pinned_from = data0 + 100, held_from = data0 + 500;
    for (u32 i = 0; i < fs::kLogMaxOps; i++) begin_op();
    for (u32 i = 0; i < fs::kLogPinBudget; i++) {
        BufRef b(param::kRootDev, pinned_from + i);
        b.data()[0] = static_cast<u8>(i + 1);
        log_write(b.get());
    }
    ASSERT_EQ(log_stats().pinned, fs::kLogPinBudget);
    const u32 need = fs::kLogMaxOps * fs::kOpHeldBufs + 1;
    const KBcStat s = stat_now();
    ASSERT_EQ(s.bufs, u64(param::kBufs));
    ASSERT_GE(s.bufs - fs::kLogPinBudget, u64(need)) << "an operation would wait for a buffer forever";
    {
        std::vector<BufRef> held;
        held.reserve(need);
        for (u32 j = 0; j < need; j++) held.emplace_back(param::kRootDev, held_from + j);
        for (const BufRef& b : held) EXPECT_EQ(b.data()[0], 0);
    }
    for (u32 i = 0; i < fs::kLogMaxOps; i++) end_op();
    kfs_boot(g_env.disk);
    for (u32 i = 0; i < fs::kLogPinBudget; i++)
        EXPECT_EQ(BufRef(param::kRootDev, pinned_from + i).data()[0], i + 1) << i;
}

TEST_F(KfsBcache, GivesTheColdestSlabBackFirst) {
    write_big();
    read_big();
    ASSERT_GE(stat_now().grows, 3u);
    // Touch the second half of /big again (its blocks follow the root
    // directory's, the indirect block among them): the newest slabs are now
    // the hottest, the first slab (early blocks of the file) the coldest.
    const u32 data0 = fs::first_data_block(superblock());
    const u32 hot_from = data0 + 2 + kFileBlocks / 2, hot_to = data0 + 2 + kFileBlocks;
    auto touch_hot = [&] {
        for (u32 b = hot_from; b < hot_to; b++) BufRef(param::kRootDev, b);
    };
    touch_hot();
    const u64 reads = g_env.stats.blocks_read;
    EXPECT_EQ(kfs_give_back(1), u64(bcache::kSlabPages));  // one slab is enough
    touch_hot();
    EXPECT_EQ(g_env.stats.blocks_read, reads) << "recently read blocks were given back before colder ones";
    read_big();
    EXPECT_GT(g_env.stats.blocks_read, reads) << "no cached block went with the slab";
}

TEST_F(KfsBcache, FixedFloorServesReadsWithNoMemoryAtAll) {
    g_env.pool_pages = 0;
    write_big();
    read_big();
    const KBcStat s = stat_now();
    EXPECT_EQ(s.grows, 0u);
    EXPECT_EQ(s.bufs, u64(param::kBufs));
    EXPECT_GT(s.disk_reads, u64(kFileBlocks));
}

// bmap's window of indirect entries (Inode::map) follows writes: read a
// file (filling the window), rewrite it from scratch with other contents
// and grow it, then read it again.
TEST_F(KfsBcache, MapWindowFollowsTruncateAndGrowth) {
    write_big();
    read_big();
    const int fd = static_cast<int>(open_("/big", 0x400 /* O_TRUNC */ | kRdWr));
    ASSERT_GE(fd, 0);
    std::vector<u8> blk(fs::kBlockSize);
    for (int i = 0; i < kFileBlocks + 20; i++) {
        std::memset(blk.data(), (i * 7 + 1) & 0xff, blk.size());
        ASSERT_EQ(rw_(true, fd, blk.data(), fs::kBlockSize), i64(fs::kBlockSize));
    }
    close_(fd);
    const int rd = static_cast<int>(open_("/big", kRdOnly));
    for (int i = 0; i < kFileBlocks + 20; i++) {
        ASSERT_EQ(rw_(false, rd, blk.data(), fs::kBlockSize), i64(fs::kBlockSize));
        ASSERT_EQ(blk[0], (i * 7 + 1) & 0xff) << "block " << i;
    }
    EXPECT_EQ(rw_(false, rd, blk.data(), fs::kBlockSize), 0);
    close_(rd);
}

}  // namespace
