// sim/py_random.cc - MT19937 and CPython's seeding and draws (see
// py_random.h for the design).
#include "sim/py_random.h"

namespace schedsim {

namespace {
constexpr int kM = 397;
constexpr uint32_t kMatrixA = 0x9908b0dfu, kUpper = 0x80000000u, kLower = 0x7fffffffu;
}  // namespace

void PyRandom::init_genrand(uint32_t s) {
    mt_[0] = s;
    for (int i = 1; i < kN; i++) mt_[i] = 1812433253u * (mt_[i - 1] ^ (mt_[i - 1] >> 30)) + static_cast<uint32_t>(i);
    mti_ = kN;
}

void PyRandom::init_by_array(const uint32_t* key, int len) {
    init_genrand(19650218u);
    int i = 1, j = 0;
    for (int k = kN > len ? kN : len; k > 0; k--) {
        mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1664525u)) + key[j] + static_cast<uint32_t>(j);
        i++;
        j++;
        if (i >= kN) {
            mt_[0] = mt_[kN - 1];
            i = 1;
        }
        if (j >= len) j = 0;
    }
    for (int k = kN - 1; k > 0; k--) {
        mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1566083941u)) - static_cast<uint32_t>(i);
        i++;
        if (i >= kN) {
            mt_[0] = mt_[kN - 1];
            i = 1;
        }
    }
    mt_[0] = 0x80000000u;  // a non-zero initial state
}

void PyRandom::seed(int64_t n) {
    // |n| as 32-bit words, least significant first (INT64_MIN's magnitude fits in u64).
    uint64_t mag = n < 0 ? 0 - static_cast<uint64_t>(n) : static_cast<uint64_t>(n);
    uint32_t key[2] = {static_cast<uint32_t>(mag), static_cast<uint32_t>(mag >> 32)};
    init_by_array(key, key[1] != 0 ? 2 : 1);
}

uint32_t PyRandom::next32() {
    if (mti_ >= kN) {
        int k = 0;
        for (; k < kN - kM; k++) {
            const uint32_t y = (mt_[k] & kUpper) | (mt_[k + 1] & kLower);
            mt_[k] = mt_[k + kM] ^ (y >> 1) ^ ((y & 1u) ? kMatrixA : 0u);
        }
        for (; k < kN - 1; k++) {
            const uint32_t y = (mt_[k] & kUpper) | (mt_[k + 1] & kLower);
            mt_[k] = mt_[k + (kM - kN)] ^ (y >> 1) ^ ((y & 1u) ? kMatrixA : 0u);
        }
        const uint32_t y = (mt_[kN - 1] & kUpper) | (mt_[0] & kLower);
        mt_[kN - 1] = mt_[kM - 1] ^ (y >> 1) ^ ((y & 1u) ? kMatrixA : 0u);
        mti_ = 0;
    }
    uint32_t y = mt_[mti_++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

double PyRandom::random() {
    const uint32_t a = next32() >> 5, b = next32() >> 6;
    return (static_cast<double>(a) * 67108864.0 + static_cast<double>(b)) * (1.0 / 9007199254740992.0);
}

uint32_t PyRandom::getrandbits(unsigned k) { return k == 0 ? 0 : next32() >> (32 - k); }

uint32_t PyRandom::randbelow(uint32_t n) {
    unsigned k = 0;
    while (k < 32 && (n >> k) != 0) k++;  // n.bit_length()
    uint32_t r = getrandbits(k);
    while (r >= n) r = getrandbits(k);
    return r;
}

}  // namespace schedsim
