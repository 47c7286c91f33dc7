/* user/user.h - the user library's API (xv6-riscv's user.h, plus quanta's calls).
 *
 * Valid C and C++ (extern "C" in C++). Self-contained: it pulls struct stat,
 * struct procinfo and the constants from lib/abi/abi.h, so programs written
 * for xv6-riscv that include "kernel/types.h" and "kernel/stat.h" first, and
 * programs that include only this header, both compile. Signatures follow
 * xv6-riscv exactly (e.g. `uint` parameters are spelled `unsigned int`).
 *
 * System calls are assembly stubs generated from the SYS_ enum
 * (user/lib/usys.sh); the rest lives in user/lib/ (ulib.c, printf.c,
 * umalloc.c) and the start-up code in user/lib/crt0.S.
 *
 * The usage_* helpers give every program the same `-h` and bad-argument
 * behaviour: one line `usage: ...` on stderr, exit 0 for -h, else non-zero.
 */
#ifndef QUANTA_USER_H
#define QUANTA_USER_H

#include "lib/abi/abi.h"
#include "lib/abi/errno.h"
#include "lib/abi/users.h"

#ifdef __cplusplus
extern "C" {
#endif

/* System calls (xv6-riscv numbers 1-21). */
int fork(void);
int exit(int) __attribute__((noreturn));
int wait(int*);
int pipe(int*);
int write(int, const void*, int);
int read(int, void*, int);
int close(int);
int kill(int);
int exec(const char*, char**);
int open(const char*, int);
int mknod(const char*, short, short);
int unlink(const char*);
int fstat(int fd, struct stat*);
int link(const char*, const char*);
int mkdir(const char*);
int chdir(const char*);
int dup(int);
int getpid(void);
char* sbrk(int);
int sleep(int);
int uptime(void);

/* quanta extensions (numbers above 21). */
int getpriority(int pid);
int setpriority(int pid, int nice);
int sched_get(char* buf, int len);
int sched_set(const char* name);
unsigned long uptime_ns(void);
int sched_yield(void); /* give up the hart and the rest of the turn; stays runnable */
int procinfo(int index, struct procinfo*);
int mlfqlevel(int pid); /* MLFQ queue (0 = top), -1: no such process or not mlfq */
/* EEVDF request size in us (0 = the default slice; set clamps to 100..100000). */
int sched_setrequest(int tid, int us);
int sched_getrequest(int tid);
int freepages(void);
int halt(int status);
int rqstat(int queue, struct rqstat*);
int setaffinity(int pid, unsigned long mask);
unsigned long getaffinity(int pid);
/* users and file protection (docs/users-and-protection.md) */
int getuid(void);
int geteuid(void);
int setuid(int uid);
int getgid(void);
int getegid(void);
int setgid(int gid);
int chmod(const char* path, int mode);
int chown(const char* path, int uid, int gid); /* -1 keeps that id */
int xstat(const char* path, struct xstat*);
int fxstat(int fd, struct xstat*);
/* IPC beyond pipes (docs/ipc.md) */
int mkfifo(const char* path, int mode);
int poll(struct pollfd* fds, int nfds, int timeout_ms); /* -1 waits for ever, 0 not at all */
int trace_start(int kb);
int trace_stop(void);
int trace_read(unsigned long offset, void* buf, int len);
int trace_stat(struct tracestat*);
int prof_start(int period_us, int kb);
int prof_stop(void);
int prof_read(unsigned long offset, void* buf, int len);
int bcstat(struct bcachestat*);
int getrlimit(int resource, struct rlimit*); /* RLIMIT_NPROC (lib/rlimit.h) */
int setrlimit(int resource, const struct rlimit*);
int diskstat(struct diskstat*);
int vmstat(struct vmstat*);  /* paging counters (docs/memory.md "Swap") */
int times(struct cputimes*); /* CPU time of the process and its reaped children */
/* Why the calling thread's last failed system call failed: an error number
 * of lib/abi/errno.h (Linux's numbering), 0 if none failed. A successful call
 * leaves it alone; a successful exec starts the program with 0. */
int errno(void);
/* threads and futexes (docs/threads.md): the raw calls */
int tcreate(void (*entry)(void*), void* arg, void* stack, void* tls, volatile int* tidp);
int gettid(void);
void texit(int status) __attribute__((noreturn));
int futex(volatile int* addr, int op, int val, unsigned long timeout_ns);
/* signals (docs/signals.md): the raw calls; Linux's numbers. sigsend is
 * kill(pid, sig); sigact takes lib/abi/abi.h's struct ksigaction (handler
 * SIG_DFL 0, SIG_IGN 1 or a function; with SA_SIGINFO it gets (sig,
 * struct ksiginfo*, void* ucontext)); sigmask's how: SIG_BLOCK 0,
 * SIG_UNBLOCK 1, SIG_SETMASK 2; a set has bit n for signal n. */
int sigsend(int pid, int sig);
int sigact(int sig, const struct ksigaction* act, struct ksigaction* old);
int sigmask(int how, const unsigned long* set, unsigned long* old);
int sigreturn(void);
int sigpend(unsigned long* set);
int sigsusp(const unsigned long* mask);
/* the thread's alternate signal stack for SA_ONSTACK handlers (lib/abi/abi.h
 * struct ksigstack: sp, flags SS_ONSTACK/SS_DISABLE, size >= MINSIGSTKSZ) */
int sigaltstack(const struct ksigstack* ss, struct ksigstack* old);
/* process groups, sessions, the console's foreground group (docs/signals.md
 * "Process groups and job control"): POSIX's meanings; pid 0 is the caller,
 * pgid 0 the target's pid; sigsend(0, sig) signals the caller's group and
 * sigsend(-pgid, sig) that group. */
int setpgid(int pid, int pgid);
int getpgid(int pid);
int setsid(void);
int getsid(int pid);
int tcsetpgrp(int fd, int pgid);
int tcgetpgrp(int fd);
/* waitpid(pid, status, options): pid > 0 that child, -1 any, 0 any in the
 * caller's group, -pgid any in that group; the status word is Linux's
 * (the W* macros below). xv6's wait(int*) is unchanged: a killed child's
 * status is -1 there. */
int waitpid(int pid, int* status, int options);
/* SIGALRM after `seconds` (0 cancels; returns what the old alarm had left),
 * and its periodic form (which = ITIMER_REAL 0 only; struct kitimerval of
 * lib/abi/abi.h is Linux's struct itimerval). Virtual time under -icount. */
int alarm(int seconds);
int setitimer(int which, const struct kitimerval* value, struct kitimerval* old);
int getitimer(int which, struct kitimerval* value);
#ifndef WNOHANG
#define WNOHANG 1
#define WUNTRACED 2
#define WCONTINUED 8
#define WIFEXITED(s) (((s)&0x7f) == 0)
#define WEXITSTATUS(s) (((s) >> 8) & 0xff)
#define WIFSIGNALED(s) (((s)&0x7f) != 0 && ((s)&0x7f) != 0x7f)
#define WTERMSIG(s) ((s)&0x7f)
#define WIFSTOPPED(s) (((s)&0xff) == 0x7f)
#define WSTOPSIG(s) WEXITSTATUS(s)
#define WIFCONTINUED(s) ((s) == 0xffff)
#endif
#ifndef SIGINT
enum {
    SIGHUP = 1,
    SIGINT = 2,
    SIGQUIT = 3,
    SIGILL = 4,
    SIGTRAP = 5,
    SIGABRT = 6,
    SIGBUS = 7,
    SIGFPE = 8,
    SIGKILL = 9,
    SIGUSR1 = 10,
    SIGSEGV = 11,
    SIGUSR2 = 12,
    SIGPIPE = 13,
    SIGALRM = 14,
    SIGTERM = 15,
    SIGCHLD = 17,
    SIGCONT = 18,
    SIGSTOP = 19,
    SIGTSTP = 20,
    SIGTTIN = 21,
    SIGTTOU = 22
};
enum { SIG_BLOCK = 0, SIG_UNBLOCK = 1, SIG_SETMASK = 2 };
#define SA_NOCLDSTOP 1
#define SA_SIGINFO 4
#define SA_RESTART 0x10000000
#define SA_NODEFER 0x40000000
#define SA_RESETHAND 0x80000000ul
#define SA_ONSTACK 0x08000000
#define SS_ONSTACK 1
#define SS_DISABLE 2
#define MINSIGSTKSZ 2048
#define SIGSTKSZ 8192
#define SIG_DFL 0ul /* struct ksigaction's handler values */
#define SIG_IGN 1ul
#endif
/* memory mappings (docs/memory.md "Mappings"): Linux's calls and flag values
 * (PROT_*, MAP_*, MS_* in lib/abi/abi.h); mmap returns MAP_FAILED on failure */
#define MAP_FAILED ((void*)-1)
void* mmap(void* addr, unsigned long len, int prot, int flags, int fd, long off);
int munmap(void* addr, unsigned long len);
int mprotect(void* addr, unsigned long len, int prot);
int msync(void* addr, unsigned long len, int flags);

/* ulib.c */
int stat(const char*, struct stat*);
char* strcpy(char*, const char*);
void* memmove(void*, const void*, int);
char* strchr(const char*, char c);
int strcmp(const char*, const char*);
void fprintf(int, const char*, ...) __attribute__((format(printf, 2, 3)));
void printf(const char*, ...) __attribute__((format(printf, 1, 2)));
char* gets(char*, int max);
unsigned int strlen(const char*);
void* memset(void*, int, unsigned int);
int atoi(const char*);
int memcmp(const void*, const void*, unsigned int);
void* memcpy(void*, const void*, unsigned int);

/* ulib.c: usage lines (quanta). Every program has one line, "usage: LINE",
 * printed on stderr for -h (exit 0) and for bad arguments (exit non-zero). */
void usage_exit(const char* line, int status) __attribute__((noreturn));
void usage_on_help(int argc, char** argv, const char* line);
void usage_no_options(int argc, char** argv, const char* line);

/* Error text (ulib.c, printf.c): strerror(errno()) is "permission denied",
 * "no such file or directory", ...; perror("x") prints "x: REASON";
 * perrorf(fmt, ...) prints the formatted message, ": REASON" and a newline,
 * e.g. perrorf("cat: cannot open %s", name). All on stderr. */
const char* strerror(int e);
void perror(const char* s);
/* exec as the shell finds a command (ulib.c): argv[0] as given, then, for
 * a name without '/', from the root (the only search path). Returns only
 * when both failed, with the more telling reason (errno): the first
 * attempt's unless that was "not here". sh, time and su use it. */
int exec_search(char** argv);
void perrorf(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

/* passwd.c: look an account up in /etc/passwd (lib/abi/users.h format);
 * 1 when found, 0 when not (or the file is unreadable). pw_name writes the
 * account name of uid, or the number when there is none, into buf[16]. */
int getpwnam(const char* name, struct pwent* e);
int getpwuid(unsigned int uid, struct pwent* e);
int getpwgid(unsigned int gid, struct pwent* e); /* first account with that gid */
const char* pw_name(unsigned int uid, char* buf);
const char* pw_group(unsigned int gid, char* buf);

/* thread.c: threads with a 16 KiB malloc'd stack each. thread_create
 * returns the tid or -1; thread_join (0, or -1: not a joinable thread of
 * this process, e.g. already joined, detached, or the caller) waits for it
 * to end and frees its stack; a detached thread's stack is freed after it
 * ends. Returning from fn is thread_exit(). */
int thread_create(void (*fn)(void*), void* arg);
int thread_join(int tid);
int thread_detach(int tid);
void thread_exit(void) __attribute__((noreturn));
/* futex(addr, FUTEX_WAIT, val, timeout_ns) / futex(addr, FUTEX_WAIT_UNTIL, val,
 * uptime_ns instant) / futex(addr, FUTEX_WAKE, n, 0) */
int futex_wait(volatile int* addr, int val, unsigned long timeout_ns);
int futex_wake(volatile int* addr, int n);
/* A mutex on a futex: uncontended lock and unlock make no system call. */
struct umutex {
    volatile int v;
};
#define UMUTEX_INIT \
    { 0 }
void umutex_lock(struct umutex* m);
int umutex_trylock(struct umutex* m); /* 0 when taken, -1 when held */
void umutex_unlock(struct umutex* m);

/* umalloc.c */
void* malloc(unsigned int);
void free(void*);

#ifdef __cplusplus
}
#endif

#endif
