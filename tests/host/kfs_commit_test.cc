// tests/host/kfs_commit_test.cc - the log's deferred install and batched
// commits (kernel/fs/log.cc), on the host RAM disk of tests/host/kfs_env.cc.
//
// What is checked: a call that returned survives a crash at any later block
// write (durability, not only atomicity), whichever order the device
// completes a commit's two requests in; committed blocks not yet installed
// are read from the cache, and after a reboot from the replayed log; a
// commit costs one round trip of two write requests (group, header) until an
// install; many distinct blocks force installs (pin budget) without losing
// data.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "kernel/fs/fs.h"
#include "kernel/syscall.h"
#include "lib/fs/layout.h"
#include "lib/fs/log_logic.h"
#include "tests/host/kfs_calls.h"
#include "tests/host/kfs_env.h"

using namespace q;
using namespace kfs_calls;

namespace {

i64 write_(int fd, const std::string& s) { return kfs_calls::write_(fd, s.data(), static_cast<int>(s.size())); }

std::string slurp(const std::string& p) {
    const i64 fd = open_(p.c_str(), kRdOnly);
    if (fd < 0) return "<missing>";
    std::string s;
    char buf[700] = {};
    i64 n;
    while (true) {
        kfs_args(fd, kfs_ptr(buf), sizeof buf);
        if ((n = kfs_a0(sys_read())) <= 0) break;
        s.append(buf, static_cast<usize>(n));
    }
    close_(static_cast<int>(fd));
    return s;
}

std::string content(int i, usize n) {
    std::string s(n, '\0');
    for (usize k = 0; k < n; k++) s[k] = static_cast<char>('a' + (k * 5 + usize(i) * 11 + k / 1024) % 26);
    return s;
}

// A workload of single system calls, each a step, with the file system
// model after every step: files f0..f11 created (open), written (one write
// of 1-3 KB), closed, then the even ones unlinked.
struct Step {
    std::function<bool()> call;
    std::map<std::string, std::string> after;  // name -> content; absent = no file
};

std::vector<Step> workload() {
    std::vector<Step> steps;
    std::map<std::string, std::string> model;
    static int fds[12];
    for (int i = 0; i < 12; i++) {
        const std::string name = "f" + std::to_string(i);
        const std::string data = content(i, 1000 + usize(i) * 170);
        model[name] = "";
        steps.push_back(
            {[i, name] { return (fds[i] = static_cast<int>(open_(name.c_str(), kCreate | kWrOnly))) >= 0; }, model});
        model[name] = data;
        steps.push_back({[i, data] { return write_(fds[i], data) == static_cast<i64>(data.size()); }, model});
        steps.push_back({[i] { return close_(fds[i]) == 0; }, model});
    }
    for (int i = 0; i < 12; i += 2) {
        const std::string name = "f" + std::to_string(i);
        model.erase(name);
        steps.push_back({[name] { return unlink_(name.c_str()) == 0; }, model});
    }
    return steps;
}

bool matches(const std::map<std::string, std::string>& model) {
    for (int i = 0; i < 12; i++) {
        const std::string name = "f" + std::to_string(i);
        const auto it = model.find(name);
        if (slurp(name) != (it == model.end() ? "<missing>" : it->second)) return false;
    }
    return true;
}

// The device may complete a commit's two requests in either order: with
// the header first, a crash between them leaves a header whose last group's
// slots are stale, which its checksum must reject.
class KfsCommitOrder : public ::testing::TestWithParam<bool> {
  protected:
    void SetUp() override { g_env.reverse_batches = GetParam(); }
    void TearDown() override { g_env.reverse_batches = false; }
};
INSTANTIATE_TEST_SUITE_P(HeaderLastOrFirst, KfsCommitOrder, ::testing::Values(false, true));

TEST_P(KfsCommitOrder, EveryCallThatReturnedSurvivesACrashAtAnyLaterWrite) {
    const std::vector<u8> base = kfs_mkfs(1000, 64);
    const std::vector<Step> steps = workload();
    kfs_boot(base);
    std::vector<long> done_at;  // block writes when step k had returned
    for (const Step& s : steps) {
        ASSERT_TRUE(s.call());
        done_at.push_back(g_env.writes);
    }
    const long total = g_env.writes;
    ASSERT_GT(log_stats().installs, 0u) << "the workload should fill the log at least once";
    const std::map<std::string, std::string> empty;
    for (long n = 1; n <= total; n++) {
        kfs_boot(base);
        g_env.crash_after = n;
        for (const Step& s : steps) ASSERT_TRUE(s.call());
        const std::vector<u8> crashed = g_env.crash_image;
        usize k = 0;  // steps that had returned before the crash
        while (k < steps.size() && done_at[k] <= n) k++;
        kfs_boot(crashed);
        // Every returned step is there; the one running may have committed too.
        const bool ok = matches(k == 0 ? empty : steps[k - 1].after) || (k < steps.size() && matches(steps[k].after));
        EXPECT_TRUE(ok) << "crash after block write " << n << " of " << total << ": " << k << " calls had returned";
        if (!ok) break;
    }
}

TEST(KfsCommit, CommittedBlocksAreReadBeforeAndAfterInstall) {
    kfs_boot(kfs_mkfs(1000, 64));
    const i64 fd = open_("a", kCreate | kWrOnly);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(write_(static_cast<int>(fd), "hello"), 5);
    close_(static_cast<int>(fd));
    const LogStats st = log_stats();
    ASSERT_EQ(st.installs, 0u);
    ASSERT_GT(st.slots, 0u);
    // The homes on disk do not have "a" yet; the committed log does.
    EXPECT_NE(kfs_settled(g_env.disk), g_env.disk);
    EXPECT_EQ(slurp("a"), "hello");  // from the pinned cache
    const std::vector<u8> settled = kfs_settled(g_env.disk);
    kfs_boot(std::vector<u8>(g_env.disk));  // replay: the homes get the log's blocks, the log empties
    EXPECT_EQ(log_stats().slots, 0u);
    EXPECT_EQ(kfs_settled(g_env.disk), settled);
    EXPECT_EQ(slurp("a"), "hello");
}

// Recovery's two header kinds, on a log holding one committed group (the
// creation of "a" with its data): a header without the magic number (as
// kernels before checksums wrote it) is trusted whole; a checksummed one
// whose slots do not match is a group cut short, not replayed.
std::vector<u8> with_header(const std::vector<u8>& disk, u32 magic, u64 sum) {
    std::vector<u8> out = disk;
    fs::SuperBlock sb;
    std::memcpy(&sb, &out[fs::kBlockSize], sizeof sb);
    fs::LogHeader lh;
    std::memcpy(&lh, &out[usize(sb.logstart) * fs::kBlockSize], sizeof lh);
    EXPECT_GT(lh.n, 0u);
    lh.magic = magic;
    lh.prev = 0;
    lh.sum = sum;
    std::memcpy(&out[usize(sb.logstart) * fs::kBlockSize], &lh, sizeof lh);
    return out;
}

TEST(KfsCommit, RecoveryTrustsOldHeadersAndRejectsAMismatchedGroup) {
    const std::vector<u8> base = kfs_mkfs(1000, 64);
    kfs_boot(base);
    const i64 fd = open_("a", kCreate | kWrOnly);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(write_(static_cast<int>(fd), "data"), 4);
    close_(static_cast<int>(fd));
    ASSERT_EQ(log_stats().installs, 0u);
    ASSERT_EQ(log_stats().commits, 2u);
    // prev = 0 below: both commits' slots count as one (last) group.
    const std::vector<u8> logged = g_env.disk;
    kfs_boot(with_header(logged, 0, 0));
    EXPECT_EQ(slurp("a"), "data");
    kfs_boot(with_header(logged, fs::kLogMagic, 12345));
    EXPECT_EQ(slurp("a"), "<missing>");
}

TEST(KfsCommit, ACommitIsOneRoundTripOfTwoWriteRequestsUntilAnInstall) {
    kfs_boot(kfs_mkfs(1000, 64));
    for (int i = 0; i < 40; i++) {
        const DiskStats before = g_env.stats;
        const LogStats lb = log_stats();
        ASSERT_EQ(mkdir_("d"), 0);
        ASSERT_EQ(unlink_("d"), 0);
        const LogStats la = log_stats();
        const u64 writes = g_env.stats.write_requests - before.write_requests;
        const u64 trips = g_env.stats.round_trips - before.round_trips;
        const u64 reads = g_env.stats.read_requests - before.read_requests;  // one round trip each
        ASSERT_EQ(la.commits - lb.commits, 2u);
        if (la.installs == lb.installs) {
            EXPECT_EQ(writes, 4u) << i;  // group + header, twice
            EXPECT_EQ(trips - reads, 2u) << i;
        } else {
            // An install: one request per distinct block, then the header.
            EXPECT_GT(writes, 5u) << i;
            EXPECT_LE(writes, 5u + fs::kLogPinBudget) << i;
            EXPECT_EQ(trips - reads, 4u) << i;  // two commits, the homes, the cleared header
        }
    }
    EXPECT_GT(log_stats().installs, 0u);
}

TEST(KfsCommit, ManyDistinctBlocksInstallOnThePinBudget) {
    kfs_boot(kfs_mkfs(2000, 64));
    const std::string big = content(7, 120 * 1024);  // 120 data blocks + indirect
    const i64 fd = open_("big", kCreate | kWrOnly);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(write_(static_cast<int>(fd), big), static_cast<i64>(big.size()));
    close_(static_cast<int>(fd));
    EXPECT_GE(log_stats().installs, 120 / fs::kLogPinBudget);
    EXPECT_LE(log_stats().pinned, fs::kLogPinBudget);
    EXPECT_EQ(slurp("big"), big);
    kfs_boot(std::vector<u8>(g_env.disk));
    EXPECT_EQ(slurp("big"), big);
}

}  // namespace
