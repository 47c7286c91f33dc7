// tests/host/fs_mkfs_test.cc - mkfs: images built by tools/fsbuild and by the
// mkfs binary, read back through the shared layout code (tools/image.h).
//
// Covers the superblock, the root directory, file contents of every size
// class (empty, one block, all direct blocks, into the indirect block, the
// largest file), subdirectories and link counts, the bitmap, and every
// error: name too long, duplicate name, file too big, out of inodes, out of
// blocks; then the binary's naming rule ('_' dropped), symbolic links as
// hard links, and exit statuses.
#include <gtest/gtest.h>

#include "tests/host/fs_util.h"

namespace q::tools::test {
namespace {

TEST(FsMkfs, SuperblockMatchesLayout) {
    Builder b;
    const Image img = b.finish();
    const fs::SuperBlock sb = img.superblock();
    const fs::SuperBlock want = fs::make_superblock(param::kFsBlocks, param::kFsInodes);
    EXPECT_EQ(img.nblocks(), static_cast<u32>(param::kFsBlocks));
    EXPECT_EQ(sb.magic, fs::kMagic);
    EXPECT_EQ(sb.size, want.size);
    EXPECT_EQ(sb.nblocks, want.nblocks);
    EXPECT_EQ(sb.ninodes, want.ninodes);
    EXPECT_EQ(sb.nlog, want.nlog);
    EXPECT_EQ(sb.logstart, 2u);
    EXPECT_EQ(sb.inodestart, want.inodestart);
    EXPECT_EQ(sb.bmapstart, want.bmapstart);
    EXPECT_EQ(img.get<fs::LogHeader>(sb.logstart, 0).n, 0u);
}

TEST(FsMkfs, EmptyRootDirectory) {
    Builder b;
    const Image img = b.finish();
    const fs::SuperBlock sb = img.superblock();
    const fs::DiskInode root = img.inode(sb, fs::kRootInode);
    EXPECT_EQ(root.type, fs::InodeType::Dir);
    EXPECT_EQ(root.nlink, 1);
    const std::vector<fs::DirEntry> ents = img.read_dir(root);
    ASSERT_EQ(ents.size(), 2u);
    EXPECT_EQ(entry_name(ents[0]), ".");
    EXPECT_EQ(ents[0].inum, fs::kRootInode);
    EXPECT_EQ(entry_name(ents[1]), "..");
    EXPECT_EQ(ents[1].inum, fs::kRootInode);
    EXPECT_TRUE(check_image(img).clean());
}

TEST(FsMkfs, FileContentsReadBack) {
    Builder b;
    const size_t sizes[] = {
        0, 1, 1023, 1024, 1025, 12 * 1024, 12 * 1024 + 1, 100 * 1000, size_t{fs::kMaxFileBlocks} * fs::kBlockSize};
    std::string err;
    for (size_t i = 0; i < std::size(sizes); i++) {
        u32 inum = 0;
        const auto data = pattern(sizes[i], static_cast<u32>(i));
        ASSERT_TRUE(b.add_file(b.root(), "f" + std::to_string(i), data.data(), data.size(), &inum, &err)) << err;
    }
    const Image img = b.finish();
    const fs::SuperBlock sb = img.superblock();
    for (size_t i = 0; i < std::size(sizes); i++) {
        const u32 inum = lookup(img, fs::kRootInode, "f" + std::to_string(i));
        ASSERT_NE(inum, 0u);
        const fs::DiskInode di = img.inode(sb, inum);
        EXPECT_EQ(di.type, fs::InodeType::File);
        EXPECT_EQ(di.nlink, 1);
        EXPECT_EQ(di.size, sizes[i]);
        EXPECT_EQ(img.read_file(di), pattern(sizes[i], static_cast<u32>(i))) << "file " << i;
        EXPECT_EQ(di.addrs[fs::kDirect] != 0, sizes[i] > 12 * 1024) << "indirect block of file " << i;
    }
    const Report r = check_image(img);
    EXPECT_TRUE(r.clean());
    EXPECT_EQ(r.warnings, 0);
}

TEST(FsMkfs, BitmapMarksExactlyTheUsedBlocks) {
    Builder b;
    std::string err;
    u32 inum = 0;
    const auto data = pattern(50 * 1024, 3);
    ASSERT_TRUE(b.add_file(b.root(), "big", data.data(), data.size(), &inum, &err)) << err;
    const Image img = b.finish();
    const fs::SuperBlock sb = img.superblock();
    const u32 used_end = fs::first_data_block(sb) + b.data_blocks_used();
    // root dir block + 50 data blocks + 1 indirect block
    EXPECT_EQ(b.data_blocks_used(), 52u);
    for (u32 blk = 0; blk < sb.size; blk++) ASSERT_EQ(img.bitmap_bit(sb, blk), blk < used_end) << "block " << blk;
}

TEST(FsMkfs, SubdirectoriesAndLinkCounts) {
    Builder b;
    std::string err;
    u32 d = 0, e = 0, f = 0, dev = 0;
    ASSERT_TRUE(b.add_dir(b.root(), "d", &d, &err)) << err;
    ASSERT_TRUE(b.add_dir(d, "e", &e, &err)) << err;
    ASSERT_TRUE(b.add_file(e, "f", "hi", 2, &f, &err)) << err;
    ASSERT_TRUE(b.add_device(b.root(), "console", 1, 0, &dev, &err)) << err;
    ASSERT_TRUE(b.link(d, "f2", f, &err)) << err;  // a hard link
    edit_inode(b.image(), f, [](fs::DiskInode& di) { di.nlink = 2; });
    const Image img = b.finish();
    const fs::SuperBlock sb = img.superblock();
    EXPECT_EQ(img.inode(sb, fs::kRootInode).nlink, 2);  // itself + d's ".."
    EXPECT_EQ(img.inode(sb, d).nlink, 2);               // its name + e's ".."
    EXPECT_EQ(img.inode(sb, e).nlink, 1);
    EXPECT_EQ(lookup(img, e, ".."), d);
    EXPECT_EQ(lookup(img, d, ".."), fs::kRootInode);
    EXPECT_EQ(img.inode(sb, dev).type, fs::InodeType::Device);
    EXPECT_EQ(img.inode(sb, dev).major, 1);
    const Report r = check_image(img);
    EXPECT_TRUE(r.clean());
    EXPECT_EQ(r.warnings, 0);
    EXPECT_EQ(r.inodes_used, 5u);
}

TEST(FsMkfs, NamesAreChecked) {
    Builder b;
    std::string err;
    u32 inum = 0;
    EXPECT_TRUE(b.add_file(b.root(), "abcdefghijklmn", "x", 1, &inum, &err)) << err;  // 14: the limit
    const Image img = b.finish();
    EXPECT_EQ(lookup(img, fs::kRootInode, "abcdefghijklmn"), inum);
    EXPECT_FALSE(b.add_file(b.root(), "abcdefghijklmno", "x", 1, &inum, &err));
    EXPECT_NE(err.find("bad name"), std::string::npos) << err;
    EXPECT_FALSE(b.add_file(b.root(), "abcdefghijklmn", "x", 1, &inum, &err));
    EXPECT_NE(err.find("duplicate"), std::string::npos) << err;
    EXPECT_FALSE(b.add_file(b.root(), "", "x", 1, &inum, &err));
    EXPECT_FALSE(b.add_file(b.root(), "a/b", "x", 1, &inum, &err));
}

TEST(FsMkfs, FileTooBig) {
    Builder b;
    std::string err;
    u32 inum = 0;
    const auto data = pattern(size_t{fs::kMaxFileBlocks} * fs::kBlockSize + 1, 1);
    EXPECT_FALSE(b.add_file(b.root(), "huge", data.data(), data.size(), &inum, &err));
    EXPECT_NE(err.find("too big"), std::string::npos) << err;
}

TEST(FsMkfs, OutOfInodes) {
    Builder b(param::kFsBlocks, 10);
    std::string err;
    u32 inum = 0;
    int added = 0;
    while (b.add_file(b.root(), "f" + std::to_string(added), "x", 1, &inum, &err)) added++;
    EXPECT_EQ(added, 8);  // inodes 2..9; 0 is reserved and 1 is the root
    EXPECT_NE(err.find("no free inodes"), std::string::npos) << err;
}

TEST(FsMkfs, OutOfBlocks) {
    Builder b(200, 50);
    std::string err;
    u32 inum = 0;
    const auto data = pattern(20 * 1024, 2);
    int added = 0;
    while (b.add_file(b.root(), "f" + std::to_string(added), data.data(), data.size(), &inum, &err)) added++;
    EXPECT_GT(added, 0);
    EXPECT_NE(err.find("no free data blocks"), std::string::npos) << err;
}

// ---- the binary --------------------------------------------------------

class FsMkfsBinary : public ::testing::Test {
  protected:
    void SetUp() override {
        if (!exists(Q_MKFS_PATH)) GTEST_SKIP() << Q_MKFS_PATH << " not built";
        ASSERT_FALSE(tmp.path().empty());
    }
    TempDir tmp;
};

TEST_F(FsMkfsBinary, BuildsImageWithBaseNames) {
    const auto a = pattern(5000, 1), c = pattern(10, 2);
    const std::string img_path = tmp.path() + "/fs.img";
    const RunResult r =
        run(std::string(Q_MKFS_PATH) + " " + img_path + " " + tmp.file("_prog", a) + " " + tmp.file("notes.txt", c));
    ASSERT_EQ(r.status, 0) << r.output;
    Image img;
    std::string err;
    ASSERT_TRUE(img.load(img_path, &err)) << err;
    EXPECT_EQ(img.nblocks(), static_cast<u32>(param::kFsBlocks));
    const fs::SuperBlock sb = img.superblock();
    ASSERT_NE(lookup(img, fs::kRootInode, "prog"), 0u);
    EXPECT_EQ(lookup(img, fs::kRootInode, "_prog"), 0u);
    EXPECT_EQ(img.read_file(img.inode(sb, lookup(img, fs::kRootInode, "prog"))), a);
    EXPECT_EQ(img.read_file(img.inode(sb, lookup(img, fs::kRootInode, "notes.txt"))), c);
    EXPECT_TRUE(check_image(img).clean());
    // Programs (ELF) are executable, other files are not; root owns both.
    EXPECT_EQ(img.inode(sb, lookup(img, fs::kRootInode, "notes.txt")).mode, 0644);
}

// The accounts mkfs adds (docs/users-and-protection.md).
TEST_F(FsMkfsBinary, AddsAccountsHomeAndTmp) {
    std::vector<u8> elf = pattern(100, 3);
    elf[0] = 0x7f, elf[1] = 'E', elf[2] = 'L', elf[3] = 'F';
    const std::string img_path = tmp.path() + "/fs.img";
    const RunResult r = run(std::string(Q_MKFS_PATH) + " " + img_path + " " + tmp.file("_prog", elf));
    ASSERT_EQ(r.status, 0) << r.output;
    Image img;
    std::string err;
    ASSERT_TRUE(img.load(img_path, &err)) << err;
    const fs::SuperBlock sb = img.superblock();
    EXPECT_EQ(sb.version, fs::kFormatVersion);
    EXPECT_EQ(img.inode(sb, lookup(img, fs::kRootInode, "prog")).mode, 0755);
    const u32 etc = lookup(img, fs::kRootInode, "etc");
    ASSERT_NE(etc, 0u);
    const std::vector<u8> passwd = img.read_file(img.inode(sb, lookup(img, etc, "passwd")));
    EXPECT_EQ(std::string(passwd.begin(), passwd.end()), "root:0:0:/:/sh\nstudent:1000:1000:/home/student:/sh\n");
    const fs::DiskInode home = img.inode(sb, lookup(img, lookup(img, fs::kRootInode, "home"), "student"));
    EXPECT_EQ(home.type, fs::InodeType::Dir);
    EXPECT_EQ(home.uid, 1000u);
    EXPECT_EQ(home.gid, 1000u);
    EXPECT_EQ(home.mode, 0755);
    const fs::DiskInode tmpdir = img.inode(sb, lookup(img, fs::kRootInode, "tmp"));
    EXPECT_EQ(tmpdir.mode, 01777);
    EXPECT_EQ(tmpdir.uid, 0u);
    EXPECT_EQ(img.inode(sb, fs::kRootInode).mode, 0755);
    EXPECT_TRUE(check_image(img).clean());
}

// A FILE that is a symbolic link to another FILE given is a second name of
// that file's inode (build/user/_trace -> _obs); a link to a file not given
// is copied.
TEST_F(FsMkfsBinary, SymbolicLinkToAGivenFileIsAHardLink) {
    const auto a = pattern(3000, 4), c = pattern(20, 5);
    const std::string prog = tmp.file("_prog", a), outside = tmp.file("outside", c);
    const std::string alias = tmp.path() + "/_alias", copy = tmp.path() + "/_copy";
    ASSERT_EQ(symlink("_prog", alias.c_str()), 0);
    ASSERT_EQ(symlink(outside.c_str(), copy.c_str()), 0);
    const std::string img_path = tmp.path() + "/fs.img";
    const RunResult r = run(std::string(Q_MKFS_PATH) + " " + img_path + " " + alias + " " + copy + " " + prog);
    ASSERT_EQ(r.status, 0) << r.output;
    Image img;
    std::string err;
    ASSERT_TRUE(img.load(img_path, &err)) << err;
    const fs::SuperBlock sb = img.superblock();
    const u32 p = lookup(img, fs::kRootInode, "prog");
    ASSERT_NE(p, 0u);
    EXPECT_EQ(lookup(img, fs::kRootInode, "alias"), p);
    EXPECT_EQ(img.inode(sb, p).nlink, 2);
    EXPECT_EQ(img.read_file(img.inode(sb, p)), a);
    const u32 cp = lookup(img, fs::kRootInode, "copy");
    ASSERT_NE(cp, 0u);
    EXPECT_NE(cp, p);
    EXPECT_EQ(img.inode(sb, cp).nlink, 1);
    EXPECT_EQ(img.read_file(img.inode(sb, cp)), c);
    EXPECT_TRUE(check_image(img).clean());
}

TEST_F(FsMkfsBinary, Errors) {
    const std::string img_path = tmp.path() + "/fs.img";
    const std::string mkfs = Q_MKFS_PATH;
    RunResult r = run(mkfs);
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find("usage"), std::string::npos);

    r = run(mkfs + " " + img_path + " " + tmp.path() + "/missing");
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_NE(r.output.find("missing"), std::string::npos) << r.output;
    EXPECT_FALSE(exists(img_path));

    r = run(mkfs + " " + img_path + " " + tmp.file("a_name_too_long_", {1}));
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_NE(r.output.find("bad name"), std::string::npos) << r.output;

    r = run(mkfs + " " + img_path + " " + tmp.file("dup", {1}) + " " + tmp.file("_dup", {2}));
    EXPECT_EQ(r.status, 1) << r.output;

    // One maximum-size file more than param::kFsBlocks blocks hold does not fit.
    std::string cmd = mkfs + " " + img_path;
    const auto big = pattern(size_t{fs::kMaxFileBlocks} * fs::kBlockSize, 9);
    const u32 too_many = static_cast<u32>(param::kFsBlocks) / fs::kMaxFileBlocks + 1;
    for (u32 i = 0; i < too_many; i++) cmd += " " + tmp.file("big" + std::to_string(i), big);
    r = run(cmd);
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_NE(r.output.find("image full"), std::string::npos) << r.output;
    EXPECT_FALSE(exists(img_path));

    r = run(mkfs + " " + tmp.path() + "/no/such/dir/fs.img");
    EXPECT_EQ(r.status, 2) << r.output;
}

}  // namespace
}  // namespace q::tools::test
