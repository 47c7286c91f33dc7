/* user/libc/include/poll.h - poll(2) on quanta (docs/ipc.md).
 *
 * picolibc has no <poll.h>; make sysroot installs this one. The layout and
 * bit values are POSIX's as Linux numbers them, and the kernel's
 * (lib/abi/abi.h; user/libc/abi_check.c pins the kernel's to these). poll waits
 * on pipes, FIFOs, the console and files: POLLIN, POLLOUT asked for;
 * POLLHUP, POLLERR, POLLNVAL reported unasked. timeout in ms: -1 waits
 * for ever, 0 not at all. */
#ifndef _POLL_H
#define _POLL_H

#ifdef __cplusplus
extern "C" {
#endif

#define POLLIN 0x001
#define POLLPRI 0x002 /* never reported: there is no out-of-band data */
#define POLLOUT 0x004
#define POLLERR 0x008
#define POLLHUP 0x010
#define POLLNVAL 0x020
#define POLLRDNORM POLLIN
#define POLLWRNORM POLLOUT

typedef unsigned long nfds_t;

struct pollfd {
    int fd;
    short events;
    short revents;
};

int poll(struct pollfd* fds, nfds_t nfds, int timeout);

#ifdef __cplusplus
}
#endif

#endif
