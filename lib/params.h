// lib/params.h - the system's table sizes and tunable limits, in one place.
//
// Hitting any of these is an error return to the caller (never a panic).
// Limits private to one subsystem stay beside its code instead: trace and
// profile buffers (kernel/trace/trace.cc, kernel/prof/prof.cc), the pipe
// table (kernel/fs/pipe.cc), regions per process (lib/vm/regions.h), the
// scheduling library's own CPU bound (lib/sched/policy.h) and per-user
// process limits (lib/rlimit.h).
// Shared by the kernel and host tools (mkfs, fsck, tests).
#pragma once

#include "lib/types.h"

namespace q::param {

constexpr int kMaxCpus = 8;                     // harts the kernel supports
constexpr int kDefaultCpus = 3;                 // used when the device tree is absent
constexpr int kMaxProcs = 256;                  // process table size (a thread takes a slot too)
constexpr int kRootReserveProcs = 8;            // last slots only root may take (lib/rlimit.h)
constexpr int kMaxThreadsPerProc = 32;          // threads one process may have (its first included)
constexpr int kMaxOpenPerProc = 16;             // open files per process
constexpr int kMaxFiles = 400;                  // open files, system-wide
constexpr int kMaxInodes = 200;                 // active in-memory inodes
constexpr int kRootReservedFiles = 16;          // of kMaxFiles, only root's processes may take
constexpr int kRootReservedInodes = 16;         // of kMaxInodes, only root's processes may take
constexpr int kMaxDevices = 10;                 // device major numbers
constexpr int kRootDev = 1;                     // device number of the root disk
constexpr int kMaxExecArgs = 32;                // argv entries for exec
constexpr int kMaxOpBlocks = 10;                // blocks one FS operation may write
constexpr int kLogBlocks = 64;                  // log size in blocks (header + 63 slots; the header must fit a sector)
constexpr int kBufs = kMaxOpBlocks * 4;         // the buffer cache's fixed floor (lib/fs/log_logic.h: why)
constexpr int kFsBlocks = 5000;                 // default file-system size in blocks
constexpr int kFsInodes = 400;                  // default inode count (> NINODE + 1: xv6's iref)
constexpr int kMaxPath = 128;                   // longest path accepted
constexpr int kUserStackPages = 1;              // user stack pages mapped at exec (argv on them)
constexpr int kUserStackMaxPages = 32;          // what the stack may grow to on faults (128 KiB)
constexpr u64 kDefaultRamBytes = 128ull << 20;  // when the device tree is absent

// Timer: QEMU virt's time CSR runs at 10 MHz.
constexpr u64 kTimerHz = 10'000'000;
constexpr u64 kTickCycles = 1'000'000;          // sleep()/uptime() tick: 0.1 s
constexpr u64 kDefaultSliceCycles = 1'000'000;  // preemption slice (boot arg slice=us)

}  // namespace q::param
