// kernel/syscall.h - system-call dispatch and argument fetching.
//
// Handlers take no parameters: they fetch their arguments from the current
// process's trapframe with the arg_* helpers, which check every user pointer.
// A handler returns a SysResult: the value for a0, or an Error. The error
// becomes -1 in one place, syscall_dispatch, which records its number
// (errno_of, lib/abi/errno_map.h) for SYS_errno. Inside a handler errors
// travel as Result/Status: `auto x = TRY(fetch)` returns a failed fetch's
// error, so a handler never has to say -1 or pick an error number itself.
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

// A kernel call's outcome as a handler's result: a Status is 0 or its
// error; a Result its value (as an i64) or its error.
inline SysResult sys_result(Status s) {
    if (!s.ok()) return s.error();
    return 0;
}
template <typename T>
inline SysResult sys_result(Result<T> r) {
    if (!r.ok()) return r.error();
    return static_cast<i64>(move(r).value());
}

// File-system calls (kernel/fs/sysfile.cc).
SysResult sys_pipe();
SysResult sys_read();
SysResult sys_write();
SysResult sys_close();
SysResult sys_fstat();
SysResult sys_dup();
SysResult sys_open();
SysResult sys_mknod();
SysResult sys_mkfifo();
SysResult sys_unlink();
SysResult sys_link();
SysResult sys_mkdir();
SysResult sys_chdir();
SysResult sys_chmod();
SysResult sys_chown();
SysResult sys_xstat();
SysResult sys_lseek();
SysResult sys_fxstat();
// poll over pipes, FIFOs, devices and files (kernel/fs/poll.cc).
SysResult sys_poll();
// Statistics (kernel/stats.cc): rqstat, diskstat, bcstat.
SysResult sys_rqstat();
SysResult sys_diskstat();
SysResult sys_bcstat();
// exec (kernel/proc/exec.cc).
SysResult sys_exec();

}  // namespace q
