// tests/host/vm_regions_test.cc - the address-space map (lib/vm/regions.h):
// regions stay sorted and disjoint, the heap moves only into free space,
// and a fault's verdict follows the region and its permissions.
#include <gtest/gtest.h>

#include "lib/vm/regions.h"

// The binary's test files compile as one unit (mk/tests.mk's host_test):
// this file's names stay in its own namespace.
namespace vm_regions_test {

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

// fork and exec assign maps; the copy takes the regions in use, whatever
// the target held before.
TEST(VmRegions, AssignmentCopiesTheRegionsInUse) {
    Map big;
    for (int i = 0; i < 8; i++) EXPECT_TRUE(big.add(i * kPg, (i + 1) * kPg, Kind::Data, kRead));
    const Map small = xv6_map();
    big = small;
    ASSERT_EQ(big.size(), small.size());
    for (int i = 0; i < small.size(); i++) {
        EXPECT_EQ(big.at(i).start, small.at(i).start);
        EXPECT_EQ(big.at(i).end, small.at(i).end);
        EXPECT_EQ(big.at(i).kind, small.at(i).kind);
        EXPECT_EQ(big.at(i).perm, small.at(i).perm);
        EXPECT_EQ(big.at(i).lazy, small.at(i).lazy);
    }
    EXPECT_EQ(big.classify(6 * kPg, Access::Read), Verdict::Unmapped);  // the old 7th region is gone
    const Map copy(big);
    EXPECT_EQ(copy.size(), small.size());
    EXPECT_EQ(copy.classify(4 * kPg, Access::Write), Verdict::Present);
    big = big;  // self-assignment keeps it
    EXPECT_EQ(big.size(), small.size());
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

// mmap's part: mappings placed first-fit in a window, cut by munmap and
// mprotect with each piece's file offset kept, never over other regions.
constexpr q::u64 kLo = 1ull << 20;
constexpr q::u64 kHi = 2ull << 20;

q::vm::Region mapping(q::u64 start, q::u64 end, bool shared = false, q::u64 obj = 0, q::u64 off = 0) {
    q::vm::Region r;
    r.start = start;
    r.end = end;
    r.kind = Kind::Mmap;
    r.perm = kRead | kWrite;
    r.lazy = true;
    r.shared = shared;
    r.obj = obj;
    r.off = off;
    return r;
}

TEST(VmRegions, FindFreeIsFirstFitInsideTheWindow) {
    Map m = xv6_map();
    EXPECT_EQ(m.find_free(kPg, kLo, kHi), kLo);
    ASSERT_TRUE(m.add_mapping(mapping(kLo, kLo + 2 * kPg)));
    ASSERT_TRUE(m.add_mapping(mapping(kLo + 3 * kPg, kLo + 4 * kPg)));
    EXPECT_EQ(m.find_free(kPg, kLo, kHi), kLo + 2 * kPg);      // the hole
    EXPECT_EQ(m.find_free(2 * kPg, kLo, kHi), kLo + 4 * kPg);  // too small a hole
    EXPECT_EQ(m.find_free(kHi - kLo, kLo, kHi), 0u);           // does not fit
    EXPECT_EQ(m.find_free(~0ull & ~(kPg - 1), kLo, kHi), 0u);  // huge: no overflow
    EXPECT_EQ(m.find_free(0, kLo, kHi), 0u);
}

TEST(VmRegions, MappingsCannotOverlapOtherRegions) {
    Map m = xv6_map();
    EXPECT_FALSE(m.add_mapping(mapping(0, kPg)));              // over the text
    EXPECT_FALSE(m.add_mapping(mapping(kLo + 1, kLo + kPg)));  // unaligned
    EXPECT_FALSE(m.add_mapping(mapping(kLo, kLo)));            // empty
    EXPECT_TRUE(m.add_mapping(mapping(kLo, kLo + kPg)));
    EXPECT_FALSE(m.add_mapping(mapping(kLo, kLo + kPg)));
}

TEST(VmRegions, UnmapTheMiddleKeepsBothEndsAndTheirOffsets) {
    Map m = xv6_map();
    ASSERT_TRUE(m.add_mapping(mapping(kLo, kLo + 4 * kPg, true, 77, 8 * kPg)));
    ASSERT_TRUE(m.remove_mappings(kLo + kPg, kLo + 3 * kPg));
    const q::vm::Region* a = m.find(kLo);
    const q::vm::Region* b = m.find(kLo + 3 * kPg);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(a->end, kLo + kPg);
    EXPECT_EQ(a->off, 8 * kPg);
    EXPECT_EQ(b->start, kLo + 3 * kPg);
    EXPECT_EQ(b->off, 11 * kPg);
    EXPECT_TRUE(b->shared);
    EXPECT_EQ(b->obj, 77u);
    EXPECT_EQ(m.find(kLo + 2 * kPg), nullptr);
    EXPECT_EQ(m.classify(kLo + 2 * kPg, Access::Read), Verdict::Unmapped);
}

TEST(VmRegions, UnmapLeavesOtherKindsAlone) {
    Map m = xv6_map();
    ASSERT_TRUE(m.remove_mappings(0, kTop));
    EXPECT_EQ(m.size(), 5);
    ASSERT_TRUE(m.add_mapping(mapping(kLo, kLo + kPg)));
    ASSERT_TRUE(m.remove_mappings(0, kTop));
    EXPECT_EQ(m.size(), 5);
    EXPECT_TRUE(m.remove_mappings(kLo, kLo + kPg));  // nothing there: fine, as in Linux
}

TEST(VmRegions, ProtectCutsAndRefusesHoles) {
    Map m = xv6_map();
    ASSERT_TRUE(m.add_mapping(mapping(kLo, kLo + 3 * kPg)));
    ASSERT_TRUE(m.protect(kLo + kPg, kLo + 2 * kPg, kRead));
    EXPECT_EQ(m.classify(kLo, Access::Write), Verdict::ZeroFill);
    EXPECT_EQ(m.classify(kLo + kPg, Access::Write), Verdict::Protection);
    EXPECT_EQ(m.classify(kLo + kPg, Access::Read), Verdict::ZeroFill);
    EXPECT_EQ(m.classify(kLo + 2 * kPg, Access::Write), Verdict::ZeroFill);
    EXPECT_EQ(m.size(), 8);
    EXPECT_FALSE(m.protect(kLo, kLo + 4 * kPg, kRead));  // runs past the mapping
    EXPECT_FALSE(m.protect(0, kPg, kRead));              // the text is not a mapping
    EXPECT_EQ(m.classify(kLo, Access::Write), Verdict::ZeroFill);
}

TEST(VmRegions, CutsThatWouldOverflowTheTableChangeNothing) {
    Map m = xv6_map();
    const int room = Map::kMaxRegions - m.size();
    for (int i = 0; i < room; i++) ASSERT_TRUE(m.add_mapping(mapping(kLo + 4 * i * kPg, kLo + (4 * i + 3) * kPg)));
    EXPECT_FALSE(m.remove_mappings(kLo + kPg, kLo + 2 * kPg));
    EXPECT_FALSE(m.protect(kLo + kPg, kLo + 2 * kPg, kRead));
    EXPECT_EQ(m.size(), Map::kMaxRegions);
    EXPECT_TRUE(m.remove_mappings(kLo, kLo + 3 * kPg));  // a whole region needs no cut
    EXPECT_EQ(m.size(), Map::kMaxRegions - 1);
}

TEST(VmRegions, TheHeapStopsAtAMapping) {
    Map m = xv6_map();
    ASSERT_TRUE(m.add_mapping(mapping(kLo, kLo + kPg)));
    EXPECT_TRUE(m.set_break(kLo, kTop));
    EXPECT_FALSE(m.set_break(kLo + 1, kTop));
}

}  // namespace

}  // namespace vm_regions_test
