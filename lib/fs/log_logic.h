// lib/fs/log_logic.h - the write-ahead log's bookkeeping (pure, host-testable).
//
// The kernel's log (kernel/fs/log.cc) keeps, in a LogHeader, the home block
// numbers of every block the open transaction has written. Writing a block
// that is already listed "absorbs" it: the cached copy will be logged once at
// commit, so the log never holds a block twice. Admission control lets a new
// file-system operation start only if, after every running operation writes
// its worst case (kMaxOpBlocks), the log still has room.
//
// Invariants: block[0..n) are distinct; n <= capacity <= kLogBlocks.
#pragma once

#include "lib/fs/layout.h"
#include "lib/params.h"

namespace q::fs {

// Blocks a log region of `nlog` blocks (the header included) can hold.
constexpr u32 log_capacity(u32 nlog) {
    const u32 data = nlog > 0 ? nlog - 1 : 0;
    return data < static_cast<u32>(param::kLogBlocks) ? data : static_cast<u32>(param::kLogBlocks);
}

// May one more operation begin, with `outstanding` already running and `n`
// blocks already in the transaction?
constexpr bool log_admits(u32 n, u32 outstanding, u32 capacity) {
    return n + (outstanding + 1) * static_cast<u32>(param::kMaxOpBlocks) <= capacity;
}

enum class Absorb : u8 {
    Already,  // the block was in the transaction: nothing to do
    Added,    // newly recorded (the caller pins the buffer)
    Full,     // no room: a kernel bug, since admission reserves space
};

// Record that the transaction wrote home block `blockno`.
constexpr Absorb log_absorb(LogHeader& h, u32 capacity, u32 blockno) {
    for (u32 i = 0; i < h.n; i++)
        if (h.block[i] == blockno) return Absorb::Already;
    if (h.n >= capacity) return Absorb::Full;
    h.block[h.n++] = blockno;
    return Absorb::Added;
}

// Is a header read back from disk sane for a log of this capacity?
constexpr bool log_header_valid(const LogHeader& h, u32 capacity) { return h.n <= capacity; }

}  // namespace q::fs
