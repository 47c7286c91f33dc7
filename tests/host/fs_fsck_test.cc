// tests/host/fs_fsck_test.cc - fsck finds every kind of damage.
//
// A fixture builds a small but varied image (files using direct and
// indirect blocks, nested directories, a hard link, a device). The clean
// image must pass without warnings; then each test breaks one thing with
// the image editors of fs_util.h and checks that check_image() reports the
// matching Problem. The log tests cover a bad header, a bad home block and
// a committed log that fsck replays before checking. The last tests run
// the fsck binary for its exit statuses.
#include <gtest/gtest.h>

#include "lib/fs/log_logic.h"
#include "tests/host/fs_util.h"

namespace q::tools::test {
namespace {

class FsFsck : public ::testing::Test {
  protected:
    void SetUp() override {
        Builder b;
        std::string err;
        auto ok = [&](bool r) { ASSERT_TRUE(r) << err; };
        const auto small = pattern(700, 1), big = pattern(40 * 1024, 2);
        ok(b.add_file(b.root(), "small", small.data(), small.size(), &small_, &err));
        ok(b.add_file(b.root(), "big", big.data(), big.size(), &big_, &err));
        ok(b.add_dir(b.root(), "d", &d_, &err));
        ok(b.add_dir(d_, "e", &e_, &err));
        ok(b.add_file(e_, "f", "hello", 5, &f_, &err));
        ok(b.link(d_, "f-link", f_, &err));
        edit_inode(b.image(), f_, [](fs::DiskInode& di) { di.nlink = 2; });
        ok(b.add_device(b.root(), "console", 1, 0, &dev_, &err));
        ok(b.add_fifo(b.root(), "fifo", &fifo_, &err));
        img_ = b.finish();
        sb_ = img_.superblock();
    }

    Report check() const { return check_image(img_); }

    // Expect the damage to be reported as kind p, and as an error.
    void expect_error(Problem p) const {
        const Report r = check();
        EXPECT_TRUE(r.has(p)) << "missing " << problem_name(p) << "\n" << dump(r);
        EXPECT_FALSE(r.clean());
    }

    static std::string dump(const Report& r) {
        std::string s;
        for (const Finding& f : r.findings) s += std::string(problem_name(f.kind)) + ": " + f.message + "\n";
        return s;
    }

    u32 first_free_block() const {
        for (u32 b = fs::first_data_block(sb_); b < sb_.size; b++)
            if (!img_.bitmap_bit(sb_, b)) return b;
        return 0;
    }

    Image img_;
    fs::SuperBlock sb_{};
    u32 small_ = 0, big_ = 0, d_ = 0, e_ = 0, f_ = 0, dev_ = 0, fifo_ = 0;
};

TEST_F(FsFsck, CleanImage) {
    const Report r = check();
    EXPECT_TRUE(r.clean()) << dump(r);
    EXPECT_EQ(r.warnings, 0) << dump(r);
    EXPECT_EQ(r.inodes_used, 8u);  // with the FIFO
}

TEST_F(FsFsck, BadMagic) {
    sb_.magic = 0xdeadbeef;
    img_.set_superblock(sb_);
    expect_error(Problem::BadSuperblock);
}

// A version-1 image (64-byte inodes, no version field, so it reads as 0) is
// refused by name, not reported as a heap of damage.
TEST_F(FsFsck, OldFormatVersionIsRefusedClearly) {
    sb_.version = 0;
    img_.set_superblock(sb_);
    const Report r = check();
    ASSERT_TRUE(r.has(Problem::BadVersion)) << dump(r);
    EXPECT_EQ(r.errors, 1) << dump(r);
    EXPECT_NE(r.findings[0].message.find("version 0"), std::string::npos) << r.findings[0].message;
    EXPECT_NE(r.findings[0].message.find("mkfs"), std::string::npos) << r.findings[0].message;
}

TEST_F(FsFsck, ModeBeyondTwelveBits) {
    edit_inode(img_, small_, [](fs::DiskInode& di) { di.mode = 04755; });  // setuid: not in quanta
    expect_error(Problem::BadMode);
}

TEST_F(FsFsck, ReservedInodeBytesSet) {
    edit_inode(img_, small_, [](fs::DiskInode& di) { di.reserved[7] = 1; });
    expect_error(Problem::BadMode);
}

TEST_F(FsFsck, SuperblockSizeBeyondImage) {
    sb_.size += 100;
    img_.set_superblock(sb_);
    expect_error(Problem::BadSuperblock);
}

TEST_F(FsFsck, SuperblockRegionsOverlap) {
    sb_.bmapstart = sb_.inodestart + 1;  // inside the inode blocks
    img_.set_superblock(sb_);
    expect_error(Problem::BadSuperblock);
}

TEST_F(FsFsck, UsedBlockMarkedFree) {
    img_.set_bitmap_bit(sb_, img_.inode(sb_, small_).addrs[0], false);
    expect_error(Problem::BitmapUsedButFree);
}

TEST_F(FsFsck, MetadataBlockMarkedFree) {
    img_.set_bitmap_bit(sb_, sb_.inodestart, false);
    expect_error(Problem::BitmapUsedButFree);
}

TEST_F(FsFsck, FreeBlockMarkedUsed) {
    img_.set_bitmap_bit(sb_, first_free_block(), true);
    expect_error(Problem::BitmapFreeButUsed);
}

TEST_F(FsFsck, BlockUsedTwice) {
    const u32 shared = img_.inode(sb_, small_).addrs[0];
    edit_inode(img_, f_, [&](fs::DiskInode& di) { di.addrs[0] = shared; });
    expect_error(Problem::BlockDuplicate);
}

TEST_F(FsFsck, BlockOutsideDataRegion) {
    edit_inode(img_, small_, [&](fs::DiskInode& di) { di.addrs[0] = sb_.inodestart; });
    expect_error(Problem::BlockOutOfRange);
    edit_inode(img_, small_, [&](fs::DiskInode& di) { di.addrs[0] = sb_.size + 5; });
    expect_error(Problem::BlockOutOfRange);
}

TEST_F(FsFsck, BadIndirectEntry) {
    const u32 ind = img_.inode(sb_, big_).addrs[fs::kDirect];
    img_.put<u32>(ind, 4, 1);  // the superblock
    expect_error(Problem::BlockOutOfRange);
}

TEST_F(FsFsck, WrongLinkCount) {
    edit_inode(img_, small_, [](fs::DiskInode& di) { di.nlink = 2; });
    expect_error(Problem::BadLinkCount);
}

TEST_F(FsFsck, DirectoryLinkCountCountsDotDot) {
    edit_inode(img_, d_, [](fs::DiskInode& di) { di.nlink = 1; });  // should be 2
    expect_error(Problem::BadLinkCount);
}

TEST_F(FsFsck, EntryNamesFreeInode) {
    edit_inode(img_, small_, [](fs::DiskInode& di) { di = fs::DiskInode{}; });
    img_.set_bitmap_bit(sb_, img_.inode(sb_, small_).addrs[0], false);
    expect_error(Problem::EntryToFreeInode);
}

TEST_F(FsFsck, EntryBeyondLastInode) {
    edit_entry(img_, fs::kRootInode, "small", [&](fs::DirEntry& de) { de.inum = static_cast<u16>(sb_.ninodes + 3); });
    expect_error(Problem::EntryOutOfRange);
}

TEST_F(FsFsck, SizeLargerThanBlocks) {
    edit_inode(img_, small_, [](fs::DiskInode& di) { di.size = 5000; });
    expect_error(Problem::SizeMismatch);
}

TEST_F(FsFsck, SizeBeyondLargestFile) {
    edit_inode(img_, small_, [](fs::DiskInode& di) { di.size = (fs::kMaxFileBlocks + 1) * fs::kBlockSize; });
    expect_error(Problem::SizeMismatch);
}

TEST_F(FsFsck, BlocksPastSizeAreAWarning) {
    edit_inode(img_, big_, [](fs::DiskInode& di) { di.size = 1000; });
    const Report r = check();
    EXPECT_TRUE(r.has(Problem::BlockPastSize)) << dump(r);
    EXPECT_TRUE(r.clean()) << dump(r);
}

TEST_F(FsFsck, BadInodeType) {
    edit_inode(img_, small_, [](fs::DiskInode& di) { di.type = static_cast<fs::InodeType>(7); });
    expect_error(Problem::BadInodeType);
}

// A FIFO (type 4) is a valid inode (the clean image has one), but its
// bytes live in memory: a size or a data block on disk is damage.
TEST_F(FsFsck, FifoIsAValidType) {
    EXPECT_EQ(img_.inode(sb_, fifo_).type, fs::InodeType::Fifo);
    const Report r = check();
    EXPECT_FALSE(r.has(Problem::BadInodeType)) << dump(r);
    EXPECT_TRUE(r.clean()) << dump(r);
}

TEST_F(FsFsck, FifoWithSizeOrBlocks) {
    edit_inode(img_, fifo_, [](fs::DiskInode& di) { di.size = 5; });
    expect_error(Problem::FifoHasData);
}

TEST_F(FsFsck, FifoWithDataBlock) {
    const u32 b = first_free_block();
    edit_inode(img_, fifo_, [b](fs::DiskInode& di) { di.addrs[0] = b; });
    expect_error(Problem::FifoHasData);
}

TEST_F(FsFsck, TypeBeyondFifo) {
    edit_inode(img_, fifo_, [](fs::DiskInode& di) { di.type = static_cast<fs::InodeType>(5); });
    expect_error(Problem::BadInodeType);
}

TEST_F(FsFsck, RootNotDirectory) {
    edit_inode(img_, fs::kRootInode, [](fs::DiskInode& di) { di.type = fs::InodeType::File; });
    expect_error(Problem::RootNotDir);
}

TEST_F(FsFsck, DirectoryBadSize) {
    edit_inode(img_, d_, [](fs::DiskInode& di) { di.size += 3; });
    expect_error(Problem::DirBadSize);
}

TEST_F(FsFsck, MissingDot) {
    edit_entry(img_, d_, ".", [](fs::DirEntry& de) { de.name[0] = 'x'; });
    expect_error(Problem::DirMissingDot);
}

TEST_F(FsFsck, DotNamesAnotherInode) {
    edit_entry(img_, d_, ".", [&](fs::DirEntry& de) { de.inum = static_cast<u16>(e_); });
    expect_error(Problem::DirMissingDot);
}

TEST_F(FsFsck, MissingDotDot) {
    edit_entry(img_, e_, "..", [](fs::DirEntry& de) { de.inum = 0; });
    expect_error(Problem::DirMissingDotDot);
}

TEST_F(FsFsck, DotDotNamesWrongParent) {
    // e's ".." names the root instead of d; keep the link counts right.
    edit_entry(img_, e_, "..", [](fs::DirEntry& de) { de.inum = fs::kRootInode; });
    edit_inode(img_, d_, [](fs::DiskInode& di) { di.nlink--; });
    edit_inode(img_, fs::kRootInode, [](fs::DiskInode& di) { di.nlink++; });
    const Report r = check();
    EXPECT_TRUE(r.has(Problem::DirBadParent)) << dump(r);
    EXPECT_FALSE(r.has(Problem::BadLinkCount)) << dump(r);
}

TEST_F(FsFsck, DuplicateName) {
    edit_entry(img_, fs::kRootInode, "big", [](fs::DirEntry& de) { std::memcpy(de.name, "small\0", 6); });
    expect_error(Problem::DirDuplicateName);
}

TEST_F(FsFsck, UnreachableDirectory) {
    edit_entry(img_, fs::kRootInode, "d", [](fs::DirEntry& de) { de.inum = 0; });
    edit_inode(img_, d_, [](fs::DiskInode& di) { di.nlink = 0; });
    expect_error(Problem::DirUnreachable);
}

TEST_F(FsFsck, DirectoryWithTwoNames) {
    std::string err;
    fs::DirEntry de{};
    de.inum = static_cast<u16>(e_);
    std::memcpy(de.name, "e2", 2);
    // Overwrite f-link's slot in d with a second name for e.
    const EntryLoc loc = find_entry(img_, d_, "f-link");
    ASSERT_TRUE(loc.found);
    img_.put(loc.block, loc.offset, de);
    edit_inode(img_, f_, [](fs::DiskInode& di) { di.nlink = 1; });
    edit_inode(img_, e_, [](fs::DiskInode& di) { di.nlink = 2; });
    const Report r = check();
    EXPECT_TRUE(r.has(Problem::DirMultipleNames)) << dump(r);
    EXPECT_FALSE(r.has(Problem::BadLinkCount)) << dump(r);
}

// An allocated inode with no links that the orphan table does not list
// would never be freed: leaked, an error (before the table it was a warning).
TEST_F(FsFsck, UnlistedInodeWithNoLinksIsLeaked) {
    edit_entry(img_, fs::kRootInode, "small", [](fs::DirEntry& de) { de.inum = 0; });
    edit_inode(img_, small_, [](fs::DiskInode& di) { di.nlink = 0; });
    expect_error(Problem::OrphanInode);
}

// List an inode in the orphan table, as the kernel does when it unlinks an
// inode still in use.
void list_orphan(Image& img, u32 slot, u32 inum) {
    fs::OrphanTable t = img.get<fs::OrphanTable>(fs::kSuperBlockNo, fs::kOrphanTableOffset);
    t.magic = fs::kOrphanMagic;
    t.inum[slot] = static_cast<u16>(inum);
    img.put(fs::kSuperBlockNo, fs::kOrphanTableOffset, t);
}

// A file unlinked while open at a crash: in the table, it is one the next
// boot frees, not damage.
TEST_F(FsFsck, ListedOrphanIsANoteNotAnError) {
    edit_entry(img_, fs::kRootInode, "small", [](fs::DirEntry& de) { de.inum = 0; });
    edit_inode(img_, small_, [](fs::DiskInode& di) { di.nlink = 0; });
    list_orphan(img_, 7, small_);
    const Report r = check();
    EXPECT_TRUE(r.clean()) << dump(r);
    EXPECT_EQ(r.warnings, 0) << dump(r);
    EXPECT_TRUE(r.has(Problem::OrphanListed)) << dump(r);
    EXPECT_FALSE(r.has(Problem::OrphanInode)) << dump(r);
}

// A removed directory that was some process's cwd two levels deep: e's
// parent d was removed and freed, e is dead (nlink 0), its '..' names the
// free inode (and e's file f was removed while open). Listed, that is what
// the next boot reclaims; unlisted, the errors the hostile pass found
// (entry names a free inode, unreachable).
TEST_F(FsFsck, RemovedCwdDirectoryIsReclaimableOnlyWhenListed) {
    edit_entry(img_, e_, "f", [](fs::DirEntry& de) { de.inum = 0; });  // f: unlinked, still open
    edit_entry(img_, d_, "e", [](fs::DirEntry& de) { de.inum = 0; });
    edit_inode(img_, e_, [](fs::DiskInode& di) { di.nlink = 0; });
    edit_entry(img_, fs::kRootInode, "d", [](fs::DirEntry& de) { de.inum = 0; });
    edit_entry(img_, d_, "f-link", [](fs::DirEntry& de) { de.inum = 0; });
    edit_inode(img_, f_, [](fs::DiskInode& di) { di.nlink = 0; });
    list_orphan(img_, 0, f_);
    const fs::DiskInode d = img_.inode(sb_, d_);  // free d and its block
    for (u32 b : d.addrs)
        if (b != 0) img_.set_bitmap_bit(sb_, b, false);
    img_.set_inode(sb_, d_, fs::DiskInode{});
    edit_inode(img_, fs::kRootInode, [](fs::DiskInode& di) { di.nlink--; });
    {
        const Report r = check();
        EXPECT_TRUE(r.has(Problem::EntryToFreeInode)) << dump(r);
        EXPECT_TRUE(r.has(Problem::DirUnreachable)) << dump(r);
        EXPECT_FALSE(r.clean());
    }
    list_orphan(img_, 1, e_);
    const Report r = check();
    EXPECT_TRUE(r.clean()) << dump(r);
    EXPECT_EQ(r.count(Problem::OrphanListed), 2) << dump(r);
}

TEST_F(FsFsck, BadOrphanTableEntriesAreErrors) {
    list_orphan(img_, 3, small_);  // has a link
    expect_error(Problem::OrphanTableBad);
    SetUp();
    list_orphan(img_, 3, sb_.ninodes + 5);
    expect_error(Problem::OrphanTableBad);
    SetUp();
    list_orphan(img_, 3, 150);  // a free inode
    expect_error(Problem::OrphanTableBad);
    SetUp();
    edit_entry(img_, fs::kRootInode, "small", [](fs::DirEntry& de) { de.inum = 0; });
    edit_inode(img_, small_, [](fs::DiskInode& di) { di.nlink = 0; });
    list_orphan(img_, 3, small_);
    list_orphan(img_, 4, small_);
    expect_error(Problem::OrphanTableBad);
    SetUp();
    fs::OrphanTable t{};
    t.inum[0] = static_cast<u16>(small_);  // slots without the magic number
    img_.put(fs::kSuperBlockNo, fs::kOrphanTableOffset, t);
    expect_error(Problem::OrphanTableBad);
}

// The superblock's block (the orphan table) is a home the log may hold.
TEST_F(FsFsck, LogMayHoldTheSuperblockBlock) {
    fs::LogHeader lh{};
    lh.n = 1;
    lh.block[0] = fs::kSuperBlockNo;
    std::memcpy(img_.block(sb_.logstart + 1), img_.block(fs::kSuperBlockNo), fs::kBlockSize);
    img_.put(sb_.logstart, 0, lh);
    const Report r = check();
    EXPECT_TRUE(r.clean()) << dump(r);
    EXPECT_FALSE(r.has(Problem::LogBadBlock)) << dump(r);
}

// Version 2 (before the orphan table: zeros there) is read as it is.
TEST_F(FsFsck, VersionTwoImagesAreRead) {
    sb_.version = 2;
    img_.set_superblock(sb_);
    const Report r = check();
    EXPECT_TRUE(r.clean()) << dump(r);
    EXPECT_FALSE(r.has(Problem::BadVersion));
}

TEST_F(FsFsck, ManyFindingsAreCapped) {
    for (u32 b = fs::first_data_block(sb_); b < sb_.size; b++) img_.set_bitmap_bit(sb_, b, true);
    const Report r = check();
    EXPECT_GT(r.count(Problem::BitmapFreeButUsed), Report::kMaxPerKind);
    EXPECT_EQ(r.findings.size(), static_cast<size_t>(Report::kMaxPerKind));
}

// ---- the log ------------------------------------------------------------

TEST_F(FsFsck, LogCountOutOfBounds) {
    img_.put<u32>(sb_.logstart, 0, sb_.nlog);  // at most nlog - 1 fit
    expect_error(Problem::LogBadCount);
}

TEST_F(FsFsck, LogHomeBlockOutOfRange) {
    img_.put<u32>(sb_.logstart, 0, 1);
    img_.put<u32>(sb_.logstart, 4, 0);  // the boot block (the superblock's block, 1, holds the orphan table)
    expect_error(Problem::LogBadBlock);
}

TEST_F(FsFsck, CommittedLogIsReplayedBeforeChecking) {
    // The home copy of small's inode block has a wrong link count, but the
    // committed log holds the right block: after replay the image is clean.
    const u32 iblock = fs::inode_block(small_, sb_);
    std::memcpy(img_.block(sb_.logstart + 1), img_.block(iblock), fs::kBlockSize);
    img_.put<u32>(sb_.logstart, 0, 1);
    img_.put<u32>(sb_.logstart, 4, iblock);
    edit_inode(img_, small_, [](fs::DiskInode& di) { di.nlink = 5; });
    const Report r = check();
    EXPECT_TRUE(r.has(Problem::LogReplayed)) << dump(r);
    EXPECT_TRUE(r.clean()) << dump(r);
}

TEST_F(FsFsck, ReplayedLogIsChecked) {
    // A committed block that breaks the image is found after replay.
    const u32 iblock = fs::inode_block(small_, sb_);
    edit_inode(img_, small_, [](fs::DiskInode& di) { di.nlink = 5; });
    std::memcpy(img_.block(sb_.logstart + 1), img_.block(iblock), fs::kBlockSize);
    edit_inode(img_, small_, [](fs::DiskInode& di) { di.nlink = 1; });
    img_.put<u32>(sb_.logstart, 0, 1);
    img_.put<u32>(sb_.logstart, 4, iblock);
    expect_error(Problem::BadLinkCount);
}

// A log of two transactions on small's inode block, whose home copy is
// stale (nlink 7): slot 0 (committed earlier) holds it with nlink 1; slot 1
// (the last transaction) is, if `whole`, the same block as its checksum
// says, else garbage (its write was cut short: the checksum is of the block
// it should have held).
void two_transactions(Image& img, const fs::SuperBlock& sb, u32 inum, bool whole) {
    const u32 iblock = fs::inode_block(inum, sb);
    edit_inode(img, inum, [](fs::DiskInode& di) { di.nlink = 1; });
    std::memcpy(img.block(sb.logstart + 1), img.block(iblock), fs::kBlockSize);
    std::memcpy(img.block(sb.logstart + 2), img.block(iblock), fs::kBlockSize);
    fs::LogHeader lh{};
    lh.n = 2;
    lh.block[0] = lh.block[1] = iblock;
    lh.magic = fs::kLogMagic;
    lh.prev = 1;
    lh.sum = fs::log_sum_slot(fs::kLogSumSeed, iblock, img.block(sb.logstart + 2));
    if (!whole) std::memset(img.block(sb.logstart + 2), 0x5a, fs::kBlockSize);
    std::memcpy(img.block(sb.logstart), &lh, sizeof lh);
    edit_inode(img, inum, [](fs::DiskInode& di) { di.nlink = 7; });
}

TEST_F(FsFsck, ChecksummedLastTransactionIsReplayedWhenWhole) {
    two_transactions(img_, sb_, small_, true);
    const Report r = check();
    EXPECT_TRUE(r.has(Problem::LogReplayed)) << dump(r);
    EXPECT_TRUE(r.clean()) << dump(r);  // both slots replayed: nlink 1
}

TEST_F(FsFsck, LastTransactionCutShortIsNotReplayed) {
    // Slot 1's contents do not match the checksum: only slot 0 (nlink 1)
    // counts. Replaying slot 1 (garbage) would break the inode block.
    two_transactions(img_, sb_, small_, false);
    const Report r = check();
    EXPECT_TRUE(r.clean()) << dump(r);
    bool said = false;
    for (const auto& f : r.findings) said = said || f.message.find("fails its checksum") != std::string::npos;
    EXPECT_TRUE(said) << dump(r);
}

TEST_F(FsFsck, LogHeaderWithUnknownMagic) {
    img_.put<u32>(sb_.logstart, 0, 1);
    img_.put<u32>(sb_.logstart, 4, fs::inode_block(small_, sb_));
    img_.put<u32>(sb_.logstart, __builtin_offsetof(fs::LogHeader, magic), 0x12345678);
    expect_error(Problem::LogBadCount);
}

// ---- the binary --------------------------------------------------------

class FsFsckBinary : public FsFsck {
  protected:
    void SetUp() override {
        if (!exists(Q_FSCK_PATH)) GTEST_SKIP() << Q_FSCK_PATH << " not built";
        FsFsck::SetUp();
    }
    std::string save(const Image& img) {
        const std::string p = tmp_.path() + "/fs.img";
        std::string err;
        EXPECT_TRUE(img.save(p, &err)) << err;
        return p;
    }
    TempDir tmp_;
};

TEST_F(FsFsckBinary, CleanImageExitsZero) {
    const RunResult r = run(std::string(Q_FSCK_PATH) + " " + save(img_));
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("clean"), std::string::npos) << r.output;
}

TEST_F(FsFsckBinary, DamagedImageExitsOne) {
    edit_inode(img_, small_, [](fs::DiskInode& di) { di.nlink = 3; });
    const RunResult r = run(std::string(Q_FSCK_PATH) + " " + save(img_));
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_NE(r.output.find("bad-link-count"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("1 errors"), std::string::npos) << r.output;
}

TEST_F(FsFsckBinary, BadUsageAndUnreadableImages) {
    const std::string fsck = Q_FSCK_PATH;
    EXPECT_EQ(run(fsck).status, 2);
    EXPECT_EQ(run(fsck + " a b").status, 2);
    EXPECT_EQ(run(fsck + " " + tmp_.path() + "/missing.img").status, 2);
    EXPECT_EQ(run(fsck + " " + tmp_.file("short.img", pattern(1500, 1))).status, 2);
}

TEST_F(FsFsckBinary, OldImageExitsOneWithAClearMessage) {
    sb_.version = 1;
    img_.set_superblock(sb_);
    const RunResult r = run(std::string(Q_FSCK_PATH) + " " + save(img_));
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_NE(r.output.find("format version 1, this fsck reads only versions 2-3"), std::string::npos) << r.output;
}

TEST_F(FsFsckBinary, ChecksAMkfsImage) {
    if (!exists(Q_MKFS_PATH)) GTEST_SKIP();
    const std::string p = tmp_.path() + "/m.img";
    ASSERT_EQ(run(std::string(Q_MKFS_PATH) + " " + p + " " + tmp_.file("_x", pattern(30000, 4))).status, 0);
    const RunResult r = run(std::string(Q_FSCK_PATH) + " " + p);
    EXPECT_EQ(r.status, 0) << r.output;
}

}  // namespace
}  // namespace q::tools::test
