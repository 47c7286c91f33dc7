/* tests/libc/signals.c - POSIX signals through the C library.
 *
 * A textbook C program, compiled with qcc (tests/guest/libc_tests.py):
 * <signal.h>'s numbers must be the kernel's, so each part checks what the
 * kernel does with a number as it is named here (default actions, stops,
 * the uncatchable two), then the calls: signal, raise, sigaction with
 * SA_SIGINFO, SA_RESETHAND, sigprocmask, sigpending, sigsuspend, alarm,
 * pause, setitimer, nanosleep cut by a handler, kill and killpg, waitpid's
 * WUNTRACED and WCONTINUED, sigaltstack (a stack overflow caught), abort, SIGPIPE (POSIX's default for a C
 * program; ignored across exec) and the names. One line per part.
 *
 *   signals          every part
 *   signals -pipe    (run by the SIGPIPE part) write to a pipe nobody reads */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t got, got_sig;
static volatile int info_signo, info_code, info_pid;
static void* volatile info_addr;

static void on_sig(int sig) {
    got++;
    got_sig = sig;
}

static void on_info(int sig, siginfo_t* info, void* uc) {
    (void)uc;
    got++;
    got_sig = sig;
    info_signo = info->si_signo;
    info_code = info->si_code;
    info_pid = info->si_pid;
    info_addr = info->si_addr;
}

/* A fault's handler that leaves: 42 if it saw the right address. */
static void on_segv(int sig, siginfo_t* info, void* uc) {
    (void)uc;
    _exit(sig == SIGSEGV && info->si_addr == (void*)0x1238 && info->si_code == SEGV_MAPERR ? 42 : 43);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* A child that sleeps until signalled. */
static pid_t sleeper(void) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        for (;;) pause();
    }
    return pid;
}

/* What happens to a child sent sig with the default action: "term",
 * "stop" (then continued and killed), or "ignore" (then killed). */
static const char* default_of(int sig) {
    pid_t pid = sleeper();
    int st = 0;
    usleep(100000);
    kill(pid, sig);
    usleep(100000);
    pid_t r = waitpid(pid, &st, WNOHANG | WUNTRACED);
    if (r == pid && WIFSIGNALED(st)) return WTERMSIG(st) == sig ? "term" : "wrong signal";
    if (r == pid && WIFSTOPPED(st)) {
        kill(pid, SIGCONT);
        waitpid(pid, &st, WCONTINUED);
        kill(pid, SIGKILL);
        waitpid(pid, &st, 0);
        return "stop";
    }
    kill(pid, SIGKILL);
    waitpid(pid, &st, 0);
    return r == 0 ? "ignore" : "wrong";
}

static void defaults(void) {
    static const int sigs[] = {SIGHUP,  SIGINT, SIGQUIT,  SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGTERM,
                               SIGCHLD, SIGURG, SIGWINCH, SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU, SIGSYS};
    printf("defaults:");
    for (unsigned i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        char name[SIG2STR_MAX];
        sig2str(sigs[i], name);
        printf(" %s=%s", name, default_of(sigs[i]));
    }
    struct sigaction a;
    memset(&a, 0, sizeof a);
    a.sa_handler = on_sig;
    int k = sigaction(SIGKILL, &a, 0) == -1 && errno == EINVAL;
    int s = sigaction(SIGSTOP, &a, 0) == -1 && errno == EINVAL;
    printf("; KILL/STOP %s\n", k && s ? "uncatchable" : "caught!");
}

static void raise_and_signal(void) {
    got = 0;
    _sig_func_ptr old = signal(SIGUSR1, on_sig);
    raise(SIGUSR1);
    printf("raise: handler ran %d time(s) for %s, old action %s\n", (int)got, strsignal(got_sig),
           old == SIG_DFL ? "SIG_DFL" : "?");
    signal(SIGUSR1, SIG_DFL);
}

static void siginfo(void) {
    struct sigaction a;
    memset(&a, 0, sizeof a);
    a.sa_sigaction = on_info;
    a.sa_flags = SA_SIGINFO;
    sigaction(SIGUSR2, &a, 0);
    kill(getpid(), SIGUSR2);
    printf("siginfo: signo %s, code %s, pid %s\n", info_signo == SIGUSR2 ? "SIGUSR2" : "?",
           info_code == SI_USER ? "SI_USER" : "?", info_pid == getpid() ? "mine" : "?");
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        a.sa_sigaction = on_segv;
        sigaction(SIGSEGV, &a, 0);
        *(volatile int*)0x1238 = 1;
        _exit(3);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    printf("segv: %s\n", WIFEXITED(st) && WEXITSTATUS(st) == 42 ? "the handler saw address 0x1238" : "?");
    fflush(stdout);
    /* A handler that returns: the store runs again; SA_RESETHAND makes
     * the second fault take the default action. */
    pid = fork();
    if (pid == 0) {
        a.sa_sigaction = on_info;
        a.sa_flags = SA_SIGINFO | SA_RESETHAND;
        sigaction(SIGSEGV, &a, 0);
        *(volatile int*)0x1238 = 1;
        _exit(3);
    }
    waitpid(pid, &st, 0);
    printf("segv with SA_RESETHAND: %s\n",
           WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV ? "handler once, then killed by SIGSEGV" : "?");
}

static void masks(void) {
    sigset_t set, pend, old;
    signal(SIGUSR1, on_sig);
    got = 0;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    sigprocmask(SIG_BLOCK, &set, &old);
    raise(SIGUSR1);
    sigpending(&pend);
    int ran_blocked = got;
    int is_pending = sigismember(&pend, SIGUSR1);
    sigprocmask(SIG_SETMASK, &old, 0);
    printf("mask: ran %d while blocked, pending %d, ran %d after\n", ran_blocked, is_pending, (int)got);
    sigfillset(&set);
    int bad = sigaddset(&set, 32) == -1 && errno == EINVAL && sigismember(&set, 0) == -1;
    printf("sets: full has SIGSYS %d, SIGKILL %d; 0 and 32 rejected %d\n", sigismember(&set, SIGSYS),
           sigismember(&set, SIGKILL), bad);
    signal(SIGUSR1, SIG_DFL);
}

static void timers(void) {
    sigset_t alrm, none;
    sigemptyset(&none);
    sigemptyset(&alrm);
    sigaddset(&alrm, SIGALRM);
    signal(SIGALRM, on_sig);
    sigprocmask(SIG_BLOCK, &alrm, 0);
    got = 0;
    double t0 = now();
    alarm(1);
    int r = sigsuspend(&none);
    double dt = now() - t0;
    printf("alarm: sigsuspend %d %s after %.1f s, handler %d\n", r, errno == EINTR ? "EINTR" : "?", dt, (int)got);
    sigprocmask(SIG_UNBLOCK, &alrm, 0);
    got = 0;
    alarm(1);
    r = pause();
    printf("pause: %d %s, handler %d\n", r, errno == EINTR ? "EINTR" : "?", (int)got);
    struct itimerval v = {{0, 50000}, {0, 50000}}, off = {{0, 0}, {0, 0}};
    got = 0;
    t0 = now();
    setitimer(ITIMER_REAL, &v, 0);
    while (got < 4) pause();
    setitimer(ITIMER_REAL, &off, 0);
    dt = now() - t0;
    printf("itimer: %d ticks of 50 ms in %.2f s\n", (int)got, dt);
    signal(SIGALRM, SIG_DFL);
}

/* nanosleep cut by a handler installed with signal() (SA_RESTART): -1
 * EINTR and the time left, as POSIX says whatever SA_RESTART. */
static void cut_sleep(void) {
    signal(SIGUSR1, on_sig);
    fflush(stdout);
    pid_t parent = getpid(), pid = fork();
    if (pid == 0) {
        usleep(1000000);
        kill(parent, SIGUSR1);
        _exit(0);
    }
    struct timespec req = {5, 0}, rem = {0, 0};
    int r = nanosleep(&req, &rem);
    int e = errno;
    waitpid(pid, 0, 0);
    double left = rem.tv_sec + rem.tv_nsec / 1e9;
    printf("nanosleep: %d %s, %s left\n", r, e == EINTR ? "EINTR" : "?", left > 3.5 && left < 4.1 ? "4 s" : "wrong");
    signal(SIGUSR1, SIG_DFL);
}

/* waitpid sees a stop and a continue; killpg reaches a group. */
static void jobs(void) {
    pid_t pid = sleeper();
    int st = 0;
    kill(pid, SIGSTOP);
    waitpid(pid, &st, WUNTRACED);
    printf("waitpid: %s", WIFSTOPPED(st) ? strsignal(WSTOPSIG(st)) : "?");
    kill(pid, SIGCONT);
    waitpid(pid, &st, WCONTINUED);
    printf(", %s", WIFCONTINUED(st) ? "continued" : "?");
    kill(pid, SIGTERM);
    waitpid(pid, &st, 0);
    printf(", %s\n", WIFSIGNALED(st) ? strsignal(WTERMSIG(st)) : "?");
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        for (;;) pause();
    }
    setpgid(pid, pid);
    int same = getpgid(pid) == pid && getpgrp() != pid;
    killpg(pid, SIGHUP);
    waitpid(pid, &st, 0);
    printf("killpg: own group %d, %s\n", same, WIFSIGNALED(st) ? strsignal(WTERMSIG(st)) : "?");
}

/* A stack overflow's SIGSEGV caught on an alternate stack. */
static void on_overflow(int sig) { _exit(sig == SIGSEGV ? 42 : 43); }
static int deep(int n) {
    volatile char pad[256];
    pad[0] = (char)n;
    if (n < 0) return 0; /* never: the stack runs out first */
    return deep(n + 1) + pad[0];
}

static void altstack(void) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        static char mem[SIGSTKSZ];
        stack_t ss = {mem, 0, sizeof mem};
        struct sigaction a;
        memset(&a, 0, sizeof a);
        a.sa_handler = on_overflow;
        a.sa_flags = SA_ONSTACK;
        if (sigaltstack(&ss, 0) < 0 || sigaction(SIGSEGV, &a, 0) < 0) _exit(2);
        _exit(deep(0));
    }
    int st = 0;
    waitpid(pid, &st, 0);
    printf("sigaltstack: %s\n", WIFEXITED(st) && WEXITSTATUS(st) == 42 ? "stack overflow caught" : "?");
}

static void on_abrt(int sig) { (void)sig; }

static void aborts(void) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGABRT, on_abrt); /* returns: abort ends the process all the same */
        abort();
    }
    int st = 0;
    waitpid(pid, &st, 0);
    printf("abort: %s\n", WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT ? "SIGABRT" : "?");
}

/* signals -pipe: one write to a pipe whose reader is gone. */
static int broken_write(void) {
    int p[2];
    pipe(p);
    close(p[0]);
    return write(p[1], "x", 1) == -1 && errno == EPIPE ? 0 : 1;
}

static const char* pipe_child(int ignore, int do_exec) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        if (ignore) signal(SIGPIPE, SIG_IGN);
        if (do_exec) execlp("signals", "signals", "-pipe", (char*)0);
        _exit(broken_write());
    }
    int st = 0;
    waitpid(pid, &st, 0);
    if (WIFSIGNALED(st)) return WTERMSIG(st) == SIGPIPE ? "killed by SIGPIPE" : "other signal";
    return WEXITSTATUS(st) == 0 ? "-1 EPIPE" : "?";
}

static void sigpipe(void) {
    printf("sigpipe: default %s", pipe_child(0, 0));
    printf(", ignored %s", pipe_child(1, 0));
    printf(", exec'd %s", pipe_child(0, 1));
    printf(", exec'd ignored %s\n", pipe_child(1, 1));
}

static void names(void) {
    char buf[SIG2STR_MAX];
    int n = 0, m = 0;
    sig2str(SIGUSR1, buf);
    str2sig("CHLD", &n);
    str2sig("15", &m);
    printf("names: %s, %s, %s, SIG%s, CHLD=%d, 15=%d, %s\n", strsignal(SIGINT), strsignal(SIGSEGV), strsignal(SIGKILL),
           buf, n, m, strsignal(99));
    fflush(stdout);
    psignal(SIGPIPE, "psignal");
}

int main(int argc, char** argv) {
    if (argc == 2 && strcmp(argv[1], "-pipe") == 0) return broken_write();
    defaults();
    raise_and_signal();
    siginfo();
    masks();
    timers();
    cut_sleep();
    jobs();
    altstack();
    aborts();
    sigpipe();
    names();
    return 0;
}
