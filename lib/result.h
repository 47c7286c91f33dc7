// lib/result.h - error codes and Result<T> for kernel-internal error passing.
//
// Kernel functions that can fail return Result<T> (or Status for no value).
// Errors travel upward unchanged and become -1 only at the system-call
// boundary (kernel/syscall.h, to_user), so inner layers can tell "no space"
// from "bad address" in tests and logs. No exceptions, no allocation.
//
// A Result may hold a move-only value (an owning reference such as
// kernel/fs's InodeRef): take it with move(r).value(), or with Q_TRY, which
// moves it out. value() of an error is a broken invariant, never a silent
// default: it panics through the seam (lib/seam.h). Check ok() first, or
// use Q_TRY / value_or.
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

// Propagate an error: `Q_TRY(x, expr);` declares x from a Result (moving
// the value out) or returns its error.
#define Q_TRY(var, expr)                                   \
    auto var##_result_ = (expr);                           \
    if (!var##_result_.ok()) return var##_result_.error(); \
    auto var = ::q::move(var##_result_).value()
#define Q_CHECK(expr)                      \
    do {                                   \
        auto st_ = (expr);                 \
        if (!st_.ok()) return st_.error(); \
    } while (0)

}  // namespace q
