// lib/abi/errno_map.h - the kernel's Error (lib/result.h) as an error number
// (lib/abi/errno.h), for SYS_errno.
//
// kernel/syscall.cc records errno_of(e) when a call fails with Error e, so a
// program (or a C library) can ask why with errno(). Pure and constexpr:
// tests/host/abi_errno_test.cc checks it on the host. Every Error must have a
// number: the switch has no default, and -Wswitch is an error here, so
// adding an Error without a line below does not compile.
#pragma once

#include "lib/abi/errno.h"
#include "lib/result.h"

namespace q {

#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch"
constexpr int errno_of(Error e) {
    // clang-format off
    switch (e) {
        case Error::Ok: return 0;
        case Error::BadAddress: return EFAULT;
        case Error::BadArgument: return EINVAL;
        case Error::BadFd: return EBADF;
        case Error::NoMemory: return ENOMEM;
        case Error::NoProcess: return ESRCH;  // sys_fork says EAGAIN for a full table
        case Error::NoFile: return EMFILE;
        case Error::NotFound: return ENOENT;
        case Error::Exists: return EEXIST;
        case Error::NotDir: return ENOTDIR;
        case Error::IsDir: return EISDIR;
        case Error::NotEmpty: return ENOTEMPTY;
        case Error::NoSpace: return ENOSPC;
        case Error::TooBig: return EFBIG;
        case Error::BrokenPipe: return EPIPE;
        case Error::Killed: return EINTR;
        case Error::NoChild: return ECHILD;
        case Error::BadExec: return ENOEXEC;
        case Error::NotSupported: return EOPNOTSUPP;
        case Error::CrossDevice: return EXDEV;
        case Error::IoError: return EIO;
        case Error::Permission: return EACCES;
        case Error::TextBusy: return ETXTBSY;
        case Error::NotPermitted: return EPERM;
        case Error::TryAgain: return EAGAIN;
        case Error::NotTty: return ENOTTY;
        case Error::NameTooLong: return ENAMETOOLONG;
        case Error::NoSuchCall: return ENOSYS;
    }
    // clang-format on
    return EINVAL;  // not an Error value at all
}
#pragma GCC diagnostic pop

}  // namespace q
