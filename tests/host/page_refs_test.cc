// tests/host/page_refs_test.cc - physical page reference counts
// (lib/page_refs.h): a page is freed by exactly one put, whoever drops the
// last mapping, also when several threads drop theirs at once.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "lib/page_refs.h"

namespace {

constexpr q::u64 kPg = 4096;
constexpr q::u64 kStart = 0x80000000;

struct Pool {
    std::vector<q::u32> counts = std::vector<q::u32>(64, 0);
    q::PageRefs refs;
    Pool() { refs.init(kStart, kStart + 64 * kPg, kPg, counts.data()); }
};

TEST(PageRefs, AnUnsharedPageIsFreedByItsOnlyPut) {
    Pool p;
    EXPECT_FALSE(p.refs.shared(kStart));
    EXPECT_TRUE(p.refs.put(kStart));
    EXPECT_EQ(p.counts[0], 0u);
}

TEST(PageRefs, SharedPagesAreFreedByTheLastPut) {
    Pool p;
    const q::u64 pa = kStart + 5 * kPg;
    p.refs.dup(pa);  // fork: two mappings
    p.refs.dup(pa);  // and another: three
    EXPECT_TRUE(p.refs.shared(pa));
    EXPECT_EQ(p.refs.others(pa), 2u);
    EXPECT_FALSE(p.refs.put(pa));
    EXPECT_FALSE(p.refs.put(pa));
    EXPECT_FALSE(p.refs.shared(pa));  // the last mapping: a write may just take it
    EXPECT_TRUE(p.refs.put(pa));
    EXPECT_EQ(p.counts[4], 0u);  // neighbours untouched
    EXPECT_EQ(p.counts[6], 0u);
}

TEST(PageRefs, Covers) {
    Pool p;
    EXPECT_TRUE(p.refs.covers(kStart));
    EXPECT_TRUE(p.refs.covers(kStart + 63 * kPg));
    EXPECT_FALSE(p.refs.covers(kStart + 64 * kPg));
    EXPECT_FALSE(p.refs.covers(kStart - kPg));
    EXPECT_FALSE(q::PageRefs{}.covers(kStart));
    EXPECT_EQ(q::PageRefs::entries(kStart, kStart + 64 * kPg, kPg), 64u);
}

// Eight sharers of each page drop their mappings at once, on eight threads:
// every page is freed exactly once.
TEST(PageRefs, ConcurrentPutsFreeOnce) {
    Pool p;
    constexpr int kThreads = 8;
    for (int page = 0; page < 64; page++) {
        for (int k = 1; k < kThreads; k++) p.refs.dup(kStart + page * kPg);
    }
    std::atomic<int> freed[64] = {};
    std::vector<std::thread> ts;
    for (int t = 0; t < kThreads; t++) {
        ts.emplace_back([&] {
            for (int page = 0; page < 64; page++) {
                if (p.refs.put(kStart + page * kPg)) freed[page]++;
            }
        });
    }
    for (auto& t : ts) t.join();
    for (int page = 0; page < 64; page++) EXPECT_EQ(freed[page].load(), 1) << "page " << page;
}

}  // namespace
