// kernel/mm/fault.h - the page-fault path (docs/memory.md "Page faults").
#pragma once

#include "lib/result.h"
#include "lib/types.h"

namespace q {

struct Proc;
struct ThreadGroup;
using PageTable = u64*;

// scause is a load, store or instruction page fault.
bool is_page_fault(u64 scause);
// A page fault of p in user mode at va. true: resolved, the access runs
// again; false: p is killed, and the console says where and why.
bool vm_user_fault(Proc* p, u64 scause, u64 va);
// For the kernel's copies to and from user memory (kernel/mm/vm.cc): map
// user page va of pt if it is the running process's table and its map
// promises the page (a heap page never touched). true if it is mapped now.
// A fault that would sleep (a file page, a swapped one) is not taken while
// this thread holds a spinlock or a lock the fault path takes
// (Proc::fault_locks): the page is left for later, and false returned.
bool vm_fault_in(PageTable pt, u64 va, bool write);
// (vm_fault_later, in uaccess.h, faults such a page in once the locks are
// dropped.)
// A kernel copy to or from user page va of pt, with access bits need:
// while sibling threads run, one of them may munmap the page or page it
// out between the copy's look-up and its last byte (the frame would be
// freed, or written to swap, under the copy). If pt is the running
// process's table and it has other threads, vm_pin looks the entry up
// again under pt_lock and pins its frame (kalloc.h: page_pin): *pa is it,
// 0 if the entry no longer has need (look again); returns false when no
// pin is needed (*pa untouched). vm_unpin(pa) after the copy.
bool vm_pin(PageTable pt, u64 va, u64 need, u64* pa);
// vm_pin's first test, inline: no process has threads (nothing to pin).
extern u32 g_threaded_groups;  // kernel/proc/proc.h
inline bool vm_pin_needed() { return __atomic_load_n(&g_threaded_groups, __ATOMIC_RELAXED) != 0; }
void vm_unpin(u64 pa);
// Before a process gets its second thread: give it its own copy of every
// copy-on-write page (uvm_share's no-other-hart rule: a copy would change
// a page's address under another hart's TLB). NoMemory if a copy fails.
Status vm_unshare(ThreadGroup* tg);
// Map every unmapped page of [start, end), zeroed from its promise (an
// anonymous MAP_SHARED mapping before fork shares it). NoMemory if one fails.
Status vm_fill_range(ThreadGroup* tg, u64 start, u64 end);
// Give back every page tg's heap was promised and never touched (its
// memory is being freed: exit, exec, a failed fork).
void vm_unreserve_all(ThreadGroup* tg);

}  // namespace q
