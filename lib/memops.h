// lib/memops.h - word-at-a-time copy, fill and compare (kernel memmove & co).
//
// The kernel's memmove/memset/memcmp (kernel/lib/string.cc) are these loops,
// and host tests (tests/host/memops_test.cc) check them against the C
// library for every alignment, length and overlap. The idea: move 8 bytes
// per load/store instead of 1. A byte loop costs ~4 instructions per byte
// (16k for a 4 KiB page that fork copies); a word loop unrolled 4 times
// costs ~11 per 32 bytes to copy and 6 to fill. Whole pages (kalloc's
// zeroing, kfree's junk, copy-on-write copies) go through a loop of 16
// words first: 18 instructions per 128 bytes to fill (576 a page instead
// of 768), 35 to copy (1,120 instead of 1,408).
//
// Invariants: a word access is only ever made at an address that is a
// multiple of 8 (RISC-V may trap or emulate misaligned accesses slowly), so
// the word loops run only when source and destination have the same offset
// within a word: bytes up to the boundary first, words, then the tail.
// Otherwise the byte loop does it all. Words are read through a may_alias
// type, so reading any object's bytes as u64 is defined. copy_backward is
// for overlapping moves with dst > src (it starts at the end).
#pragma once

#include "lib/types.h"

namespace q::memops {

using Word = u64 __attribute__((__may_alias__));
constexpr usize kWord = sizeof(u64);

inline bool same_phase(const void* a, const void* b) {
    return ((reinterpret_cast<usize>(a) ^ reinterpret_cast<usize>(b)) & (kWord - 1)) == 0;
}

inline usize misalign(const void* p) { return reinterpret_cast<usize>(p) & (kWord - 1); }

inline void copy_forward(u8* d, const u8* s, usize n) {
    if (n >= 2 * kWord && same_phase(d, s)) {
        for (; misalign(d) != 0; n--) *d++ = *s++;
        auto* dw = reinterpret_cast<Word*>(d);
        const auto* sw = reinterpret_cast<const Word*>(s);
        for (; n >= 16 * kWord; n -= 16 * kWord, dw += 16, sw += 16) {
#pragma GCC unroll 4
            for (int i = 0; i < 16; i += 4) {
                const u64 a = sw[i], b = sw[i + 1], c = sw[i + 2], e = sw[i + 3];
                dw[i] = a;
                dw[i + 1] = b;
                dw[i + 2] = c;
                dw[i + 3] = e;
            }
        }
        for (; n >= 4 * kWord; n -= 4 * kWord, dw += 4, sw += 4) {
            const u64 a = sw[0], b = sw[1], c = sw[2], e = sw[3];
            dw[0] = a;
            dw[1] = b;
            dw[2] = c;
            dw[3] = e;
        }
        for (; n >= kWord; n -= kWord) *dw++ = *sw++;
        d = reinterpret_cast<u8*>(dw);
        s = reinterpret_cast<const u8*>(sw);
    }
    for (; n > 0; n--) *d++ = *s++;
}

// Copies [s, s+n) to [d, d+n) starting from the end: correct when d > s.
inline void copy_backward(u8* d, const u8* s, usize n) {
    d += n;
    s += n;
    if (n >= 2 * kWord && same_phase(d, s)) {
        for (; misalign(d) != 0; n--) *--d = *--s;
        auto* dw = reinterpret_cast<Word*>(d);
        const auto* sw = reinterpret_cast<const Word*>(s);
        for (; n >= 4 * kWord; n -= 4 * kWord) {
            dw -= 4;
            sw -= 4;
            const u64 a = sw[3], b = sw[2], c = sw[1], e = sw[0];
            dw[3] = a;
            dw[2] = b;
            dw[1] = c;
            dw[0] = e;
        }
        for (; n >= kWord; n -= kWord) *--dw = *--sw;
        d = reinterpret_cast<u8*>(dw);
        s = reinterpret_cast<const u8*>(sw);
    }
    for (; n > 0; n--) *--d = *--s;
}

inline void move_bytes(void* dst, const void* src, usize n) {
    auto* d = static_cast<u8*>(dst);
    const auto* s = static_cast<const u8*>(src);
    if (d == s || n == 0) return;
    if (s < d && s + n > d) {
        copy_backward(d, s, n);
    } else {
        copy_forward(d, s, n);
    }
}

inline void fill(void* dst, u8 c, usize n) {
    auto* d = static_cast<u8*>(dst);
    if (n >= 2 * kWord) {
        for (; misalign(d) != 0; n--) *d++ = c;
        const u64 w = c * 0x0101010101010101ull;
        auto* dw = reinterpret_cast<Word*>(d);
        for (; n >= 16 * kWord; n -= 16 * kWord, dw += 16) {
#pragma GCC unroll 16
            for (int i = 0; i < 16; i++) dw[i] = w;
        }
        for (; n >= 4 * kWord; n -= 4 * kWord, dw += 4) {
            dw[0] = w;
            dw[1] = w;
            dw[2] = w;
            dw[3] = w;
        }
        for (; n >= kWord; n -= kWord) *dw++ = w;
        d = reinterpret_cast<u8*>(dw);
    }
    for (; n > 0; n--) *d++ = c;
}

// <0, 0, >0 as memcmp: compares whole words while they are equal, then
// finds the first differing byte (so the sign is that of the first
// differing byte, whatever the byte order).
inline int compare(const void* a, const void* b, usize n) {
    const auto* x = static_cast<const u8*>(a);
    const auto* y = static_cast<const u8*>(b);
    if (n >= 2 * kWord && same_phase(x, y)) {
        for (; misalign(x) != 0; n--, x++, y++) {
            if (*x != *y) return *x - *y;
        }
        const auto* xw = reinterpret_cast<const Word*>(x);
        const auto* yw = reinterpret_cast<const Word*>(y);
        for (; n >= kWord && *xw == *yw; n -= kWord) {
            xw++;
            yw++;
        }
        x = reinterpret_cast<const u8*>(xw);
        y = reinterpret_cast<const u8*>(yw);
    }
    for (; n > 0; n--, x++, y++) {
        if (*x != *y) return *x - *y;
    }
    return 0;
}

}  // namespace q::memops
