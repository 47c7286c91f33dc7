// kernel/mm/swap.h - swap and page replacement (docs/memory.md "Swap").
//
// With a swap disk (kernel/dev/swap_disk.h) the private anonymous pages of
// processes (heap, stack, private anonymous mmap: the pages the fault path
// zero-fills or copies on write) may be written out when free memory runs
// low, and read back on the next touch (a major fault). A swapped page's
// entry has V clear and kPteSwapped set, and names its slot in the PPN
// field; nothing else of it is kept (the region's permissions are used
// when it comes back, so an mprotect meanwhile holds).
// Lock order: a page-table lock (ThreadGroup::pt_lock), then the swap lock
// (a leaf; kfree takes it too). Page-out and swap-in take the page-table
// lock only around their checks, never across disk I/O.
#pragma once

#include "kernel/arch/riscv/csr.h"
#include "lib/types.h"

namespace q {

struct ThreadGroup;
using riscv::Pte;

constexpr u64 kPteSwapped = 1ull << 8;  // in an entry with V clear (the same RSW bit as kPteCow's)

inline bool pte_swapped(Pte e) { return (e & riscv::kPteV) == 0 && (e & kPteSwapped) != 0; }

// Boot: probe the swap disk; policy is the vm= boot argument ("fifo" or
// "clock", lib/boot_args.h; empty: clock).
void swap_init(const char* policy);
const char* swap_policy_name();
// Inline, so the per-page paths (fault, fork, unmap, kfree) pay one load
// and a branch without a swap disk, not a call.
extern constinit bool g_swap_on;  // set once at boot, before any process
inline bool swap_on() { return g_swap_on; }
// Pages the swap area holds, and how many of them are free (0 and 0 with
// no swap area). swap_free_slots is a lock-free read.
u64 swap_total_slots();
u64 swap_free_slots();

// The core map: who maps each frame that may be swapped. kalloc_init
// carves swap_coremap_bytes(frames) for it before the pool is built.
u64 swap_coremap_bytes(u64 frames);
void swap_coremap_init(void* mem, u64 first_pa, u64 frames);
// A private anonymous page of tg at va just became resident (pt_lock held).
void swap_track(void* frame, const ThreadGroup* tg, u64 va);
// The frame leaves its owner (freed, or now shared with another process).
void swap_untrack(void* frame);

// A swapped entry is copied by fork (pt_lock of the parent held): false if
// the slot is named by too many entries (the caller fails the fork).
bool swap_entry_dup(Pte e);
// A swapped entry is dropped (munmap, exit, exec, sbrk shrink): true if
// other entries still name its slot (then the caller gives back the
// promise this entry held, as for a shared frame).
bool swap_entry_drop(Pte e);

// Page out up to n of tg's pages; the caller is a thread of tg (local
// replacement: docs/memory.md "Swap") and may sleep (no spinlock held).
// Returns how many went.
u64 swap_reclaim(ThreadGroup* tg, u64 n);
// Page out tg's pages until free memory is above lib/oom.h's low watermark
// again, if it is below it (the fault path calls this first).
void swap_balance(ThreadGroup* tg);

enum class SwapIn : u8 { Mapped, Retry, NoMemory };
// The swapped page of tg at va back in (may sleep). Retry: the entry
// changed meanwhile (another thread brought it in, or it was unmapped).
SwapIn swap_in(ThreadGroup* tg, u64 va);

}  // namespace q
