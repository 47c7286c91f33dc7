/* user/libc/sys.h - system calls from the C library glue.
 *
 * The glue is compiled against picolibc's headers, whose struct stat and
 * struct dirent differ from the kernel's, so it cannot include
 * lib/abi/abi.h. The numbers come from build/libc/sysnum.h instead
 * (QSYS_name, generated from abi.h's enum by mk/user.mk), and the kernel
 * structures the glue reads are restated here; abi_check.c includes both
 * abi.h and this file and static_asserts that they agree.
 *
 * __qsys() is one ecall: number in a7, arguments in a0-a5, result in a0
 * (the kernel returns -1 for every failure). qsys_fail() turns a -1 into
 * errno (errno.c). */
#ifndef QUANTA_LIBC_SYS_H
#define QUANTA_LIBC_SYS_H

#include "sysnum.h"

/* Numbers not in lib/abi/abi.h yet on every branch. */
#ifndef QSYS_mkfifo
#define QSYS_mkfifo 88 /* (path, mode) -> 0 or -1 (docs/ipc.md) */
#endif
#ifndef QSYS_errno
#define QSYS_errno 68 /* () -> Linux errno of the caller's last failed call */
#endif

static inline long __qsys(long n, long a0, long a1, long a2) {
    register long r0 __asm__("a0") = a0;
    register long r1 __asm__("a1") = a1;
    register long r2 __asm__("a2") = a2;
    register long r7 __asm__("a7") = n;
    __asm__ volatile("ecall" : "+r"(r0) : "r"(r1), "r"(r2), "r"(r7) : "memory");
    return r0;
}

/* The same with all six argument registers (mmap, tcreate, futex). */
static inline long __qsys6(long n, long a0, long a1, long a2, long a3, long a4, long a5) {
    register long r0 __asm__("a0") = a0;
    register long r1 __asm__("a1") = a1;
    register long r2 __asm__("a2") = a2;
    register long r3 __asm__("a3") = a3;
    register long r4 __asm__("a4") = a4;
    register long r5 __asm__("a5") = a5;
    register long r7 __asm__("a7") = n;
    __asm__ volatile("ecall" : "+r"(r0) : "r"(r1), "r"(r2), "r"(r3), "r"(r4), "r"(r5), "r"(r7) : "memory");
    return r0;
}

#define qsys0(n) __qsys((n), 0, 0, 0)
#define qsys1(n, a) __qsys((n), (long)(a), 0, 0)
#define qsys2(n, a, b) __qsys((n), (long)(a), (long)(b), 0)
#define qsys3(n, a, b, c) __qsys((n), (long)(a), (long)(b), (long)(c))

/* r, or -1 with errno set when r is -1 (errno.c). */
long qsys_fail(long r);

/* The kernel's struct xstat (lib/abi/abi.h, SYS_xstat / SYS_fxstat). */
struct q_xstat {
    int dev;
    unsigned int ino;
    short type; /* 1 directory, 2 file, 3 device, 4 FIFO */
    short nlink;
    unsigned short mode;
    unsigned short pad;
    unsigned int uid;
    unsigned int gid;
    unsigned long size;
};
enum { Q_T_DIR = 1, Q_T_FILE = 2, Q_T_DEVICE = 3, Q_T_FIFO = 4 };

/* The kernel's open flags (lib/abi/abi.h). */
enum { Q_O_CREATE = 0x200, Q_O_TRUNC = 0x400 };

/* The kernel's struct procinfo, as far as the glue reads it. */
struct q_procinfo {
    int pid;
    int ppid;
    int state; /* 5: zombie */
    int nice;
    unsigned int weight;
    char name[16];
    unsigned int uid;
    unsigned long cpu_ticks; /* 10 MHz timer cycles */
    unsigned long rest[7];
    int tid;     /* the thread's id: a row is a thread */
    int threads; /* live threads of its process */
    unsigned long size;
    unsigned long minflt; /* page faults without a disk read */
    unsigned long majflt;
};

/* The kernel's struct ksigaction (SYS_sigact): handler 0 SIG_DFL, 1
 * SIG_IGN or an address; mask bit n for signal n; Linux's SA_ flags. */
struct q_ksigaction {
    unsigned long handler;
    unsigned long mask;
    unsigned long flags;
};
/* Sizes and offsets signal.c checks <sys/signal.h>'s siginfo_t and
 * <sys/time.h>'s struct itimerval against (the kernel's struct ksiginfo,
 * written in a handler's frame, and struct kitimerval). */
enum { Q_SIGINFO_SIZE = 24, Q_SIGINFO_PID = 12, Q_SIGINFO_ADDR = 16, Q_ITIMERVAL_SIZE = 32 };
enum { Q_SIGSTACK_SIZE = 24, Q_SIGSTACK_SIZE_AT = 16 }; /* struct ksigstack, <sys/signal.h>'s stack_t */

/* The kernel's directory entry (lib/abi/abi.h struct dirent). */
struct q_dirent {
    unsigned short inum;
    char name[14];
};

#endif
