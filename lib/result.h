// lib/result.h - error codes and Result<T> for kernel-internal error passing.
//
// Kernel functions that can fail return Result<T> (or Status for no value).
// Errors travel upward unchanged and become -1 only at the system-call
// boundary (kernel/syscall.cc), so inner layers can tell "no space" from
// "bad address" in tests and logs. No exceptions, no allocation.
#pragma once

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
    IoError,       // the disk reported an error, or the file system went read-only after one
};

const char* error_name(Error e);

template <typename T>
class [[nodiscard]] Result {
  public:
    Result(T value) : value_(value), error_(Error::Ok) {}  // NOLINT: implicit by design
    Result(Error e) : value_(), error_(e) {}               // NOLINT: implicit by design
    bool ok() const { return error_ == Error::Ok; }
    Error error() const { return error_; }
    T value() const { return value_; }
    T value_or(T fallback) const { return ok() ? value_ : fallback; }

  private:
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

// Propagate an error: `Q_TRY(x, expr);` declares x from a Result or returns its error.
#define Q_TRY(var, expr)                          \
    auto var##_result_ = (expr);                  \
    if (!var##_result_.ok()) return var##_result_.error(); \
    auto var = var##_result_.value()
#define Q_CHECK(expr)                        \
    do {                                     \
        auto st_ = (expr);                   \
        if (!st_.ok()) return st_.error();   \
    } while (0)

}  // namespace q
