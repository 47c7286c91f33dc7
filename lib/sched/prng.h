// lib/sched/prng.h - a small seeded integer PRNG for policies (lottery).
//
// xorshift64* (Marsaglia; Vigna's multiplier) seeded through splitmix64, so
// any seed, zero included, gives a full-period non-zero state. below(n)
// draws uniformly from [0, n) without modulo bias: draws under 2^64 mod n
// are rejected (at most half of the range, usually a tiny fraction). No
// floating point, no 128-bit arithmetic (the kernel links no libgcc
// helpers); freestanding and constexpr.
#pragma once

#include "lib/types.h"

namespace q::sched {

class Prng {
  public:
    explicit constexpr Prng(u64 seed = 1) { reseed(seed); }

    constexpr void reseed(u64 seed) {
        u64 z = seed + 0x9e3779b97f4a7c15ull;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        state_ = z ? z : 0x9e3779b97f4a7c15ull;
    }
    constexpr u64 next() {
        state_ ^= state_ >> 12;
        state_ ^= state_ << 25;
        state_ ^= state_ >> 27;
        return state_ * 0x2545f4914f6cdd1dull;
    }
    // Uniform in [0, n); n > 0.
    constexpr u64 below(u64 n) {
        const u64 threshold = (0 - n) % n;  // 2^64 mod n
        for (;;) {
            const u64 r = next();
            if (r >= threshold) return r % n;
        }
    }

  private:
    u64 state_ = 1;
};

}  // namespace q::sched
