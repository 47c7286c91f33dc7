/* user/libc/include/sys/signal.h - POSIX signals on quanta (docs/signals.md).
 *
 * Installed by make sysroot over picolibc's <sys/signal.h>, which numbers
 * the signals as BSD did (SIGUSR1 30, SIGCHLD 20, SIGSTOP 17, SIG_BLOCK 1):
 * quanta's kernel uses Linux's numbers, flags and sigprocmask values, and
 * so does this header, so a number goes to the kernel as it is. picolibc's
 * <signal.h> (sig_atomic_t, SIG_DFL, SIG_IGN, SIG_ERR, signal, raise,
 * psignal) includes this file and stays as it is. The functions are
 * quanta's glue (user/libc/signal.c); user/libc/abi_check.c checks the
 * numbers and layouts against the kernel's (lib/signal/rules.h,
 * lib/abi/abi.h).
 *
 * A sigset_t has bit n for signal n (1..31). siginfo_t is what the kernel
 * writes into a handler's frame (struct ksiginfo): si_signo, si_errno,
 * si_code (SI_USER 0 for a sent signal, 1 for a fault: SEGV_MAPERR,
 * BUS_ADRALN, ILL_ILLOPC, TRAP_BRKPT), si_pid (the sender) and si_addr
 * (the faulting address). Not here: real-time signals, sigqueue, sigwait.
 */
#ifndef _SYS_SIGNAL_H
#define _SYS_SIGNAL_H

#include <sys/_sigset.h>
#include <sys/cdefs.h>
#include <sys/features.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#if !defined(_SIGSET_T_DECLARED)
#define _SIGSET_T_DECLARED
typedef __sigset_t sigset_t;
#endif

typedef void (*_sig_func_ptr)(int);

#define SIGHUP 1
#define SIGINT 2
#define SIGQUIT 3
#define SIGILL 4
#define SIGTRAP 5
#define SIGABRT 6
#define SIGIOT SIGABRT
#define SIGBUS 7
#define SIGFPE 8
#define SIGKILL 9
#define SIGUSR1 10
#define SIGSEGV 11
#define SIGUSR2 12
#define SIGPIPE 13
#define SIGALRM 14
#define SIGTERM 15
#define SIGSTKFLT 16
#define SIGCHLD 17
#define SIGCLD SIGCHLD
#define SIGCONT 18
#define SIGSTOP 19
#define SIGTSTP 20
#define SIGTTIN 21
#define SIGTTOU 22
#define SIGURG 23
#define SIGXCPU 24
#define SIGXFSZ 25
#define SIGVTALRM 26
#define SIGPROF 27
#define SIGWINCH 28
#define SIGIO 29
#define SIGPOLL SIGIO
#define SIGPWR 30
#define SIGSYS 31
#define NSIG 32 /* signals are 1..NSIG-1 */
#define _NSIG NSIG

/* sigprocmask's how */
#define SIG_BLOCK 0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2

/* sa_flags (the kernel acts on all six; see docs/signals.md) */
#define SA_NOCLDSTOP 0x00000001 /* no SIGCHLD when a child stops or continues */
#define SA_SIGINFO 0x00000004   /* the handler is sa_sigaction(sig, info, ucontext) */
#define SA_RESTART 0x10000000   /* an interrupted blocking call runs again */
#define SA_NODEFER 0x40000000   /* do not block the signal while its handler runs */
#define SA_RESETHAND 0x80000000 /* back to SIG_DFL as the handler starts */
#define SA_ONSTACK 0x08000000   /* run on the alternate signal stack (sigaltstack) */
#define SA_NOMASK SA_NODEFER
#define SA_ONESHOT SA_RESETHAND

union sigval {
    int sival_int;
    void* sival_ptr;
};

/* For timer_create's prototype in <time.h>; quanta has no such timers. */
#define SIGEV_NONE 1
#define SIGEV_SIGNAL 0
#define SIGEV_THREAD 2
struct sigevent {
    union sigval sigev_value;
    int sigev_signo;
    int sigev_notify;
};

/* The kernel's struct ksiginfo (lib/abi/abi.h). */
typedef struct {
    int si_signo;
    int si_errno;
    int si_code;
    int si_pid;    /* the sender, for a sent signal */
    void* si_addr; /* the faulting address, for a fault */
} siginfo_t;

#define SI_USER 0
#define SEGV_MAPERR 1
#define BUS_ADRALN 1
#define ILL_ILLOPC 1
#define TRAP_BRKPT 1

struct sigaction {
    union {
        _sig_func_ptr _handler;
        void (*_sigaction)(int, siginfo_t*, void*);
    } _u;
    sigset_t sa_mask;
    int sa_flags;
};
#define sa_handler _u._handler
#define sa_sigaction _u._sigaction

/* sigaltstack: the kernel's struct ksigstack */
typedef struct {
    void* ss_sp;
    int ss_flags;
    size_t ss_size;
} stack_t;
#define SS_ONSTACK 1
#define SS_DISABLE 2
#define MINSIGSTKSZ 2048
#define SIGSTKSZ 8192

int sigaction(int, const struct sigaction* __restrict, struct sigaction* __restrict);
int sigaltstack(const stack_t* __restrict, stack_t* __restrict);
int sigprocmask(int, const sigset_t* __restrict, sigset_t* __restrict);
int pthread_sigmask(int, const sigset_t* __restrict, sigset_t* __restrict);
int sigpending(sigset_t*);
int sigsuspend(const sigset_t*);
int kill(pid_t, int);
int killpg(pid_t, int);
int sigemptyset(sigset_t*);
int sigfillset(sigset_t*);
int sigaddset(sigset_t*, int);
int sigdelset(sigset_t*, int);
int sigismember(const sigset_t*, int);

#if __MISC_VISIBLE
#define SIG2STR_MAX 16
int sig2str(int, char*);
int str2sig(const char* __restrict, int* __restrict);
#endif

#ifdef __cplusplus
}
#endif

#ifndef _SIGNAL_H_
/* <sys/signal.h> alone gives <signal.h>'s names too, as glibc's does. */
#include <signal.h>
#endif

#endif /* _SYS_SIGNAL_H */
