// tests/host/signal_rules_test.cc - lib/signal/rules.h: default actions,
// the order signals are taken in, and the mask rules (SIGKILL and SIGSTOP
// can be neither blocked nor caught).
#include "lib/signal/rules.h"

#include <gtest/gtest.h>

using namespace q;

TEST(SignalRules, DefaultActions) {
    EXPECT_EQ(sig::default_action(sig::kInt), sig::Default::Terminate);
    EXPECT_EQ(sig::default_action(sig::kSegv), sig::Default::Terminate);
    EXPECT_EQ(sig::default_action(sig::kChld), sig::Default::Ignore);
    EXPECT_EQ(sig::default_action(sig::kCont), sig::Default::Continue);
    EXPECT_EQ(sig::default_action(sig::kStop), sig::Default::Stop);
    EXPECT_EQ(sig::default_action(sig::kTstp), sig::Default::Stop);
}

TEST(SignalRules, KillAndStopCannotBeBlockedOrCaught) {
    EXPECT_EQ(sig::sanitize_mask(~0ull) & sig::bit(sig::kKill), 0u);
    EXPECT_EQ(sig::sanitize_mask(~0ull) & sig::bit(sig::kStop), 0u);
    EXPECT_EQ(sig::sanitize_mask(~0ull) & 1u, 0u);  // bit 0 is no signal
    EXPECT_NE(sig::sanitize_mask(~0ull) & sig::bit(sig::kInt), 0u);
    EXPECT_FALSE(sig::may_set_action(sig::kKill));
    EXPECT_FALSE(sig::may_set_action(sig::kStop));
    EXPECT_FALSE(sig::may_set_action(0));
    EXPECT_FALSE(sig::may_set_action(32));
    EXPECT_TRUE(sig::may_set_action(sig::kUsr1));
    u64 m = 0;
    ASSERT_TRUE(sig::apply_how(sig::kSetMask, 0, ~0ull, &m));
    EXPECT_EQ(m & sig::bit(sig::kKill), 0u);
}

TEST(SignalRules, NextTakesKillFirstThenLowest) {
    EXPECT_EQ(sig::next(0, 0), 0);
    EXPECT_EQ(sig::next(sig::bit(sig::kUsr2) | sig::bit(sig::kUsr1), 0), sig::kUsr1);
    EXPECT_EQ(sig::next(sig::bit(sig::kInt) | sig::bit(sig::kKill), 0), sig::kKill);
    EXPECT_EQ(sig::next(sig::bit(sig::kUsr1), sig::bit(sig::kUsr1)), 0);
    // a blocked mask that claims SIGKILL does not hold it back
    EXPECT_EQ(sig::next(sig::bit(sig::kKill), ~0ull), sig::kKill);
    EXPECT_EQ(sig::next(1, 0), 0);  // bit 0 is ignored
}

TEST(SignalRules, ApplyHow) {
    u64 m = 0;
    ASSERT_TRUE(sig::apply_how(sig::kBlock, sig::bit(1), sig::bit(2), &m));
    EXPECT_EQ(m, sig::bit(1) | sig::bit(2));
    ASSERT_TRUE(sig::apply_how(sig::kUnblock, m, sig::bit(1), &m));
    EXPECT_EQ(m, sig::bit(2));
    EXPECT_FALSE(sig::apply_how(7, 0, 0, &m));
    EXPECT_FALSE(sig::apply_how(-1, 0, 0, &m));
}

TEST(SignalRules, DiscardOnSend) {
    EXPECT_TRUE(sig::discard_on_send(sig::kChld, sig::kDfl));
    EXPECT_FALSE(sig::discard_on_send(sig::kTerm, sig::kDfl));
    EXPECT_TRUE(sig::discard_on_send(sig::kTerm, sig::kIgn));
    EXPECT_FALSE(sig::discard_on_send(sig::kKill, sig::kIgn));
    EXPECT_FALSE(sig::discard_on_send(sig::kChld, 0x1000));
}

// Stop signals stay pending with their default (the process stops when it
// takes one); SIGCONT's default acts at the send and is not kept; SIGSTOP
// is kept even if (impossibly) marked ignored.
TEST(SignalRules, StopAndContinue) {
    EXPECT_FALSE(sig::discard_on_send(sig::kTstp, sig::kDfl));
    EXPECT_FALSE(sig::discard_on_send(sig::kTtin, sig::kDfl));
    EXPECT_FALSE(sig::discard_on_send(sig::kStop, sig::kIgn));
    EXPECT_TRUE(sig::discard_on_send(sig::kTstp, sig::kIgn));
    EXPECT_TRUE(sig::discard_on_send(sig::kCont, sig::kDfl));
    EXPECT_FALSE(sig::discard_on_send(sig::kCont, 0x1000));
    EXPECT_TRUE(sig::stops(sig::kStop) && sig::stops(sig::kTtou));
    EXPECT_FALSE(sig::stops(sig::kCont) || sig::stops(sig::kInt) || sig::stops(0) || sig::stops(40));
    EXPECT_EQ(sig::cancels(sig::kCont), sig::kStopSet);
    EXPECT_EQ(sig::cancels(sig::kTstp), sig::bit(sig::kCont));
    EXPECT_EQ(sig::cancels(sig::kUsr1), 0u);
}

// Linux's status words: what WIFEXITED/WEXITSTATUS, WIFSIGNALED/WTERMSIG,
// WIFSTOPPED/WSTOPSIG and WIFCONTINUED decode.
TEST(SignalRules, WaitStatusEncoding) {
    EXPECT_EQ(sig::status_exited(3), 0x300);
    EXPECT_EQ(sig::status_exited(-1), 0xff00);  // exit(-1): WEXITSTATUS 255
    EXPECT_EQ(sig::status_signaled(sig::kKill), 9);
    EXPECT_EQ(sig::status_stopped(sig::kTstp), 0x147f);
    EXPECT_EQ(sig::kStatusContinued, 0xffff);
}

TEST(SignalRules, WaitMatches) {
    EXPECT_TRUE(sig::wait_matches(5, 5, 9, 1));
    EXPECT_FALSE(sig::wait_matches(5, 6, 9, 1));
    EXPECT_TRUE(sig::wait_matches(-1, 6, 9, 1));
    EXPECT_TRUE(sig::wait_matches(0, 6, 1, 1));
    EXPECT_FALSE(sig::wait_matches(0, 6, 9, 1));
    EXPECT_TRUE(sig::wait_matches(-9, 6, 9, 1));
    EXPECT_FALSE(sig::wait_matches(-9, 6, 8, 1));
    EXPECT_TRUE(sig::valid_wait_options(sig::kWnohang | sig::kWuntraced | sig::kWcontinued));
    EXPECT_FALSE(sig::valid_wait_options(4));
}

// SA_ONSTACK: the alternate stack's top, unless there is none or the
// thread is on it already (a nested handler stays where it is).
TEST(SignalRules, AlternateStack) {
    const u64 alt = 0x10000, size = 0x2000;
    EXPECT_EQ(sig::frame_base(0x80000, sig::kSaOnstack, alt, size), alt + size);
    EXPECT_EQ(sig::frame_base(0x80000, 0, alt, size), 0x80000u);                       // not asked for
    EXPECT_EQ(sig::frame_base(0x80000, sig::kSaOnstack, 0, 0), 0x80000u);              // none
    EXPECT_EQ(sig::frame_base(alt + 0x100, sig::kSaOnstack, alt, size), alt + 0x100);  // on it
    EXPECT_TRUE(sig::on_alt_stack(alt + size, alt, size));
    EXPECT_FALSE(sig::on_alt_stack(alt, alt, size));
    EXPECT_FALSE(sig::on_alt_stack(alt + size + 8, alt, size));
}
