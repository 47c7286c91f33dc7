// kernel/lib/kprintf.h - kernel console output and panic.
//
// kprintf supports %d %u %x %p %s %c and %%, a long modifier (%ld %lu %lx) and
// a field width with optional left alignment (%5d, %-10s).
// Output goes to the UART synchronously, serialised by a lock so lines from
// different harts do not interleave; panic() disables that lock so it can
// always print, then stops every hart.
#pragma once

#include "lib/types.h"

namespace q {

void kprintf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
[[noreturn]] void panic(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
extern volatile bool g_panicked;

}  // namespace q
