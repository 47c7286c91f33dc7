// lib/prof/format.h - the sampling profiler's binary dump format: one
// definition for the kernel (kernel/prof/prof.cc writes it) and the host
// reader (tools/prof_reader.cc parses it).
//
// A dump is a DumpHeader followed by one section per hart, in hart order:
// header.samples[h] fixed-size Samples each, in the order that hart took
// them. Integers are little-endian (RV64 and x86-64 alike); every layout is
// pinned by static_assert. A reader must check magic, version, header_size,
// sample_size, harts <= kMaxHarts and the total length before trusting
// anything else; a dump from another kernel version is refused by version.
//
// A Sample is the program counter a timer interrupt found: sepc, the
// interrupted instruction (a user address when mode is User, a kernel text
// address when Kernel), with the process running on that hart (pid 0 and
// an empty name: the hart was idle in its scheduler loop). A kernel sample
// also keeps up to kMaxCallers return addresses from the frame-pointer
// chain (innermost first; the kernel is built with -fno-omit-frame-pointer;
// the walk stays inside the interrupted stack's page), so the host tool's
// folded stacks are real kernel call stacks; a user sample keeps only its
// PC (depth 0). See docs/profiling.md.
#pragma once

#include "lib/types.h"

namespace q::prof {

constexpr u64 kMagic = 0x3130464f52505451ull;  // "QTPROF01" little-endian
constexpr u32 kVersion = 1;
constexpr u32 kMaxHarts = 8;  // = param::kMaxCpus (checked in kernel/prof/prof.cc)
constexpr u32 kNameLen = 16;
constexpr u32 kMaxCallers = 12;

enum class Mode : u8 { Kernel = 0, User = 1 };

struct Sample {
    u64 pc;                    // the interrupted instruction (sepc)
    i32 pid;                   // running process, 0 if the hart was idle
    u8 cpu;                    // hart that took it
    u8 mode;                   // Mode
    u8 depth;                  // callers[0..depth) are valid (<= kMaxCallers)
    u8 reserved;               // 0
    char name[kNameLen];       // the process's name (NUL-padded, not always NUL-terminated)
    u64 callers[kMaxCallers];  // return addresses, innermost first (kernel samples)
};
static_assert(sizeof(Sample) == 128, "a Sample is 128 bytes in every dump");
static_assert(__builtin_offsetof(Sample, pid) == 8 && __builtin_offsetof(Sample, cpu) == 12 &&
                  __builtin_offsetof(Sample, mode) == 13 && __builtin_offsetof(Sample, depth) == 14 &&
                  __builtin_offsetof(Sample, name) == 16 && __builtin_offsetof(Sample, callers) == 32,
              "Sample layout is the dump format: bump kVersion to change it");

struct DumpHeader {
    u64 magic;
    u32 version;
    u32 header_size;  // sizeof(DumpHeader)
    u32 sample_size;  // sizeof(Sample)
    u32 harts;        // sections that follow (<= kMaxHarts)
    u64 timer_hz;
    u64 period_cycles;       // sampling period, timer cycles
    u64 start_time;          // profiling start and stop, timer cycles since boot
    u64 stop_time;           //
    u64 capacity;            // samples each hart's buffer holds
    u64 samples[kMaxHarts];  // samples in each section
    u64 dropped[kMaxHarts];  // samples lost because that hart's buffer was full
    u8 reserved[64];
};
static_assert(sizeof(DumpHeader) == 256, "the dump header is 256 bytes");
static_assert(__builtin_offsetof(DumpHeader, samples) == 64 && __builtin_offsetof(DumpHeader, dropped) == 128,
              "DumpHeader layout is the dump format: bump kVersion to change it");

// Bytes of a dump with this header (no overflow for headers whose counts
// are bounded by a sane capacity: readers check that first).
constexpr u64 dump_size(const DumpHeader& h) {
    u64 n = sizeof(DumpHeader);
    for (u32 i = 0; i < h.harts && i < kMaxHarts; i++) n += h.samples[i] * sizeof(Sample);
    return n;
}

}  // namespace q::prof
