/* user/libc/abi_check.c - sys.h agrees with lib/abi/abi.h (compile only).
 *
 * Compiled into the glue library with the kernel's ABI header and no
 * picolibc header: every restated structure and constant is checked here,
 * so a change to the ABI that sys.h misses fails the build. */
#include "lib/abi/abi.h"
#include "sys.h"

_Static_assert(sizeof(struct q_xstat) == sizeof(struct xstat), "xstat size");
_Static_assert(__builtin_offsetof(struct q_xstat, type) == __builtin_offsetof(struct xstat, type), "xstat.type");
_Static_assert(__builtin_offsetof(struct q_xstat, mode) == __builtin_offsetof(struct xstat, mode), "xstat.mode");
_Static_assert(__builtin_offsetof(struct q_xstat, uid) == __builtin_offsetof(struct xstat, uid), "xstat.uid");
_Static_assert(__builtin_offsetof(struct q_xstat, size) == __builtin_offsetof(struct xstat, size), "xstat.size");
_Static_assert((int)Q_T_DIR == T_DIR && (int)Q_T_FILE == T_FILE && (int)Q_T_DEVICE == T_DEVICE &&
                   (int)Q_T_FIFO == T_FIFO,
               "file types");
_Static_assert(POLLIN == 0x001 && POLLOUT == 0x004 && POLLERR == 0x008 && POLLHUP == 0x010 && POLLNVAL == 0x020 &&
                   sizeof(struct pollfd) == 8,
               "poll bits and struct pollfd as include/poll.h restates them");
_Static_assert((int)Q_O_CREATE == O_CREATE && (int)Q_O_TRUNC == O_TRUNC, "open flags");
_Static_assert(sizeof(struct q_procinfo) == sizeof(struct procinfo), "procinfo size");
_Static_assert(__builtin_offsetof(struct q_procinfo, cpu_ticks) == __builtin_offsetof(struct procinfo, cpu_ticks),
               "procinfo.cpu_ticks");
_Static_assert(__builtin_offsetof(struct q_procinfo, state) == __builtin_offsetof(struct procinfo, state),
               "procinfo.state");
_Static_assert(__builtin_offsetof(struct q_procinfo, minflt) == __builtin_offsetof(struct procinfo, minflt),
               "procinfo.minflt");
_Static_assert(sizeof(struct q_dirent) == sizeof(struct dirent), "dirent size");
_Static_assert(QSYS_read == SYS_read && QSYS_xstat == SYS_xstat, "numbers come from abi.h");
_Static_assert(sizeof(struct q_ksigaction) == sizeof(struct ksigaction) &&
                   __builtin_offsetof(struct q_ksigaction, flags) == __builtin_offsetof(struct ksigaction, flags),
               "ksigaction");
_Static_assert(sizeof(struct ksiginfo) == Q_SIGINFO_SIZE && __builtin_offsetof(struct ksiginfo, pid) == Q_SIGINFO_PID &&
                   __builtin_offsetof(struct ksiginfo, addr) == Q_SIGINFO_ADDR,
               "ksiginfo as siginfo_t restates it");
_Static_assert(sizeof(struct kitimerval) == Q_ITIMERVAL_SIZE, "kitimerval is struct itimerval");
_Static_assert(sizeof(struct ksigstack) == Q_SIGSTACK_SIZE &&
                   __builtin_offsetof(struct ksigstack, size) == Q_SIGSTACK_SIZE_AT,
               "ksigstack as stack_t restates it");
