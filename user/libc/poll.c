/* user/libc/poll.c - poll over quanta's system call 89 (docs/ipc.md):
 * the kernel takes struct pollfd as it is; nfds above its 64 entries fails
 * with EINVAL. (mkfifo is with mkdir in files.c: both apply the umask.) */
#include <errno.h>
#include <poll.h>

#include "sys.h"

#ifndef QSYS_poll
#define QSYS_poll 89
#endif

int poll(struct pollfd* fds, nfds_t nfds, int timeout) {
    if (nfds > 0x7fffffff) {
        errno = EINVAL;
        return -1;
    }
    return (int)qsys_fail(qsys3(QSYS_poll, fds, nfds, timeout));
}
