// tests/host/kfs_fifo_test.cc - named pipes and poll on the host stand-in
// kernel (tests/host/kfs_env.cc): the real sys_mkfifo, sys_open on a FIFO
// (kernel/fs/fifo.cc), sys_poll (kernel/fs/poll.cc) against a RAM disk.
// The host is single-threaded, so only opens and polls that do not wait
// run here (O_RDWR, or a peer already open; timeout 0 or something ready);
// the blocking ones are tests/guest/ipc_tests.py's. Every image is checked
// with the real fsck: a FIFO inode never holds data blocks.
//
// lib/abi/abi.h is included first inside a namespace (as kfs_perm_test.cc
// does): gtest pulls in the host's struct stat and POLL* macros.
namespace uabi {
#include "lib/abi/abi.h"
}  // namespace uabi

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "kernel/fs/fs.h"
#include "kernel/proc/proc.h"
#include "tests/host/kfs_calls.h"
#include "tests/host/kfs_env.h"
#include "tools/fscheck.h"

using namespace q;
using namespace kfs_calls;

namespace {

constexpr perm::Cred kRoot{};
constexpr perm::Cred kStudent{1000, 1000, 1000, 1000};

std::string dump(const tools::Report& r) {
    std::string s;
    for (const tools::Finding& f : r.findings) s += std::string(tools::problem_name(f.kind)) + ": " + f.message + "\n";
    return s;
}

class KfsFifo : public ::testing::Test {
  protected:
    void SetUp() override {
        kfs_boot(kfs_mkfs(2000, 200));
        as(kRoot);
    }
    void TearDown() override { as(kRoot); }
    static void as(const perm::Cred& c) { myproc()->cred = c; }

    static tools::Report fsck() { return tools::check_image(tools::Image(kfs_settled(g_env.disk))); }
    static short revents(int fd, short events) {
        uabi::pollfd p{fd, events, 0};
        EXPECT_GE(poll_(&p, 1, 0), 0);
        return p.revents;
    }
    static short stat_type(int fd) {
        uabi::stat st{};
        EXPECT_EQ(fstat_(fd, &st), 0);
        return st.type;
    }
};

TEST_F(KfsFifo, MkfifoMakesATypeFourInodeWithItsMode) {
    ASSERT_EQ(mkfifo_("/f", 0640), 0);
    const int fd = static_cast<int>(open_("/f", kRdWr));
    ASSERT_GE(fd, 0);
    EXPECT_EQ(stat_type(fd), uabi::T_FIFO);
    EXPECT_EQ(close_(fd), 0);
    EXPECT_EQ(mkfifo_("/f", 0640), -1) << "exists";
    EXPECT_EQ(mkfifo_("/no/such/dir/f", 0640), -1);
    EXPECT_EQ(mkfifo_("/g", 010000), -1) << "mode beyond 01777";
    const tools::Report r = fsck();
    EXPECT_TRUE(r.clean()) << dump(r);
}

TEST_F(KfsFifo, BytesPassThroughMemoryNotTheDisk) {
    ASSERT_EQ(mkfifo_("/f", 0644), 0);
    const int rw = static_cast<int>(open_("/f", kRdWr));
    ASSERT_GE(rw, 0);
    const int wr = static_cast<int>(open_("/f", kWrOnly));  // a reader is open: no wait
    const int rd = static_cast<int>(open_("/f", kRdOnly));  // a writer is open: no wait
    ASSERT_GE(wr, 0);
    ASSERT_GE(rd, 0);
    EXPECT_EQ(write_(wr, "hello", 5), 5);
    char buf[16] = {};
    EXPECT_EQ(read_(rd, buf, sizeof buf), 5);
    EXPECT_EQ(std::string(buf, 5), "hello");
    EXPECT_EQ(write_(rw, "abc", 3), 3);
    EXPECT_EQ(read_(rw, buf, sizeof buf), 3);
    for (int fd : {rw, wr, rd}) EXPECT_EQ(close_(fd), 0);
    const tools::Report r = fsck();
    EXPECT_TRUE(r.clean()) << dump(r);
    EXPECT_FALSE(r.has(tools::Problem::FifoHasData));
}

TEST_F(KfsFifo, LastCloseDropsUnreadBytes) {
    ASSERT_EQ(mkfifo_("/f", 0644), 0);
    int fd = static_cast<int>(open_("/f", kRdWr));
    ASSERT_EQ(write_(fd, "left", 4), 4);
    ASSERT_EQ(close_(fd), 0);
    fd = static_cast<int>(open_("/f", kRdWr));
    EXPECT_EQ(revents(fd, uabi::POLLIN | uabi::POLLOUT), uabi::POLLOUT) << "a fresh, empty pipe";
    EXPECT_EQ(close_(fd), 0);
}

TEST_F(KfsFifo, UnlinkWhileOpenKeepsItUntilTheLastClose) {
    ASSERT_EQ(mkfifo_("/f", 0644), 0);
    const int fd = static_cast<int>(open_("/f", kRdWr));
    ASSERT_EQ(unlink_("/f"), 0);
    EXPECT_EQ(open_("/f", kRdWr), -1);
    EXPECT_EQ(write_(fd, "xy", 2), 2);
    char buf[4];
    EXPECT_EQ(read_(fd, buf, 4), 2);
    EXPECT_EQ(close_(fd), 0);
    const tools::Report r = fsck();
    EXPECT_TRUE(r.clean()) << dump(r);
    EXPECT_EQ(r.inodes_used, 1u) << "only / is left";
}

TEST_F(KfsFifo, PermissionsApply) {
    ASSERT_EQ(mkfifo_("/private", 0600), 0);
    ASSERT_EQ(mkdir_("/tmp"), 0);
    kfs_args(kfs_ptr("/tmp"), 0777);
    ASSERT_EQ(kfs_a0(sys_chmod()), 0);
    as(kStudent);
    EXPECT_EQ(open_("/private", kRdWr), -1);
    EXPECT_EQ(open_("/private", kRdOnly), -1);
    EXPECT_EQ(mkfifo_("/mine", 0644), -1) << "no write permission on /";
    EXPECT_EQ(mkfifo_("/tmp/mine", 0600), 0);
    const int fd = static_cast<int>(open_("/tmp/mine", kRdWr));
    EXPECT_GE(fd, 0);
    EXPECT_EQ(close_(fd), 0);
}

TEST_F(KfsFifo, PollReportsPipeStates) {
    int p[2];
    ASSERT_EQ(pipe_(p), 0);
    EXPECT_EQ(revents(p[0], uabi::POLLIN), 0);
    EXPECT_EQ(revents(p[1], uabi::POLLOUT), uabi::POLLOUT);
    ASSERT_EQ(write_(p[1], "z", 1), 1);
    EXPECT_EQ(revents(p[0], uabi::POLLIN), uabi::POLLIN);
    ASSERT_EQ(close_(p[1]), 0);
    EXPECT_EQ(revents(p[0], uabi::POLLIN), uabi::POLLIN | uabi::POLLHUP);
    char c;
    ASSERT_EQ(read_(p[0], &c, 1), 1);
    EXPECT_EQ(revents(p[0], uabi::POLLIN), uabi::POLLHUP);
    ASSERT_EQ(close_(p[0]), 0);
    EXPECT_EQ(revents(p[0], uabi::POLLIN), uabi::POLLNVAL) << "closed descriptor";
    EXPECT_EQ(revents(-1, uabi::POLLIN), 0) << "negative fd: skipped";
}

TEST_F(KfsFifo, PollWriteEndWithNoReaderIsAnError) {
    int p[2];
    ASSERT_EQ(pipe_(p), 0);
    ASSERT_EQ(close_(p[0]), 0);
    EXPECT_EQ(revents(p[1], uabi::POLLOUT), uabi::POLLERR);
    ASSERT_EQ(close_(p[1]), 0);
}

TEST_F(KfsFifo, PollCountsReadyEntriesAndRefusesBadArguments) {
    ASSERT_EQ(open_("/file", kCreate | kRdWr), 0);
    int p[2];
    ASSERT_EQ(pipe_(p), 0);
    uabi::pollfd fds[3] = {{0, uabi::POLLIN, 0}, {p[0], uabi::POLLIN, 0}, {p[1], uabi::POLLOUT, 0}};
    EXPECT_EQ(poll_(fds, 3, 0), 2) << "a regular file is always ready; the empty pipe is not";
    EXPECT_EQ(fds[0].revents, uabi::POLLIN);
    EXPECT_EQ(fds[1].revents, 0);
    EXPECT_EQ(fds[2].revents, uabi::POLLOUT);
    EXPECT_EQ(poll_(fds, -1, 0), -1);
    EXPECT_EQ(poll_(fds, 65, 0), -1) << "more than 64 entries";
    EXPECT_EQ(poll_(reinterpret_cast<void*>(16), 1, 0), -1) << "bad pointer";
    EXPECT_EQ(poll_(nullptr, 0, 0), 0) << "nothing to poll, no wait";
}

}  // namespace
