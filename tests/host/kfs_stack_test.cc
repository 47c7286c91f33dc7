// tests/host/kfs_stack_test.cc - the real kernel/fs code, system calls down to
// the disk, run on the host against a RAM disk (tests/host/kfs_env.cc).
// Covers the sys_* calls with good and bad arguments, limits (no panics),
// pipes, and crash consistency of the log at every possible crash point.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "kernel/fs/file.h"
#include "kernel/fs/fs.h"
#include "kernel/proc/proc.h"
#include "kernel/syscall.h"
#include "lib/fs/layout.h"
#include "tests/host/kfs_calls.h"
#include "tests/host/kfs_env.h"
#include "tools/fscheck.h"

// The binary's test files compile as one unit (mk/tests.mk's host_test):
// this file's names stay in its own namespace.
namespace kfs_stack_test {

using namespace q;
using namespace kfs_calls;

namespace {

// The ABI (lib/abi/abi.h) under other names: gtest pulls in the host's
// <sys/stat.h> and <fcntl.h>, whose KStat and O_* clash with it.
struct KStat {
    int dev;
    unsigned int ino;
    short type;
    short nlink;
    unsigned long size;
};
static_assert(sizeof(KStat) == 24);
constexpr int kTDir = 1, kTFile = 2, kTDevice = 3, kConsole = 1;
struct KDirent {
    unsigned short inum;
    char name[14];
};

i64 fstat_(int fd, KStat* st) {
    kfs_args(fd, kfs_ptr(st));
    return kfs_a0(sys_fstat());
}

KStat stat_path(const char* p) {
    KStat st{};
    const i64 fd = open_(p, kRdOnly);
    EXPECT_GE(fd, 0) << p;
    EXPECT_EQ(fstat_(static_cast<int>(fd), &st), 0);
    close_(static_cast<int>(fd));
    return st;
}

std::string slurp(const char* p) {
    const i64 fd = open_(p, kRdOnly);
    if (fd < 0) return "<missing>";
    std::string s;
    char buf[700] = {};
    i64 n;
    while ((n = read_(static_cast<int>(fd), buf, sizeof buf)) > 0) s.append(buf, static_cast<usize>(n));
    close_(static_cast<int>(fd));
    return s;
}

bool put(const char* p, const std::string& data) {
    const i64 fd = open_(p, kCreate | kWrOnly | kTrunc);
    if (fd < 0) return false;
    const i64 n = write_(static_cast<int>(fd), data.data(), static_cast<int>(data.size()));
    close_(static_cast<int>(fd));
    return n == static_cast<i64>(data.size());
}

std::string pattern(usize n, unsigned seed = 1) {
    std::string s(n, '\0');
    for (usize i = 0; i < n; i++) s[i] = static_cast<char>('a' + (i * 7 + seed * 13 + i / 1024) % 26);
    return s;
}

// ---- an fsck over a raw image ---------------------------------------------
struct Fsck {
    const std::vector<u8>& img;
    fs::SuperBlock sb{};
    std::vector<std::string> problems;

    explicit Fsck(const std::vector<u8>& i) : img(i) { std::memcpy(&sb, &img[fs::kBlockSize], sizeof sb); }
    const u8* block(u32 b) const { return &img[usize(b) * fs::kBlockSize]; }
    fs::DiskInode inode(u32 inum) const {
        fs::DiskInode d;
        std::memcpy(&d, block(fs::inode_block(inum, sb)) + (inum % fs::kInodesPerBlock) * sizeof d, sizeof d);
        return d;
    }
    bool bit(u32 b) const { return block(fs::bitmap_block(b, sb))[(b % fs::kBitsPerBlock) / 8] & (1u << (b % 8)); }
    std::vector<u32> blocks_of(const fs::DiskInode& d) const {
        std::vector<u32> out;
        for (u32 i = 0; i < fs::kDirect; i++)
            if (d.addrs[i]) out.push_back(d.addrs[i]);
        if (d.addrs[fs::kDirect]) {
            out.push_back(d.addrs[fs::kDirect]);
            const u32* t = reinterpret_cast<const u32*>(block(d.addrs[fs::kDirect]));
            for (u32 i = 0; i < fs::kIndirect; i++)
                if (t[i]) out.push_back(t[i]);
        }
        return out;
    }
    std::vector<fs::DirEntry> entries(const fs::DiskInode& d) const {
        std::vector<fs::DirEntry> out;
        for (u32 off = 0; off < d.size; off += sizeof(fs::DirEntry)) {
            const u32 bn = off / fs::kBlockSize;
            const u32 b = bn < fs::kDirect
                              ? d.addrs[bn]
                              : reinterpret_cast<const u32*>(block(d.addrs[fs::kDirect]))[bn - fs::kDirect];
            fs::DirEntry e;
            std::memcpy(&e, block(b) + off % fs::kBlockSize, sizeof e);
            if (e.inum) out.push_back(e);
        }
        return out;
    }
    bool run() {
        std::map<u32, int> refs;  // inum -> directory entries naming it (not ".")
        std::map<u32, u32> owner;
        for (u32 inum = 1; inum < sb.ninodes; inum++) {
            const fs::DiskInode d = inode(inum);
            if (d.type == fs::InodeType::Free) continue;
            for (u32 b : blocks_of(d)) {
                if (owner.count(b)) problems.push_back("block " + std::to_string(b) + " shared");
                owner[b] = inum;
                if (!bit(b)) problems.push_back("block " + std::to_string(b) + " in use but free in bitmap");
            }
            if (d.type == fs::InodeType::Dir)
                for (const auto& e : entries(d))
                    if (std::strncmp(e.name, ".", 14) != 0 &&
                        !(inum == fs::kRootInode && !std::strncmp(e.name, "..", 14)))
                        refs[e.inum]++;
        }
        for (u32 b = fs::first_data_block(sb); b < sb.size; b++)
            if (bit(b) && !owner.count(b)) problems.push_back("block " + std::to_string(b) + " leaked");
        for (u32 inum = 1; inum < sb.ninodes; inum++) {
            const fs::DiskInode d = inode(inum);
            if (d.type == fs::InodeType::Free) {
                if (refs.count(inum)) problems.push_back("entry names free inode " + std::to_string(inum));
                continue;
            }
            const int want = inum == fs::kRootInode ? 1 : refs[inum];
            if (d.nlink != want && inum != fs::kRootInode)
                problems.push_back("inode " + std::to_string(inum) + " nlink " + std::to_string(d.nlink) + " but " +
                                   std::to_string(want) + " names");
        }
        return problems.empty();
    }
};

class KfsStack : public ::testing::Test {
  protected:
    void SetUp() override { kfs_boot(kfs_mkfs(2000, 200)); }
    void TearDown() override {
        for (int fd = 0; fd < param::kMaxOpenPerProc; fd++)
            if (myproc()->tg->ofile[fd]) close_(fd);
        Fsck f(g_env.disk);
        EXPECT_TRUE(f.run()) << (f.problems.empty() ? "" : f.problems[0]);
        const tools::Report r = tools::check_image(tools::Image(g_env.disk));  // and the real fsck
        EXPECT_TRUE(r.clean()) << (r.findings.empty() ? "" : r.findings[0].message);
        EXPECT_FALSE(r.has(tools::Problem::OrphanListed)) << "an inode is still listed after every file closed";
    }
};

}  // namespace

TEST_F(KfsStack, CreateWriteReadStat) {
    ASSERT_TRUE(put("hello", "hello world\n"));
    EXPECT_EQ(slurp("hello"), "hello world\n");
    const KStat st = stat_path("/hello");
    EXPECT_EQ(st.type, kTFile);
    EXPECT_EQ(st.size, 12u);
    EXPECT_EQ(st.nlink, 1);
    EXPECT_EQ(stat_path("/").type, kTDir);
}

TEST_F(KfsStack, LargestFileAndNoFurther) {
    const std::string big = pattern(fs::kMaxFileBlocks * fs::kBlockSize);
    ASSERT_TRUE(put("big", big));
    EXPECT_EQ(slurp("big"), big);
    const i64 fd = open_("big", kWrOnly);
    char buf[fs::kBlockSize] = {};
    for (int i = 0; i < static_cast<int>(fs::kMaxFileBlocks); i++)
        ASSERT_EQ(write_(static_cast<int>(fd), buf, sizeof buf), 1024);
    EXPECT_EQ(write_(static_cast<int>(fd), buf, 1), -1);  // past the largest file
    close_(static_cast<int>(fd));
}

// A write that only partly fits below the largest file size writes what
// fits and returns its count (POSIX: a short write); only a write with no
// room at all fails. It used to fail whole: 3,072 bytes at 273,408.
TEST_F(KfsStack, WritePastTheLargestFileIsShort) {
    const u32 max = fs::kMaxFileBlocks * fs::kBlockSize;  // 274,432
    ASSERT_TRUE(put("big", pattern(max - 1024)));
    const i64 fd = open_("big", kRdWr);
    char buf[3072];
    for (i64 n; (n = read_(static_cast<int>(fd), buf, sizeof buf)) > 0;) {}
    std::memset(buf, 'z', sizeof buf);
    EXPECT_EQ(write_(static_cast<int>(fd), buf, sizeof buf), 1024);
    EXPECT_EQ(write_(static_cast<int>(fd), buf, sizeof buf), -1);
    EXPECT_EQ(write_(static_cast<int>(fd), buf, 1), -1);
    close_(static_cast<int>(fd));
    KStat st = stat_path("big");
    EXPECT_EQ(st.size, max);
    EXPECT_EQ(slurp("big").substr(max - 1024), std::string(1024, 'z'));
    // The same at an unaligned offset: 100 bytes fit.
    ASSERT_TRUE(put("odd", pattern(max - 100)));
    const i64 fd2 = open_("odd", kRdWr);
    for (i64 n; (n = read_(static_cast<int>(fd2), buf, sizeof buf)) > 0;) {}
    EXPECT_EQ(write_(static_cast<int>(fd2), buf, 500), 100);
    close_(static_cast<int>(fd2));
    EXPECT_EQ(stat_path("odd").size, max);
}

// Large directories: a lookup or an insert scans the directory once, a
// block (64 entries) per buffer-cache access, so 5,000 names cost about 80
// block accesses per call, not 5,000 or 10,000 (one per entry, twice for an
// insert: lookup, then the free-slot search). Every name stays findable,
// and a freed slot is reused.
TEST(KfsDirs, FiveThousandNamesInOneDirectory) {
    kfs_boot(kfs_mkfs(2000, 200));
    ASSERT_EQ(mkdir_("/d"), 0);
    ASSERT_TRUE(put("/d/f", "x"));
    constexpr int kNames = 5000;
    auto name = [](int i) { return "/d/n" + std::to_string(i); };
    for (int i = 0; i < kNames; i++) ASSERT_EQ(link_("/d/f", name(i).c_str()), 0) << i;
    struct {
        unsigned long bufs, fixed, pages, hits, misses, disk_reads, disk_writes, grows, shrinks;
    } a{}, b{};
    kfs_args(kfs_ptr(&a));
    ASSERT_EQ(kfs_a0(sys_bcstat()), 0);
    ASSERT_EQ(link_("/d/f", "/d/last"), 0);  // a lookup in /d and an insert at its end
    kfs_args(kfs_ptr(&b));
    ASSERT_EQ(kfs_a0(sys_bcstat()), 0);
    const unsigned long accesses = (b.hits + b.misses) - (a.hits + a.misses);
    const unsigned long blocks = (kNames + 3) * sizeof(fs::DirEntry) / fs::kBlockSize + 1;
    EXPECT_LE(accesses, 2 * blocks + 20) << "directory blocks: " << blocks;
    EXPECT_EQ(link_("/d/f", name(kNames / 2).c_str()), -1);  // exists
    ASSERT_EQ(unlink_(name(7).c_str()), 0);
    const KStat before = stat_path("/d");
    ASSERT_EQ(link_("/d/f", "/d/reuse"), 0);  // goes into the freed slot
    EXPECT_EQ(stat_path("/d").size, before.size);
    for (int i = 0; i < kNames; i++) {
        if (i != 7) {
            ASSERT_EQ(unlink_(name(i).c_str()), 0) << i;
        }
    }
    EXPECT_EQ(stat_path("/d/f").nlink, 3);  // f, last, reuse
    Fsck f(g_env.disk);
    EXPECT_TRUE(f.run()) << (f.problems.empty() ? "" : f.problems[0]);
}

TEST_F(KfsStack, DirectoriesChdirDotDot) {
    ASSERT_EQ(mkdir_("d"), 0);
    ASSERT_EQ(mkdir_("d/e"), 0);
    EXPECT_EQ(mkdir_("d"), -1);
    ASSERT_TRUE(put("d/e/f", "deep"));
    ASSERT_EQ(chdir_("d/e"), 0);
    EXPECT_EQ(slurp("f"), "deep");
    EXPECT_EQ(slurp("../e/./f"), "deep");
    EXPECT_EQ(slurp("/d/e/f"), "deep");
    EXPECT_EQ(chdir_("f"), -1);  // not a directory
    ASSERT_EQ(chdir_("../.."), 0);
    EXPECT_EQ(stat_path(".").ino, fs::kRootInode);
    EXPECT_EQ(stat_path("d").nlink, 2);  // as in xv6: its entry in "/" and e's "..", not its own ""
    EXPECT_EQ(slurp("d/e/f/x"), "<missing>");
}

TEST_F(KfsStack, UnlinkRulesAndSpaceReuse) {
    ASSERT_EQ(mkdir_("d"), 0);
    ASSERT_TRUE(put("d/f", pattern(50000)));
    EXPECT_EQ(unlink_("d"), -1);  // not empty
    EXPECT_EQ(unlink_("d/."), -1);
    EXPECT_EQ(unlink_("d/.."), -1);
    EXPECT_EQ(unlink_("/"), -1);
    EXPECT_EQ(unlink_("nope"), -1);
    EXPECT_EQ(unlink_("d/f"), 0);
    EXPECT_EQ(slurp("d/f"), "<missing>");
    EXPECT_EQ(unlink_("d"), 0);
    for (int i = 0; i < 20; i++) ASSERT_TRUE(put("again", pattern(200000, i)));  // reuses freed blocks
}

TEST_F(KfsStack, OpenFileSurvivesUnlink) {
    ASSERT_TRUE(put("f", "data"));
    const i64 fd = open_("f", kRdOnly);
    ASSERT_EQ(unlink_("f"), 0);
    char buf[8] = {};
    EXPECT_EQ(read_(static_cast<int>(fd), buf, 8), 4);
    EXPECT_EQ(close_(static_cast<int>(fd)), 0);  // frees the inode now
}

TEST_F(KfsStack, HardLinks) {
    ASSERT_TRUE(put("a", "shared"));
    ASSERT_EQ(link_("a", "b"), 0);
    EXPECT_EQ(stat_path("a").nlink, 2);
    EXPECT_EQ(stat_path("a").ino, stat_path("b").ino);
    EXPECT_EQ(link_("a", "b"), -1);   // exists
    EXPECT_EQ(link_("zz", "c"), -1);  // no source
    EXPECT_EQ(link_("a", "nodir/c"), -1);
    EXPECT_EQ(stat_path("a").nlink, 2);  // failed links undone
    ASSERT_EQ(mkdir_("d"), 0);
    EXPECT_EQ(link_("d", "d2"), -1);  // directories cannot be linked
    ASSERT_EQ(unlink_("a"), 0);
    EXPECT_EQ(slurp("b"), "shared");
    EXPECT_EQ(stat_path("b").nlink, 1);
}

TEST_F(KfsStack, OpenModes) {
    EXPECT_EQ(open_("missing", kRdOnly), -1);
    ASSERT_EQ(mkdir_("d"), 0);
    EXPECT_EQ(open_("d", kWrOnly), -1);
    EXPECT_EQ(open_("d", kRdWr), -1);
    EXPECT_EQ(open_("d", kCreate | kRdWr), -1);
    const i64 dfd = open_("d", kRdOnly);
    ASSERT_GE(dfd, 0);
    KDirent de[4];
    EXPECT_EQ(read_(static_cast<int>(dfd), de, sizeof de), 32);  // "." and ".."
    EXPECT_EQ(write_(static_cast<int>(dfd), "x", 1), -1);
    close_(static_cast<int>(dfd));

    ASSERT_TRUE(put("f", "0123456789"));
    const i64 ro = open_("f", kRdOnly);
    EXPECT_EQ(write_(static_cast<int>(ro), "x", 1), -1);
    const i64 wo = open_("f", kWrOnly);
    char c = 0;
    EXPECT_EQ(read_(static_cast<int>(wo), &c, 1), -1);
    EXPECT_EQ(write_(static_cast<int>(wo), "AB", 2), 2);
    close_(static_cast<int>(ro));
    close_(static_cast<int>(wo));
    EXPECT_EQ(slurp("f"), "AB23456789");
    const i64 ex = open_("f", kCreate | kRdWr);  // existing file: opened, not truncated
    close_(static_cast<int>(ex));
    EXPECT_EQ(slurp("f"), "AB23456789");
    close_(static_cast<int>(open_("f", kRdWr | kTrunc)));
    EXPECT_EQ(slurp("f"), "");
}

TEST_F(KfsStack, BadArgumentsReturnMinusOne) {
    char buf[16] = {};
    EXPECT_EQ(read_(-1, buf, 1), -1);
    EXPECT_EQ(read_(param::kMaxOpenPerProc, buf, 1), -1);
    EXPECT_EQ(read_(5, buf, 1), -1);
    EXPECT_EQ(close_(5), -1);
    EXPECT_EQ(dup_(7), -1);
    ASSERT_TRUE(put("f", "abc"));
    const int fd = static_cast<int>(open_("f", kRdWr));
    kfs_args(fd, 1, 3);  // bad pointers
    EXPECT_EQ(kfs_a0(sys_read()), -1);
    EXPECT_EQ(kfs_a0(sys_write()), -1);
    EXPECT_EQ(kfs_a0(sys_fstat()), -1);
    EXPECT_EQ(read_(fd, buf, -1), -1);
    EXPECT_EQ(write_(fd, buf, -5), -1);
    kfs_args(0);
    EXPECT_EQ(kfs_a0(sys_open()), -1);
    EXPECT_EQ(kfs_a0(sys_mkdir()), -1);
    EXPECT_EQ(kfs_a0(sys_unlink()), -1);
    EXPECT_EQ(kfs_a0(sys_chdir()), -1);
    EXPECT_EQ(kfs_a0(sys_pipe()), -1);
    kfs_args(kfs_ptr("f"), 8);
    EXPECT_EQ(kfs_a0(sys_link()), -1);
    EXPECT_EQ(open_("", kRdOnly) >= 0, true);  // "" is the cwd, as in xv6
    EXPECT_EQ(mkdir_(""), -1);
    EXPECT_EQ(mkdir_("/"), -1);
}

TEST_F(KfsStack, PathLengthAndNameRules) {
    std::string longp(param::kMaxPath, 'a');
    EXPECT_EQ(open_(longp.c_str(), kCreate | kRdWr), -1);
    std::string okp(param::kMaxPath - 1, '/');
    okp.back() = 'x';
    const i64 fd = open_(okp.c_str(), kCreate | kRdWr);
    EXPECT_GE(fd, 0);
    close_(static_cast<int>(fd));
    ASSERT_TRUE(put("abcdefghijklmn", "14"));
    EXPECT_EQ(slurp("abcdefghijklmn"), "14");
    EXPECT_EQ(slurp("abcdefghijklmnopq"), "14");  // truncated to 14, as in xv6
}

TEST_F(KfsStack, DescriptorsLowestFreeAndLimit) {
    ASSERT_TRUE(put("f", "x"));
    std::vector<int> fds;
    for (int i = 0; i < param::kMaxOpenPerProc; i++) {
        const i64 fd = open_("f", kRdOnly);
        ASSERT_EQ(fd, i);
        fds.push_back(static_cast<int>(fd));
    }
    EXPECT_EQ(open_("f", kRdOnly), -1);
    EXPECT_EQ(dup_(0), -1);
    int p[2] = {};
    EXPECT_EQ(pipe_(p), -1);
    close_(3);
    EXPECT_EQ(dup_(0), 3);
    for (int fd : fds) close_(fd);
}

TEST_F(KfsStack, FileAndInodeTablesRunOut) {
    std::vector<File*> files;
    for (;;) {
        auto f = filealloc();
        if (!f.ok()) {
            EXPECT_EQ(f.error(), Error::NoFile);
            break;
        }
        files.push_back(f.value());
    }
    EXPECT_EQ(files.size(), usize(param::kMaxFiles));  // root: every slot
    for (File* f : files) fileclose(f);

    std::vector<InodeRef> held;
    for (u32 inum = 1000;; inum++) {  // not on the disk: ialloc will not pick them
        auto ip = iget(param::kRootDev, inum);
        if (!ip.ok()) break;
        held.push_back(std::move(ip).value());
    }
    EXPECT_EQ(held.size(), usize(param::kMaxInodes - 1));  // the cwd holds one
    EXPECT_EQ(mkdir_("x"), -1);                            // no in-memory inode: an error, not a panic
    for (InodeRef& ip : held) {
        FsOp op;
        ip.reset();
    }
    EXPECT_EQ(mkdir_("x"), 0);
}

constexpr perm::Cred kStudent{1000, 1000, 1000, 1000};

// The last kRootReserved* entries of the file and inode tables are root's:
// a student who fills the tables (open files, cwds) leaves root enough to
// open, walk and create (exec and ls need a few inodes).
TEST_F(KfsStack, StudentCannotTakeRootsReserve) {
    ASSERT_EQ(mkdir_("/tmp"), 0);
    ASSERT_EQ(put("/tmp/f", "student's"), true);
    const perm::Cred root = myproc()->cred;
    myproc()->cred = kStudent;
    std::vector<File*> files;
    for (auto f = filealloc(); f.ok(); f = filealloc()) files.push_back(f.value());
    EXPECT_EQ(files.size(), usize(param::kMaxFiles - param::kRootReservedFiles));
    EXPECT_EQ(open_("/tmp/f", kRdOnly), -1);  // the student's own open fails too
    myproc()->cred = root;
    std::vector<i64> fds;
    for (int i = 0; i < 4; i++) fds.push_back(open_("/tmp/f", kRdOnly));
    for (i64 fd : fds) EXPECT_GE(fd, 0);
    for (i64 fd : fds) close_(static_cast<int>(fd));
    for (File* f : files) fileclose(f);

    myproc()->cred = kStudent;
    std::vector<InodeRef> held;
    for (u32 inum = 1000;; inum++) {
        auto ip = iget(param::kRootDev, inum);
        if (!ip.ok()) break;
        held.push_back(std::move(ip).value());
    }
    EXPECT_EQ(held.size(), usize(param::kMaxInodes - 1 - param::kRootReservedInodes));
    EXPECT_EQ(open_("/tmp/f", kRdOnly), -1);
    myproc()->cred = root;
    EXPECT_EQ(slurp("/tmp/f"), "student's");  // root walks, opens and reads
    EXPECT_EQ(mkdir_("/tmp/r"), 0);
    EXPECT_TRUE(put("/tmp/r/x", "root's"));
    for (InodeRef& ip : held) {
        FsOp op;
        ip.reset();
    }
}

TEST(KfsLimits, DiskFullIsAnError) {
    kfs_boot(kfs_mkfs(300, 50));
    const i64 fd = open_("fill", kCreate | kWrOnly);
    ASSERT_GE(fd, 0);
    const std::string chunk = pattern(4096);
    i64 total = 0, n;
    while ((n = write_(static_cast<int>(fd), chunk.data(), 4096)) > 0) total += n;
    EXPECT_GT(total, 100 * 1024);
    EXPECT_LT(total, 300 * 1024);
    close_(static_cast<int>(fd));
    EXPECT_EQ(mkdir_("d"), -1);  // no block for its entries
    EXPECT_EQ(unlink_("fill"), 0);
    EXPECT_EQ(mkdir_("d"), 0);
    Fsck f(g_env.disk);
    EXPECT_TRUE(f.run()) << f.problems[0];
}

TEST(KfsLimits, OutOfDiskInodesIsAnError) {
    kfs_boot(kfs_mkfs(400, 32));
    int made = 0;
    for (int i = 0; i < 40; i++) {
        const std::string name = "f" + std::to_string(i);
        const i64 fd = open_(name.c_str(), kCreate | kRdWr);
        if (fd < 0) break;
        close_(static_cast<int>(fd));
        made++;
    }
    EXPECT_EQ(made, 30);  // inodes 2..31
    EXPECT_EQ(unlink_("f3"), 0);
    EXPECT_GE(open_("again", kCreate | kRdWr), 0);
    Fsck f(g_env.disk);
    EXPECT_TRUE(f.run()) << f.problems[0];
}

TEST_F(KfsStack, DevicesAndMknod) {
    static std::string out;
    out.clear();
    g_devsw[kConsole].write = [](bool, u64 src, int n, u32*) -> i64 {
        out.append(reinterpret_cast<const char*>(src), static_cast<usize>(n));
        return n;
    };
    g_devsw[kConsole].read = nullptr;
    ASSERT_EQ(mknod_("console", kConsole, 0), 0);
    EXPECT_EQ(mknod_("console", kConsole, 0), -1);
    const i64 fd = open_("console", kRdWr);
    ASSERT_GE(fd, 0);
    EXPECT_EQ(write_(static_cast<int>(fd), "hi", 2), 2);
    EXPECT_EQ(out, "hi");
    char c = 0;
    EXPECT_EQ(read_(static_cast<int>(fd), &c, 1), -1);  // no read handler
    EXPECT_EQ(stat_path("console").type, kTDevice);
    close_(static_cast<int>(fd));
    ASSERT_EQ(mknod_("weird", 99, 0), 0);
    EXPECT_EQ(open_("weird", kRdWr), -1);  // major out of range
    g_devsw[kConsole] = DevSw{};
}

TEST_F(KfsStack, PipesTransferWrapAndClose) {
    int p[2] = {};
    ASSERT_EQ(pipe_(p), 0);
    EXPECT_EQ(p[0], 0);
    EXPECT_EQ(p[1], 1);
    const std::string a = pattern(300), b = pattern(450, 2);
    char buf[600] = {};
    ASSERT_EQ(write_(p[1], a.data(), 300), 300);
    ASSERT_EQ(read_(p[0], buf, 600), 300);
    EXPECT_EQ(std::string(buf, 300), a);
    ASSERT_EQ(write_(p[1], b.data(), 450), 450);  // wraps the 512-byte ring
    ASSERT_EQ(read_(p[0], buf, 100), 100);
    ASSERT_EQ(read_(p[0], buf + 100, 600), 350);
    EXPECT_EQ(std::string(buf, 450), b);
    EXPECT_EQ(read_(p[1], buf, 1), -1);  // wrong ends
    EXPECT_EQ(write_(p[0], buf, 1), -1);
    KStat st;
    EXPECT_EQ(fstat_(p[0], &st), -1);
    ASSERT_EQ(write_(p[1], "xy", 2), 2);
    close_(p[1]);
    EXPECT_EQ(read_(p[0], buf, 10), 2);
    EXPECT_EQ(read_(p[0], buf, 10), 0);  // EOF: empty, no writer
    close_(p[0]);

    ASSERT_EQ(pipe_(p), 0);
    close_(p[0]);
    EXPECT_EQ(write_(p[1], "z", 1), -1);  // no reader
    close_(p[1]);
    int q2[2] = {};
    kfs_args(kfs_ptr(q2));
    ASSERT_EQ(kfs_a0(sys_pipe()), 0);
    const int dupfd = static_cast<int>(dup_(q2[1]));
    close_(q2[1]);
    EXPECT_EQ(write_(dupfd, "k", 1), 1);  // the dup keeps the write end open
    close_(dupfd);
    EXPECT_EQ(read_(q2[0], buf, 5), 1);
    EXPECT_EQ(read_(q2[0], buf, 5), 0);
    close_(q2[0]);
}

namespace {

// The crash and I/O-error tests' workload: mkdir, a multi-transaction
// write, link, unlink, a small file.
void log_workload() {
    mkdir_("d");
    put("d/f", pattern(9000));
    link_("d/f", "g");
    unlink_("d/f");
    put("h", "small");
}

// What a reader may see after log_workload() was cut short anywhere: whole
// transactions only (g a prefix of the content made of whole write chunks,
// h absent, empty or complete).
void expect_whole_transactions(long n) {
    const std::string content = pattern(9000);
    const std::string g = slurp("g");
    if (g != "<missing>") {
        EXPECT_EQ(content.compare(0, g.size(), g), 0) << n;
        EXPECT_TRUE(g.size() == content.size() || g.size() % 3072 == 0) << n << " size " << g.size();
    }
    const std::string h = slurp("h");
    EXPECT_TRUE(h == "<missing>" || h == "" || h == "small") << n;
}

}  // namespace

// Both orders of a batch's requests: a device may complete them in any.
TEST(KfsCrash, EveryCrashPointLeavesAConsistentImage) {
    for (const bool reverse : {false, true}) {
        g_env.reverse_batches = reverse;
        const std::vector<u8> base = kfs_mkfs(1000, 64);
        kfs_boot(base);
        g_env.writes = 0;
        auto workload = log_workload;
        workload();
        const long total = g_env.writes;
        ASSERT_GT(total, 20);
        for (long n = 1; n <= total; n++) {
            kfs_boot(base);
            g_env.writes = 0;
            g_env.crash_after = n;
            workload();
            ASSERT_EQ(g_env.writes, total);
            const std::vector<u8> crashed = g_env.crash_image;
            kfs_boot(crashed);  // recovery replays any committed transaction
            Fsck f(g_env.disk);
            ASSERT_TRUE(f.run()) << "crash after write " << n << ": " << f.problems[0];
            expect_whole_transactions(n);
            // The recovered image keeps working.
            EXPECT_TRUE(put("after", "ok"));
            EXPECT_EQ(slurp("after"), "ok");
        }
    }
    g_env.reverse_batches = false;
}

// A dying disk: every write from the nth on fails (for each n the workload
// reaches). Nothing panics; from the failed commit on every change is
// refused with -1 while reads go on seeing a consistent tree (the group
// that failed included: its blocks are kept in memory); and the disk,
// booted again, is clean and holds whole transactions only.
TEST(KfsIoError, FailedWritesLeaveAConsistentReadOnlySystem) {
    const std::vector<u8> base = kfs_mkfs(1000, 64);
    auto workload = log_workload;
    kfs_boot(base);
    g_env.writes = 0;
    workload();
    const long total = g_env.writes;
    ASSERT_GT(total, 20);
    for (long n = 0; n < total; n++) {
        kfs_boot(base);
        g_env.fail_writes_from = n;
        workload();
        ASSERT_GT(g_env.write_attempts, n) << "no write failed with the disk failing from write " << n;
        EXPECT_EQ(mkdir_("late"), -1) << n;
        EXPECT_EQ(open_("new", kCreate | kRdWr), -1) << n;
        EXPECT_EQ(unlink_("g"), -1) << n;
        EXPECT_EQ(link_("/", "x"), -1) << n;
        const i64 fd = open_("h", kWrOnly);
        if (fd >= 0) {
            EXPECT_EQ(write_(static_cast<int>(fd), "zz", 2), -1) << n;
            close_(static_cast<int>(fd));
        }
        expect_whole_transactions(n);
        const std::vector<u8> disk = g_env.disk;
        kfs_boot(disk);  // a healthy disk again; recovery replays a committed log
        Fsck f(g_env.disk);
        ASSERT_TRUE(f.run()) << "disk failing from write " << n << ": " << f.problems[0];
        expect_whole_transactions(n);
        EXPECT_TRUE(put("after", "ok"));
        EXPECT_EQ(slurp("after"), "ok");
    }
}

}  // namespace kfs_stack_test
