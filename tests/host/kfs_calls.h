// tests/host/kfs_calls.h - the file-system system calls as functions, for
// host tests on the kfs environment (tests/host/kfs_env.h): each sets the
// call's arguments as a user program's registers would and calls the
// kernel's handler, returning its a0 (-1 on error). Flag values are xv6's
// (kernel/fcntl.h), spelled out because the host's <fcntl.h> clashes.
#pragma once

#include "kernel/syscall.h"
#include "tests/host/kfs_env.h"

namespace kfs_calls {

using q::i64;

constexpr int kRdOnly = 0x000, kWrOnly = 0x001, kRdWr = 0x002, kCreate = 0x200, kTrunc = 0x400;

inline i64 open_(const char* path, int mode) {
    kfs_args(kfs_ptr(path), mode);
    return kfs_a0(q::sys_open());
}
inline i64 close_(int fd) {
    kfs_args(fd);
    return kfs_a0(q::sys_close());
}
inline i64 write_(int fd, const void* buf, int n) {
    kfs_args(fd, kfs_ptr(buf), n);
    return kfs_a0(q::sys_write());
}
inline i64 read_(int fd, void* buf, int n) {
    kfs_args(fd, kfs_ptr(buf), n);
    return kfs_a0(q::sys_read());
}
inline i64 mkdir_(const char* p) {
    kfs_args(kfs_ptr(p));
    return kfs_a0(q::sys_mkdir());
}
inline i64 unlink_(const char* p) {
    kfs_args(kfs_ptr(p));
    return kfs_a0(q::sys_unlink());
}
inline i64 chdir_(const char* p) {
    kfs_args(kfs_ptr(p));
    return kfs_a0(q::sys_chdir());
}
inline i64 link_(const char* a, const char* b) {
    kfs_args(kfs_ptr(a), kfs_ptr(b));
    return kfs_a0(q::sys_link());
}
inline i64 mknod_(const char* p, int ma, int mi) {
    kfs_args(kfs_ptr(p), ma, mi);
    return kfs_a0(q::sys_mknod());
}
inline i64 dup_(int fd) {
    kfs_args(fd);
    return kfs_a0(q::sys_dup());
}
inline i64 pipe_(int* fds) {
    kfs_args(kfs_ptr(fds));
    return kfs_a0(q::sys_pipe());
}

inline i64 mkfifo_(const char* p, int mode) {
    kfs_args(kfs_ptr(p), mode);
    return kfs_a0(q::sys_mkfifo());
}
inline i64 poll_(void* fds, int nfds, int timeout_ms) {
    kfs_args(kfs_ptr(fds), nfds, timeout_ms);
    return kfs_a0(q::sys_poll());
}
inline i64 fstat_(int fd, void* st) {
    kfs_args(fd, kfs_ptr(st));
    return kfs_a0(q::sys_fstat());
}

}  // namespace kfs_calls
