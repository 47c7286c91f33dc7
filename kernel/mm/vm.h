// kernel/mm/vm.h - Sv39 page tables for the kernel and for processes.
//
// A PageTable is the physical (= kernel virtual, identity-mapped) address of
// a root page. User address spaces cover [0, sz) with U-bit pages, plus the
// trampoline and one trapframe per thread at the top (no U bit). The
// threads of a process share one table, so a change another hart must see
// publishes the page (or table) before the entry that maps it. Every function that
// changes a user table keeps it consistent on failure: an allocation that
// runs out of memory undoes its partial work and reports Error::NoMemory.
#pragma once

#include "kernel/arch/riscv/csr.h"
#include "lib/result.h"
#include "lib/types.h"

namespace q {

using PageTable = u64*;
using riscv::Pte;

// A software bit (RSW) of a user leaf: a page shared copy-on-write, mapped
// without W; a write fault copies it or, if it is the last mapping, makes
// it writable again (kernel/mm/fault.cc).
constexpr u64 kPteCow = 1ull << 8;
// A software bit of a user leaf in a MAP_SHARED mapping: fork maps the same
// page in the child, writable, never copy-on-write (kernel/mm/mmap.cc), and
// a futex word in it is keyed by its physical address (kernel/proc/futex.cc).
constexpr u64 kPteShared = 1ull << 9;

void kvm_init();       // build the kernel page table (hart 0)
void kvm_init_hart();  // switch this hart to it
extern PageTable g_kernel_pagetable;

Pte* walk(PageTable pt, u64 va, bool alloc);
Status map_pages(PageTable pt, u64 va, u64 size, u64 pa, u64 perm);
// Physical address of a user-accessible page, or 0.
u64 walk_user(PageTable pt, u64 va);

// Map one user page at va, taking any missing page-table page from the
// promises counted in *spare_tables first (kalloc_reserved), else kalloc.
Status map_user_page(PageTable pt, u64 va, u64 pa, u64 perm, u64* spare_tables);

PageTable uvm_create();
// Returns how many of the pages were not mapped (a lazy heap's untouched ones).
u64 uvm_unmap(PageTable pt, u64 va, u64 npages, bool free_pages);
// Grow from oldsz to newsz; new pages get perm (R/W/X bits) plus U.
Result<u64> uvm_alloc(PageTable pt, u64 oldsz, u64 newsz, u64 perm);
// uvm_alloc for a table other threads use: it first reuses, zeroed, the
// pages of [oldsz, *top) that uvm_revoke kept mapped, and when memory runs
// out it frees nothing (what it mapped is kept, *top grows over it).
Result<u64> uvm_grow(PageTable pt, u64 oldsz, u64 newsz, u64* top, u64 perm);
// A lazy heap's growth from oldsz to newsz: pages of [oldsz, top) that
// uvm_revoke kept mapped are zeroed and handed back (perm plus U), the
// others stay unmapped for the page-fault path. Allocates nothing; returns
// how many pages it left unmapped (the caller promises them: kalloc_reserve).
u64 uvm_grow_lazy(PageTable pt, u64 oldsz, u64 newsz, u64 top, u64 perm);
// Shrink from oldsz to newsz, freeing the pages; *holes (if given): how many
// pages of the range were never mapped.
u64 uvm_dealloc(PageTable pt, u64 oldsz, u64 newsz, u64* holes = nullptr);
// Shrink from oldsz to newsz without freeing: the pages stay mapped, not
// user-accessible, for a shared table whose other harts may still cache
// them (kernel/proc/proc.cc:grow_proc); uvm_dealloc or uvm_free frees them.
// Returns how many pages of the range were never mapped.
u64 uvm_revoke(PageTable pt, u64 newsz, u64 oldsz);
// Free [0, sz)'s pages, then every page-table page. Below the top GiB only
// the entries of [0, max(sz, tables_end)) and of the range the table's own
// pages were made for are read (kernel/mm/vm.cc:free_table): every other
// entry must be 0 (tables_end: the end of the caller's mappings).
void uvm_free(PageTable pt, u64 sz, u64 tables_end = 0);
// Copy [0, sz)'s mapped pages; *holes: how many pages were not mapped.
Status uvm_copy(PageTable from, PageTable to, u64 sz, u64* holes);
// fork without copying: map [0, sz)'s pages in `to` too (page_dup), the
// writable ones copy-on-write in both tables. Only for a table no other
// hart may be using (a single-threaded process: its own hart flushes its
// TLB on the way back to user mode). On failure `to` is emptied again.
Status uvm_share(PageTable from, PageTable to, u64 sz, u64* holes);
// The same for [start, end) (page-aligned): mmap's regions. uvm_share_range
// with cow false maps the pages writable as they are in both (MAP_SHARED).
Status uvm_copy_range(PageTable from, PageTable to, u64 start, u64 end, u64* holes);
Status uvm_share_range(PageTable from, PageTable to, u64 start, u64 end, u64* holes, bool cow);
// How many pages of [start, end) pt maps kPteShared from the page cache
// (kernel/mm/pcache.h): mappings that hold no promise, which uvm_share and
// uvm_share_range promised like the others (their callers give those back:
// kernel/mm/mmap.cc:vm_file_promises). ask: test each page (false: the
// caller knows a kPteShared page there is the cache's: demand-paged text).
u64 uvm_file_shared(PageTable pt, u64 start, u64 end, bool ask);
// Empty [start, end) of a copy uvm_share, uvm_share_range or
// uvm_copy_range made, when what follows the copy fails: uvm_unmap gives
// back the promises of what it puts, and this also those of the
// page-cache pages the copy mapped kPteShared (which uvm_unmap does not).
void uvm_unshare(PageTable pt, u64 start, u64 end);
// The aligned 32-bit word at user address va, if the process may read and
// write it (a futex word); null otherwise.
u32* user_word(PageTable pt, u64 va);

}  // namespace q
