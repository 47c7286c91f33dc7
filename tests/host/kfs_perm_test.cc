// tests/host/kfs_perm_test.cc - users and file protection on the host.
//
// Three layers: the pure rules of lib/fs/perm.h (every decision the kernel
// makes about credentials); the /etc/passwd parser and mode string of
// lib/abi/users.h (what su, id, ls and ps use); and the real kernel/fs
// system calls against a RAM disk (tests/host/kfs_env.cc) run as an
// ordinary user, checking that each refused call returns -1 and leaves the
// disk exactly as it was, and that root and owners may do what they should.
//
// lib/abi/users.h (with abi.h) is included first and inside a namespace, as
// in fs_compat_test.cc: gtest pulls in the host's struct stat and SYS_ macros.
namespace uabi {
#include "lib/abi/users.h"
}  // namespace uabi

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "kernel/fs/fs.h"
#include "kernel/proc/proc.h"
#include "kernel/syscall.h"
#include "lib/fs/perm.h"
#include "tests/host/kfs_env.h"

// The binary's test files compile as one unit (mk/tests.mk's host_test):
// this file's names stay in its own namespace.
namespace kfs_perm_test {

using namespace q;
using uabi::mode_string;
using uabi::pw_parse;
using uabi::pwent;
using XStat = uabi::xstat;
using uabi::PW_PATH_MAX;
using uabi::T_DEVICE;
using uabi::T_DIR;
using uabi::T_FILE;

namespace {

// ---- lib/fs/perm.h ----------------------------------------------------------

constexpr perm::Cred kRoot{};
constexpr perm::Cred kStudent{1000, 1000, 1000, 1000};
constexpr perm::Cred kOther{1001, 1001, 1001, 1001};
constexpr perm::Cred kGroupmate{1002, 1002, 1000, 1000};  // in student's group

constexpr perm::Owner file(u32 uid, u32 gid, u16 mode) { return perm::Owner{uid, gid, mode, false}; }
constexpr perm::Owner dir(u32 uid, u32 gid, u16 mode) { return perm::Owner{uid, gid, mode, true}; }

TEST(Perm, OwnerGroupOthersPickOneClass) {
    const perm::Owner f = file(1000, 1000, 0640);
    EXPECT_TRUE(perm::may_access(kStudent, f, perm::kRead | perm::kWrite));
    EXPECT_FALSE(perm::may_access(kStudent, f, perm::kExec));
    EXPECT_TRUE(perm::may_access(kGroupmate, f, perm::kRead));
    EXPECT_FALSE(perm::may_access(kGroupmate, f, perm::kWrite));
    EXPECT_FALSE(perm::may_access(kOther, f, perm::kRead));
    // The owner's bits apply to the owner even when others have more.
    const perm::Owner g = file(1000, 1000, 0077);
    EXPECT_FALSE(perm::may_access(kStudent, g, perm::kRead));
    EXPECT_TRUE(perm::may_access(kOther, g, perm::kRead));
    EXPECT_TRUE(perm::may_access(kStudent, g, 0));  // asking for nothing is always allowed
}

TEST(Perm, RootReadsAndWritesAnythingButExecutesOnlyExecutables) {
    EXPECT_TRUE(perm::may_access(kRoot, file(1000, 1000, 0), perm::kRead | perm::kWrite));
    EXPECT_FALSE(perm::may_access(kRoot, file(1000, 1000, 0644), perm::kExec));
    EXPECT_TRUE(perm::may_access(kRoot, file(1000, 1000, 0001), perm::kExec));
    EXPECT_TRUE(perm::may_access(kRoot, dir(1000, 1000, 0), perm::kExec));
}

TEST(Perm, StickyDirectoryProtectsOthersFiles) {
    const perm::Owner tmp = dir(0, 0, perm::kSticky | 0777);
    EXPECT_TRUE(perm::may_modify_dir(kStudent, tmp));
    EXPECT_TRUE(perm::may_unlink_from(kStudent, tmp, file(1000, 1000, 0644)));
    EXPECT_FALSE(perm::may_unlink_from(kOther, tmp, file(1000, 1000, 0666)));
    EXPECT_TRUE(perm::may_unlink_from(kRoot, tmp, file(1000, 1000, 0644)));
    // The directory's owner may remove anything in it.
    EXPECT_TRUE(perm::may_unlink_from(kStudent, dir(1000, 1000, perm::kSticky | 0777), file(1001, 1001, 0644)));
    // Without the sticky bit, w+x on the directory is enough.
    EXPECT_TRUE(perm::may_unlink_from(kOther, dir(0, 0, 0777), file(1000, 1000, 0600)));
    EXPECT_FALSE(perm::may_unlink_from(kOther, dir(0, 0, 0755), file(1001, 1001, 0600)));
}

TEST(Perm, ChmodIsTheOwnersAndRootsAndKeepsToTwelveBits) {
    EXPECT_TRUE(perm::may_chmod(kStudent, file(1000, 1000, 0644), 0600));
    EXPECT_FALSE(perm::may_chmod(kOther, file(1000, 1000, 0666), 0600));
    EXPECT_TRUE(perm::may_chmod(kRoot, file(1000, 1000, 0644), 01777));
    EXPECT_FALSE(perm::may_chmod(kRoot, file(0, 0, 0644), 02000));  // no setgid/setuid bits
    EXPECT_FALSE(perm::may_chmod(kRoot, file(0, 0, 0644), 0xffffffffu));
}

TEST(Perm, ChownGivesAwayOnlyAsRoot) {
    const perm::Owner f = file(1000, 1000, 0644);
    EXPECT_TRUE(perm::may_chown(kRoot, f, 1001, 1001));
    EXPECT_FALSE(perm::may_chown(kStudent, f, 1001, perm::kKeep));
    EXPECT_FALSE(perm::may_chown(kStudent, f, perm::kKeep, 0));          // a group not theirs
    EXPECT_TRUE(perm::may_chown(kStudent, f, perm::kKeep, 1000));        // their own group
    EXPECT_TRUE(perm::may_chown(kStudent, f, 1000, perm::kKeep));        // to themselves: a no-op
    EXPECT_FALSE(perm::may_chown(kOther, f, perm::kKeep, perm::kKeep));  // not the owner at all
    EXPECT_TRUE(perm::may_chown(kGroupmate, file(1002, 7, 0644), perm::kKeep, 1000));
}

TEST(Perm, SetuidFollowsUnixRules) {
    perm::Cred c = kRoot;
    EXPECT_TRUE(perm::apply_setgid(c, 1000));
    EXPECT_TRUE(perm::apply_setuid(c, 1000));
    EXPECT_EQ(c.uid, 1000u);
    EXPECT_EQ(c.euid, 1000u);
    EXPECT_EQ(c.egid, 1000u);
    // Once ordinary, there is no way back and no way sideways.
    EXPECT_FALSE(perm::apply_setuid(c, 0));
    EXPECT_FALSE(perm::apply_setuid(c, 1001));
    EXPECT_FALSE(perm::apply_setgid(c, 0));
    EXPECT_TRUE(perm::apply_setuid(c, 1000));  // to oneself: allowed, nothing changes
    EXPECT_EQ(c.uid, 1000u);
    perm::Cred d = kRoot;
    EXPECT_FALSE(perm::apply_setuid(d, perm::kKeep));  // -1 is not an id
    EXPECT_EQ(d.euid, 0u);
}

TEST(Perm, SchedulingPrivilegeIsLinuxs) {
    EXPECT_TRUE(perm::may_renice(kStudent, 1000, 0, 5));   // raise own
    EXPECT_FALSE(perm::may_renice(kStudent, 1000, 5, 0));  // lower own
    EXPECT_FALSE(perm::may_renice(kStudent, 1000, 5, 4));  // even by one
    EXPECT_FALSE(perm::may_renice(kStudent, 0, 0, 5));     // someone else's (init)
    EXPECT_TRUE(perm::may_renice(kRoot, 1000, 5, -20));    // root: anything
    EXPECT_TRUE(perm::may_touch_process(kStudent, 1000));
    EXPECT_FALSE(perm::may_touch_process(kStudent, 0));
    EXPECT_TRUE(perm::may_admin(kRoot));
    EXPECT_FALSE(perm::may_admin(kStudent));
}

// ---- lib/abi/users.h ---------------------------------------------------------

TEST(Passwd, ParsesWellFormedLines) {
    pwent e;
    ASSERT_TRUE(pw_parse("student:1000:1000:/home/student:/sh\n", &e));
    EXPECT_STREQ(e.name, "student");
    EXPECT_EQ(e.uid, 1000u);
    EXPECT_EQ(e.gid, 1000u);
    EXPECT_STREQ(e.home, "/home/student");
    EXPECT_STREQ(e.shell, "/sh");
    ASSERT_TRUE(pw_parse("root:0:0:/:/sh", &e));  // no newline at the end
    EXPECT_EQ(e.uid, 0u);
    ASSERT_TRUE(pw_parse("x:1:2::", &e));  // empty home and shell
    EXPECT_STREQ(e.home, "");
}

TEST(Passwd, RefusesMalformedLines) {
    pwent e;
    for (const char* bad :
         {"", "\n", ":0:0:/:/sh", "a:0:0:/", "a:0:0:/:/sh:extra", "a:x:0:/:/sh", "a:0:-1:/:/sh", "a::0:/:/sh",
          "a:99999999999:0:/:/sh", "a:2147483648:0:/:/sh", "averyveryverylongname:0:0:/:/sh", "a:0:0 :/:/sh"})
        EXPECT_FALSE(pw_parse(bad, &e)) << bad;
    const std::string long_home = "a:0:0:/" + std::string(PW_PATH_MAX, 'h') + ":/sh";
    EXPECT_FALSE(pw_parse(long_home.c_str(), &e));
}

TEST(Passwd, ModeStringAsLsShowsIt) {
    char out[11];
    mode_string(T_DIR, 0755, out);
    EXPECT_STREQ(out, "drwxr-xr-x");
    mode_string(T_FILE, 0600, out);
    EXPECT_STREQ(out, "-rw-------");
    mode_string(T_DIR, 01777, out);
    EXPECT_STREQ(out, "drwxrwxrwt");
    mode_string(T_DIR, 01776, out);
    EXPECT_STREQ(out, "drwxrwxrwT");
    mode_string(T_DEVICE, 0666, out);
    EXPECT_STREQ(out, "crw-rw-rw-");
}

// ---- kernel/fs, as an ordinary user -------------------------------------------

// ABI values under other names (gtest pulls in the host's fcntl.h).
constexpr int kRdOnly = 0x000, kWrOnly = 0x001, kRdWr = 0x002, kCreate = 0x200, kTrunc = 0x400;

class KfsPerm : public ::testing::Test {
  protected:
    void SetUp() override {
        kfs_boot(kfs_mkfs(600, 64));
        as(kRoot);
        // As root: a secret, a shared file, student's home, a sticky /tmp.
        ASSERT_EQ(write_file("/secret", "root only"), 0);
        ASSERT_EQ(chmod_("/secret", 0600), 0);
        ASSERT_EQ(write_file("/shared", "everyone reads"), 0);
        ASSERT_EQ(mkdir_("/home"), 0);
        ASSERT_EQ(mkdir_("/home/student"), 0);
        ASSERT_EQ(chown_("/home/student", 1000, 1000), 0);
        ASSERT_EQ(mkdir_("/tmp"), 0);
        ASSERT_EQ(chmod_("/tmp", perm::kSticky | 0777), 0);
        ASSERT_EQ(mkdir_("/locked"), 0);
        ASSERT_EQ(write_file("/locked/inside", "x"), 0);
        ASSERT_EQ(chmod_("/locked", 0700), 0);
    }
    void TearDown() override { as(kRoot); }

    static void as(const perm::Cred& c) { myproc()->cred = c; }

    static i64 open_(const char* p, int mode) {
        kfs_args(kfs_ptr(p), mode);
        return kfs_a0(sys_open());
    }
    static i64 close_(int fd) {
        kfs_args(fd);
        return kfs_a0(sys_close());
    }
    static i64 mkdir_(const char* p) {
        kfs_args(kfs_ptr(p));
        return kfs_a0(sys_mkdir());
    }
    static i64 unlink_(const char* p) {
        kfs_args(kfs_ptr(p));
        return kfs_a0(sys_unlink());
    }
    static i64 link_(const char* a, const char* b) {
        kfs_args(kfs_ptr(a), kfs_ptr(b));
        return kfs_a0(sys_link());
    }
    static i64 chdir_(const char* p) {
        kfs_args(kfs_ptr(p));
        return kfs_a0(sys_chdir());
    }
    static i64 chmod_(const char* p, u32 mode) {
        kfs_args(kfs_ptr(p), mode);
        return kfs_a0(sys_chmod());
    }
    static i64 chown_(const char* p, int uid, int gid) {
        kfs_args(kfs_ptr(p), static_cast<u64>(static_cast<i64>(uid)), static_cast<u64>(static_cast<i64>(gid)));
        return kfs_a0(sys_chown());
    }
    static i64 mknod_(const char* p) {
        kfs_args(kfs_ptr(p), 1, 0);
        return kfs_a0(sys_mknod());
    }
    static i64 xstat_(const char* p, XStat* st) {
        kfs_args(kfs_ptr(p), kfs_ptr(st));
        return kfs_a0(sys_xstat());
    }
    static i64 write_file(const char* p, const char* text) {
        const i64 fd = open_(p, kCreate | kWrOnly);
        if (fd < 0) return -1;
        kfs_args(fd, kfs_ptr(text), std::strlen(text));
        const i64 n = kfs_a0(sys_write());
        close_(static_cast<int>(fd));
        return n == static_cast<i64>(std::strlen(text)) ? 0 : -1;
    }
    static std::string read_file(const char* p) {
        const i64 fd = open_(p, kRdOnly);
        if (fd < 0) return "<cannot open>";
        char buf[64] = {};
        kfs_args(fd, kfs_ptr(buf), sizeof buf - 1);
        const i64 n = kfs_a0(sys_read());
        close_(static_cast<int>(fd));
        return n < 0 ? "<cannot read>" : std::string(buf, static_cast<size_t>(n));
    }
};

TEST_F(KfsPerm, NewFilesBelongToTheirCreator) {
    XStat st{};
    ASSERT_EQ(xstat_("/secret", &st), 0);
    EXPECT_EQ(st.uid, 0u);
    EXPECT_EQ(st.mode, 0600);
    as(kStudent);
    ASSERT_EQ(write_file("/home/student/notes", "mine"), 0);
    ASSERT_EQ(mkdir_("/home/student/sub"), 0);
    ASSERT_EQ(xstat_("/home/student/notes", &st), 0);
    EXPECT_EQ(st.uid, 1000u);
    EXPECT_EQ(st.gid, 1000u);
    EXPECT_EQ(st.mode, perm::kFileMode);
    ASSERT_EQ(xstat_("/home/student/sub", &st), 0);
    EXPECT_EQ(st.mode, perm::kDirMode);
    EXPECT_EQ(st.type, 1);
}

TEST_F(KfsPerm, EveryRefusalReturnsMinusOneAndChangesNothing) {
    // Compared as the file system it holds (log replayed, log area left
    // out): a refused link logs the inode it put back as it was.
    const std::vector<u8> before = kfs_settled(g_env.disk);
    as(kStudent);
    EXPECT_EQ(open_("/secret", kRdOnly), -1);           // 0600 root file
    EXPECT_EQ(open_("/shared", kWrOnly), -1);           // 0644: read only for others
    EXPECT_EQ(open_("/shared", kRdOnly | kTrunc), -1);  // truncating is writing
    EXPECT_EQ(open_("/new", kCreate | kRdWr), -1);      // root-owned 0755 directory
    EXPECT_EQ(mkdir_("/newdir"), -1);
    EXPECT_EQ(mknod_("/home/student/dev"), -1);  // device files are root's, even at home
    EXPECT_EQ(unlink_("/shared"), -1);
    EXPECT_EQ(link_("/shared", "/shared2"), -1);
    EXPECT_EQ(chmod_("/shared", 0666), -1);
    EXPECT_EQ(chown_("/shared", 1000, 1000), -1);
    EXPECT_EQ(chdir_("/locked"), -1);                 // 0700: no search
    EXPECT_EQ(open_("/locked/inside", kRdOnly), -1);  // nor through it
    XStat st{};
    EXPECT_EQ(xstat_("/locked/inside", &st), -1);
    EXPECT_EQ(read_file("/secret"), "<cannot open>");
    EXPECT_TRUE(kfs_settled(g_env.disk) == before) << "a refused call changed the file system";
}

// Linux's protected_hardlinks: a student cannot link a file they do not
// own and cannot write (/etc/passwd, a root 0644 file) into sticky /tmp,
// where they could then keep it alive; their own files, and files they may
// read and write, they can link. Root links anything.
TEST_F(KfsPerm, HardLinksNeedOwnershipOrReadWriteAccess) {
    ASSERT_EQ(write_file("/open", "everyone writes"), 0);
    ASSERT_EQ(chmod_("/open", 0666), 0);
    const std::vector<u8> before = kfs_settled(g_env.disk);
    as(kStudent);
    EXPECT_EQ(link_("/shared", "/tmp/pinned"), -1);  // root's 0644: readable, not writable
    EXPECT_EQ(link_("/secret", "/tmp/pinned"), -1);  // root's 0600
    EXPECT_TRUE(kfs_settled(g_env.disk) == before) << "a refused link changed the file system";
    EXPECT_EQ(link_("/open", "/tmp/o2"), 0);  // read and write: allowed, as on Linux
    ASSERT_EQ(write_file("/tmp/mine", "student's"), 0);
    EXPECT_EQ(chmod_("/tmp/mine", 0400), 0);
    EXPECT_EQ(link_("/tmp/mine", "/tmp/mine2"), 0);  // the owner links even a read-only file
    EXPECT_EQ(read_file("/tmp/mine2"), "student's");
    as(kRoot);
    EXPECT_EQ(link_("/secret", "/tmp/root-link"), 0);
    EXPECT_EQ(mknod_("/tmp/console"), 0);  // a device: even 0666 is not a regular file
    EXPECT_EQ(chmod_("/tmp/console", 0666), 0);
    as(kStudent);
    EXPECT_EQ(link_("/tmp/console", "/tmp/c2"), -1);
}

TEST_F(KfsPerm, OrdinaryUsersMayWorkAtHomeAndInTmp) {
    as(kStudent);
    EXPECT_EQ(read_file("/shared"), "everyone reads");
    ASSERT_EQ(chdir_("/home/student"), 0);
    ASSERT_EQ(write_file("notes", "mine"), 0);
    EXPECT_EQ(link_("notes", "notes2"), 0);
    EXPECT_EQ(chmod_("notes", 0600), 0);
    EXPECT_EQ(chown_("notes", -1, 1000), 0);
    EXPECT_EQ(unlink_("notes2"), 0);
    EXPECT_EQ(write_file("/tmp/s", "student's"), 0);
    // Another user may not remove it from the sticky /tmp, nor read a 0600 file.
    EXPECT_EQ(chmod_("/tmp/s", 0600), 0);
    as(kOther);
    EXPECT_EQ(unlink_("/tmp/s"), -1);
    EXPECT_EQ(read_file("/tmp/s"), "<cannot open>");
    EXPECT_EQ(write_file("/tmp/o", "other's"), 0);
    as(kStudent);
    EXPECT_EQ(unlink_("/tmp/o"), -1);
    EXPECT_EQ(unlink_("/tmp/s"), 0);
    EXPECT_EQ(chdir_("/"), 0);
}

TEST_F(KfsPerm, RootMayDoItAll) {
    EXPECT_EQ(read_file("/secret"), "root only");
    EXPECT_EQ(read_file("/locked/inside"), "x");
    EXPECT_EQ(chown_("/shared", 1000, 1000), 0);
    XStat st{};
    ASSERT_EQ(xstat_("/shared", &st), 0);
    EXPECT_EQ(st.uid, 1000u);
    EXPECT_EQ(st.gid, 1000u);
    EXPECT_EQ(chown_("/shared", -1, 0), 0);  // -1 keeps the owner
    ASSERT_EQ(xstat_("/shared", &st), 0);
    EXPECT_EQ(st.uid, 1000u);
    EXPECT_EQ(st.gid, 0u);
    EXPECT_EQ(chmod_("/shared", 02000), -1);  // no setuid/setgid bits in quanta
    EXPECT_EQ(unlink_("/locked/inside"), 0);
    EXPECT_EQ(mknod_("/dev0"), 0);
}

TEST_F(KfsPerm, OwnerAndModeSurviveARemount) {
    ASSERT_EQ(chown_("/shared", 1000, 1000), 0);
    ASSERT_EQ(chmod_("/shared", 0640), 0);
    kfs_boot(g_env.disk);
    XStat st{};
    ASSERT_EQ(xstat_("/shared", &st), 0);
    EXPECT_EQ(st.uid, 1000u);
    EXPECT_EQ(st.mode, 0640);
    as(kGroupmate);
    EXPECT_EQ(read_file("/shared"), "everyone reads");
    as(kOther);
    EXPECT_EQ(read_file("/shared"), "<cannot open>");
}

}  // namespace

}  // namespace kfs_perm_test
