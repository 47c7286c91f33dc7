// lib/obs/dump.h - what the scheduler trace's and the profiler's dumps
// share (lib/trace/format.h, lib/prof/format.h): one layout for the first
// 192 bytes of both headers, written by the kernel's per-hart recorder
// (kernel/obs/recorder.cc: Recorder::stop) and checked by the host readers
// (tools/dump_sections.h), so neither side keeps two copies of it.
//
// A dump is a header, whose first part is Sections, followed by one
// section per hart in hart order: counts[h] fixed-size records of
// record_size bytes each, in the order hart h wrote them. Integers are
// little-endian (RV64 and x86-64 alike). A reader checks magic, version,
// header_size, record_size, harts <= kMaxHarts, each count against the
// capacity and the exact length before trusting anything else; a dump from
// another kernel version is refused by version, never guessed at. Each
// format's header derives from Sections and adds its own fields after
// byte 192; changing this layout means bumping both formats' versions.
#pragma once

#include "lib/types.h"

namespace q::obs {

constexpr u32 kMaxHarts = 8;  // = param::kMaxCpus (checked by each kernel writer)

struct Sections {
    u64 magic;          // the format's eight-character tag
    u32 version;        // the format's version
    u32 header_size;    // sizeof the format's whole header
    u32 record_size;    // sizeof one record
    u32 harts;          // sections that follow (1..kMaxHarts)
    u64 timer_hz;       // timer cycles per second
    u64 period_cycles;  // the format's time step: the profiler's sampling period, the tracer's slice
    u64 start_time;     // recording start and stop, timer cycles since boot
    u64 stop_time;
    u64 capacity;            // records each hart's buffer holds
    u64 counts[kMaxHarts];   // records in each section
    u64 dropped[kMaxHarts];  // records lost because that hart's buffer was full
};
static_assert(sizeof(Sections) == 192, "the shared part of a dump header is 192 bytes");
static_assert(__builtin_offsetof(Sections, timer_hz) == 24 && __builtin_offsetof(Sections, capacity) == 56 &&
                  __builtin_offsetof(Sections, counts) == 64 && __builtin_offsetof(Sections, dropped) == 128,
              "Sections is both dump formats' layout: bump their versions to change it");

// Bytes of a dump with these sections: the header, then every section
// (no overflow for counts a reader has bounded first).
constexpr u64 dump_size(const Sections& s) {
    u64 n = s.header_size;
    for (u32 i = 0; i < s.harts && i < kMaxHarts; i++) n += s.counts[i] * s.record_size;
    return n;
}

}  // namespace q::obs
