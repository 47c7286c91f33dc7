// kernel/lib/string.h - the few memory and string routines the kernel uses.
//
// memset/memcpy/memmove/memcmp have C linkage because the compiler may emit
// calls to them. The rest are small, bounded (n-limited) helpers.
#pragma once

#include "lib/types.h"

extern "C" {
void* memset(void* dst, int c, q::usize n);
void* memcpy(void* dst, const void* src, q::usize n);
void* memmove(void* dst, const void* src, q::usize n);
int memcmp(const void* a, const void* b, q::usize n);
}

namespace q {

int strncmp(const char* a, const char* b, usize n);
// Copy at most n-1 characters and always NUL-terminate (when n > 0).
void safe_strcpy(char* dst, const char* src, usize n);
usize strlen(const char* s);

}  // namespace q
