// kernel/lib/string.cc - memory and string routines (see string.h).
//
// memmove/memcpy/memset/memcmp are lib/memops.h's word-at-a-time loops
// (8 bytes per access when source and destination share their alignment,
// tested on the host against the C library). fork copies and kalloc zeroes
// whole pages with them: a byte loop cost ~4 instructions per byte.
// They are compiled without GCC's loop-to-library-call pattern matching,
// which would turn their loops into calls to themselves.
#include "kernel/lib/string.h"

#include "lib/memops.h"

using q::usize;

#define Q_NO_LIBCALL __attribute__((optimize("no-tree-loop-distribute-patterns")))

extern "C" Q_NO_LIBCALL void* memset(void* dst, int c, usize n) {
    q::memops::fill(dst, static_cast<unsigned char>(c), n);
    return dst;
}

extern "C" Q_NO_LIBCALL void* memmove(void* dst, const void* src, usize n) {
    q::memops::move_bytes(dst, src, n);
    return dst;
}

extern "C" Q_NO_LIBCALL void* memcpy(void* dst, const void* src, usize n) {
    q::memops::copy_forward(static_cast<unsigned char*>(dst), static_cast<const unsigned char*>(src), n);
    return dst;
}

extern "C" Q_NO_LIBCALL int memcmp(const void* a, const void* b, usize n) { return q::memops::compare(a, b, n); }

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
