// tests/host/kfs_orphan_test.cc - inodes unlinked while still in use
// (kernel/fs/orphan.cc), on the host stand-in kernel: a file removed while
// open, a directory removed while it is the cwd (two levels deep), and the
// system stopping before the last reference goes. Each image is checked
// with the real fsck engine (tools/fscheck.cc): while the orphan is listed
// it is a note (the next boot frees it), after the next boot it is gone and
// every block is back; at every crash point of such a workload the image
// checks clean and boots to a clean one.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "kernel/fs/fs.h"
#include "kernel/fs/testing.h"
#include "lib/fs/layout.h"
#include "tests/host/kfs_calls.h"
#include "tests/host/kfs_env.h"
#include "tools/fscheck.h"

// The binary's test files compile as one unit (mk/tests.mk's host_test):
// this file's names stay in its own namespace.
namespace kfs_orphan_test {

using namespace q;
using namespace kfs_calls;

namespace {

tools::Report fsck(const std::vector<u8>& disk) { return tools::check_image(tools::Image(disk)); }

std::string dump(const tools::Report& r) {
    std::string s;
    for (const tools::Finding& f : r.findings) s += std::string(tools::problem_name(f.kind)) + ": " + f.message + "\n";
    return s;
}

// The orphan table a boot would find (the committed log replayed).
fs::OrphanTable table(const std::vector<u8>& disk) {
    const std::vector<u8> settled = kfs_settled(disk);
    fs::OrphanTable t;
    std::memcpy(&t, &settled[fs::kSuperBlockNo * fs::kBlockSize + fs::kOrphanTableOffset], sizeof t);
    return t;
}

u32 listed(const std::vector<u8>& disk) {
    u32 n = 0;
    for (u16 inum : table(disk).inum) n += inum != 0;
    return n;
}

// The image a halt or crash leaves now (everything returned is committed).
std::vector<u8> stop() { return g_env.disk; }

// Write n bytes to a new file; returns its descriptor, open.
int make_open_file(const char* path, int n) {
    const int fd = static_cast<int>(open_(path, kCreate | kRdWr));
    EXPECT_GE(fd, 0) << path;
    std::vector<char> data(static_cast<usize>(n), 'x');
    EXPECT_EQ(write_(fd, data.data(), n), n);
    return fd;
}

class KfsOrphan : public ::testing::Test {
  protected:
    void SetUp() override {
        kfs_boot(kfs_mkfs(2000, 200));
        base_ = fsck(g_env.disk);
        ASSERT_TRUE(base_.clean()) << dump(base_);
    }
    // After the next boot: clean, nothing listed or leaked, and exactly the
    // inodes and blocks of the empty file system in use again.
    void expect_reclaimed_after_boot(const std::vector<u8>& stopped) {
        kfs_boot(stopped);
        const tools::Report r = fsck(g_env.disk);
        EXPECT_TRUE(r.clean()) << dump(r);
        EXPECT_FALSE(r.has(tools::Problem::OrphanListed)) << dump(r);
        EXPECT_EQ(r.inodes_used, base_.inodes_used) << dump(r);
        EXPECT_EQ(r.blocks_used, base_.blocks_used) << dump(r);
        EXPECT_EQ(listed(g_env.disk), 0u);
    }
    tools::Report base_;
};

TEST_F(KfsOrphan, FileRemovedWhileOpenIsFreedByTheNextBoot) {
    const int fd = make_open_file("/f", 20 * 1024);  // direct and indirect blocks
    ASSERT_EQ(unlink_("/f"), 0);
    const std::vector<u8> stopped = stop();
    const tools::Report r = fsck(stopped);
    EXPECT_TRUE(r.clean()) << dump(r);
    EXPECT_EQ(r.count(tools::Problem::OrphanListed), 1) << dump(r);
    EXPECT_EQ(listed(stopped), 1u);
    char c = 0;
    EXPECT_EQ(read_(fd, &c, 1), 0);  // still open (at its end) in the running system
    expect_reclaimed_after_boot(stopped);
}

TEST_F(KfsOrphan, LastCloseFreesTheFileAndClearsItsSlot) {
    const int fd = make_open_file("/f", 5000);
    ASSERT_EQ(unlink_("/f"), 0);
    ASSERT_EQ(listed(stop()), 1u);
    close_(fd);
    const tools::Report r = fsck(stop());
    EXPECT_TRUE(r.clean()) << dump(r);
    EXPECT_FALSE(r.has(tools::Problem::OrphanListed)) << dump(r);
    EXPECT_EQ(r.blocks_used, base_.blocks_used);
    EXPECT_EQ(listed(stop()), 0u);
}

// The hostile pass's reproducer: mkdir /a /a/b; cd /a/b; rm /a/b /a; halt.
TEST_F(KfsOrphan, CwdRemovedTwoLevelsDeepIsFreedByTheNextBoot) {
    ASSERT_EQ(mkdir_("/a"), 0);
    ASSERT_EQ(mkdir_("/a/b"), 0);
    ASSERT_EQ(chdir_("/a/b"), 0);
    ASSERT_EQ(unlink_("/a/b"), 0);
    ASSERT_EQ(unlink_("/a"), 0);  // nobody holds /a: freed at once, so b's '..' names a free inode
    EXPECT_EQ(open_("..", kRdOnly), -1);
    const std::vector<u8> stopped = stop();
    const tools::Report r = fsck(stopped);
    EXPECT_TRUE(r.clean()) << dump(r);
    EXPECT_EQ(r.count(tools::Problem::OrphanListed), 1) << dump(r);
    expect_reclaimed_after_boot(stopped);
}

TEST_F(KfsOrphan, UnlinkWithTheOnlyReferenceListsNothing) {
    close_(make_open_file("/f", 3000));
    ASSERT_EQ(mkdir_("/d"), 0);
    const u64 writes = g_env.stats.blocks_written;
    ASSERT_EQ(unlink_("/f"), 0);
    ASSERT_EQ(unlink_("/d"), 0);
    log_flush();
    EXPECT_EQ(listed(stop()), 0u);
    EXPECT_EQ(table(stop()).magic, 0u) << "the superblock's block was written for nothing";
    EXPECT_GT(g_env.stats.blocks_written, writes);
    EXPECT_TRUE(fsck(stop()).clean());
}

// exit drops its cwd's and its program file's references with
// iput_if_shared (no transaction): only a reference others still hold goes
// that way; the last one is left for iput in a transaction, so an unlinked
// file is still freed on disk by it.
TEST_F(KfsOrphan, IputIfSharedLeavesTheLastReferenceToIput) {
    const int fd = make_open_file("/f", 3000);
    auto found = namei("/f");
    ASSERT_TRUE(found.ok());
    Inode* ip = std::move(found).value().release();  // a second reference beside the open file's
    ASSERT_EQ(unlink_("/f"), 0);
    EXPECT_TRUE(iput_if_shared(ip));  // the file still holds it: just dropped
    close_(fd);                       // the last reference: freed in close's transaction
    const tools::Report r = fsck(stop());
    EXPECT_TRUE(r.clean()) << dump(r);
    EXPECT_EQ(r.blocks_used, base_.blocks_used);
    EXPECT_EQ(listed(stop()), 0u);

    auto dir = namei("/");
    ASSERT_TRUE(dir.ok());
    Inode* root = std::move(dir).value().release();
    const int before = root->ref;
    EXPECT_TRUE(iput_if_shared(root));  // the test process's cwd holds / too
    EXPECT_EQ(root->ref, before - 1);
    const tools::Report after = fsck(stop());
    EXPECT_TRUE(after.clean()) << dump(after);
}

TEST_F(KfsOrphan, IputIfSharedRefusesTheLastReference) {
    close_(make_open_file("/g", 3000));
    auto found = namei("/g");
    ASSERT_TRUE(found.ok());
    Inode* ip = std::move(found).value().release();  // the only reference
    ASSERT_EQ(unlink_("/g"), 0);
    EXPECT_FALSE(iput_if_shared(ip));  // nothing done: the caller must iput
    EXPECT_EQ(ip->ref, 1);
    EXPECT_EQ(listed(stop()), 1u);  // still in use, so listed as an orphan
    {
        FsOp op;
        iput(ip);
    }
    EXPECT_EQ(listed(stop()), 0u);
    EXPECT_EQ(fsck(stop()).blocks_used, base_.blocks_used);
}

// Many orphans at once, more than one per inode block, all reclaimed.
TEST_F(KfsOrphan, ManyOrphansAtOnce) {
    std::vector<int> fds;
    for (int i = 0; i < 12; i++) {
        const std::string p = "/f" + std::to_string(i);
        fds.push_back(make_open_file(p.c_str(), 1500));
        ASSERT_EQ(unlink_(p.c_str()), 0);
    }
    close_(fds[3]);  // one goes early
    const std::vector<u8> stopped = stop();
    EXPECT_EQ(listed(stopped), 11u);
    EXPECT_TRUE(fsck(stopped).clean());
    expect_reclaimed_after_boot(stopped);
}

// A version-2 image (before the table: zeros there) boots, and the first
// orphan turns it into version 3, so an older kernel refuses it.
TEST_F(KfsOrphan, VersionTwoImageBecomesThreeWithItsFirstOrphan) {
    std::vector<u8> img = kfs_mkfs(2000, 200);
    fs::SuperBlock sb;
    std::memcpy(&sb, &img[fs::kBlockSize], sizeof sb);
    sb.version = 2;
    std::memcpy(&img[fs::kBlockSize], &sb, sizeof sb);
    kfs_boot(img);
    const int fd = make_open_file("/f", 100);
    ASSERT_EQ(unlink_("/f"), 0);
    log_flush();
    std::memcpy(&sb, &g_env.disk[fs::kBlockSize], sizeof sb);
    EXPECT_EQ(sb.version, fs::kFormatVersion);
    EXPECT_EQ(sb.magic, fs::kMagic);
    EXPECT_EQ(sb.ninodes, 200u);
    close_(fd);
}

// A damaged table entry (an inode with links, a free one, out of range) is
// dropped at boot; nothing is freed for it.
TEST_F(KfsOrphan, BootDropsEntriesNamingNoUnlinkedInode) {
    close_(make_open_file("/keep", 2000));
    std::vector<u8> img = stop();
    fs::OrphanTable t{};
    t.magic = fs::kOrphanMagic;
    t.inum[0] = 2;    // /keep: has a link
    t.inum[1] = 150;  // free
    t.inum[2] = 999;  // beyond the last inode
    std::memcpy(&img[fs::kSuperBlockNo * fs::kBlockSize + fs::kOrphanTableOffset], &t, sizeof t);
    EXPECT_FALSE(fsck(img).clean());
    kfs_boot(img);
    EXPECT_EQ(listed(g_env.disk), 0u);
    const tools::Report r = fsck(g_env.disk);
    EXPECT_TRUE(r.clean()) << dump(r);
    const i64 fd = open_("/keep", kRdOnly);
    EXPECT_GE(fd, 0);
    close_(static_cast<int>(fd));
}

// Crash at every block write of a workload that leaves removed files open
// and a removed cwd: every crash image checks clean (orphans listed, not
// leaked), and boots to a clean image with nothing listed.
void orphan_workload() {
    ASSERT_EQ(mkdir_("/a"), 0);
    ASSERT_EQ(mkdir_("/a/b"), 0);
    const int f1 = make_open_file("/a/b/f", 4000);
    ASSERT_EQ(link_("/a/b/f", "/g"), 0);
    ASSERT_EQ(chdir_("/a/b"), 0);
    ASSERT_EQ(unlink_("/a/b/f"), 0);  // f still has /g
    ASSERT_EQ(unlink_("/g"), 0);      // now an orphan (f1 holds it)
    ASSERT_EQ(unlink_("/a/b"), 0);    // the cwd
    ASSERT_EQ(unlink_("/a"), 0);
    const int f2 = make_open_file("/h", 2000);
    ASSERT_EQ(unlink_("/h"), 0);
    close_(f2);  // freed, slot cleared
    const int f3 = make_open_file("/k", 1000);
    ASSERT_EQ(unlink_("/k"), 0);
    (void)f1;
    (void)f3;
}

TEST(KfsOrphanCrash, EveryCrashPointChecksCleanAndBootsClean) {
    const std::vector<u8> base = kfs_mkfs(1000, 64);
    kfs_boot(base);
    const tools::Report empty = fsck(base);
    g_env.writes = 0;
    orphan_workload();
    const long total = g_env.writes;
    ASSERT_GT(total, 10);
    for (long n = 1; n <= total; n++) {
        kfs_boot(base);
        g_env.writes = 0;
        g_env.crash_after = n;
        orphan_workload();
        const std::vector<u8> crashed = g_env.crash_image;
        const tools::Report before = fsck(crashed);
        ASSERT_TRUE(before.clean()) << "crash after write " << n << ":\n" << dump(before);
        kfs_boot(crashed);
        const tools::Report after = fsck(g_env.disk);
        ASSERT_TRUE(after.clean()) << "crash after write " << n << ", booted:\n" << dump(after);
        EXPECT_FALSE(after.has(tools::Problem::OrphanListed)) << n;
        EXPECT_EQ(listed(g_env.disk), 0u) << n;
    }
    // And with nothing crashing: the workload's own stop.
    kfs_boot(base);
    orphan_workload();
    const std::vector<u8> stopped = stop();
    EXPECT_EQ(listed(stopped), 3u);  // /a/b (the cwd), f (f1), k (f3)
    kfs_boot(stopped);
    EXPECT_EQ(fsck(g_env.disk).blocks_used, empty.blocks_used);
}

}  // namespace

}  // namespace kfs_orphan_test
