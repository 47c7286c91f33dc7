/* user/libc/errno.c - errno from the kernel's SYS_errno.
 *
 * Every quanta system call fails with -1; the reason is kept per process
 * and read with SYS_errno (68: the Linux errno of the caller's last failed
 * call). picolibc numbers some errors differently from Linux above 34, so
 * those are mapped. A kernel without SYS_errno answers -1: from then on
 * this process reports EIO, without asking again (an unknown call is
 * logged on the console). errno itself is picolibc's thread-local. */
#include <errno.h>

#include "sys.h"

static int no_errno_call;

/* Linux's numbers 1-34 are picolibc's too; the few above that quanta
 * returns are translated. */
static int from_linux(long e) {
    switch (e) {
        case 36:
            return ENAMETOOLONG;
        case 38:
            return ENOSYS;
        case 39:
            return ENOTEMPTY;
        case 40:
            return ELOOP;
        case 95:
            return EOPNOTSUPP;
        default:
            return e > 0 && e <= 34 ? (int)e : EIO;
    }
}

long qsys_fail(long r) {
    if (r != -1) return r;
    long e = -1;
    if (!no_errno_call) e = qsys0(QSYS_errno);
    if (e < 0) no_errno_call = 1;
    errno = e <= 0 ? EIO : from_linux(e);
    return -1;
}
