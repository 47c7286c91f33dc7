/* user/libc/files.c - POSIX file calls over quanta's system calls.
 *
 * open translates picolibc's O_ flags (Linux's values) to the kernel's
 * (xv6's: O_CREATE 0x200, O_TRUNC 0x400); O_EXCL is checked with a stat
 * first, O_APPEND seeks to the end once at open (SYS_lseek; the kernel has
 * no append mode: a file shared with another writer is not appended
 * atomically). lseek cannot go past the end of a file (EINVAL).
 * The mode of a new file and of mkdir, less umask (022), is applied with
 * chmod (mkfifo passes it to the kernel less the umask). struct stat
 * is filled from the kernel's xstat (type, mode bits, owner, size; times
 * are 0: the file system keeps none). isatty is true for device files
 * (the console). dup2 is built from dup, which returns the lowest free
 * descriptor. Every failure returns -1 with errno (errno.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys.h"

ssize_t read(int fd, void* buf, size_t n) {
    if (n > 0x7fffffff) n = 0x7fffffff;
    return qsys_fail(qsys3(QSYS_read, fd, buf, n));
}

ssize_t write(int fd, const void* buf, size_t n) {
    if (n > 0x7fffffff) n = 0x7fffffff;
    return qsys_fail(qsys3(QSYS_write, fd, buf, n));
}

int close(int fd) { return qsys_fail(qsys1(QSYS_close, fd)); }

int dup(int fd) { return qsys_fail(qsys1(QSYS_dup, fd)); }

int dup2(int fd, int to) {
    if (fd == to) {
        struct q_xstat x;
        return qsys_fail(qsys2(QSYS_fxstat, fd, &x)) < 0 ? -1 : to;
    }
    close(to);
    int held[32], n = 0, r;
    while ((r = dup(fd)) >= 0 && r != to && n < 32) held[n++] = r;
    int e = errno;
    while (n > 0) close(held[--n]);
    if (r != to) {
        errno = r < 0 ? e : EBADF;
        return -1;
    }
    return to;
}

off_t lseek(int fd, off_t off, int whence) {
    const long r = qsys_fail(qsys3(QSYS_lseek, fd, off, whence));
    if (r < 0 && errno == EOPNOTSUPP) errno = ESPIPE; /* a pipe or the console */
    return r;
}

static void to_stat(const struct q_xstat* x, struct stat* st) {
    memset(st, 0, sizeof *st);
    st->st_dev = x->dev;
    st->st_ino = x->ino;
    st->st_mode = x->mode & 07777;
    st->st_mode |= x->type == Q_T_DIR      ? S_IFDIR
                   : x->type == Q_T_DEVICE ? S_IFCHR
                   : x->type == Q_T_FIFO   ? S_IFIFO
                                           : S_IFREG;
    st->st_nlink = x->nlink;
    st->st_uid = x->uid;
    st->st_gid = x->gid;
    st->st_size = x->size;
    st->st_blksize = 1024;
    st->st_blocks = (x->size + 511) / 512;
}

int fstat(int fd, struct stat* st) {
    struct q_xstat x;
    if (qsys_fail(qsys2(QSYS_fxstat, fd, &x)) < 0) return -1;
    to_stat(&x, st);
    return 0;
}

int stat(const char* path, struct stat* st) {
    struct q_xstat x;
    if (qsys_fail(qsys2(QSYS_xstat, path, &x)) < 0) return -1;
    to_stat(&x, st);
    return 0;
}

int lstat(const char* path, struct stat* st) { return stat(path, st); }

int isatty(int fd) {
    struct q_xstat x;
    if (qsys_fail(qsys2(QSYS_fxstat, fd, &x)) < 0) return 0;
    if (x.type == Q_T_DEVICE) return 1;
    errno = ENOTTY;
    return 0;
}

static mode_t cmask = 022;

mode_t umask(mode_t mask) {
    const mode_t old = cmask;
    cmask = mask & 0777;
    return old;
}

int chmod(const char* path, mode_t mode) { return qsys_fail(qsys2(QSYS_chmod, path, mode & 07777)); }

int open(const char* path, int flags, ...) {
    mode_t mode = 0666;
    if (flags & O_CREAT) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, int);
        va_end(ap);
    }
    struct q_xstat x;
    const int existed = qsys2(QSYS_xstat, path, &x) == 0;
    if ((flags & O_CREAT) && (flags & O_EXCL) && existed) {
        errno = EEXIST;
        return -1;
    }
    int k = flags & O_ACCMODE;
    if (flags & O_CREAT) k |= Q_O_CREATE;
    if (flags & O_TRUNC) k |= Q_O_TRUNC;
    const int fd = qsys_fail(qsys2(QSYS_open, path, k));
    if (fd < 0) return -1;
    if ((flags & O_CREAT) && !existed) chmod(path, mode & ~cmask);
    if ((flags & O_APPEND) && qsys2(QSYS_fxstat, fd, &x) == 0 && x.type == Q_T_FILE && lseek(fd, 0, SEEK_END) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

int creat(const char* path, mode_t mode) { return open(path, O_WRONLY | O_CREAT | O_TRUNC, mode); }

int unlink(const char* path) { return qsys_fail(qsys1(QSYS_unlink, path)); }

int rmdir(const char* path) {
    struct stat st;
    if (stat(path, &st) < 0) return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return unlink(path);
}

int link(const char* from, const char* to) { return qsys_fail(qsys2(QSYS_link, from, to)); }

int rename(const char* from, const char* to) {
    struct stat st;
    if (stat(from, &st) < 0) return -1;
    if (S_ISDIR(st.st_mode)) {
        errno = EXDEV; /* a directory's .. would need rewriting */
        return -1;
    }
    if (stat(to, &st) == 0 && unlink(to) < 0) return -1;
    if (link(from, to) < 0) return -1;
    return unlink(from);
}

int mkdir(const char* path, mode_t mode) {
    if (qsys_fail(qsys1(QSYS_mkdir, path)) < 0) return -1;
    chmod(path, mode & ~cmask);
    return 0;
}

/* A named pipe (docs/ipc.md): the mode less umask, as mkdir's. */
int mkfifo(const char* path, mode_t mode) { return qsys_fail(qsys2(QSYS_mkfifo, path, mode & 01777 & ~cmask)); }

int chdir(const char* path) { return qsys_fail(qsys1(QSYS_chdir, path)); }

int pipe(int fds[2]) { return qsys_fail(qsys1(QSYS_pipe, fds)); }

int access(const char* path, int how) {
    struct stat st;
    (void)how; /* existence only: the kernel checks permissions when used */
    return stat(path, &st);
}

int fsync(int fd) {
    (void)fd; /* every system call that writes commits before it returns */
    return 0;
}
