/* user/libc/include/sys/wait.h - wait and waitpid on quanta (docs/signals.md).
 *
 * Installed by make sysroot over picolibc's, which has the same status
 * encoding (Linux's) but neither WCONTINUED nor WIFCONTINUED. waitpid is
 * the kernel's (86): pid > 0 that child, -1 any, 0 any in the caller's
 * process group, < -1 any in group -pid; options WNOHANG, WUNTRACED,
 * WCONTINUED. A status is exit code << 8, the signal's number for a
 * process a signal ended, (signal << 8) | 0x7f for a stop and 0xffff for a
 * continue. */
#ifndef _SYS_WAIT_H
#define _SYS_WAIT_H

#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WNOHANG 1
#define WUNTRACED 2
#define WCONTINUED 8

#define WIFEXITED(w) (((w)&0x7f) == 0)
#define WEXITSTATUS(w) (((w) >> 8) & 0xff)
#define WIFSIGNALED(w) (((w)&0x7f) != 0 && ((w)&0x7f) != 0x7f)
#define WTERMSIG(w) ((w)&0x7f)
#define WIFSTOPPED(w) (((w)&0xff) == 0x7f)
#define WSTOPSIG(w) WEXITSTATUS(w)
#define WIFCONTINUED(w) ((w) == 0xffff)
#define WCOREDUMP(w) 0 /* quanta writes no core files */

pid_t wait(int*);
pid_t waitpid(pid_t, int*, int);

#ifdef __cplusplus
}
#endif

#endif /* _SYS_WAIT_H */
