// tests/host/kfs_fifo_rule_test.cc - when a blocking FIFO open returns (lib/fs/fifo_rule.h).
#include "lib/fs/fifo_rule.h"

#include <gtest/gtest.h>

namespace {

using q::u32;
using q::fs::fifo_open_may_return;
using q::fs::fifo_snapshot;

// One side of a FIFO as the kernel's Pipe counts it.
struct Side {
    u32 open = 0;   // Files open now
    u32 opens = 0;  // opens ever (free-running)
    void attach() {
        open++;
        opens++;
    }
    void detach() { open--; }
};

TEST(KfsFifoRule, WaitsWhileNoPeerEverCame) {
    Side writers;
    const auto at = fifo_snapshot(writers.open, writers.opens);
    EXPECT_FALSE(fifo_open_may_return(at, writers.open, writers.opens));
}

TEST(KfsFifoRule, ReturnsAtOnceWhenPeerOpenAtAttach) {
    Side writers;
    writers.attach();
    const auto at = fifo_snapshot(writers.open, writers.opens);
    EXPECT_TRUE(fifo_open_may_return(at, writers.open, writers.opens));
    writers.detach();  // even if it leaves before the check
    EXPECT_TRUE(fifo_open_may_return(at, writers.open, writers.opens));
}

TEST(KfsFifoRule, ReturnsWhenPeerOpensLater) {
    Side writers;
    const auto at = fifo_snapshot(writers.open, writers.opens);
    writers.attach();
    EXPECT_TRUE(fifo_open_may_return(at, writers.open, writers.opens));
}

// The hang the rule exists for: the reader attaches and sleeps; a writer
// opens (seeing the reader, so it does not wait), writes, and closes, all
// before the reader runs again. "Is a writer open now?" says no for ever.
TEST(KfsFifoRule, PeerThatOpenedAndClosedBetweenChecksDoesNotHang) {
    Side writers;
    const auto at = fifo_snapshot(writers.open, writers.opens);
    EXPECT_FALSE(fifo_open_may_return(at, writers.open, writers.opens));  // first check: sleep
    writers.attach();
    writers.detach();
    EXPECT_EQ(writers.open, 0u);
    EXPECT_TRUE(fifo_open_may_return(at, writers.open, writers.opens));  // woken: must return
}

TEST(KfsFifoRule, OpenCounterWrapStillCounts) {
    Side writers;
    writers.opens = ~0u;
    const auto at = fifo_snapshot(writers.open, writers.opens);
    writers.attach();  // opens wraps to 0
    writers.detach();
    EXPECT_TRUE(fifo_open_may_return(at, writers.open, writers.opens));
}

}  // namespace
