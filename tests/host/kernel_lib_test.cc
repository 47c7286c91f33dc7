// tests/host/kernel_lib_test.cc - host tests for kernel logic in lib/:
// the physical page pool's bookkeeping (lib/page_pool.h) and the device
// tree reader (lib/fdt.h), the latter on a real blob that QEMU's virt
// machine dumps (build rule in mk/tests.mk) and on corrupted copies;
// Result<T> (lib/result.h): value() of an error is a checked failure, and
// TRY moves a move-only value out; BootBuilt (lib/in_place.h) is zeros
// until built, and each build starts from the defaults.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <random>
#include <set>
#include <vector>

#include "lib/fdt.h"
#include "lib/in_place.h"
#include "lib/page_pool.h"
#include "lib/result.h"

using q::PagePool;
using q::u64;
using q::u8;

namespace {

constexpr u64 kPage = 4096;

struct Arena {
    std::vector<u8> mem;
    u64 base;
    explicit Arena(int pages) : mem((pages + 1) * kPage) {
        base = (reinterpret_cast<u64>(mem.data()) + kPage - 1) & ~(kPage - 1);
    }
    void* page(int i) const { return reinterpret_cast<void*>(base + i * kPage); }
};

TEST(PagePool, ValidateRejectsBadPages) {
    Arena a(4);
    PagePool pool;
    pool.init(a.base, a.base + 4 * kPage, kPage);
    EXPECT_EQ(pool.validate(a.base), nullptr);
    EXPECT_EQ(pool.validate(a.base + 3 * kPage), nullptr);
    EXPECT_STREQ(pool.validate(a.base + 8), "page not aligned");
    EXPECT_STREQ(pool.validate(a.base - kPage), "page below the managed range (kernel image?)");
    EXPECT_STREQ(pool.validate(a.base + 4 * kPage), "page past the end of RAM");
}

TEST(PagePool, PushPopCountsAndTouchOnlyTheLink) {
    Arena a(8);
    PagePool pool;
    pool.init(a.base, a.base + 8 * kPage, kPage);
    EXPECT_EQ(pool.pop(), nullptr);
    for (int i = 0; i < 8; i++) std::memset(a.page(i), 0xAB, kPage);
    for (int i = 0; i < 8; i++) pool.push(a.page(i));
    EXPECT_EQ(pool.count(), 8u);
    // push (run under the kernel's lock) writes only the link word.
    const u8* p3 = static_cast<const u8*>(a.page(3));
    for (u64 i = 8; i < kPage; i++) ASSERT_EQ(p3[i], 0xAB);
    std::set<void*> seen;
    for (int i = 0; i < 8; i++) {
        void* p = pool.pop();
        ASSERT_NE(p, nullptr);
        EXPECT_TRUE(seen.insert(p).second) << "page handed out twice";
        const u8* b = static_cast<const u8*>(p);
        for (u64 j = 8; j < kPage; j++) ASSERT_EQ(b[j], 0xAB);
    }
    // junk() fills a whole page, the link word included.
    pool.junk(a.page(5));
    const u8* p5 = static_cast<const u8*>(a.page(5));
    for (u64 j = 0; j < kPage; j++) ASSERT_EQ(p5[j], PagePool::kJunkFree);
    EXPECT_EQ(pool.count(), 0u);
    EXPECT_EQ(pool.pop(), nullptr);
}

TEST(PagePool, ZeroedPagesGoFirstToWhoWantsZeros) {
    Arena a(4);
    PagePool pool;
    pool.init(a.base, a.base + 4 * kPage, kPage);
    for (int i = 0; i < 2; i++) {
        pool.junk(a.page(i));
        pool.push(a.page(i));
    }
    for (int i = 2; i < 4; i++) {
        std::memset(a.page(i), 0, kPage);
        pool.push_zeroed(a.page(i));
    }
    EXPECT_EQ(pool.count(), 4u);
    EXPECT_EQ(pool.zeroed_count(), 2u);
    bool zeroed = false;
    void* z = pool.pop(true, &zeroed);  // a zeroed one, its link word cleared
    ASSERT_TRUE(zeroed);
    for (u64 j = 0; j < kPage; j++) ASSERT_EQ(static_cast<const u8*>(z)[j], 0) << j;
    void* j = pool.pop(false, &zeroed);  // a junk one for who overwrites it
    EXPECT_FALSE(zeroed);
    EXPECT_EQ(static_cast<const u8*>(j)[100], PagePool::kJunkFree);
    EXPECT_TRUE(pool.pop(false, &zeroed) != nullptr && !zeroed);
    EXPECT_TRUE(pool.pop(false, &zeroed) != nullptr && zeroed);  // the last: zeroed, though not asked for
    EXPECT_EQ(pool.count(), 0u);
    EXPECT_EQ(pool.zeroed_count(), 0u);
    EXPECT_EQ(pool.pop(true, &zeroed), nullptr);
}

TEST(PagePool, RandomAllocFreeKeepsEveryPageExactlyOnce) {
    constexpr int kPages = 64;
    Arena a(kPages);
    PagePool pool;
    pool.init(a.base, a.base + kPages * kPage, kPage);
    for (int i = 0; i < kPages; i++) pool.push(a.page(i));
    std::mt19937 rng(7);
    std::vector<void*> held;
    for (int step = 0; step < 20000; step++) {
        if (!held.empty() && (rng() % 2 || pool.count() == 0)) {
            const size_t k = rng() % held.size();
            ASSERT_EQ(pool.validate(reinterpret_cast<u64>(held[k])), nullptr);
            pool.push(held[k]);
            held.erase(held.begin() + static_cast<long>(k));
        } else {
            void* p = pool.pop();
            ASSERT_NE(p, nullptr);
            held.push_back(p);
        }
        ASSERT_EQ(pool.count() + held.size(), static_cast<u64>(kPages));
    }
    std::set<void*> all(held.begin(), held.end());
    while (void* p = pool.pop()) ASSERT_TRUE(all.insert(p).second);
    EXPECT_EQ(all.size(), static_cast<size_t>(kPages));
}

// The dumped file is padded; keep just the blob (its header's totalsize).
std::vector<u8> trim_to_blob(std::vector<u8> d) {
    if (d.size() < 8) return d;
    const size_t total = (size_t(d[4]) << 24) | (size_t(d[5]) << 16) | (size_t(d[6]) << 8) | d[7];
    if (total <= d.size()) d.resize(total);
    return d;
}

std::vector<u8> read_file(const char* path) {
    std::vector<u8> data;
    FILE* f = std::fopen(path, "rb");
    if (!f) return data;
    u8 buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) data.insert(data.end(), buf, buf + n);
    std::fclose(f);
    return trim_to_blob(data);
}

TEST(Fdt, ParsesQemuVirtBlob) {
    const auto blob = read_file(Q_VIRT_DTB);
    ASSERT_FALSE(blob.empty()) << "missing " << Q_VIRT_DTB;
    q::fdt::BootInfo info;
    ASSERT_TRUE(q::fdt::parse(blob.data(), blob.size(), &info));
    EXPECT_EQ(info.mem_base, 0x80000000ull);
    EXPECT_EQ(info.mem_size, 256ull << 20);
    EXPECT_EQ(info.ncpus, 3);
    EXPECT_STREQ(info.bootargs, "sched=dwrr slice=2000");
}

TEST(Fdt, RejectsBadMagicAndTruncation) {
    const auto blob = read_file(Q_VIRT_DTB);
    ASSERT_FALSE(blob.empty());
    q::fdt::BootInfo info;
    auto bad = blob;
    bad[0] ^= 0xff;
    EXPECT_FALSE(q::fdt::parse(bad.data(), bad.size(), &info));
    EXPECT_FALSE(q::fdt::parse(blob.data(), 39, &info));
    // Claimed size larger than what is readable.
    EXPECT_FALSE(q::fdt::parse(blob.data(), blob.size() - 1, &info));
    EXPECT_FALSE(q::fdt::parse(blob.data(), blob.size() / 2, &info));
}

TEST(Fdt, CorruptedBlobsNeverCrash) {
    const auto blob = read_file(Q_VIRT_DTB);
    ASSERT_FALSE(blob.empty());
    std::mt19937 rng(1234);
    int accepted = 0;
    for (int i = 0; i < 3000; i++) {
        auto b = blob;
        for (int k = 0; k < 4; k++) b[40 + rng() % (b.size() - 40)] = static_cast<u8>(rng());
        q::fdt::BootInfo info;
        if (q::fdt::parse(b.data(), b.size(), &info)) {
            accepted++;
            EXPECT_LT(std::strlen(info.bootargs), sizeof(info.bootargs));
        }
    }
    // Most single-byte changes hit property values and still parse.
    EXPECT_GT(accepted, 0);
}

}  // namespace

namespace {

// A move-only value, as kernel/fs's owning references are.
struct Owned {
    int* p = nullptr;
    Owned() = default;
    explicit Owned(int* q) : p(q) {}
    Owned(Owned&& o) : p(o.p) { o.p = nullptr; }
    Owned& operator=(Owned&& o) {
        p = o.p;
        o.p = nullptr;
        return *this;
    }
    ~Owned() {
        if (p) ++*p;  // counts releases
    }
};

q::Result<Owned> make_owned(int* releases, bool fail) {
    if (fail) return q::Error::NoSpace;
    return Owned(releases);
}

q::Result<int> pass_through(int* releases, bool fail) {
    auto o = TRY(make_owned(releases, fail));
    return o.p == releases ? 7 : 0;
}

// TRY of a Status: carries on after a success, returns the error otherwise.
q::Status check_then_count(q::Status st, int* steps) {
    TRY(st);
    ++*steps;
    return {};
}

// A handler's shape: a TRY'd fetch, then a value.
q::SysResult handler_like(bool fetch_fails) {
    const int v = TRY(fetch_fails ? q::Result<int>(q::Error::NameTooLong) : q::Result<int>(41));
    return v + 1;
}

}  // namespace

TEST(Result, ValueOfAnErrorPanics) {
    const q::Result<int> r = q::Error::NotFound;
    EXPECT_EQ(r.value_or(5), 5);
    EXPECT_DEATH((void)r.value(), "Result::value\\(\\) of an error");
    EXPECT_DEATH((void)q::Result<int>(q::Error::IoError).value(), "Result::value");
    EXPECT_EQ(q::Result<int>(3).value(), 3);
}

TEST(Result, TryOfAStatusStopsOnlyOnAnError) {
    int steps = 0;
    EXPECT_TRUE(check_then_count(q::Status{}, &steps).ok());
    EXPECT_EQ(steps, 1);
    EXPECT_EQ(check_then_count(q::Error::IoError, &steps).error(), q::Error::IoError);
    EXPECT_EQ(steps, 1);
}

TEST(Result, ASysResultCarriesAValueOrTheFetchsError) {
    EXPECT_EQ(handler_like(false).value(), 42);
    EXPECT_EQ(handler_like(true).error(), q::Error::NameTooLong);
    EXPECT_TRUE(q::SysResult(-1).ok());  // -1 as a value (nice -1) is no error
}

TEST(Result, MustGivesTheValueOrPanicsNamingWhatFailed) {
    EXPECT_EQ(q::must(q::Result<int>(5), "five"), 5);
    EXPECT_DEATH((void)q::must(q::Result<int>(q::Error::NoMemory), "kmap: out of memory"), "kmap: out of memory");
    EXPECT_DEATH(q::must(q::Status(q::Error::IoError), "log header"), "log header");
}

TEST(Result, TryMovesAMoveOnlyValueOutAndReleasesItOnce) {
    int releases = 0;
    auto ok = pass_through(&releases, false);
    ASSERT_TRUE(ok.ok());
    EXPECT_EQ(ok.value(), 7);
    EXPECT_EQ(releases, 1);  // released once, when the TRY variable died
    auto bad = pass_through(&releases, true);
    EXPECT_EQ(bad.error(), q::Error::NoSpace);
    EXPECT_EQ(releases, 1);
}

// BootBuilt (lib/in_place.h): the storage the kernel keeps its tables in
// so that they are zeros in the image (.bss) until boot builds them.
namespace {

// Like the kernel's tables: a non-zero default (a lock's name), a
// self-link (a list head's `this`), a constructor argument, and a field
// with no default member initialiser (value-initialised by build()).
struct BootBuiltProbe {
    const char* name = "probe";
    BootBuiltProbe* self = this;
    int marks[64] = {};
    int plain;
    int arg = 0;

    BootBuiltProbe() = default;
    explicit BootBuiltProbe(int a) : arg(a) {}
};

constinit q::BootBuilt<BootBuiltProbe> g_boot_built_zeros;
constinit q::BootBuilt<BootBuiltProbe> g_boot_built_args;
constinit q::BootBuilt<BootBuiltProbe> g_boot_built_again;

}  // namespace

TEST(BootBuilt, HoldsOnlyZerosUntilBuilt) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(&g_boot_built_zeros);
    for (std::size_t i = 0; i < sizeof g_boot_built_zeros; i++) ASSERT_EQ(bytes[i], 0) << "byte " << i;
    EXPECT_FALSE(g_boot_built_zeros.built());
}

TEST(BootBuilt, BuildRunsTheConstructorWithItsArguments) {
    BootBuiltProbe& p = g_boot_built_args.build(7);
    EXPECT_TRUE(g_boot_built_args.built());
    EXPECT_EQ(&p, &*g_boot_built_args);
    EXPECT_STREQ(p.name, "probe");
    EXPECT_EQ(p.self, &p);
    EXPECT_EQ(p.arg, 7);
    EXPECT_EQ(g_boot_built_args->arg, 7);
}

TEST(BootBuilt, ABuildAgainStartsFromTheDefaults) {
    BootBuiltProbe& p = g_boot_built_again.build();
    p.name = nullptr;
    p.self = nullptr;
    p.marks[3] = 1;
    p.plain = 5;
    p.arg = 9;
    BootBuiltProbe& again = g_boot_built_again.build();
    EXPECT_EQ(&again, &p);
    EXPECT_STREQ(again.name, "probe");
    EXPECT_EQ(again.self, &again);
    EXPECT_EQ(again.marks[3], 0);
    EXPECT_EQ(again.plain, 0);  // value-initialised, as a constinit T would be
    EXPECT_EQ(again.arg, 0);
}
