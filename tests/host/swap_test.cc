// tests/host/swap_test.cc - the swap slot allocator (lib/vm/swap_slots.h)
// and the replacement queue with its FIFO and clock policies
// (lib/vm/replace.h): the kernel's swap code runs exactly these.
#include <gtest/gtest.h>

#include <vector>

#include "lib/vm/replace.h"
#include "lib/vm/swap_slots.h"

namespace {

using q::u16;
using q::u32;
using q::u8;
using q::vm::Policy;
using q::vm::ReplaceQueue;
using q::vm::SwapSlots;

struct Slots {
    std::vector<u16> refs;
    std::vector<u8> pins;
    SwapSlots s;
    explicit Slots(u32 n) : refs(n, 0), pins(n, 0) { s.init(n, refs.data(), pins.data()); }
};

TEST(SwapSlots, AllocatesEverySlotOnceThenRefuses) {
    Slots a(4);
    std::vector<bool> seen(4, false);
    for (int i = 0; i < 4; i++) {
        const u32 s = a.s.alloc();
        ASSERT_LT(s, 4u);
        EXPECT_FALSE(seen[s]);
        seen[s] = true;
    }
    EXPECT_EQ(a.s.alloc(), SwapSlots::kNone);
    EXPECT_EQ(a.s.free_count(), 0u);
}

TEST(SwapSlots, FreeOnlyWhenNoEntryAndNoTransfer) {
    Slots a(2);
    const u32 s = a.s.alloc();  // one entry, pinned by its page-out
    EXPECT_EQ(a.s.free_count(), 1u);
    EXPECT_EQ(a.s.put(s), 0u);  // the process exited during the write
    EXPECT_EQ(a.s.free_count(), 1u) << "freed while its write is in flight";
    EXPECT_EQ(a.s.alloc(), 1 - s) << "the pinned slot was handed out again";
    EXPECT_TRUE(a.s.unpin(s));  // the write finished: now it is free
    EXPECT_EQ(a.s.free_count(), 1u);
    EXPECT_EQ(a.s.alloc(), s);
}

TEST(SwapSlots, SharedByForkFreedByTheLastPut) {
    Slots a(3);
    const u32 s = a.s.alloc();
    EXPECT_FALSE(a.s.unpin(s));  // written; one entry still names it
    ASSERT_TRUE(a.s.dup(s));     // fork
    EXPECT_EQ(a.s.put(s), 1u);   // the child swaps it in
    EXPECT_EQ(a.s.free_count(), 2u);
    EXPECT_EQ(a.s.put(s), 0u);  // the parent exits
    EXPECT_EQ(a.s.free_count(), 3u);
    EXPECT_EQ(a.s.put(s), 0u);  // a stray put changes nothing
    EXPECT_EQ(a.s.free_count(), 3u);
    EXPECT_FALSE(a.s.unpin(s));
    EXPECT_EQ(a.s.free_count(), 3u);
}

TEST(SwapSlots, NextFitGoesRoundTheArea) {
    Slots a(4);
    const u32 first = a.s.alloc();
    a.s.unpin(first);
    a.s.put(first);  // free again
    EXPECT_EQ(a.s.alloc(), first + 1) << "next fit starts after the last allocation";
}

TEST(SwapSlots, DupRefusesAtItsLimit) {
    Slots a(1);
    const u32 s = a.s.alloc();
    a.refs[s] = 0xffff;
    EXPECT_FALSE(a.s.dup(s));
    EXPECT_EQ(a.refs[s], 0xffff);
}

struct Queue {
    std::vector<u32> next, prev;
    q::vm::ReplaceLinks links;
    ReplaceQueue q;
    explicit Queue(u32 n) : next(n), prev(n) {
        links.init(n, next.data(), prev.data());
        q.init(&links);
    }
};

TEST(ReplaceQueue, TwoQueuesShareTheLinks) {
    Queue a(6);
    ReplaceQueue other;
    other.init(&a.links);
    a.q.push(1);
    other.push(2);
    a.q.push(3);
    other.push(4);
    auto never = [](u32) { return false; };
    EXPECT_EQ(a.q.size(), 2u);
    EXPECT_EQ(other.pick(Policy::Fifo, never), 2u);
    other.remove(2);
    EXPECT_EQ(other.pick(Policy::Fifo, never), 4u);
    a.q.remove(1);
    EXPECT_EQ(a.q.pick(Policy::Fifo, never), 3u);
    a.q.remove(3);
    EXPECT_EQ(a.q.pick(Policy::Clock, never), ReplaceQueue::kNone);
    EXPECT_EQ(other.size(), 1u);
}

TEST(ReplaceQueue, FifoEvictsInArrivalOrder) {
    Queue a(8);
    for (u32 f : {5u, 2u, 7u}) a.q.push(f);
    auto never = [](u32) { return true; };  // FIFO ignores the accessed bit
    EXPECT_EQ(a.q.pick(Policy::Fifo, never), 5u);
    a.q.remove(5);
    EXPECT_EQ(a.q.pick(Policy::Fifo, never), 2u);
    a.q.remove(2);
    a.q.push(2);  // resident again: now the youngest
    EXPECT_EQ(a.q.pick(Policy::Fifo, never), 7u);
}

TEST(ReplaceQueue, ClockGivesAccessedPagesASecondChance) {
    Queue a(8);
    for (u32 f : {1u, 2u, 3u}) a.q.push(f);
    std::vector<bool> bit = {false, true, false, true, false, false, false, false};
    std::vector<u32> asked;
    auto accessed = [&](u32 f) {
        asked.push_back(f);
        const bool b = bit[f];
        bit[f] = false;  // the test clears it
        return b;
    };
    EXPECT_EQ(a.q.pick(Policy::Clock, accessed), 2u) << "1 was used: it moves behind 3, then 2 is old and unused";
    EXPECT_EQ(asked, (std::vector<u32>{1, 2}));
    a.q.remove(2);
    asked.clear();
    bit[3] = true;
    EXPECT_EQ(a.q.pick(Policy::Clock, accessed), 1u) << "3 was used, 1's bit was cleared a lap ago";
}

TEST(ReplaceQueue, ClockWithEveryPageUsedEndsAfterOneLap) {
    Queue a(4);
    for (u32 f = 0; f < 4; f++) a.q.push(f);
    int looks = 0;
    auto always = [&](u32) {
        looks++;
        return true;
    };
    EXPECT_EQ(a.q.pick(Policy::Clock, always), 0u);
    EXPECT_EQ(looks, 4);
}

TEST(ReplaceQueue, RemoveAndPushKeepTheListWhole) {
    Queue a(5);
    for (u32 f = 0; f < 5; f++) a.q.push(f);
    a.q.push(3);  // already queued: stays put
    EXPECT_EQ(a.q.size(), 5u);
    a.q.remove(0);
    a.q.remove(4);
    a.q.remove(4);  // not queued: nothing
    EXPECT_EQ(a.q.size(), 3u);
    EXPECT_FALSE(a.q.queued(0));
    EXPECT_TRUE(a.q.queued(2));
    std::vector<u32> order;
    auto never = [](u32) { return false; };
    while (a.q.size() > 0) {
        const u32 v = a.q.pick(Policy::Fifo, never);
        order.push_back(v);
        a.q.remove(v);
    }
    EXPECT_EQ(order, (std::vector<u32>{1, 2, 3}));
    EXPECT_EQ(a.q.pick(Policy::Clock, never), ReplaceQueue::kNone);
}

TEST(ReplaceQueue, FifoAndClockDifferOnALoopWithAHotPage) {
    // Frames 0..3 resident in order; page 0 is touched before every pick.
    // FIFO evicts the hot page first anyway; clock keeps it.
    for (Policy p : {Policy::Fifo, Policy::Clock}) {
        Queue a(4);
        std::vector<bool> bit(4, false);
        for (u32 f = 0; f < 4; f++) a.q.push(f);
        auto accessed = [&](u32 f) {
            const bool b = bit[f];
            bit[f] = false;
            return b;
        };
        bit[0] = true;
        const u32 v = a.q.pick(p, accessed);
        EXPECT_EQ(v, p == Policy::Fifo ? 0u : 1u) << q::vm::policy_name(p);
    }
}

TEST(ReplaceQueue, ParsePolicy) {
    Policy p = Policy::Clock;
    EXPECT_TRUE(q::vm::parse_policy("fifo", &p));
    EXPECT_EQ(p, Policy::Fifo);
    EXPECT_TRUE(q::vm::parse_policy("clock", &p));
    EXPECT_EQ(p, Policy::Clock);
    EXPECT_FALSE(q::vm::parse_policy("lru", &p));
    EXPECT_FALSE(q::vm::parse_policy("", &p));
    EXPECT_EQ(p, Policy::Clock);
}

}  // namespace
