/* lib/abi/errno.h - error numbers as user programs see them (SYS_errno).
 *
 * Valid C and C++: included by the kernel (kernel/syscall.cc records one per
 * failed call), by the user library (strerror, user/lib/ulib.c) and by host
 * tests. The numbers are Linux's (asm-generic/errno-base.h), so a C library
 * can pass them on unchanged; only the ones quanta can return, plus the
 * common ones a program tests for, are listed. errno_text() is the one
 * message table, in lower case ("permission denied"), for messages such as
 * "cat: cannot open x: permission denied". The kernel's own errors
 * (lib/result.h) map onto these in lib/abi/errno_map.h.
 */
#ifndef QUANTA_ERRNO_H
#define QUANTA_ERRNO_H

/* A host's <errno.h> (Linux: the same numbers) may already have them as
 * macros; host tests include this header before any system header. */
#ifndef EPERM
enum {
    EPERM = 1,         /* operation not permitted */
    ENOENT = 2,        /* no such file or directory */
    ESRCH = 3,         /* no such process */
    EINTR = 4,         /* interrupted system call */
    EIO = 5,           /* input/output error */
    E2BIG = 7,         /* argument list too long */
    ENOEXEC = 8,       /* exec format error */
    EBADF = 9,         /* bad file descriptor */
    ECHILD = 10,       /* no child processes */
    EAGAIN = 11,       /* resource temporarily unavailable */
    ENOMEM = 12,       /* out of memory */
    EACCES = 13,       /* permission denied */
    EFAULT = 14,       /* bad address */
    EEXIST = 17,       /* file exists */
    EXDEV = 18,        /* cross-device link */
    ENODEV = 19,       /* no such device */
    ENOTDIR = 20,      /* not a directory */
    EISDIR = 21,       /* is a directory */
    EINVAL = 22,       /* invalid argument */
    ENFILE = 23,       /* too many open files in system */
    EMFILE = 24,       /* too many open files */
    ENOTTY = 25,       /* not a terminal (tcsetpgrp on a non-console fd) */
    ETXTBSY = 26,      /* text file busy: a running program's file opened to write, or an open one executed */
    EFBIG = 27,        /* file too large */
    ENOSPC = 28,       /* no space left on device */
    ESPIPE = 29,       /* illegal seek */
    EROFS = 30,        /* read-only file system */
    EMLINK = 31,       /* too many links */
    EPIPE = 32,        /* broken pipe */
    ERANGE = 34,       /* result out of range */
    ENAMETOOLONG = 36, /* file name too long */
    ENOSYS = 38,       /* function not implemented */
    ENOTEMPTY = 39,    /* directory not empty */
    EOPNOTSUPP = 95    /* operation not supported */
};
#endif

/* The message for an error number, lower case and without a full stop;
 * "unknown error" for a number not listed above, "no error" for 0. */
static inline const char* errno_text(int e) {
    /* clang-format off */
    switch (e) {
        case 0: return "no error";
        case EPERM: return "operation not permitted";
        case ENOENT: return "no such file or directory";
        case ESRCH: return "no such process";
        case EINTR: return "interrupted system call";
        case EIO: return "input/output error";
        case E2BIG: return "argument list too long";
        case ENOEXEC: return "exec format error";
        case EBADF: return "bad file descriptor";
        case ECHILD: return "no child processes";
        case EAGAIN: return "resource temporarily unavailable";
        case ENOMEM: return "out of memory";
        case EACCES: return "permission denied";
        case EFAULT: return "bad address";
        case EEXIST: return "file exists";
        case EXDEV: return "cross-device link";
        case ENODEV: return "no such device";
        case ENOTDIR: return "not a directory";
        case EISDIR: return "is a directory";
        case EINVAL: return "invalid argument";
        case ENFILE: return "too many open files in system";
        case EMFILE: return "too many open files";
        case ENOTTY: return "inappropriate ioctl for device";
        case ETXTBSY: return "text file busy";
        case EFBIG: return "file too large";
        case ENOSPC: return "no space left on device";
        case ESPIPE: return "illegal seek";
        case EROFS: return "read-only file system";
        case EMLINK: return "too many links";
        case EPIPE: return "broken pipe";
        case ERANGE: return "result out of range";
        case ENAMETOOLONG: return "file name too long";
        case ENOSYS: return "function not implemented";
        case ENOTEMPTY: return "directory not empty";
        case EOPNOTSUPP: return "operation not supported";
        default: return "unknown error";
    }
    /* clang-format on */
}

#endif
