// tests/host/oom_rule_test.cc - the out-of-memory rule's decisions
// (lib/oom.h): what is admitted, when memory counts as exhausted, and whom
// the rule may kill for which caller (issue 24's finding 2: a student's
// exec of an image larger than RAM killed root's 20 MiB process).
#include <gtest/gtest.h>

#include "lib/oom.h"

// The binary's test files compile as one unit (mk/tests.mk's host_test):
// this file's names stay in its own namespace.
namespace oom_rule_test {

using q::u64;
using q::oom::admit;
using q::oom::admit_promise;
using q::oom::beats;
using q::oom::Candidate;
using q::oom::exhausted;
using q::oom::low_water;
using q::oom::Verdict;
using q::perm::Cred;

namespace {

constexpr u64 kRam = 32000;  // pages: about 128 MiB
constexpr Cred kRoot{};
constexpr Cred kStudent{1000, 1000, 1000, 1000};

TEST(OomRule, LargerThanRamIsImpossibleWhateverIsFree) {
    EXPECT_EQ(admit(kRam + 1, kRam + 1, kRam, kRam), Verdict::Impossible);
    EXPECT_EQ(admit(10, kRam + 1, kRam, kRam), Verdict::Impossible);  // the image as a whole
    EXPECT_EQ(admit(~u64{0}, ~u64{0}, 0, kRam), Verdict::Impossible);
}

TEST(OomRule, MoreThanFreeIsShortAndAtMostFreeIsAdmitted) {
    EXPECT_EQ(admit(101, 101, 100, kRam), Verdict::Short);
    EXPECT_EQ(admit(100, 100, 100, kRam), Verdict::Admit);
    EXPECT_EQ(admit(0, 5, 0, kRam), Verdict::Admit);
    EXPECT_EQ(admit(kRam, kRam, kRam, kRam), Verdict::Admit);
}

// The allocator's form (kalloc_admit_reserve): what is free is what backs
// promises less what is promised.
TEST(OomRule, APromiseIsAdmittedAgainstWhatIsNotPromisedYet) {
    EXPECT_EQ(admit_promise(100, 100, 500, 400, kRam), Verdict::Admit);
    EXPECT_EQ(admit_promise(101, 101, 500, 400, kRam), Verdict::Short);
    EXPECT_EQ(admit_promise(0, 0, 500, 500, kRam), Verdict::Admit);
    EXPECT_EQ(admit_promise(kRam + 1, kRam + 1, kRam, 0, kRam), Verdict::Impossible);
}

// Two promises of 60% each, admitted one after the other against the same
// memory (as under kalloc's lock): the second sees the first's promise.
TEST(OomRule, TwoPromisesOfTheSamePagesAreNotBothAdmitted) {
    const u64 have = 31000, want = have * 3 / 5;
    u64 promised = 0;
    ASSERT_EQ(admit_promise(want, want, have, promised, kRam), Verdict::Admit);
    promised += want;
    EXPECT_EQ(admit_promise(want, want, have, promised, kRam), Verdict::Short);
}

// More promised than backed (a fork's copy-on-write pages, promised as it
// went): nothing more, not even a promise of 0 pages, until it is undone.
TEST(OomRule, NothingIsAdmittedWhileOverPromised) {
    EXPECT_EQ(admit_promise(0, 10, 500, 501, kRam), Verdict::Short);
    EXPECT_EQ(admit_promise(1, 10, 500, 501, kRam), Verdict::Short);
    EXPECT_EQ(admit_promise(0, 10, 500, 500, kRam), Verdict::Admit);
}

TEST(OomRule, ExhaustedOnlyBelowTheLowWatermark) {
    EXPECT_EQ(low_water(kRam), 250u);
    EXPECT_EQ(low_water(1000), 64u);  // a small machine keeps 64 pages
    EXPECT_TRUE(exhausted(249, kRam));
    EXPECT_FALSE(exhausted(250, kRam));
    // The reproducer: 27,599 pages free when the student's exec failed.
    EXPECT_FALSE(exhausted(27599, kRam));
}

TEST(OomRule, AStudentNeverGetsAnotherUsersProcessKilled) {
    EXPECT_FALSE(beats(kStudent, 10, Candidate{0, 5124}, 0));     // root's holder
    EXPECT_FALSE(beats(kStudent, 10, Candidate{1001, 5124}, 0));  // another user's
    EXPECT_TRUE(beats(kStudent, 10, Candidate{1000, 5124}, 0));   // the student's own
}

TEST(OomRule, RootMayPickAnyUsersProcess) {
    EXPECT_TRUE(beats(kRoot, 10, Candidate{1000, 5124}, 0));
    EXPECT_TRUE(beats(kRoot, 10, Candidate{0, 5124}, 0));
}

TEST(OomRule, TheBiggestWinsAndMustHoldMoreThanTheCaller) {
    EXPECT_FALSE(beats(kRoot, 10, Candidate{1000, 500}, 600));  // smaller than the best so far
    EXPECT_FALSE(beats(kRoot, 10, Candidate{1000, 600}, 600));  // ties keep the first
    EXPECT_TRUE(beats(kRoot, 10, Candidate{1000, 601}, 600));
    // A caller that is itself the hog gets -1; the shell it outgrew lives.
    EXPECT_FALSE(beats(kRoot, 30000, Candidate{0, 40}, 0));
}

TEST(OomRule, RealUidCountsAsForKill) {
    // A process that set only its effective uid is still its starter's.
    const Cred su_like{1000, 0, 1000, 1000};
    EXPECT_TRUE(beats(su_like, 1, Candidate{0, 100}, 0));  // euid 0 is root: may_touch_process
    const Cred half{1000, 1001, 1000, 1000};
    EXPECT_TRUE(beats(half, 1, Candidate{1000, 100}, 0));
    EXPECT_TRUE(beats(half, 1, Candidate{1001, 100}, 0));
    EXPECT_FALSE(beats(half, 1, Candidate{1002, 100}, 0));
}

}  // namespace

}  // namespace oom_rule_test
