/* user/libc/signal.c - POSIX signals over quanta's calls (docs/signals.md).
 *
 * <sys/signal.h> (user/libc/include) numbers signals, flags and
 * sigprocmask's how as Linux and the kernel do, so nothing is translated:
 * sigaction copies struct sigaction into the kernel's struct ksigaction
 * (sigact, 81), a sigset_t is the kernel's mask word (bit n: signal n),
 * and a handler runs as the kernel calls it, returning through the
 * kernel's trampoline. signal() installs a handler with SA_RESTART (BSD's
 * and glibc's meaning: it stays installed and interrupted calls go on).
 * raise sends to the caller's process (sigsend, 80); in a process with
 * several threads the first thread that does not block it takes it, which
 * may be another thread. abort, strsignal, sig2str and str2sig replace
 * picolibc's, which know only picolibc's own numbers. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "../include/user/args.h" /* kSignalNames: one table for kill, sh and this */
#include "sys.h"

_Static_assert(sizeof(siginfo_t) == Q_SIGINFO_SIZE && offsetof(siginfo_t, si_pid) == Q_SIGINFO_PID &&
                   offsetof(siginfo_t, si_addr) == Q_SIGINFO_ADDR,
               "siginfo_t is the kernel's struct ksiginfo");
_Static_assert(sizeof(struct itimerval) == Q_ITIMERVAL_SIZE && offsetof(struct itimerval, it_value) == 16,
               "struct itimerval is the kernel's struct kitimerval");
_Static_assert(sizeof(sigset_t) == sizeof(unsigned long), "a sigset_t is the kernel's mask word");
_Static_assert(sizeof(stack_t) == Q_SIGSTACK_SIZE && offsetof(stack_t, ss_size) == Q_SIGSTACK_SIZE_AT,
               "stack_t is the kernel's struct ksigstack");
_Static_assert(kNamedSignals == NSIG, "a name for every signal");

static int valid(int sig) { return sig >= 1 && sig < NSIG; }

static int invalid(void) {
    errno = EINVAL;
    return -1;
}

int sigemptyset(sigset_t* set) {
    *set = 0;
    return 0;
}

int sigfillset(sigset_t* set) {
    *set = (1ul << NSIG) - 2; /* bits 1..31 */
    return 0;
}

int sigaddset(sigset_t* set, int sig) {
    if (!valid(sig)) return invalid();
    *set |= 1ul << sig;
    return 0;
}

int sigdelset(sigset_t* set, int sig) {
    if (!valid(sig)) return invalid();
    *set &= ~(1ul << sig);
    return 0;
}

int sigismember(const sigset_t* set, int sig) {
    if (!valid(sig)) return invalid();
    return (*set >> sig) & 1;
}

int sigaction(int sig, const struct sigaction* act, struct sigaction* old) {
    struct q_ksigaction k, o;
    if (act) {
        k.handler = (unsigned long)act->sa_handler;
        k.mask = act->sa_mask;
        k.flags = (unsigned int)act->sa_flags;
    }
    if (qsys_fail(qsys3(QSYS_sigact, sig, act ? &k : 0, old ? &o : 0)) < 0) return -1;
    if (old) {
        memset(old, 0, sizeof *old);
        old->sa_handler = (_sig_func_ptr)o.handler;
        old->sa_mask = o.mask;
        old->sa_flags = (int)o.flags;
    }
    return 0;
}

_sig_func_ptr signal(int sig, _sig_func_ptr handler) {
    struct sigaction a, old;
    memset(&a, 0, sizeof a);
    a.sa_handler = handler;
    a.sa_flags = SA_RESTART;
    if (sigaction(sig, &a, &old) < 0) return SIG_ERR;
    return old.sa_handler;
}

int sigaltstack(const stack_t* ss, stack_t* old) { return qsys_fail(qsys2(QSYS_sigaltstack, ss, old)) < 0 ? -1 : 0; }

int sigprocmask(int how, const sigset_t* set, sigset_t* old) {
    return qsys_fail(qsys3(QSYS_sigmask, how, set, old)) < 0 ? -1 : 0;
}

/* Each thread has its own mask in the kernel: the same call. */
int pthread_sigmask(int how, const sigset_t* set, sigset_t* old) { return sigprocmask(how, set, old) == 0 ? 0 : errno; }

int sigpending(sigset_t* set) { return qsys_fail(qsys1(QSYS_sigpend, set)) < 0 ? -1 : 0; }

int sigsuspend(const sigset_t* mask) { return qsys_fail(qsys1(QSYS_sigsusp, mask)) < 0 ? -1 : 0; }

int pause(void) {
    sigset_t now;
    if (sigprocmask(SIG_BLOCK, 0, &now) < 0) return -1;
    return sigsuspend(&now);
}

int kill(pid_t pid, int sig) { return qsys_fail(qsys2(QSYS_sigsend, pid, sig)) < 0 ? -1 : 0; }

int killpg(pid_t pgrp, int sig) {
    if (pgrp < 0) return invalid();
    return kill(-pgrp, sig); /* 0: the caller's own group */
}

int raise(int sig) { return kill(getpid(), sig); }

unsigned alarm(unsigned seconds) {
    const long r = qsys1(QSYS_alarm, seconds > INT_MAX ? INT_MAX : seconds);
    return r < 0 ? 0 : (unsigned)r;
}

int setitimer(int which, const struct itimerval* value, struct itimerval* old) {
    return qsys_fail(qsys3(QSYS_setitimer, which, value, old)) < 0 ? -1 : 0;
}

int getitimer(int which, struct itimerval* value) {
    return qsys_fail(qsys2(QSYS_getitimer, which, value)) < 0 ? -1 : 0;
}

/* SIGABRT, and if a handler returns or SIGABRT is ignored or blocked, its
 * default action all the same: abort never returns (POSIX). */
void abort(void) {
    raise(SIGABRT);
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGABRT, &dfl, 0);
    sigset_t abrt = 1ul << SIGABRT;
    sigprocmask(SIG_UNBLOCK, &abrt, 0);
    raise(SIGABRT);
    _exit(127);
}

static const char* const kDescriptions[NSIG] = {
    0,
    "Hangup",
    "Interrupt",
    "Quit",
    "Illegal instruction",
    "Trace/breakpoint trap",
    "Aborted",
    "Bus error",
    "Floating point exception",
    "Killed",
    "User defined signal 1",
    "Segmentation fault",
    "User defined signal 2",
    "Broken pipe",
    "Alarm clock",
    "Terminated",
    "Stack fault",
    "Child exited",
    "Continued",
    "Stopped (signal)",
    "Stopped",
    "Stopped (tty input)",
    "Stopped (tty output)",
    "Urgent I/O condition",
    "CPU time limit exceeded",
    "File size limit exceeded",
    "Virtual timer expired",
    "Profiling timer expired",
    "Window changed",
    "I/O possible",
    "Power failure",
    "Bad system call",
};

char* strsignal(int sig) {
    static char unknown[32];
    if (valid(sig)) return (char*)kDescriptions[sig];
    snprintf(unknown, sizeof unknown, "Unknown signal %d", sig);
    return unknown;
}

int sig2str(int sig, char* str) {
    if (!valid(sig)) return -1;
    strcpy(str, kSignalNames[sig]);
    return 0;
}

int str2sig(const char* restrict str, int* restrict sig) {
    const int n = signal_number(str);
    if (n == 0) return -1;
    *sig = n;
    return 0;
}
