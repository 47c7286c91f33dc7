// tests/host/signal_jobs_test.cc - lib/signal/jobs.h: who may setpgid and
// setsid, who reads the console and who may take it (tcsetpgrp), and the
// console's control characters.
#include "lib/signal/jobs.h"

#include <gtest/gtest.h>

using namespace q;
using jobs::Access;
using jobs::Verdict;

namespace {
jobs::SetpgidFacts facts(bool found, bool same, bool leads, bool own, bool exists, bool may_join) {
    jobs::SetpgidFacts f;
    f.target_found = found;
    f.same_session = same;
    f.target_leads_session = leads;
    f.own_group = own;
    f.group_in_session = exists;
    f.may_join = may_join;
    return f;
}
jobs::TtyFacts tty(bool in_session, bool fg, bool dropped) {
    jobs::TtyFacts f;
    f.in_session = in_session;
    f.foreground = fg;
    f.sig_dropped = dropped;
    return f;
}
}  // namespace

TEST(SignalJobs, SetpgidOwnGroupAndJoin) {
    EXPECT_EQ(jobs::setpgid_rule(7, facts(true, true, false, true, false, false)), Verdict::Ok);
    EXPECT_EQ(jobs::setpgid_rule(5, facts(true, true, false, false, true, true)), Verdict::Ok);
}

TEST(SignalJobs, SetpgidRefusals) {
    EXPECT_EQ(jobs::setpgid_rule(-1, facts(true, true, false, true, true, true)), Verdict::BadArgument);
    EXPECT_EQ(jobs::setpgid_rule(5, facts(false, true, false, false, true, true)), Verdict::NoProcess);
    // another session, a session leader, a group nobody has
    EXPECT_EQ(jobs::setpgid_rule(5, facts(true, false, false, false, true, true)), Verdict::Permission);
    EXPECT_EQ(jobs::setpgid_rule(5, facts(true, true, true, true, true, true)), Verdict::Permission);
    EXPECT_EQ(jobs::setpgid_rule(5, facts(true, true, false, false, false, true)), Verdict::Permission);
    // a student joining root's group
    EXPECT_EQ(jobs::setpgid_rule(5, facts(true, true, false, false, true, false)), Verdict::Permission);
}

TEST(SignalJobs, SetsidOnlyForNonLeaders) {
    EXPECT_EQ(jobs::setsid_rule(false), Verdict::Ok);
    EXPECT_EQ(jobs::setsid_rule(true), Verdict::Permission);
}

TEST(SignalJobs, ConsoleRead) {
    EXPECT_EQ(jobs::read_access(tty(true, true, false)), Access::Allow);
    EXPECT_EQ(jobs::read_access(tty(true, true, true)), Access::Allow);
    EXPECT_EQ(jobs::read_access(tty(true, false, false)), Access::Signal);  // SIGTTIN
    EXPECT_EQ(jobs::read_access(tty(true, false, true)), Access::Refuse);   // EIO
    EXPECT_EQ(jobs::read_access(tty(false, false, false)), Access::Allow);  // no controlling console
}

TEST(SignalJobs, Tcsetpgrp) {
    EXPECT_EQ(jobs::tcsetpgrp_access(tty(true, true, false)), Access::Allow);
    EXPECT_EQ(jobs::tcsetpgrp_access(tty(true, false, true)), Access::Allow);    // a shell ignoring SIGTTOU
    EXPECT_EQ(jobs::tcsetpgrp_access(tty(true, false, false)), Access::Signal);  // SIGTTOU
    EXPECT_EQ(jobs::tcsetpgrp_access(tty(false, true, true)), Access::Refuse);   // ENOTTY
}

TEST(SignalJobs, ConsoleSignals) {
    EXPECT_EQ(jobs::console_signal('\x03'), 2);   // ^C SIGINT
    EXPECT_EQ(jobs::console_signal('\x1c'), 3);   // ^\ SIGQUIT
    EXPECT_EQ(jobs::console_signal('\x1a'), 20);  // ^Z SIGTSTP
    EXPECT_EQ(jobs::console_signal('a'), 0);
    EXPECT_EQ(jobs::console_signal('\x04'), 0);  // ^D is end of input, not a signal
}

// A background reader of an orphaned group is refused (EIO), never stopped.
TEST(SignalJobs, OrphanedReaderRefused) {
    jobs::TtyFacts f = tty(true, false, false);
    f.orphaned = true;
    EXPECT_EQ(jobs::read_access(f), Access::Refuse);
    f.foreground = true;
    EXPECT_EQ(jobs::read_access(f), Access::Allow);
}

// Which members keep a group from being orphaned: a parent in another
// group of the same session that is not init.
TEST(SignalJobs, OrphanedGroupLinks) {
    jobs::MemberFacts m;
    m.pgid = 7;
    m.sid = 1;
    m.parent_pgid = 5;  // a shell's group
    m.parent_sid = 1;
    EXPECT_TRUE(jobs::links_group(m));
    m.parent_pgid = 7;  // its parent is in the group itself
    EXPECT_FALSE(jobs::links_group(m));
    m.parent_pgid = 5;
    m.parent_sid = 9;  // another session
    EXPECT_FALSE(jobs::links_group(m));
    m.parent_sid = 1;
    m.parent_is_init = true;  // init does no job control
    EXPECT_FALSE(jobs::links_group(m));
    EXPECT_TRUE(jobs::tty_stop(sig::kTstp) && jobs::tty_stop(sig::kTtin) && jobs::tty_stop(sig::kTtou));
    EXPECT_FALSE(jobs::tty_stop(sig::kStop));
}
