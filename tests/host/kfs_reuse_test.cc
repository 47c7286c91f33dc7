// tests/host/kfs_reuse_test.cc - an inode number freed by one process and
// allocated by another while the first one's iput is still finishing
// (kernel/fs/inode.cc: iput, ialloc), on the host stand-in kernel.
//
// iput frees the last reference to an unlinked inode in steps: the disk
// inode is marked free (in the cache, where ialloc looks), then the inode's
// sleep lock is released, and only then is the in-memory entry's reference
// dropped. A process preempted between the last two steps leaves an entry
// naming the now free inode number with a reference nobody will use. The
// hostile suite's dirrace (1 hart, 1 run in many) caught what followed:
// the other process's mkdir in a directory just removed allocated that
// number, found the old entry (iget matches a referenced entry), and its
// undo (the dead parent takes no entry) dropped a reference count of 2,
// so nothing freed it: a directory with nlink 0, not in the orphan table,
// its '..' naming the parent freed since (fsck: dir-unreachable,
// orphan-inode, "directory 80: '..' names free inode 79").
//
// The env's after_sleep_release hook runs the second process's call at the
// first inode-lock release after the file's disk inode reads free: that
// release is iput's, before it drops its reference.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernel/fs/fs.h"
#include "lib/fs/layout.h"
#include "tests/host/kfs_calls.h"
#include "tests/host/kfs_env.h"
#include "tools/fscheck.h"

// The binary's test files compile as one unit (mk/lib.mk's host_test):
// this file's names stay in its own namespace.
namespace kfs_reuse_test {

using namespace q;
using namespace kfs_calls;

namespace {

std::string dump(const tools::Report& r) {
    std::string s;
    for (const tools::Finding& f : r.findings) s += std::string(tools::problem_name(f.kind)) + ": " + f.message + "\n";
    return s;
}

// What the hook watches and what it runs, once.
struct Interleave {
    u32 inum = 0;           // the inode being freed
    const char* call = "";  // "mkdir" or "create": the second process's call
    const char* path = "";  // its path (relative: the cwd is the removed directory)
    bool armed = false;     // not yet run
    bool inside = false;    // the hook's own lock releases
    i64 result = 0;
};
Interleave g_step;

bool disk_inode_free(u32 inum) {
    BufRef b(root_device(), fs::inode_block(inum, superblock()));
    const auto* di = reinterpret_cast<const fs::DiskInode*>(b.data()) + inum % fs::kInodesPerBlock;
    return di->type == fs::InodeType::Free;
}

void after_release(const char* name) {
    if (!g_step.armed || g_step.inside || std::string(name) != "inode") return;
    g_step.inside = true;
    if (disk_inode_free(g_step.inum)) {
        g_step.armed = false;
        if (std::string(g_step.call) == "mkdir") {
            g_step.result = mkdir_(g_step.path);
        } else {
            g_step.result = open_(g_step.path, kCreate | kRdWr);
            if (g_step.result >= 0) close_(static_cast<int>(g_step.result));
        }
    }
    g_step.inside = false;
}

u32 inum_of(const char* path) {
    auto ip = namei(path);
    EXPECT_TRUE(ip.ok()) << path;
    return ip.ok() ? ip.value()->inum : 0;
}

class KfsReuse : public ::testing::Test {
  protected:
    void SetUp() override {
        kfs_boot(kfs_mkfs(2000, 200));
        base_ = tools::check_image(tools::Image(g_env.disk));
        ASSERT_TRUE(base_.clean()) << dump(base_);
    }
    void TearDown() override { g_env.after_sleep_release = nullptr; }

    // The cwd is a directory removed while it is the cwd (dead: it takes no
    // entry), /f a closed file; then /f is unlinked, and while its last
    // iput finishes the second process's `call` runs in the dead cwd. It
    // must fail, and once the cwd is given up nothing may be left over.
    void run(const char* call) {
        ASSERT_EQ(mkdir_("/d"), 0);
        ASSERT_EQ(chdir_("/d"), 0);
        ASSERT_EQ(unlink_("/d"), 0);
        const i64 fd = open_("/f", kCreate | kRdWr);
        ASSERT_GE(fd, 0);
        close_(static_cast<int>(fd));
        g_step = Interleave{inum_of("/f"), call, "x", true, false, 0};
        ASSERT_NE(g_step.inum, 0u);
        g_env.after_sleep_release = after_release;
        ASSERT_EQ(unlink_("/f"), 0);
        g_env.after_sleep_release = nullptr;
        EXPECT_FALSE(g_step.armed) << "the hook never saw /f's inode free";
        EXPECT_EQ(g_step.result, -1) << call << " in a removed directory";
        ASSERT_EQ(chdir_("/"), 0);  // the dead directory's last reference: freed
        const tools::Report r = tools::check_image(tools::Image(g_env.disk));
        EXPECT_TRUE(r.clean()) << dump(r);
        EXPECT_EQ(r.inodes_used, base_.inodes_used) << dump(r);
        EXPECT_EQ(r.blocks_used, base_.blocks_used) << dump(r);
    }
    tools::Report base_;
};

// The hostile dirrace failure: a mkdir's undo left the directory it made.
TEST_F(KfsReuse, MkdirUndoInARemovedDirectoryWhileTheNumberIsStillBeingFreed) { run("mkdir"); }

// The same with a file: open(O_CREATE)'s undo left the file.
TEST_F(KfsReuse, CreateUndoInARemovedDirectoryWhileTheNumberIsStillBeingFreed) { run("create"); }

}  // namespace
}  // namespace kfs_reuse_test
