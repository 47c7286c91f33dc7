// lib/result.h - error codes and Result<T> for kernel-internal error passing.
//
// Kernel functions that can fail return Result<T> (or Status for no value).
// Errors travel upward unchanged and become -1 only at the system-call
// boundary (kernel/syscall.cc: syscall_dispatch), so inner layers can tell "no space"
// from "bad address" in tests and logs. No exceptions, no allocation.
//
// A Result may hold a move-only value (an owning reference such as
// kernel/fs's InodeRef): take it with move(r).value(), or with TRY, which
// moves it out. value() of an error is a broken invariant, never a silent
// default: it panics through the seam (lib/seam.h). Check ok() first, or
// use TRY / must / value_or.
#pragma once

#include "lib/seam.h"
#include "lib/types.h"

namespace q {

enum class Error : u8 {
    Ok = 0,
    BadAddress,    // a user pointer outside the process's memory
    BadArgument,   // an argument out of range
    BadFd,         // not an open file descriptor
    NoMemory,      // out of physical pages
    NoProcess,     // process table full, or no such pid
    NoFile,        // file table full / too many open files
    NotFound,      // path does not exist
    Exists,        // path already exists
    NotDir,        // a path component is not a directory
    IsDir,         // operation not allowed on a directory
    NotEmpty,      // directory not empty
    NoSpace,       // out of disk blocks or inodes
    TooBig,        // file or argument too large
    BrokenPipe,    // write to a pipe with no readers
    Killed,        // the calling process was killed while waiting
    NoChild,       // wait with no children
    BadExec,       // not a valid executable
    NotSupported,  // operation not supported by this object
    CrossDevice,
    IoError,     // the disk reported an error, or the file system went read-only after one
    Permission,  // the caller's credentials do not allow it (lib/fs/perm.h)
    TextBusy,    // a file being executed opened for writing, or one open for writing executed
    // Causes the system-call layer names (POSIX tells them apart from the above):
    NotPermitted,  // EPERM: only root, or the owner, may do this (EACCES is Permission)
    TryAgain,      // EAGAIN: a resource is exhausted for now (a full process table for fork)
    NotTty,        // ENOTTY: the file is not the console
    NameTooLong,   // ENAMETOOLONG: a path or name argument does not fit
    NoSuchCall,    // ENOSYS: no system call has this number
};

template <typename T>
class [[nodiscard]] Result {
  public:
    Result(T value) : value_(::q::move(value)), error_(Error::Ok) {}  // NOLINT: implicit by design
    Result(Error e) : value_(), error_(e) {}                          // NOLINT: implicit by design
    bool ok() const { return error_ == Error::Ok; }
    Error error() const { return error_; }
    const T& value() const& {
        check();
        return value_;
    }
    T value() && {
        check();
        return ::q::move(value_);
    }
    T value_or(T fallback) const { return ok() ? value_ : fallback; }

  private:
    void check() const {
        if (!ok()) seam::panic("Result::value() of an error (check ok() first)");
    }

    T value_;
    Error error_;
};

// A system-call handler's result: the value for a0, or the error that
// kernel/syscall.cc turns into -1 and an error number.
using SysResult = Result<i64>;

// A Result without a value.
class [[nodiscard]] Status {
  public:
    Status() : error_(Error::Ok) {}
    Status(Error e) : error_(e) {}  // NOLINT: implicit by design
    bool ok() const { return error_ == Error::Ok; }
    Error error() const { return error_; }

  private:
    Error error_;
};

namespace detail {
template <typename T>
T try_take(Result<T>&& r) {
    return ::q::move(r).value();
}
inline void try_take(Status&&) {}
}  // namespace detail

// Propagate an error: `auto x = TRY(expr);` is the value of a Result (moved
// out, so move-only values work) or returns its error from the enclosing
// function, which must return a Result or a Status. `TRY(status);` checks a
// Status. A GNU statement expression: both g++ and clang accept it.
#define TRY(expr)                                 \
    ({                                            \
        auto&& try_r_ = (expr);                   \
        if (!try_r_.ok()) return try_r_.error();  \
        ::q::detail::try_take(::q::move(try_r_)); \
    })

// A result that cannot fail unless the kernel itself is broken (boot-time
// setup, a mapping of memory reserved for it): its value, or a panic that
// names what failed. Not for anything a user program can cause.
template <typename T>
T must(Result<T> r, const char* what) {
    if (!r.ok()) seam::panic(what);
    return ::q::move(r).value();
}
inline void must(Status s, const char* what) {
    if (!s.ok()) seam::panic(what);
}

}  // namespace q
