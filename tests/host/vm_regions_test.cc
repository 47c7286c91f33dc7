// tests/host/vm_regions_test.cc - the address-space map (lib/vm/regions.h):
// regions stay sorted and disjoint, the heap moves only into free space,
// and a fault's verdict follows the region and its permissions.
#include <gtest/gtest.h>

#include "lib/vm/regions.h"

using q::vm::Access;
using q::vm::kExec;
using q::vm::Kind;
using q::vm::kRead;
using q::vm::kWrite;
using q::vm::Map;
using q::vm::Verdict;

namespace {

constexpr q::u64 kPg = 4096;
constexpr q::u64 kTop = 1ull << 30;

// xv6's layout: text, data, a guard page, the stack, the heap above it.
Map xv6_map() {
    Map m;
    EXPECT_TRUE(m.add(0, 2 * kPg, Kind::Text, kRead | kExec));
    EXPECT_TRUE(m.add(2 * kPg, 3 * kPg, Kind::Data, kRead | kWrite));
    EXPECT_TRUE(m.add(3 * kPg, 4 * kPg, Kind::Guard, 0));
    EXPECT_TRUE(m.add(4 * kPg, 5 * kPg, Kind::Stack, kRead | kWrite));
    EXPECT_TRUE(m.add(5 * kPg, 5 * kPg, Kind::Heap, kRead | kWrite, true));
    return m;
}

TEST(VmRegions, AddKeepsThemSortedAndDisjoint) {
    Map m;
    EXPECT_TRUE(m.add(4 * kPg, 5 * kPg, Kind::Stack, kRead | kWrite));
    EXPECT_TRUE(m.add(0, kPg, Kind::Text, kRead | kExec));
    EXPECT_EQ(m.at(0).kind, Kind::Text);
    EXPECT_EQ(m.at(1).kind, Kind::Stack);
    EXPECT_FALSE(m.add(0, 2 * kPg, Kind::Data, kRead));        // overlaps the text
    EXPECT_FALSE(m.add(3 * kPg, 5 * kPg, Kind::Data, kRead));  // overlaps the stack
    EXPECT_FALSE(m.add(kPg + 1, 2 * kPg, Kind::Data, kRead));  // not aligned
    EXPECT_FALSE(m.add(2 * kPg, 2 * kPg, Kind::Data, kRead));  // empty, not a heap
    EXPECT_FALSE(m.add(3 * kPg, 2 * kPg, Kind::Data, kRead));  // backwards
    EXPECT_EQ(m.size(), 2);
    EXPECT_TRUE(m.add(kPg, 4 * kPg, Kind::Data, kRead | kWrite));  // fills the gap exactly
    EXPECT_EQ(m.at(1).kind, Kind::Data);
}

TEST(VmRegions, TheTableIsBounded) {
    Map m;
    for (int i = 0; i < Map::kMaxRegions; i++) EXPECT_TRUE(m.add(i * kPg, (i + 1) * kPg, Kind::Data, kRead));
    EXPECT_FALSE(m.add(100 * kPg, 101 * kPg, Kind::Data, kRead));
    EXPECT_EQ(m.size(), Map::kMaxRegions);
}

TEST(VmRegions, FaultVerdicts) {
    const Map m = xv6_map();
    EXPECT_EQ(m.classify(0x10, Access::Exec), Verdict::Present);
    EXPECT_EQ(m.classify(0x10, Access::Read), Verdict::Present);
    EXPECT_EQ(m.classify(0x10, Access::Write), Verdict::Protection);    // text is read-only
    EXPECT_EQ(m.classify(2 * kPg, Access::Exec), Verdict::Protection);  // data is not executable
    EXPECT_EQ(m.classify(3 * kPg + 8, Access::Write), Verdict::Guard);
    EXPECT_EQ(m.classify(5 * kPg, Access::Read), Verdict::Unmapped);  // the heap is empty
    EXPECT_EQ(m.classify(kTop, Access::Read), Verdict::Unmapped);
}

TEST(VmRegions, TheHeapIsLazyAndMovesOnlyIntoFreeSpace) {
    Map m = xv6_map();
    ASSERT_TRUE(m.set_break(5 * kPg + 100, kTop));  // rounded up to a page
    EXPECT_EQ(m.first(Kind::Heap)->end, 6 * kPg);
    EXPECT_EQ(m.classify(5 * kPg + 50, Access::Write), Verdict::ZeroFill);
    EXPECT_EQ(m.classify(5 * kPg + 50, Access::Exec), Verdict::Protection);
    EXPECT_EQ(m.classify(6 * kPg, Access::Write), Verdict::Unmapped);
    EXPECT_FALSE(m.set_break(kTop + kPg, kTop));   // past the limit
    EXPECT_FALSE(m.set_break(~0ull - 10, ~0ull));  // rounding would wrap
    EXPECT_TRUE(m.set_break(5 * kPg, kTop));       // shrunk to nothing
    EXPECT_EQ(m.classify(5 * kPg, Access::Write), Verdict::Unmapped);
    ASSERT_TRUE(m.add(8 * kPg, 9 * kPg, Kind::Data, kRead));
    EXPECT_TRUE(m.set_break(8 * kPg, kTop));
    EXPECT_FALSE(m.set_break(8 * kPg + 1, kTop));  // would run into the mapping above
}

TEST(VmRegions, ABreakBelowTheHeapCutsTheRegionsAbove) {
    Map m = xv6_map();
    ASSERT_TRUE(m.set_break(8 * kPg, kTop));
    ASSERT_TRUE(m.set_break(2 * kPg + 100, kTop));  // inside the data page
    EXPECT_EQ(m.size(), 3);                         // text, data, heap
    EXPECT_EQ(m.at(1).kind, Kind::Data);
    EXPECT_EQ(m.at(1).end, 3 * kPg);
    EXPECT_EQ(m.first(Kind::Heap)->start, 3 * kPg);
    EXPECT_EQ(m.classify(4 * kPg, Access::Read), Verdict::Unmapped);  // the stack went
    ASSERT_TRUE(m.set_break(kPg, kTop));                              // into the text
    EXPECT_EQ(m.size(), 2);
    EXPECT_EQ(m.at(0).end, kPg);
    ASSERT_TRUE(m.set_break(0, kTop));  // everything
    EXPECT_EQ(m.size(), 1);
    EXPECT_EQ(m.classify(0, Access::Exec), Verdict::Unmapped);
    ASSERT_TRUE(m.set_break(3 * kPg, kTop));  // and it grows again from 0, lazily
    EXPECT_EQ(m.classify(2 * kPg, Access::Write), Verdict::ZeroFill);
}

TEST(VmRegions, TablesToCover) {
    constexpr q::u64 kLeaf = 2ull << 20, kMiddle = 1ull << 30;
    EXPECT_EQ(q::vm::tables_to_cover(0, kPg), 2u);        // a leaf and a middle table
    EXPECT_EQ(q::vm::tables_to_cover(kPg, 2 * kPg), 0u);  // the same leaf table
    EXPECT_EQ(q::vm::tables_to_cover(kPg, kLeaf), 0u);
    EXPECT_EQ(q::vm::tables_to_cover(kPg, kLeaf + 1), 1u);  // the next leaf table
    EXPECT_EQ(q::vm::tables_to_cover(kLeaf, 3 * kLeaf), 2u);
    EXPECT_EQ(q::vm::tables_to_cover(kPg, kMiddle + kPg), 512u + 1u);  // 512 leaves and a middle
    EXPECT_EQ(q::vm::tables_to_cover(5 * kPg, 3 * kPg), 0u);           // shrinking needs none
}

TEST(VmRegions, NoHeapNoGrowth) {
    Map m;
    ASSERT_TRUE(m.add(0, kPg, Kind::Text, kRead | kExec));
    EXPECT_FALSE(m.set_break(2 * kPg, kTop));
    EXPECT_EQ(m.first(Kind::Heap), nullptr);
}

}  // namespace
