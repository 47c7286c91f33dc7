// tests/host/memops_test.cc - lib/memops.h (the kernel's memmove, memcpy,
// memset and memcmp) against the C library: every source and destination
// alignment within a word, lengths around the word and unrolled-block
// boundaries, overlapping moves both ways, and compares whose first
// difference lies in the head, a word or the tail.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "lib/memops.h"

using q::u8;
using q::usize;

namespace {

constexpr usize kLens[] = {0,  1,  2,  7,  8,  9,   15,  16,  17,  31,  32,  33,
                           39, 40, 63, 64, 65, 100, 127, 128, 129, 167, 255, 4096};
constexpr usize kMax = 4096 + 16;  // the longest length plus the largest offset

std::vector<u8> pattern(usize n, unsigned seed) {
    std::vector<u8> v(n);
    for (usize i = 0; i < n; i++) v[i] = static_cast<u8>(i * 131 + seed * 7 + (i >> 8));
    return v;
}

TEST(MemOps, MoveMatchesMemmoveDisjoint) {
    for (usize n : kLens) {
        for (usize so = 0; so < 8; so++) {
            for (usize doff = 0; doff < 8; doff++) {
                auto src = pattern(n + 16, 1);
                auto dst = pattern(n + 16, 2);
                auto want = dst;
                std::memmove(want.data() + doff, src.data() + so, n);
                q::memops::move_bytes(dst.data() + doff, src.data() + so, n);
                ASSERT_EQ(dst, want) << "n=" << n << " src+" << so << " dst+" << doff;
            }
        }
    }
}

TEST(MemOps, MoveMatchesMemmoveOverlapping) {
    // dst before and after src, by every distance up to 40 bytes.
    for (usize n : kLens) {
        for (usize so = 0; so < 48; so++) {
            for (usize doff = 0; doff < 48; doff++) {
                auto buf = pattern(n + 64, 3);
                auto want = buf;
                std::memmove(want.data() + doff, want.data() + so, n);
                q::memops::move_bytes(buf.data() + doff, buf.data() + so, n);
                ASSERT_EQ(buf, want) << "n=" << n << " src+" << so << " dst+" << doff;
            }
        }
    }
}

TEST(MemOps, CopyForwardAndBackwardDisjoint) {
    for (usize n : kLens) {
        for (usize off = 0; off < 8; off++) {
            auto src = pattern(kMax, 4);
            std::vector<u8> a(kMax, 0xEE), b(kMax, 0xEE), want(kMax, 0xEE);
            std::copy_n(src.begin(), n, want.begin() + off);
            q::memops::copy_forward(a.data() + off, src.data(), n);
            q::memops::copy_backward(b.data() + off, src.data(), n);
            ASSERT_EQ(a, want) << n << "+" << off;
            ASSERT_EQ(b, want) << n << "+" << off;
        }
    }
}

TEST(MemOps, FillMatchesMemsetAndStaysInBounds) {
    for (usize n : kLens) {
        for (usize off = 0; off < 8; off++) {
            std::vector<u8> a(kMax, 0x11), want(kMax, 0x11);
            std::fill_n(want.begin() + off, n, u8{0xA5});
            q::memops::fill(a.data() + off, 0xA5, n);
            ASSERT_EQ(a, want) << n << "+" << off;
        }
    }
}

int sign(int v) { return (v > 0) - (v < 0); }

TEST(MemOps, CompareMatchesMemcmp) {
    for (usize n : kLens) {
        for (usize ao = 0; ao < 8; ao++) {
            for (usize bo = 0; bo < 8; bo += 3) {
                std::vector<u8> a(n + 8), b(n + 8);
                auto p = pattern(n, 5);
                std::memcpy(a.data() + ao, p.data(), n);
                std::memcpy(b.data() + bo, p.data(), n);
                ASSERT_EQ(q::memops::compare(a.data() + ao, b.data() + bo, n), 0) << n;
                // A difference at each position: first byte, inside a word, last byte.
                for (usize at : {usize{0}, n / 2, n ? n - 1 : 0}) {
                    if (n == 0) break;
                    for (int delta : {1, -1}) {
                        auto c = b;
                        c[bo + at] = static_cast<u8>(c[bo + at] + delta);
                        const int want = sign(std::memcmp(a.data() + ao, c.data() + bo, n));
                        const int got = sign(q::memops::compare(a.data() + ao, c.data() + bo, n));
                        ASSERT_NE(want, 0);
                        ASSERT_EQ(got, want) << "n=" << n << " at " << at << " delta " << delta;
                    }
                }
            }
        }
    }
}

TEST(MemOps, CompareTwoDifferencesTakesTheFirst) {
    // Within one word, byte 1 is smaller and byte 6 larger: the first rules.
    alignas(8) u8 a[16] = {}, b[16] = {};
    a[1] = 1;
    b[6] = 1;
    EXPECT_GT(q::memops::compare(a, b, 16), 0);
    EXPECT_LT(q::memops::compare(b, a, 16), 0);
}

}  // namespace
