// lib/fs/log_logic.h - the write-ahead log's bookkeeping (pure, host-testable).
//
// The kernel's log (kernel/fs/log.cc) keeps, in a LogHeader, one slot per
// logged block: the block's home number; slot i's copy sits in log block
// logstart + 1 + i. Slots [0, committed) belong to transactions that are
// committed (on disk, header included) but not yet installed at their homes;
// slots [committed, n) to the open group. A home block may have slots in
// several committed transactions: replay copies slots in order, so the last
// one wins. Within the open group a block written twice is "absorbed": it
// keeps its one slot, and the cached copy is logged once at commit.
//
// Every home block with a slot stays pinned in the buffer cache until it is
// installed, so readers always find the newest copy there. `pinned` counts
// those distinct blocks; kLogPinBudget bounds them, leaving the cache room
// for the blocks operations read. With memory exhausted the cache is its
// fixed floor (param::kBufs) alone, and pinned blocks may fill all of their
// budget; the floor must then still hold what the running operations hold
// at once, or an operation holding one block and waiting for another would
// wait forever. At most kLogMaxOps operations run (admission below), and
// one holds at most kOpHeldBufs blocks at a time (bmap: the indirect block
// and the bitmap, or the indirect block and the block it allocates; itrunc:
// the indirect block and the bitmap); everything else (reads, exec, the
// commit) holds one block at a time and waits for none while holding it.
//
// Admission control lets a new operation start only if, after every running
// operation writes its worst case (kMaxOpBlocks new slots, each a newly
// pinned block), both the log and the pin budget still have room. After a
// commit the log is installed (and emptied) when fewer than kLogGroupOps
// operations could begin, so an empty system always admits one.
//
// Invariants: block[committed..n) are distinct; committed <= n <= capacity
// <= kLogBlocks; pinned <= kLogPinBudget; pinned <= n.
#pragma once

#include "lib/fs/layout.h"
#include "lib/params.h"

namespace q::fs {

// Distinct blocks the log may keep pinned in the buffer cache.
constexpr u32 kLogPinBudget = 3 * static_cast<u32>(param::kMaxOpBlocks) - 1;
// Operations that must be able to begin together after a commit (group commit).
constexpr u32 kLogGroupOps = 2;
// The most operations admission lets run at once, and the most blocks one
// of them holds at a time (see the top of the file).
constexpr u32 kLogMaxOps = kLogPinBudget / static_cast<u32>(param::kMaxOpBlocks);
constexpr u32 kOpHeldBufs = 2;
static_assert(static_cast<u32>(param::kBufs) >= kLogPinBudget + kLogMaxOps * kOpHeldBufs + 1,
              "with memory exhausted, the fixed buffers hold every pin and every running operation's blocks");
static_assert(kLogPinBudget <= static_cast<u32>(param::kLogBlocks), "the cache keeps at most a log's worth");
static_assert(kLogPinBudget >= kLogGroupOps * static_cast<u32>(param::kMaxOpBlocks), "the pin budget admits a group");

// Blocks a log region of `nlog` blocks (the header included) can hold.
constexpr u32 log_capacity(u32 nlog) {
    const u32 data = nlog > 0 ? nlog - 1 : 0;
    return data < static_cast<u32>(param::kLogBlocks) ? data : static_cast<u32>(param::kLogBlocks);
}

// May one more operation begin, with `outstanding` already running, `n`
// slots used and `pinned` blocks pinned?
constexpr bool log_admits(u32 n, u32 pinned, u32 outstanding, u32 capacity) {
    const u32 worst = (outstanding + 1) * static_cast<u32>(param::kMaxOpBlocks);
    return n + worst <= capacity && pinned + worst <= kLogPinBudget;
}
static_assert(log_admits(0, 0, kLogMaxOps - 1, param::kLogBlocks) && !log_admits(0, 0, kLogMaxOps, param::kLogBlocks),
              "admission lets kLogMaxOps operations run at once, never more");

// After a commit (no operation running): install the log now?
constexpr bool log_must_install(u32 n, u32 pinned, u32 capacity) {
    return !log_admits(n, pinned, kLogGroupOps - 1, capacity);
}

enum class Absorb : u8 {
    Already,   // the block has a slot in the open group: nothing to do
    Added,     // new slot for a block the log did not hold (the caller pins it)
    Relogged,  // new slot for a block a committed transaction holds (pinned already)
    Full,      // no room: a kernel bug, since admission reserves space
};

// Record that the open group (slots from `committed` on) wrote home block `blockno`.
constexpr Absorb log_absorb(LogHeader& h, u32 committed, u32 capacity, u32 blockno) {
    for (u32 i = committed; i < h.n; i++)
        if (h.block[i] == blockno) return Absorb::Already;
    if (h.n >= capacity) return Absorb::Full;
    bool held = false;
    for (u32 i = 0; i < committed && !held; i++) held = h.block[i] == blockno;
    h.block[h.n++] = blockno;
    return held ? Absorb::Relogged : Absorb::Added;
}

// Is slot i the last one of its block (the copy replay leaves at home)?
constexpr bool log_last_slot(const LogHeader& h, u32 i) {
    for (u32 j = i + 1; j < h.n; j++)
        if (h.block[j] == h.block[i]) return false;
    return true;
}

// Is a header read back from disk sane for a log of this capacity?
constexpr bool log_header_valid(const LogHeader& h, u32 capacity) {
    if (h.n > capacity) return false;
    return h.magic == 0 ? h.prev == 0 && h.sum == 0 : h.magic == kLogMagic && h.prev <= h.n;
}

// The checksum of a transaction's slots: FNV-1a over 64-bit words of each
// slot's home block number and contents, in slot order. Start from
// kLogSumSeed and add each slot with log_sum_slot.
constexpr u64 kLogSumSeed = 0xcbf29ce484222325ull;
constexpr u64 kLogSumPrime = 0x100000001b3ull;
// (Words are loaded in the machine's order: little endian on RISC-V and
// the x86-64 host alike, like every integer on disk.)
inline u64 log_sum_slot(u64 h, u32 home, const u8* data) {
    h = (h ^ home) * kLogSumPrime;
    for (u32 i = 0; i < kBlockSize; i += 8) {
        u64 w;
        __builtin_memcpy(&w, data + i, sizeof w);
        h = (h ^ w) * kLogSumPrime;
    }
    return h;
}

// Slots recovery replays from a valid header, given `last_sum`, the
// checksum of slots [prev, n) as found on disk: all of them, unless that
// checksum disagrees with the header's (a crash cut the last transaction's
// writes, so its call never returned), then the slots before it.
constexpr u32 log_replay_count(const LogHeader& h, u64 last_sum) {
    if (h.magic != kLogMagic) return h.n;
    return last_sum == h.sum ? h.n : h.prev;
}

}  // namespace q::fs
