// sim/rng.h - the simulator's random numbers: xoshiro256** seeded by
// splitmix64, one independent stream per consumer. Only integer operations and an exact 53-bit conversion to
// double are used, so a seed gives the same stream on every machine.
#pragma once

#include <cstdint>

namespace schedsim {

class Rng {
  public:
    explicit Rng(uint64_t seed) {
        for (auto& w : s_) w = splitmix(seed);
    }
    // Independent stream `stream` of a seed (arrivals, runtimes, and one per
    // task for its blocking decisions), so what one consumer draws never
    // shifts another's numbers.
    Rng(uint64_t seed, uint64_t stream) : Rng(mix(seed, stream)) {}
    uint64_t next() {
        const uint64_t out = rotl(s_[1] * 5, 7) * 9;
        const uint64_t t = s_[1] << 17;
        s_[2] ^= s_[0];
        s_[3] ^= s_[1];
        s_[1] ^= s_[2];
        s_[0] ^= s_[3];
        s_[2] ^= t;
        s_[3] = rotl(s_[3], 45);
        return out;
    }
    // Uniform in [0, 1).
    double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    bool chance(double p) { return unit() < p; }
    // Uniform integer in [lo, hi).
    uint64_t range(uint64_t lo, uint64_t hi) { return lo + next() % (hi - lo); }

  private:
    static uint64_t mix(uint64_t seed, uint64_t stream) {
        uint64_t x = seed ^ (stream * 0xd1b54a32d192ed03ull);
        return splitmix(x) ^ stream;
    }
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    static uint64_t splitmix(uint64_t& x) {
        uint64_t z = (x += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    uint64_t s_[4];
};

}  // namespace schedsim
