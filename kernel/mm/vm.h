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

void kvm_init();       // build the kernel page table (hart 0)
void kvm_init_hart();  // switch this hart to it
extern PageTable g_kernel_pagetable;

Pte* walk(PageTable pt, u64 va, bool alloc);
Status map_pages(PageTable pt, u64 va, u64 size, u64 pa, u64 perm);
// Physical address of a user-accessible page, or 0.
u64 walk_user(PageTable pt, u64 va);

PageTable uvm_create();
void uvm_unmap(PageTable pt, u64 va, u64 npages, bool free_pages);
// Grow from oldsz to newsz; new pages get perm (R/W/X bits) plus U.
Result<u64> uvm_alloc(PageTable pt, u64 oldsz, u64 newsz, u64 perm);
// uvm_alloc for a table other threads use: it first reuses, zeroed, the
// pages of [oldsz, *top) that uvm_revoke kept mapped, and when memory runs
// out it frees nothing (what it mapped is kept, *top grows over it).
Result<u64> uvm_grow(PageTable pt, u64 oldsz, u64 newsz, u64* top, u64 perm);
// Shrink from oldsz to newsz, freeing the pages.
u64 uvm_dealloc(PageTable pt, u64 oldsz, u64 newsz);
// Shrink from oldsz to newsz without freeing: the pages stay mapped, not
// user-accessible, for a shared table whose other harts may still cache
// them (kernel/proc/proc.cc:grow_proc); uvm_dealloc or uvm_free frees them.
void uvm_revoke(PageTable pt, u64 newsz, u64 oldsz);
void uvm_free(PageTable pt, u64 sz);
Status uvm_copy(PageTable from, PageTable to, u64 sz);
// Make a page inaccessible to user mode (the stack guard).
void uvm_clear_user(PageTable pt, u64 va);
// The aligned 32-bit word at user address va, if the process may read and
// write it (a futex word); null otherwise.
u32* user_word(PageTable pt, u64 va);

}  // namespace q
