// lib/in_place.h - construct an object in storage that already exists.
//
// The freestanding cross toolchain has no <new>, so the project has one
// tagged placement new of its own: `new (where, InPlace{}) T(args...)`.
// The tag keeps it from clashing with <new>'s on the host. It is used
// where storage outlives what lives in it (a buffer slab's header, a run
// queue's policy slot) and where a table must be built at boot because
// the compiler will not build it at compile time (kernel/proc/proc.cc)
// or should not, to keep it out of the image's .data (kernel/proc/tgroup.cc).
#pragma once

#include "lib/types.h"

namespace q {
struct InPlace {};
}  // namespace q

inline void* operator new(q::usize, void* where, q::InPlace) noexcept { return where; }
