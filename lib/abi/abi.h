/* lib/abi/abi.h - the user/kernel binary interface (xv6-riscv compatible).
 *
 * Valid C and C++: included by the kernel, by the user library (user/user.h)
 * and by host tests. Plain enums rather than macros, so the names are typed
 * constants in both languages. Numbers 1-21 and every layout here are fixed
 * by xv6-riscv; quanta's own calls take numbers above 21.
 *
 * Calling convention: number in a7, arguments in a0-a5, result in a0
 * (-1 on any error).
 */
#ifndef QUANTA_ABI_H
#define QUANTA_ABI_H

enum {
    SYS_fork = 1,
    SYS_exit = 2,
    SYS_wait = 3,
    SYS_pipe = 4,
    SYS_read = 5,
    SYS_kill = 6,
    SYS_exec = 7,
    SYS_fstat = 8,
    SYS_chdir = 9,
    SYS_dup = 10,
    SYS_getpid = 11,
    SYS_sbrk = 12,
    SYS_sleep = 13,
    SYS_uptime = 14,
    SYS_open = 15,
    SYS_write = 16,
    SYS_mknod = 17,
    SYS_unlink = 18,
    SYS_link = 19,
    SYS_mkdir = 20,
    SYS_close = 21,
    /* quanta extensions */
    SYS_getpriority = 22, /* (pid) -> nice value -20..19, or -1 */
    SYS_setpriority = 23, /* (pid, nice) -> 0 or -1 */
    SYS_sched_get = 24,   /* (buf, len) -> copies current policy name, returns 0 */
    SYS_sched_set = 25,   /* (name) -> 0 or -1 for an unknown policy */
    SYS_uptime_ns = 26,   /* () -> nanoseconds since boot */
    SYS_procinfo = 27,    /* (pid index, struct procinfo*) -> 0 or -1 */
    SYS_freepages = 28,   /* () -> free physical pages (for leak tests) */
    SYS_halt = 29,        /* (status) power off the machine (test runner) */
    SYS_rqstat = 30,      /* (queue, struct rqstat*) -> 0, or -1 past the last queue */
    SYS_setaffinity = 31, /* (pid, mask) -> 0, or -1 (no such process, no hart in mask) */
    SYS_getaffinity = 32, /* (pid) -> mask of harts it may run on, or 0 */
    /* users and file protection (docs/users-and-protection.md) */
    SYS_getuid = 33,      /* () -> real user id */
    SYS_geteuid = 34,     /* () -> effective user id */
    SYS_setuid = 35,      /* (uid) -> 0, or -1 unless root or uid is the caller's own */
    SYS_getgid = 36,      /* () -> real group id */
    SYS_getegid = 37,     /* () -> effective group id */
    SYS_setgid = 38,      /* (gid) -> 0, or -1 unless root or gid is the caller's own */
    SYS_chmod = 39,       /* (path, mode) -> 0, or -1 unless owner or root */
    SYS_chown = 40,       /* (path, uid, gid) -> 0 or -1; -1 as an id keeps it */
    SYS_xstat = 41,       /* (path, struct xstat*) -> 0 or -1 */
    SYS_fxstat = 42,      /* (fd, struct xstat*) -> 0 or -1 */
    SYS_trace_start = 43, /* (kb per hart, 0 = default) -> 0, or -1 (tracing, bad size, no memory) */
    SYS_trace_stop = 44,  /* () -> records kept, or -1 if not tracing */
    SYS_trace_read = 45,  /* (offset, buf, len) -> bytes of the dump copied, 0 at its end, -1 */
    SYS_trace_stat = 46,  /* (struct tracestat*) -> 0 or -1 */
    SYS_prof_start = 47,  /* (period us, kb per hart; 0 = defaults) -> 0, or -1 (profiling, bad args, no memory) */
    SYS_prof_stop = 48,   /* () -> samples kept, or -1 if not profiling */
    SYS_prof_read = 49,   /* (offset, buf, len) -> bytes of the dump copied, 0 at its end (frees it), -1 */
    SYS_diskstat = 50,    /* (struct diskstat*) -> 0 or -1: disk requests and log commits since boot */
    SYS_bcstat = 52,      /* (struct bcachestat*) -> 0 or -1 */
    /* OSTEP companion (docs/ostep-kernel.md) */
    SYS_mlfqlevel = 56, /* (pid, 0 = caller) -> its MLFQ queue (0 = top), or -1 (no such process, policy not mlfq) */
    /* EEVDF request size (docs/scheduling.md "Request size"; Linux 6.12's sched_attr.sched_runtime): 57-59 */
    SYS_sched_setrequest = 57, /* (tid, us; 0 = default slice, else clamped to 100..100000) -> 0, or -1 (no such
                                  thread, us < 0, not root and not the caller's own) */
    SYS_sched_getrequest = 58, /* (tid, 0 = caller) -> its request in us (0 = the default slice), or -1 */
    /* process limits (lib/rlimit.h) */
    SYS_getrlimit = 64, /* (resource, struct rlimit*) -> 0, or -1 (unknown resource, bad pointer) */
    SYS_setrlimit = 65, /* (resource, const struct rlimit*) -> 0, or -1 (unknown, bad pointer, not allowed) */
    /* newcomer / shell: 68-69 */
    SYS_errno = 68, /* () -> the errno (lib/abi/errno.h, Linux numbering) of the caller's last failed call, 0 if none */
    /* IPC beyond pipes (docs/ipc.md) */
    SYS_mkfifo = 88, /* (path, mode) -> 0, or -1 (exists, no such directory, not allowed) */
    SYS_poll = 89,   /* (struct pollfd*, nfds, timeout ms; -1 for ever, 0 none) -> ready fds, 0 on timeout, -1 */
    /* signals (docs/signals.md, Linux's numbers and flags): 80-87 */
    SYS_sigsend = 80,   /* (pid, sig) -> 0, or -1 (no such process, bad sig, not allowed); sig 0 checks only */
    SYS_sigact = 81,    /* (sig, const struct ksigaction* act or 0, struct ksigaction* old or 0) -> 0 or -1 */
    SYS_sigmask = 82,   /* (how 0 block, 1 unblock, 2 set; const unsigned long* set; unsigned long* old) -> 0/-1 */
    SYS_sigreturn = 83, /* () from the signal trampoline: restores the interrupted context (a bad frame kills) */
    SYS_sigpend = 84,   /* (unsigned long* set) -> 0 or -1: signals pending for the caller */
    SYS_sigsusp = 85,   /* (const unsigned long* mask) -> -1 EINTR once a handler ran (the old mask is back) */
    /* threads and futexes (docs/threads.md) */
    SYS_tcreate = 70, /* (entry, arg, stack, tls, int* tidp) -> new thread's tid, or -1 */
    SYS_gettid = 71,  /* () -> the calling thread's id (= pid for a process's first thread) */
    SYS_texit = 72,   /* (status) ends the calling thread; the last one ends the process */
    SYS_futex = 73,   /* (int* addr, op, val, timeout_ns) -> FUTEX_WAIT: 0 or FUTEX_MISMATCH or
                         FUTEX_TIMEDOUT; FUTEX_WAKE: threads woken; -1 on error */
    /* virtual memory (docs/memory.md "Mappings"): 90-99 */
    SYS_mmap = 90,     /* (addr, len, prot, flags, fd, off) -> the mapping's address, or -1 (Linux's values below) */
    SYS_munmap = 91,   /* (addr, len) -> 0, or -1 (unaligned, zero or huge length, not user memory) */
    SYS_mprotect = 92, /* (addr, len, prot) -> 0, or -1 (a page not in a mapping, bad prot) */
    SYS_msync = 93,    /* (addr, len, flags) -> 0, or -1: shared file pages written back through the log */
    /* paging and swap (docs/memory.md "Swap"): 94-99 */
    SYS_vmstat = 94, /* (struct vmstat*) -> 0 or -1: memory, fault and swap counters since boot */
    /* C library glue (user/libc, docs/userland.md): 100-103 */
    SYS_lseek = 100, /* (fd, offset, whence 0 set / 1 cur / 2 end) -> new offset, or -1 (not a file, outside 0..size) */
    SYS_cputime = 101,     /* () -> the caller's CPU time in nanoseconds, its current run included */
    SYS_sched_yield = 102, /* () -> 0: the caller gives up its hart and its turn, and stays runnable */
    /* job control (docs/signals.md "Process groups and job control"): 86-87 and 104-111.
       pid 0 is the caller; pgid 0 is the target's own pid. */
    SYS_waitpid = 86,    /* (pid | -1 | 0 | -pgid, int* status, WNOHANG 1 | WUNTRACED 2 | WCONTINUED 8) -> pid, 0, -1 */
    SYS_setpgid = 104,   /* (pid, pgid) -> 0, or -1 (not self/child, other session, no such group, not allowed) */
    SYS_getpgid = 105,   /* (pid) -> its process group, or -1 (no such process) */
    SYS_setsid = 106,    /* () -> the new session id (= pid), or -1 (already a group leader) */
    SYS_getsid = 107,    /* (pid) -> its session, or -1 (no such process) */
    SYS_tcsetpgrp = 108, /* (fd, pgid) -> 0, or -1 (fd not the console, not its session, no such group) */
    SYS_tcgetpgrp = 109, /* (fd) -> the console's foreground group, or -1 (fd not the console) */
    SYS_alarm = 87,      /* (seconds; 0 cancels) -> seconds the previous alarm had left (rounded up), 0 if none */
    SYS_setitimer = 110, /* (ITIMER_REAL 0, const struct kitimerval* new, struct kitimerval* old or 0) -> 0 or -1 */
    SYS_getitimer = 111, /* (ITIMER_REAL 0, struct kitimerval*) -> 0 or -1 */
    SYS_sigaltstack = 112, /* (const struct ksigstack* new or 0, struct ksigstack* old or 0) -> 0 or -1 */
    SYS_times = 113, /* (struct cputimes*) -> 0 or -1: user and kernel CPU time of the caller's process and its reaped
                        children */
    SYS_MAX = 113
};

/* mmap's prot and flags and msync's flags: Linux's values. */
enum { PROT_NONE = 0, PROT_READ = 1, PROT_WRITE = 2, PROT_EXEC = 4 };
enum { MAP_SHARED = 0x01, MAP_PRIVATE = 0x02, MAP_FIXED = 0x10, MAP_ANONYMOUS = 0x20 };
enum { MS_ASYNC = 1, MS_INVALIDATE = 2, MS_SYNC = 4 };

/* futex operations (SYS_futex) and FUTEX_WAIT's results other than 0 (woken).
 * FUTEX_WAIT_UNTIL is FUTEX_WAIT with an absolute deadline: uptime_ns's
 * clock (0: no limit), so a thread preempted before it asks still wakes
 * at the instant it meant. */
enum { FUTEX_WAIT = 0, FUTEX_WAKE = 1, FUTEX_WAIT_UNTIL = 2 };
enum { FUTEX_MISMATCH = 1 /* *addr != val */, FUTEX_TIMEDOUT = 2 };

/* sleep() and uptime() count ticks of 1/UPTIME_HZ s (lib/params.h's
 * kTickCycles of the 10 MHz timer; kernel/syscall.cc checks the two agree). */
enum { UPTIME_HZ = 10 };

/* sigaction as the kernel reads it (SYS_sigact). handler: 0 SIG_DFL,
 * 1 SIG_IGN or the handler's address; flags: SA_SIGINFO 4, SA_RESTART
 * 0x10000000, SA_NODEFER 0x40000000. */
struct ksigaction {
    unsigned long handler;
    unsigned long mask; /* bit n: signal n */
    unsigned long flags;
};

/* What an SA_SIGINFO handler's second argument points to (Linux's first
 * fields: si_signo, si_errno, si_code; then the fault address). */
struct ksiginfo {
    int signo;
    int err;
    int code;           /* 0: sent by a process (SI_USER), 1: a fault */
    int pid;            /* the sender (SI_USER) */
    unsigned long addr; /* the faulting address (SIGSEGV, SIGBUS, SIGILL) */
};

/* sigaltstack (SYS_sigaltstack): Linux's stack_t on riscv64. A handler
 * installed with SA_ONSTACK (0x08000000) runs on [sp, sp + size) unless
 * the thread already is on it; flags SS_ONSTACK 1 (read only: on it now),
 * SS_DISABLE 2 (no alternate stack); size at least MINSIGSTKSZ 2048. */
struct ksigstack {
    unsigned long sp;
    int flags;
    unsigned long size;
};

/* setitimer/getitimer (SYS_setitimer): Linux's struct itimerval on riscv64
 * (two struct timeval: seconds, microseconds). A zero value disarms; a zero
 * interval fires once. Virtual time: exact under QEMU -icount. */
struct kitimerval {
    long interval_sec, interval_usec;
    long value_sec, value_usec;
};

/* File types (struct stat.type). */
enum { T_DIR = 1, T_FILE = 2, T_DEVICE = 3, T_FIFO = 4 /* named pipe (mkfifo) */ };

/* open() flags. */
enum { O_RDONLY = 0x000, O_WRONLY = 0x001, O_RDWR = 0x002, O_CREATE = 0x200, O_TRUNC = 0x400 };

/* poll(): one entry per descriptor, as POSIX's struct pollfd. events asks
 * for POLLIN/POLLOUT; revents says what holds, plus POLLHUP (no writer
 * left), POLLERR (no reader left) and POLLNVAL (fd not open), which are
 * reported whether asked or not. A negative fd is skipped (revents 0). */
enum { POLLIN = 0x001, POLLOUT = 0x004, POLLERR = 0x008, POLLHUP = 0x010, POLLNVAL = 0x020 };
struct pollfd {
    int fd;
    short events;
    short revents;
};

/* Device major numbers. */
enum { CONSOLE = 1, FRAMEBUFFER = 2 /* 320x200 XRGB8888, docs/devices.md */ };

/* Directory name length (struct dirent.name). */
enum { DIRSIZ = 14 };

struct stat {
    int dev;            /* file system's disk device */
    unsigned int ino;   /* inode number */
    short type;         /* T_DIR, T_FILE, T_DEVICE or T_FIFO */
    short nlink;        /* links to file */
    unsigned long size; /* size of file in bytes (64-bit on RV64) */
};

/* struct stat plus owner and mode (SYS_xstat, SYS_fxstat); struct stat
 * itself keeps xv6's layout. mode: rwx bits for owner, group, others
 * (0777) plus the sticky bit (01000). */
struct xstat {
    int dev;
    unsigned int ino;
    short type;
    short nlink;
    unsigned short mode;
    unsigned short pad;
    unsigned int uid;
    unsigned int gid;
    unsigned long size;
};

struct dirent {
    unsigned short inum;
    char name[DIRSIZ];
};

/* One row of the process list (SYS_procinfo): one thread. */
struct procinfo {
    int pid;
    int ppid;
    int state; /* 0 unused, 1 embryo, 2 sleeping, 3 runnable, 4 running, 5 zombie */
    int nice;
    unsigned int weight;
    char name[16];
    unsigned int uid;          /* real user id (fills what was padding) */
    unsigned long cpu_ticks;   /* timer cycles spent running */
    unsigned long switches;    /* times scheduled */
    unsigned long voluntary;   /* switches because it blocked or yielded */
    unsigned long involuntary; /* switches because it was preempted */
    unsigned long wait_cycles; /* runnable but not running */
    unsigned long last_wakeup_latency;
    unsigned long max_wakeup_latency;
    unsigned long migrations; /* times moved between run queues */
    int tid;                  /* the thread's id (a row is a thread; pid is its process) */
    int threads;              /* live threads of its process */
    unsigned long size;       /* its process's user memory in bytes (sbrk(0)) */
    unsigned long minflt;     /* its process's page faults served without the disk */
    unsigned long majflt;     /* ... and with a disk read */
};

/* One run queue's statistics (SYS_rqstat): one queue per hart in percpu
 * mode, one in all in single mode. Lock counters cover every acquisition of
 * the queue's lock since boot; spin is in timer cycles (10 MHz). */
struct rqstat {
    unsigned long acquisitions;
    unsigned long contentions; /* acquisitions that found it held */
    unsigned long spin_cycles; /* time spent waiting for it */
    unsigned long load;        /* sum of the weights of its processes */
    unsigned int nr;           /* its processes (queued or running) */
    unsigned int queues;       /* how many queues there are */
    unsigned long handoffs;    /* acquisitions by another hart than the last holder:
                                  the lock's cache line moved (contention's cause) */
};

/* The tracer's state (SYS_trace_stat); the dump format is lib/obs/format.h. */
struct tracestat {
    int on;                 /* 1 while tracing */
    int harts;              /* sections in a dump */
    unsigned long records;  /* records kept so far (all harts) */
    unsigned long dropped;  /* records lost to full buffers (all harts) */
    unsigned long bytes;    /* size of the dump (after trace_stop) */
    unsigned long capacity; /* records each hart's buffer holds */
};

/* Buffer cache figures (bcstat): sizes now, counts since boot. */
struct bcachestat {
    unsigned long bufs;        /* buffers now: the fixed floor plus the slabs' */
    unsigned long fixed;       /* the floor (param::kBufs) */
    unsigned long pages;       /* pages borrowed from the allocator (counted as free by freepages) */
    unsigned long hits;        /* bread found the block cached */
    unsigned long misses;      /* bread had to load it */
    unsigned long disk_reads;  /* blocks read from the disk */
    unsigned long disk_writes; /* blocks written to the disk (log and home locations) */
    unsigned long grows;       /* slabs borrowed */
    unsigned long shrinks;     /* slabs given back under memory pressure */
};

/* CPU time (SYS_times, the time program), in nanoseconds: POSIX times()'
 * four fields. The process's own is every thread's, ended ones included;
 * its children's is that of the children it has reaped, each with its own
 * reaped descendants'. User time runs from a return to user mode to the
 * next trap; the rest of a thread's time on a hart is kernel time. */
struct cputimes {
    unsigned long user_ns;
    unsigned long sys_ns;
    unsigned long child_user_ns;
    unsigned long child_sys_ns;
};

/* Memory and paging (SYS_vmstat, the vmstat program): pages now, counts
 * since boot. A minor fault is resolved without the disk, a major one
 * reads a file or the swap area. */
struct vmstat {
    unsigned long free_pages;  /* what freepages() says: free, less what is promised */
    unsigned long total_pages; /* user-allocatable pages of RAM */
    unsigned long minor_faults;
    unsigned long major_faults;
    unsigned long cow_copies; /* copy-on-write faults that copied a page */
    unsigned long page_ins;   /* pages read back from the swap area */
    unsigned long page_outs;  /* pages written to the swap area */
    unsigned long swap_used;  /* swap slots in use (pages) */
    unsigned long swap_total; /* swap slots (pages); 0: no swap area */
    unsigned long cached;     /* page-cache frames: file pages shared by whoever maps them */
    unsigned long cache_idle; /* of those, mapped by nobody (counted as free: dropped first when memory runs out) */
};

/* Disk traffic and the log (SYS_diskstat), counted since boot. A round trip
 * is one wait for the disk (several requests in flight count once). */
struct diskstat {
    unsigned long read_requests;
    unsigned long write_requests;
    unsigned long blocks_read;
    unsigned long blocks_written;
    unsigned long round_trips;
    unsigned long log_commits;  /* groups of operations committed */
    unsigned long log_installs; /* times the log was written home and emptied */
    unsigned int log_slots;     /* now: blocks in the log (committed + open) */
    unsigned int log_pinned;    /* now: distinct blocks the log keeps in the cache */
};

/* A resource limit (getrlimit, setrlimit): the soft limit enforced and the
 * hard ceiling for it. RLIMIT_NPROC (Linux's number 6) is the only resource:
 * processes of the caller's real user (root is exempt). */
enum { RLIMIT_NPROC = 6 };
#define RLIM_INFINITY (~0UL)
struct rlimit {
    unsigned long rlim_cur;
    unsigned long rlim_max;
};

/* The layouts above are the ABI: pinned here for every compiler that
 * includes this header (kernel, user programs in C and C++, host tests).
 * LP64 throughout (RV64 and the x86-64 host). */
#ifdef __cplusplus
#define QUANTA_ABI_ASSERT(cond, what) static_assert(cond, what)
#else
#define QUANTA_ABI_ASSERT(cond, what) _Static_assert(cond, what)
#endif
QUANTA_ABI_ASSERT(sizeof(struct stat) == 24 && __builtin_offsetof(struct stat, ino) == 4 &&
                      __builtin_offsetof(struct stat, type) == 8 && __builtin_offsetof(struct stat, nlink) == 10 &&
                      __builtin_offsetof(struct stat, size) == 16,
                  "struct stat must keep xv6-riscv's layout");
QUANTA_ABI_ASSERT(sizeof(struct dirent) == 16 && __builtin_offsetof(struct dirent, name) == 2,
                  "struct dirent must keep xv6-riscv's layout");
QUANTA_ABI_ASSERT(sizeof(struct procinfo) == 136 && __builtin_offsetof(struct procinfo, name) == 20 &&
                      __builtin_offsetof(struct procinfo, cpu_ticks) == 40 &&
                      __builtin_offsetof(struct procinfo, migrations) == 96 &&
                      __builtin_offsetof(struct procinfo, tid) == 104 &&
                      __builtin_offsetof(struct procinfo, minflt) == 120,
                  "struct procinfo is shared with user programs: change both sides");
QUANTA_ABI_ASSERT(__builtin_offsetof(struct procinfo, uid) == 36, "procinfo.uid fills the padding before cpu_ticks");
QUANTA_ABI_ASSERT(sizeof(struct xstat) == 32 && __builtin_offsetof(struct xstat, mode) == 12 &&
                      __builtin_offsetof(struct xstat, uid) == 16 && __builtin_offsetof(struct xstat, size) == 24,
                  "struct xstat is shared with user programs");
QUANTA_ABI_ASSERT(sizeof(struct pollfd) == 8 && __builtin_offsetof(struct pollfd, revents) == 6,
                  "struct pollfd is POSIX's (and Linux's) layout");
QUANTA_ABI_ASSERT(sizeof(struct rqstat) == 48, "struct rqstat is shared with user programs");
QUANTA_ABI_ASSERT(sizeof(struct bcachestat) == 72, "struct bcachestat is shared with user programs");
QUANTA_ABI_ASSERT(sizeof(struct tracestat) == 40, "struct tracestat is shared with user programs");
QUANTA_ABI_ASSERT(sizeof(struct diskstat) == 64, "struct diskstat is shared with user programs");
QUANTA_ABI_ASSERT(sizeof(struct vmstat) == 88, "struct vmstat is shared with user programs");
QUANTA_ABI_ASSERT(sizeof(struct cputimes) == 32, "struct cputimes is shared with user programs");
QUANTA_ABI_ASSERT(sizeof(struct rlimit) == 16, "struct rlimit is shared with user programs");

#endif
