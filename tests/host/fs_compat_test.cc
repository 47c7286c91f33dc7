// tests/host/fs_compat_test.cc - the C compatibility headers agree with the
// C++ definitions.
//
// user/include/kernel/{param,fs}.h repeat numbers from lib/params.h and
// lib/fs/layout.h (C code cannot include those); this test fails when the
// two drift apart. The C headers are included first (glibc's syscall.h,
// which gtest pulls in, defines SYS_fork and friends as macros) and inside
// a namespace, so their struct stat cannot clash with the host's.
namespace compat {
#include "user/include/kernel/fs.h"
#include "user/include/kernel/param.h"
}  // namespace compat

#include <gtest/gtest.h>

#include "lib/fs/layout.h"
#include "lib/params.h"

namespace {

using namespace q;

TEST(FsCompat, ParamHeaderMatchesParams) {
    EXPECT_EQ(NPROC, param::kMaxProcs);
    EXPECT_EQ(NCPU, param::kMaxCpus);
    EXPECT_EQ(NOFILE, param::kMaxOpenPerProc);
    EXPECT_EQ(NFILE, param::kMaxFiles);
    EXPECT_EQ(NINODE, param::kMaxInodes);
    EXPECT_EQ(NDEV, param::kMaxDevices);
    EXPECT_EQ(ROOTDEV, param::kRootDev);
    EXPECT_EQ(MAXARG, param::kMaxExecArgs);
    EXPECT_EQ(MAXOPBLOCKS, param::kMaxOpBlocks);
    EXPECT_EQ(LOGBLOCKS, param::kLogBlocks);
    EXPECT_EQ(NBUF, param::kBufs);
    EXPECT_EQ(FSSIZE, param::kFsBlocks);
    EXPECT_EQ(MAXPATH, param::kMaxPath);
    EXPECT_EQ(USERSTACK, param::kUserStackPages);
}

TEST(FsCompat, FsHeaderMatchesLayout) {
    EXPECT_EQ(static_cast<u32>(BSIZE), fs::kBlockSize);
    EXPECT_EQ(static_cast<u32>(FSMAGIC), fs::kMagic);
    EXPECT_EQ(static_cast<u32>(ROOTINO), fs::kRootInode);
    EXPECT_EQ(static_cast<u32>(NDIRECT), fs::kDirect);
    EXPECT_EQ(static_cast<u32>(NINDIRECT), fs::kIndirect);
    EXPECT_EQ(static_cast<u32>(MAXFILE), fs::kMaxFileBlocks);
    EXPECT_EQ(static_cast<u32>(compat::DIRSIZ), fs::kNameLen);
    EXPECT_EQ(sizeof(compat::dirent), sizeof(fs::DirEntry));
    EXPECT_EQ(static_cast<int>(compat::T_DIR), static_cast<int>(fs::InodeType::Dir));
    EXPECT_EQ(static_cast<int>(compat::T_FILE), static_cast<int>(fs::InodeType::File));
    EXPECT_EQ(static_cast<int>(compat::T_DEVICE), static_cast<int>(fs::InodeType::Device));
}

// The on-disk format this tree writes: version 3 (owners and modes,
// 128-byte inodes, the orphan table in the second sector of block 1); it
// reads version 2 too, which has zeros where the table goes. Changing the
// layout means bumping the version, and the kernel and fsck then refuse
// what they cannot read (lib/fs/layout.h).
TEST(FsCompat, ImageFormatVersionIsPinned) {
    EXPECT_EQ(fs::kFormatVersion, 3u);
    EXPECT_EQ(fs::kOldestFormatVersion, 2u);
    EXPECT_EQ(sizeof(fs::OrphanTable), 512u);
    EXPECT_EQ(fs::kOrphanTableOffset, 512u);
    EXPECT_EQ(fs::kOrphanSlots, 252u);
    EXPECT_EQ(sizeof(fs::DiskInode), 128u);
    EXPECT_EQ(fs::kInodesPerBlock, 8u);
    EXPECT_EQ(fs::make_superblock(param::kFsBlocks, param::kFsInodes).version, fs::kFormatVersion);
}

}  // namespace
