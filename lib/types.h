// lib/types.h - fixed-width integer names, the user address type, the page
// size and q::move.
//
// Shared by the kernel (freestanding) and host tools. Only freestanding
// headers are used. UserAddr (an Addr<UserTag>) is the one strong address
// type: an address a user program passed in, untrusted, which only the
// checked copies (kernel/mm/uaccess.h) turn into memory accesses; getting
// its number is an explicit, greppable .raw(). Physical and kernel
// addresses are plain u64s and pointers: the kernel maps physical memory
// at the same addresses (kernel/arch/riscv/memlayout.h), so they are one.
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace q {

using u8 = uint8_t;
using u16 = uint16_t;
using u32 = uint32_t;
using u64 = uint64_t;
using i8 = int8_t;
using i16 = int16_t;
using i32 = int32_t;
using i64 = int64_t;
using usize = size_t;

// std::move without <utility>, which the freestanding kernel build lacks.
template <typename T>
constexpr T&& move(T& t) {
    return static_cast<T&&>(t);
}

// A strongly typed 64-bit address. Tag distinguishes the address spaces.
template <typename Tag>
struct Addr {
    u64 value = 0;
    constexpr Addr() = default;
    constexpr explicit Addr(u64 v) : value(v) {}
    constexpr u64 raw() const { return value; }
    constexpr Addr operator+(u64 off) const { return Addr(value + off); }
    constexpr Addr operator-(u64 off) const { return Addr(value - off); }
    constexpr u64 operator-(Addr other) const { return value - other.value; }
    constexpr Addr& operator+=(u64 off) {
        value += off;
        return *this;
    }
    // Spelled out rather than a defaulted <=>: <compare> is unusable in the
    // freestanding lp64 kernel build (its libstdc++ pulls in glibc headers).
    constexpr bool operator==(const Addr&) const = default;
    constexpr bool operator<(const Addr& o) const { return value < o.value; }
    constexpr bool operator<=(const Addr& o) const { return value <= o.value; }
    constexpr bool operator>(const Addr& o) const { return value > o.value; }
    constexpr bool operator>=(const Addr& o) const { return value >= o.value; }
    constexpr bool is_null() const { return value == 0; }
};

struct UserTag {};
using UserAddr = Addr<UserTag>;  // address supplied by a user program (untrusted)

constexpr u64 kPageSize = 4096;
constexpr u64 kPageShift = 12;
constexpr u64 page_round_up(u64 a) { return (a + kPageSize - 1) & ~(kPageSize - 1); }
constexpr u64 page_round_down(u64 a) { return a & ~(kPageSize - 1); }

}  // namespace q
