// lib/prof/format.h - the sampling profiler's binary dump format: one
// definition for the kernel (kernel/obs/prof.cc writes it) and the host
// reader (tools/prof_reader.cc parses it).
//
// A dump is a DumpHeader followed by one section per hart, in hart order:
// header.counts[h] fixed-size Samples each, in the order that hart took
// them. The header's first 192 bytes, and the rules a reader checks them
// by, are the scheduler trace's too (lib/obs/dump.h: Sections, whose
// period_cycles is the sampling period here); every layout is pinned by
// static_assert.
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

#include "lib/obs/dump.h"
#include "lib/types.h"

namespace q::prof {

constexpr u64 kMagic = 0x3130464f52505451ull;  // "QTPROF01" little-endian
constexpr u32 kVersion = 1;
constexpr u32 kMaxHarts = obs::kMaxHarts;
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

// Sections (record_size = sizeof(Sample), period_cycles = the sampling
// period), then nothing of its own yet.
struct DumpHeader : obs::Sections {
    u8 reserved[64];
};
static_assert(sizeof(DumpHeader) == 256, "the dump header is 256 bytes");

}  // namespace q::prof
