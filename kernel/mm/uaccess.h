// kernel/mm/uaccess.h - checked copies between kernel and user memory.
//
// Every transfer of user data goes through these: they walk the process's
// page table and fail with Error::BadAddress for any address that is not
// mapped user-accessible (or writable, for copy_out) and that the process's
// map does not promise (a page never touched is faulted in first:
// kernel/mm/fault.h). A copy made under a lock the fault path takes (an
// inode's, a buffer's, the address space's; a file-system operation) or a
// spinlock takes no fault that sleeps: a page of a file mapping or a
// swapped page fails the copy there, and its caller, once it dropped those
// locks, calls vm_fault_later and copies the rest (docs/memory.md "Lock
// order").
#pragma once

#include "kernel/sync/spinlock.h"
#include "lib/result.h"
#include "lib/types.h"

namespace q {

Status copy_out(u64* pagetable, UserAddr dst, const void* src, u64 len);
Status copy_in(u64* pagetable, void* dst, UserAddr src, u64 len);
// Copy a NUL-terminated string of at most max bytes (terminator included).
Status copy_in_str(u64* pagetable, char* dst, UserAddr src, u64 max);
// After a failed copy, with no lock held: fault in the page the copy left
// for later, if it left one (may sleep): true, copy again from where it
// stopped; false, it failed for good (a bad address) or the caller is
// killed. kernel/mm/fault.cc.
bool vm_fault_later();
// The same for a copy made under the spinlock `held` guards: dropped while
// the page is faulted in, and taken again before returning.
bool vm_fault_later(LockGuard& held);

}  // namespace q
