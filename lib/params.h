// lib/params.h - the system-wide table sizes and limits that more than one
// subsystem, or a host tool, needs.
//
// Hitting any of these is an error return to the caller (never a panic).
// A limit private to one subsystem is a constant beside its code instead,
// for example the tracer's and profiler's buffers (kernel/obs/trace.cc,
// kernel/obs/prof.cc), the pipe table (kernel/fs/pipe.cc), poll's
// descriptors (kernel/fs/poll.cc), swap slots (kernel/mm/swap.cc), regions
// per process (lib/vm/regions.h), a console line (lib/console/line_edit.h),
// the scheduling library's own CPU bound (lib/sched/policy.h) and per-user
// process limits (lib/rlimit.h): `grep -rn 'constexpr.*kMax'` finds them.
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
constexpr u64 kCyclesPerUs = kTimerHz / 1'000'000;     // 10
constexpr u64 kNsPerCycle = 1'000'000'000 / kTimerHz;  // 100
constexpr u64 kTickCycles = 1'000'000;                 // sleep()/uptime() tick: 0.1 s
// Preemption slice: Linux's base slice rule (sysctl_sched_base_slice, log
// scaling): 0.75 ms x (1 + log2 harts), at most 8 harts counted, so 0.75 ms
// on 1 hart, 1.5 ms on 2, 2.25 ms on 4, 3 ms on 8 or more. Computed at boot
// from the hart count; boot arg slice=us overrides (slice=100000 is xv6's
// 1,000,000 cycles, the default until issue 23: a wake-up that did not
// preempt could wait 100 ms).
constexpr u64 kBaseSliceCycles = 7'500;  // 0.75 ms at 10 MHz
// Scheduler tick: while a process runs, every hart's timer also fires at
// each multiple of this (Linux's HZ=1000), where the running process is
// charged and the policy may preempt it (rq_tick); otherwise a woken task
// that could not preempt at once (EEVDF: not yet eligible) waited for the
// running one's slice end. Boot arg tick_us=us overrides (0: none, as
// before issue 23's turn quantum work).
constexpr u64 kSchedTickCycles = 10'000;  // 1 ms
constexpr u64 default_slice_cycles(int harts) {
    u64 factor = 1;
    for (int n = harts > 8 ? 8 : harts; n > 1; n /= 2) factor++;
    return kBaseSliceCycles * factor;
}
static_assert(default_slice_cycles(1) == 7'500 && default_slice_cycles(2) == 15'000);
static_assert(default_slice_cycles(3) == 15'000 && default_slice_cycles(4) == 22'500);
static_assert(default_slice_cycles(8) == 30'000 && default_slice_cycles(64) == 30'000);

}  // namespace q::param
