// sim/py_random.h - CPython's `random` module, host-side, for the OSTEP
// homework emulators (sim/ostep_*.cc): the same seed gives the same numbers
// as the scripts, so random job lists and lottery draws match them exactly.
//
// Design. CPython's generator is MT19937 (Matsumoto and Nishimura's
// reference algorithm). random.seed(n) for an integer n feeds the 32-bit
// words of |n|, least significant first ([0] for 0), to init_by_array;
// random() builds a 53-bit fraction from two outputs (a = out >> 5,
// b = out >> 6, (a * 2^26 + b) / 2^53); getrandbits(k <= 32) is one output
// shifted right by 32 - k; randbelow(n) draws getrandbits(bit_length(n))
// until the value is below n; choice and shuffle are Python 3's (choice:
// randbelow(len); shuffle: for i from len-1 down to 1 swap i with
// randbelow(i + 1)). Python 2's choice and shuffle scale random() instead,
// so for those two draws this matches Python 3 only; random() is the same
// in both. Only integer arithmetic and one exact division by a power of
// two: the numbers are the same on every machine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace schedsim {

class PyRandom {
  public:
    explicit PyRandom(int64_t seed) { this->seed(seed); }

    void seed(int64_t n);
    uint32_t next32();
    double random();                   // [0, 1), as random.random()
    uint32_t getrandbits(unsigned k);  // 0 <= k <= 32
    uint32_t randbelow(uint32_t n);    // n >= 1: uniform in [0, n)
    template <typename T>
    void shuffle(std::vector<T>& v) {
        for (size_t i = v.size(); i-- > 1;) {
            const size_t j = randbelow(static_cast<uint32_t>(i + 1));
            std::swap(v[i], v[j]);
        }
    }

  private:
    static constexpr int kN = 624;
    void init_genrand(uint32_t s);
    void init_by_array(const uint32_t* key, int len);
    uint32_t mt_[kN];
    int mti_ = kN + 1;
};

}  // namespace schedsim
