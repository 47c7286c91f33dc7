// kernel/syscall.h - system-call dispatch and argument fetching.
//
// Handlers take no parameters: they fetch their arguments from the current
// process's trapframe with the arg_* helpers, which check every user pointer.
// A handler returns an i64 result for a0; every error becomes -1 here, at the
// boundary (errors inside the kernel are Result<T>/Status). fail() records
// the error's number (lib/abi/errno_map.h) for SYS_errno on the way out;
// the argument fetchers record theirs too, so a handler that returns -1
// straight after a failed fetch still reports why.
#pragma once

#include "kernel/proc/proc.h"
#include "lib/abi/errno_map.h"
#include "lib/result.h"
#include "lib/types.h"

namespace q {

u64 arg_raw(int n);
int arg_int(int n);
UserAddr arg_addr(int n);
// Fetch the n'th argument as a NUL-terminated string of at most max-1 bytes.
Result<int> arg_str(int n, char* buf, int max);
// Fetch a u64 / a string at a user address of the current process.
Result<u64> fetch_addr(UserAddr addr);
Result<int> fetch_str(UserAddr addr, char* buf, int max);

void syscall_dispatch(Proc* p);

// Fail the call under way: returns -1 for a0, and the error number (e's,
// or the one given where a call's meaning picks a better one) is what
// errno() returns afterwards (syscall_dispatch keeps it).
inline i64 fail_errno(int number) {
    myproc()->errno_call = number;
    return -1;
}
inline i64 fail(Error e) { return fail_errno(errno_of(e)); }

// Convert a kernel result to the value user code sees.
inline i64 to_user(Status s) { return s.ok() ? 0 : fail(s.error()); }
template <typename T>
inline i64 to_user(Result<T> r) {
    return r.ok() ? static_cast<i64>(r.value()) : fail(r.error());
}

// File-system calls (kernel/fs/sysfile.cc).
i64 sys_pipe();
i64 sys_read();
i64 sys_write();
i64 sys_close();
i64 sys_fstat();
i64 sys_dup();
i64 sys_open();
i64 sys_mknod();
i64 sys_mkfifo();
i64 sys_unlink();
i64 sys_link();
i64 sys_mkdir();
i64 sys_chdir();
i64 sys_chmod();
i64 sys_chown();
i64 sys_xstat();
i64 sys_lseek();
i64 sys_fxstat();
// poll over pipes, FIFOs, devices and files (kernel/fs/poll.cc).
i64 sys_poll();
// Statistics (kernel/stats.cc): rqstat, diskstat, bcstat.
i64 sys_rqstat();
i64 sys_diskstat();
i64 sys_bcstat();
// exec (kernel/proc/exec.cc).
i64 sys_exec();

}  // namespace q
