// kernel/lib/string.cc - memory and string routines (see string.h).
//
// Byte loops: simple and obviously correct; the compiler vectorises nothing
// here (rv64imac) and these are not on any hot path that matters.
#include "kernel/lib/string.h"

using q::usize;

extern "C" void* memset(void* dst, int c, usize n) {
    // volatile: keep the compiler from turning these loops into a memset call.
    auto* d = static_cast<volatile unsigned char*>(dst);
    usize i = 0;
    if ((reinterpret_cast<usize>(dst) & 7) == 0) {
        const q::u64 word = static_cast<unsigned char>(c) * 0x0101010101010101ull;
        for (; i + 8 <= n; i += 8) *reinterpret_cast<volatile q::u64*>(d + i) = word;
    }
    for (; i < n; i++) d[i] = static_cast<unsigned char>(c);
    return dst;
}

extern "C" void* memmove(void* dst, const void* src, usize n) {
    auto* d = static_cast<unsigned char*>(dst);
    const auto* s = static_cast<const unsigned char*>(src);
    if (d == s || n == 0) return dst;
    if (s < d && s + n > d) {
        for (usize i = n; i > 0; i--) d[i - 1] = s[i - 1];
    } else {
        for (usize i = 0; i < n; i++) d[i] = s[i];
    }
    return dst;
}

extern "C" void* memcpy(void* dst, const void* src, usize n) { return memmove(dst, src, n); }

extern "C" int memcmp(const void* a, const void* b, usize n) {
    const auto* x = static_cast<const unsigned char*>(a);
    const auto* y = static_cast<const unsigned char*>(b);
    for (usize i = 0; i < n; i++) {
        if (x[i] != y[i]) return x[i] - y[i];
    }
    return 0;
}

namespace q {

int strncmp(const char* a, const char* b, usize n) {
    for (; n > 0; n--, a++, b++) {
        if (*a != *b) return static_cast<unsigned char>(*a) - static_cast<unsigned char>(*b);
        if (*a == 0) return 0;
    }
    return 0;
}

void safe_strcpy(char* dst, const char* src, usize n) {
    if (n == 0) return;
    usize i = 0;
    for (; i + 1 < n && src[i]; i++) dst[i] = src[i];
    dst[i] = 0;
}

usize strlen(const char* s) {
    usize n = 0;
    while (s[n]) n++;
    return n;
}

}  // namespace q
