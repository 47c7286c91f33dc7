// kernel/mm/uaccess.h - checked copies between kernel and user memory.
//
// Every transfer of user data goes through these: they walk the process's
// page table and fail with Error::BadAddress for any address that is not
// mapped user-accessible (or writable, for copy_out). They never fault.
#pragma once

#include "lib/result.h"
#include "lib/types.h"

namespace q {

Status copy_out(u64* pagetable, UserAddr dst, const void* src, u64 len);
Status copy_in(u64* pagetable, void* dst, UserAddr src, u64 len);
// Copy a NUL-terminated string of at most max bytes (terminator included).
Status copy_in_str(u64* pagetable, char* dst, UserAddr src, u64 max);

}  // namespace q
