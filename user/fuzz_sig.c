/* user/fuzz_sig.c - the fuzzer's signals (part of user/fuzz; docs/signals.md).
 *
 * sigact installs real handlers (half the time; SIG_DFL or SIG_IGN
 * otherwise) with random masks and flags. The handler behaves as a
 * careless program's would: it makes random system calls itself (a level
 * or two deep), sends the worker more signals, and now and then scribbles
 * its saved context, a register or the pc, before it returns through
 * sigreturn (the worker may then die: the next generation takes its slot;
 * nothing it forges may hurt the kernel). A fault signal's handler is
 * installed with SA_RESETHAND, so the refault ends the worker instead of
 * spinning until the supervisor's kill. sigsend goes to the worker itself,
 * its own children (SIGSTOP only in a pair with SIGCONT, so no child stays
 * stopped) or nobody. sigreturn is made only from a child, on a frame of
 * random words with or without the magic word. The signal shape: a storm
 * at a child, stop/continue pairs at a child in a pipe write, a periodic
 * timer of 200 us with a handler, and a child killed while stopped. */
#include "user/fuzz.h"
#include "user/user.h"

static volatile int depth; /* handler nesting */

/* A signal a worker sends itself: mostly ones it may handle. */
static int some_signal(void) {
    static const int sigs[] = {SIGUSR1, SIGUSR2, SIGALRM, SIGCHLD, SIGHUP, SIGINT, SIGTERM, SIGPIPE, 23, 28};
    return chance(90) ? sigs[below(sizeof sigs / sizeof sigs[0])] : 1 + (int)below(31);
}

static void handler(int s, struct ksiginfo* info, void* uc) {
    (void)s;
    (void)info;
    unsigned long* mc = uc; /* pc, x1..x31 */
    if (depth++ < 2) {
        if (chance(30)) one_call();
        if (chance(20)) sigsend(getpid(), some_signal());
    }
    depth--;
    if (chance(3)) mc[1 + below(31)] = rnd(); /* a register the worker will find changed */
    else if (chance(1)) mc[0] = rnd();        /* the pc: it faults (and dies) */
}

void fuzz_sigact(void) {
    static struct ksigaction act;
    long sig = (long)below(40) - 4;
    act.handler = chance(50) ? (unsigned long)handler : below(2);
    act.mask = rnd();
    act.flags = chance(20) ? rnd() : SA_SIGINFO | (chance(50) ? SA_RESTART : 0) | (chance(20) ? SA_NODEFER : 0);
    if (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGTRAP || sig == SIGFPE) act.flags |= SA_RESETHAND;
    long a1 = chance(80) ? (long)&act : chance(50) ? 0 : bad_ptr();
    long a2 = chance(50) ? 0 : ptr_any();
    if (a2 >= (long)scratch && a2 < (long)(scratch + SCRATCH)) fill_scratch();
    sc(SYS_sigact, sig, a1, a2, 0, 0, 0);
}

/* Is pid one of the worker's children? */
static int mine(int pid) {
    for (int i = 0; i < nkids; i++)
        if (kids[i] == pid) return 1;
    return 0;
}

void fuzz_sigsend(void) {
    long pid = pid_any();
    int ip = (int)pid, self = getpid();
    if (ip == self && chance(50)) {
        sigsend(self, some_signal());
        return;
    }
    if (ip <= 0 || (ip != self && !mine(ip))) pid = 100000; /* never a group (the supervisor's), never another's */
    long s = (long)below(40) - 4;
    if (s == SIGSTOP || s == SIGTSTP || s == SIGTTIN || s == SIGTTOU) {
        if (pid == self) s = SIGCONT; /* nobody would continue the worker */
        else {
            sc(SYS_sigsend, pid, s, 0, 0, 0, 0); /* a child: stopped, and continued at once */
            s = SIGCONT;
        }
    }
    sc(SYS_sigsend, pid, s, 0, 0, 0, 0);
}

/* A child calls sigreturn on a frame of random words (with the magic word
 * at its start half the time): it dies, or runs what the words say until
 * the worker kills it. */
void fuzz_sigreturn(void) {
    int pid = fork();
    if (pid < 0) return;
    if (pid == 0) {
        unsigned long* f = (unsigned long*)(((unsigned long)scratch + below(SCRATCH / 2)) & ~15UL);
        for (int i = 0; i < 72; i++) f[i] = rnd();
        if (chance(50)) f[0] = 0x5349474652414d45UL; /* "SIGFRAME" */
        if (chance(50)) f[2] = (unsigned long)bad_ptr();
        __asm__ volatile("mv sp, %0\n li a7, %1\n ecall" : : "r"(f), "i"(SYS_sigreturn) : "memory");
        exit(0);
    }
    sleep(1);
    kill(pid);
    waitpid(pid, 0, 0); /* not wait: it could reap one of kids[], whose pid may then be reused */
}

static void spin_writer(int fd) {
    static char b[1500];
    for (;;)
        if (write(fd, b, sizeof b) < 0) exit(0);
}

static void shape_storm(void) {
    int p[2];
    if (pipe(p) < 0) return;
    int pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return;
    }
    if (pid == 0) {
        struct ksigaction a = {(unsigned long)handler, 0, SA_SIGINFO | SA_RESTART};
        sigact(SIGUSR1, &a, 0);
        sigact(SIGUSR2, &a, 0);
        close(p[0]);
        spin_writer(p[1]);
    }
    close(p[1]);
    char b[512];
    for (int i = 0; i < 300; i++) {
        sigsend(pid, i & 1 ? SIGUSR1 : SIGUSR2);
        sigsend(pid, SIGSTOP);
        if (chance(50)) read(p[0], b, sizeof b);
        sigsend(pid, SIGCONT);
    }
    if (chance(50)) sigsend(pid, SIGSTOP); /* killed while stopped */
    kill(pid);
    close(p[0]);
    waitpid(pid, 0, 0);
}

static void shape_itimer(void) {
    struct ksigaction a = {(unsigned long)handler, 0, SA_SIGINFO | (chance(50) ? SA_RESTART : 0)};
    struct ksigaction old;
    sigact(SIGALRM, &a, &old);
    struct kitimerval v = {0, 200, 0, 200}, off = {0, 0, 0, 0};
    setitimer(0, &v, 0);
    for (int i = 0; i < 20; i++) one_call(); /* every call meets a 200 us timer's signals */
    setitimer(0, &off, 0);
    sigact(SIGALRM, &old, 0);
}

void shape_signals(void) {
    if (chance(50)) shape_storm();
    else shape_itimer();
}
