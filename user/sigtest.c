/* sigtest - signals, good and bad (docs/signals.md).
 *
 *   sigtest [name-prefix...]
 *
 * Each test runs in its own child (user/testkit.c): it returns (PASS) or
 * calls FAIL, which prints "FAIL name: reason" and exits 99; every free
 * page must be back afterwards. The run ends with "sigtest: N passed, N
 * failed". Ordering between processes is by pipes (a child says
 * it is ready) and by sleep() where the peer must be asleep in a blocking
 * call first (virtual time under -icount). */
#include "user/sigtest.h"
#include "kernel/fcntl.h"
#include "kernel/types.h"
#include "user/user.h"
#include "user/usertests.h"

const char* cur = ""; /* FAIL and CHECK: user/usertests.h */

int sig_regs_survive(int pid, int sig); /* user/sigtest_regs.S */

volatile int got;
volatile int got_sig;
static volatile unsigned long got_addr;
static volatile int got_code;

void on_sig(int s) {
    got++;
    got_sig = s;
}

void set_handler(int s, void (*h)(int), unsigned long flags) {
    struct ksigaction a = {(unsigned long)h, 0, flags};
    CHECK(sigact(s, &a, 0) == 0, "sigact(%d) failed", s);
}

int wait_status(int pid) {
    int st = -12345;
    CHECK(wait(&st) == pid, "wait did not return the child");
    return st;
}

static void handler_runs(void) {
    set_handler(SIGUSR1, on_sig, 0);
    CHECK(sigsend(getpid(), SIGUSR1) == 0, "sigsend failed");
    CHECK(got == 1 && got_sig == SIGUSR1, "handler ran %d times, sig %d", got, got_sig);
    CHECK(sigsend(getpid(), SIGUSR1) == 0, "second sigsend failed");
    CHECK(got == 2, "second signal: handler ran %d times in all", got);
}

/* The handler clobbers every caller-saved register it likes (it is C). */
static void clobber(int s) {
    volatile unsigned long sink[8];
    for (int i = 0; i < 8; i++) sink[i] = (unsigned long)s * 0x1111 + i;
    got += (int)(sink[3] & 0) + 1;
}

static void regs_survive(void) {
    set_handler(SIGUSR1, clobber, 0);
    int r = sig_regs_survive(getpid(), SIGUSR1);
    CHECK(got == 1, "handler ran %d times", got);
    CHECK(r == 0, "register x%d changed across the handler", r);
}

static void kill_uncatchable(void) {
    struct ksigaction a = {(unsigned long)on_sig, 0, 0};
    CHECK(sigact(SIGKILL, &a, 0) == -1, "sigact(SIGKILL) succeeded");
    CHECK(sigact(SIGSTOP, &a, 0) == -1, "sigact(SIGSTOP) succeeded");
    unsigned long all = ~0ul, now = 0;
    CHECK(sigmask(SIG_SETMASK, &all, 0) == 0, "sigmask failed");
    CHECK(sigmask(SIG_BLOCK, 0, &now) == 0, "sigmask read failed");
    CHECK(!(now & (1ul << SIGKILL)) && !(now & (1ul << SIGSTOP)), "mask holds SIGKILL/SIGSTOP: %lx", now);
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        for (;;) sleep(100);
    }
    sleep(1);
    CHECK(sigsend(pid, SIGKILL) == 0, "sigsend SIGKILL failed");
    int st = wait_status(pid);
    CHECK(st == -1, "status %d, want -1", st);
}

static void masked_pending(void) {
    set_handler(SIGUSR2, on_sig, 0);
    unsigned long set = 1ul << SIGUSR2, pend = 0;
    CHECK(sigmask(SIG_BLOCK, &set, 0) == 0, "block failed");
    CHECK(sigsend(getpid(), SIGUSR2) == 0, "sigsend failed");
    CHECK(got == 0, "handler ran while blocked");
    CHECK(sigpend(&pend) == 0 && (pend & set), "not pending: %lx", pend);
    CHECK(sigmask(SIG_UNBLOCK, &set, 0) == 0, "unblock failed");
    CHECK(got == 1 && got_sig == SIGUSR2, "handler ran %d times after unblock", got);
    CHECK(sigpend(&pend) == 0 && !(pend & set), "still pending: %lx", pend);
}

static void on_segv(int s, struct ksiginfo* info, void* uc) {
    (void)uc;
    exit(s == SIGSEGV && info->signo == SIGSEGV && info->addr == 0x1238 && info->code == 1 ? 42 : 43);
}

static void segv_addr(void) {
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        struct ksigaction a = {(unsigned long)on_segv, 0, SA_SIGINFO};
        if (sigact(SIGSEGV, &a, 0) != 0) exit(2);
        *(volatile int*)0x1238 = 1;
        exit(3);
    }
    int st = wait_status(pid);
    CHECK(st == 42, "child status %d, want 42 (handler saw the fault address)", st);
}

/* A child blocked in a pipe read gets a signal from its parent: the
 * handler runs; without SA_RESTART the read fails with EINTR, with it the
 * read goes on and returns the byte the parent writes next. */
static void interrupted_read(int restart) {
    int ready[2], data[2];
    CHECK(pipe(ready) == 0 && pipe(data) == 0, "pipe failed");
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        set_handler(SIGUSR1, on_sig, restart ? SA_RESTART : 0);
        write(ready[1], "r", 1);
        char c = 0;
        int n = read(data[0], &c, 1);
        if (got != 1) exit(10);
        if (restart) exit(n == 1 && c == 'x' ? 0 : 11);
        exit(n == -1 && errno() == EINTR ? 0 : 12);
    }
    char c;
    CHECK(read(ready[0], &c, 1) == 1, "child not ready");
    sleep(2); /* the child is asleep in read */
    CHECK(sigsend(pid, SIGUSR1) == 0, "sigsend failed");
    sleep(1);
    write(data[1], "x", 1);
    int st = wait_status(pid);
    CHECK(st == 0, "child status %d", st);
}
static void eintr_read(void) { interrupted_read(0); }
static void restart_read(void) { interrupted_read(1); }

static void default_terminate(void) {
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        for (;;) sleep(100);
    }
    sleep(1);
    CHECK(sigsend(pid, SIGTERM) == 0, "sigsend failed");
    CHECK(wait_status(pid) == -1, "status not -1");
    /* a runaway that never makes a call dies too */
    pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        for (volatile int i = 0;; i++) {}
    }
    sleep(1);
    CHECK(sigsend(pid, SIGINT) == 0, "sigsend failed");
    CHECK(wait_status(pid) == -1, "runaway status not -1");
}

static void ignored(void) {
    CHECK(sigsend(getpid(), SIGCHLD) == 0, "SIGCHLD failed"); /* default: ignore */
    struct ksigaction ign = {1, 0, 0};                        /* SIG_IGN */
    CHECK(sigact(SIGTERM, &ign, 0) == 0, "sigact failed");
    CHECK(sigsend(getpid(), SIGTERM) == 0, "SIGTERM failed");
    struct ksigaction old = {0, 0, 0};
    CHECK(sigact(SIGTERM, 0, &old) == 0 && old.handler == 1, "old handler %lx", old.handler);
}

static void bad_args(void) {
    struct ksigaction a = {(unsigned long)on_sig, 0, 0};
    unsigned long set = 0;
    CHECK(sigsend(getpid(), 0) == 0, "sig 0 check failed");
    CHECK(sigsend(getpid(), 32) == -1, "sig 32 accepted");
    CHECK(sigsend(getpid(), -1) == -1, "sig -1 accepted");
    CHECK(sigsend(99999, SIGUSR1) == -1, "no such pid accepted");
    CHECK(sigsend(1, SIGTERM) == -1, "init signalled");
    CHECK(sigact(0, &a, 0) == -1 && sigact(32, &a, 0) == -1, "bad sig accepted");
    CHECK(sigact(SIGUSR1, (struct ksigaction*)0xffffffffff000000ul, 0) == -1, "bad act pointer");
    CHECK(sigact(SIGUSR1, 0, (struct ksigaction*)1) == -1, "bad old pointer");
    struct ksigaction k = {0xffffffffff000000ul, 0, 0};
    CHECK(sigact(SIGUSR1, &k, 0) == -1, "kernel handler address accepted");
    CHECK(sigmask(9, &set, 0) == -1, "bad how accepted");
    CHECK(sigmask(SIG_BLOCK, (unsigned long*)0xffffffffff000000ul, 0) == -1, "bad set pointer");
    CHECK(sigpend((unsigned long*)0) == -1, "bad sigpend pointer");
}

/* sigreturn with no frame under sp kills the caller, not the kernel. */
static void bad_sigreturn(void) {
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        sigreturn();
        exit(5);
    }
    CHECK(wait_status(pid) == -1, "forged sigreturn did not kill");
    pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        sigreturn();
        exit(5);
    }
    int st = 0;
    CHECK(waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, "waitpid: status %x", st);
}

/* A handler that forges its context: pc a kernel address (the trampoline
 * page, mapped without PTE_U) and sp junk. sigreturn restores it, the
 * return to user mode stays in user mode, and the first fetch faults: the
 * child is killed (status -1) and the kernel goes on. */
static void forge(int s, struct ksiginfo* info, void* uc) {
    (void)s;
    (void)info;
    unsigned long* mc = uc; /* pc, then x1..x31 */
    mc[0] = 0x3ffffff000ul; /* the trampoline: kernel text */
    mc[2] = 0x3fffffe000ul; /* sp: a trapframe page */
}
static void forged_context(void) {
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        struct ksigaction a = {(unsigned long)forge, 0, SA_SIGINFO};
        if (sigact(SIGUSR1, &a, 0) != 0) exit(2);
        sigsend(getpid(), SIGUSR1);
        exit(3);
    }
    CHECK(wait_status(pid) == -1, "forged context was not killed");
}

/* A handler that sends itself the signal it handles (blocked while it
 * runs) and a burst of 1000: no recursion, no hang. */
static volatile int depth, max_depth;
static void recurse(int s) {
    depth++;
    if (depth > max_depth) max_depth = depth;
    if (got++ < 1000) sigsend(getpid(), s);
    depth--;
}
static void storm(void) {
    set_handler(SIGUSR1, recurse, 0);
    CHECK(sigsend(getpid(), SIGUSR1) == 0, "sigsend failed");
    CHECK(got >= 1000, "handler ran %d times", got);
    CHECK(max_depth == 1, "handler nested %d deep", max_depth);
}

/* sigsusp waits with SIGUSR1 unblocked; the child's signal ends it with
 * EINTR after the handler, and the caller's mask (SIGUSR1 blocked) is back. */
static void suspend(void) {
    set_handler(SIGUSR1, on_sig, SA_RESTART); /* sigsusp is never restarted */
    unsigned long set = 1ul << SIGUSR1, none = 0, now = 0;
    CHECK(sigmask(SIG_BLOCK, &set, 0) == 0, "block failed");
    int parent = getpid();
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        sleep(2);
        exit(sigsend(parent, SIGUSR1) == 0 ? 0 : 1);
    }
    int r = sigsusp(&none);
    CHECK(r == -1 && errno() == EINTR, "sigsusp returned %d errno %d", r, errno());
    CHECK(got == 1 && got_sig == SIGUSR1, "handler ran %d times", got);
    CHECK(sigmask(SIG_BLOCK, 0, &now) == 0 && now == set, "mask after sigsusp %lx", now);
    CHECK(wait_status(pid) == 0, "child failed");
    CHECK(sigsusp((unsigned long*)0xffffffffff000000ul) == -1, "bad mask pointer accepted");
}

/* SIGCHLD: dropped with no handler (a child's exit does not kill); with a
 * handler it runs once the child ends, and wait (SA_RESTART) still reaps. */
static void sigchld(void) {
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) exit(3);
    CHECK(wait_status(pid) == 3, "status not 3");
    set_handler(SIGCHLD, on_sig, SA_RESTART);
    pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) exit(4);
    CHECK(wait_status(pid) == 4, "status not 4");
    CHECK(got == 1 && got_sig == SIGCHLD, "SIGCHLD handler ran %d times (sig %d)", got, got_sig);
}

/* alarm(1): SIGALRM's handler runs 1 s of (virtual) time later; the
 * uptime clock agrees within a tick. */
static void alarm_fires(void) {
    set_handler(SIGALRM, on_sig, 0);
    unsigned long none = 0;
    unsigned long t0 = uptime_ns();
    CHECK(alarm(1) == 0, "alarm returned an old alarm");
    sigsusp(&none);
    unsigned long dt = uptime_ns() - t0;
    CHECK(got == 1 && got_sig == SIGALRM, "handler ran %d times (sig %d)", got, got_sig);
    CHECK(dt >= 1000000000ul && dt < 1100000000ul, "SIGALRM after %lu ns, want 1 s", dt);
}

/* A new alarm replaces the old one and returns what it had left; alarm(0)
 * cancels: no SIGALRM (whose default would end the test). */
static void alarm_replaced_and_cancelled(void) {
    CHECK(alarm(5) == 0, "first alarm");
    CHECK(alarm(3) == 5, "alarm(3) did not return 5");
    CHECK(alarm(0) == 3, "alarm(0) did not return 3");
    sleep(40); /* 4 s: past the first two */
    CHECK(alarm(0) == 0, "an alarm was still set");
    CHECK(alarm(-1) == -1, "alarm(-1) accepted");
}

/* setitimer with a 100 ms interval: five SIGALRMs in 500 ms; getitimer
 * reports the period; disarming stops them. */
static void itimer_periodic(void) {
    set_handler(SIGALRM, on_sig, 0);
    struct kitimerval v = {0, 100000, 0, 100000}, now, old;
    unsigned long none = 0;
    unsigned long t0 = uptime_ns();
    CHECK(setitimer(0, &v, 0) == 0, "setitimer failed");
    CHECK(getitimer(0, &now) == 0 && now.interval_sec == 0 && now.interval_usec == 100000, "getitimer");
    CHECK(now.value_usec > 0 && now.value_usec <= 100000, "value %ld us", now.value_usec);
    while (got < 5) sigsusp(&none);
    unsigned long dt = uptime_ns() - t0;
    CHECK(dt >= 500000000ul && dt < 560000000ul, "5 periods took %lu ns, want 500 ms", dt);
    struct kitimerval off = {0, 0, 0, 0};
    CHECK(setitimer(0, &off, &old) == 0 && old.interval_usec == 100000, "disarm");
    int n = got;
    sleep(3);
    CHECK(got == n, "SIGALRM after the timer was disarmed");
    struct kitimerval bad = {0, 0, 0, 1000000};
    CHECK(setitimer(0, &bad, 0) == -1 && setitimer(1, &v, 0) == -1, "bad timer accepted");
    CHECK(setitimer(0, (struct kitimerval*)0xffffffffff000000ul, 0) == -1, "bad pointer accepted");
}

/* SIGALRM's default action ends the process; waitpid says so. */
static void alarm_default_terminates(void) {
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        alarm(1);
        for (;;) sleep(100);
    }
    int st = 0;
    CHECK(waitpid(pid, &st, 0) == pid, "waitpid failed");
    CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM, "status %x: not ended by SIGALRM", st);
}

/* SIGPIPE only for a program that set SIGPIPE's action itself: untouched,
 * a write with no reader is -1 EPIPE (xv6's rule); SIG_DFL set explicitly
 * ends the writer; with a handler it runs and the write is -1 EPIPE. */
static int broken_write(void) {
    int p[2];
    if (pipe(p) < 0) return -2;
    close(p[0]);
    int r = write(p[1], "x", 1);
    return r == -1 && errno() == EPIPE ? 0 : 1;
}

static void sigpipe_rule(void) {
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) exit(broken_write());
    int st = 0;
    CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0, "untouched: status %x", st);
    pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        struct ksigaction dfl = {SIG_DFL, 0, 0};
        sigact(SIGPIPE, &dfl, 0);
        broken_write();
        exit(5);
    }
    CHECK(waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGPIPE, "SIG_DFL: status %x", st);
    set_handler(SIGPIPE, on_sig, 0);
    CHECK(broken_write() == 0, "with a handler the write was not -1 EPIPE");
    CHECK(got == 1 && got_sig == SIGPIPE, "handler ran %d times (sig %d)", got, got_sig);
}

/* SA_RESETHAND: the action goes back to SIG_DFL as the handler starts, so
 * the handler runs once and the second SIGUSR1 takes the default (ends
 * the child); sigact reads SIG_DFL back in between. */
static void resethand(void) {
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        set_handler(SIGUSR1, on_sig, SA_RESETHAND);
        sigsend(getpid(), SIGUSR1);
        struct ksigaction now = {7, 0, 0};
        if (got != 1 || sigact(SIGUSR1, 0, &now) != 0 || now.handler != SIG_DFL) exit(2);
        sigsend(getpid(), SIGUSR1);
        exit(3);
    }
    int st = 0;
    CHECK(waitpid(pid, &st, 0) == pid, "waitpid failed");
    CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGUSR1, "status %x: the handler stayed (3) or ran wrong (2)", st);
}

/* SA_NOCLDSTOP on SIGCHLD's handler: a child's stop and continue send no
 * SIGCHLD; its end still does. */
static void nocldstop(void) {
    set_handler(SIGCHLD, on_sig, SA_NOCLDSTOP | SA_RESTART);
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        for (;;) sleep(1);
    }
    int st = 0;
    CHECK(sigsend(pid, SIGSTOP) == 0 && waitpid(pid, &st, WUNTRACED) == pid && WIFSTOPPED(st), "not stopped");
    CHECK(sigsend(pid, SIGCONT) == 0 && waitpid(pid, &st, WCONTINUED) == pid && WIFCONTINUED(st), "not continued");
    CHECK(got == 0, "SIGCHLD for a stop or continue: %d", got);
    CHECK(sigsend(pid, SIGKILL) == 0 && waitpid(pid, &st, 0) == pid, "kill failed");
    CHECK(got == 1 && got_sig == SIGCHLD, "no SIGCHLD for the child's end (%d)", got);
}

/* si_pid: the sender of a signal (sigsend), the child for SIGCHLD. */
static volatile int got_pid;
static void on_info_pid(int s, struct ksiginfo* info, void* uc) {
    (void)uc;
    got++;
    got_sig = s;
    got_pid = info->pid;
}
static void siginfo_pid(void) {
    set_handler(SIGUSR1, (void (*)(int))on_info_pid, SA_SIGINFO);
    set_handler(SIGCHLD, (void (*)(int))on_info_pid, SA_SIGINFO | SA_RESTART);
    CHECK(sigsend(getpid(), SIGUSR1) == 0 && got == 1 && got_pid == getpid(), "self: pid %d, want %d", got_pid,
          getpid());
    int parent = getpid();
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        sigsend(parent, SIGUSR1);
        sleep(5);
        exit(0);
    }
    while (got < 2) sleep(1);
    CHECK(got_sig == SIGUSR1 && got_pid == pid, "from the child: sig %d pid %d, want %d", got_sig, got_pid, pid);
    CHECK(wait_status(pid) == 0, "child failed");
    CHECK(got == 3 && got_sig == SIGCHLD && got_pid == pid, "SIGCHLD: sig %d pid %d, want %d", got_sig, got_pid, pid);
}

/* A fault with no handler ends the process as before (xv6's wait: -1),
 * and waitpid names the fault's signal as Linux's does (it said SIGKILL). */
void sigtest_bad_insn(void); /* one illegal instruction (all zero bits) */
__asm__(".globl sigtest_bad_insn\nsigtest_bad_insn: .word 0\n");

static int fault_child(int kind) {
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        if (kind == 0) *(volatile int*)0x1238 = 1;
        else sigtest_bad_insn();
        exit(3);
    }
    return pid;
}
static void fault_status(void) {
    int st = 0;
    int pid = fault_child(0);
    CHECK(waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, "bad store: status %x", st);
    pid = fault_child(1);
    CHECK(waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGILL, "bad instruction: status %x", st);
    pid = fault_child(0);
    CHECK(wait_status(pid) == -1, "xv6's wait of a fault's end is not -1");
}

/* SIGILL's si_addr is the instruction's address (the trap's stval holds
 * the instruction's bits, which it used to report). */
static void on_ill(int s, struct ksiginfo* info, void* uc) {
    (void)uc;
    exit(s == SIGILL && info->addr == (unsigned long)sigtest_bad_insn && info->code == 1 ? 42 : 43);
}
static void ill_addr(void) {
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        set_handler(SIGILL, (void (*)(int))on_ill, SA_SIGINFO);
        sigtest_bad_insn();
        exit(3);
    }
    int st = wait_status(pid);
    CHECK(st == 42, "status %d: want 42 (the handler saw the instruction's address)", st);
}

/* A misaligned atomic traps (QEMU does plain misaligned loads and stores
 * itself): SIGBUS with the address. */
static volatile unsigned long bus_words[2];
static void on_bus(int s, struct ksiginfo* info, void* uc) {
    (void)uc;
    exit(s == SIGBUS && info->addr == (unsigned long)bus_words + 1 ? 42 : 43);
}
static void bus_addr(void) {
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        set_handler(SIGBUS, (void (*)(int))on_bus, SA_SIGINFO);
        char* odd = (char*)bus_words + 1;
        __asm__ volatile("amoadd.w zero, zero, (%0)" : : "r"(odd) : "memory");
        exit(3);
    }
    int st = wait_status(pid);
    CHECK(st == 42, "status %d: want 42 (SIGBUS with the misaligned address)", st);
}

/* sigaltstack: an SA_ONSTACK handler runs on the alternate stack (and a
 * sigaltstack call there sees SS_ONSTACK and may not change it: EPERM);
 * other handlers on the thread's own; the errors; SS_DISABLE. */
static char alt[SIGSTKSZ] __attribute__((aligned(16)));
static volatile unsigned long handler_sp;
static volatile int alt_flags, alt_change;
static void on_alt(int s) {
    volatile int here = s;
    handler_sp = (unsigned long)&here;
    struct ksigstack o = {0, 0, 0}, ss = {(unsigned long)alt, 0, sizeof alt};
    sigaltstack(0, &o);
    alt_flags = o.flags;
    alt_change = sigaltstack(&ss, 0) == -1 ? errno() : 0;
    got++;
}
static int on_alt_stack(unsigned long sp) { return sp > (unsigned long)alt && sp < (unsigned long)alt + sizeof alt; }
static void altstack(void) {
    struct ksigstack ss = {(unsigned long)alt, 0, sizeof alt}, old = {1, 1, 1};
    CHECK(sigaltstack(&ss, &old) == 0 && old.flags == SS_DISABLE && old.size == 0, "first: flags %d", old.flags);
    set_handler(SIGUSR1, on_alt, SA_ONSTACK);
    CHECK(sigsend(getpid(), SIGUSR1) == 0 && got == 1, "handler ran %d times", got);
    CHECK(on_alt_stack(handler_sp), "the SA_ONSTACK handler ran at sp %lx, not on the alternate stack", handler_sp);
    CHECK(alt_flags == SS_ONSTACK && alt_change == EPERM, "in the handler: flags %d, change errno %d", alt_flags,
          alt_change);
    set_handler(SIGUSR2, on_alt, 0);
    CHECK(sigsend(getpid(), SIGUSR2) == 0 && !on_alt_stack(handler_sp), "a handler without SA_ONSTACK moved");
    CHECK(alt_flags == 0 && alt_change == 0, "off the stack: flags %d, change errno %d", alt_flags, alt_change);
    struct ksigstack small = {(unsigned long)alt, 0, MINSIGSTKSZ - 1}, flags = {(unsigned long)alt, 5, sizeof alt};
    struct ksigstack high = {0x3fffff0000ul, 0, 1ul << 20}, off = {0, SS_DISABLE, 0};
    CHECK(sigaltstack(&small, 0) == -1 && errno() == ENOMEM, "a small stack: errno %d", errno());
    CHECK(sigaltstack(&flags, 0) == -1 && errno() == EINVAL, "bad flags: errno %d", errno());
    CHECK(sigaltstack(&high, 0) == -1 && errno() == EINVAL, "a stack past user memory accepted");
    CHECK(sigaltstack((struct ksigstack*)0xffffffffff000000ul, 0) == -1 && errno() == EFAULT, "bad pointer");
    CHECK(sigaltstack(&off, 0) == 0 && sigaltstack(0, &old) == 0 && old.flags == SS_DISABLE, "disable");
    CHECK(sigsend(getpid(), SIGUSR1) == 0 && !on_alt_stack(handler_sp), "SA_ONSTACK with no stack moved");
}

/* The classic use: a stack overflow's SIGSEGV, caught on the alternate
 * stack (without one the handler's frame has no room: SIGSEGV ends it). */
static void on_overflow(int s) { exit(s == SIGSEGV ? 42 : 43); }
static int deep(int n) {
    volatile char pad[256];
    pad[0] = (char)n;
    if (n < 0) return 0; /* never: the stack runs out first */
    return deep(n + 1) + pad[0];
}
static void overflow_caught(void) {
    for (int alt_too = 0; alt_too < 2; alt_too++) {
        int pid = fork();
        CHECK(pid >= 0, "fork failed");
        if (pid == 0) {
            struct ksigstack ss = {(unsigned long)alt, 0, sizeof alt};
            if (alt_too) sigaltstack(&ss, 0);
            set_handler(SIGSEGV, on_overflow, SA_ONSTACK);
            exit(deep(0));
        }
        int st = 0;
        CHECK(waitpid(pid, &st, 0) == pid, "waitpid failed");
        if (alt_too) CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 42, "with a stack: status %x", st);
        else CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, "without: status %x", st);
    }
}

static const struct utest tests[] = {
    {"handler_runs", handler_runs},
    {"regs_survive", regs_survive},
    {"kill_uncatchable", kill_uncatchable},
    {"masked_pending", masked_pending},
    {"segv_addr", segv_addr},
    {"eintr_read", eintr_read},
    {"restart_read", restart_read},
    {"default_terminate", default_terminate},
    {"ignored", ignored},
    {"bad_args", bad_args},
    {"bad_sigreturn", bad_sigreturn},
    {"storm", storm},
    {"suspend", suspend},
    {"sigchld", sigchld},
    {"forged_context", forged_context},
    {"alarm_fires", alarm_fires},
    {"alarm_replaced_and_cancelled", alarm_replaced_and_cancelled},
    {"itimer_periodic", itimer_periodic},
    {"alarm_default_terminates", alarm_default_terminates},
    {"sigpipe_rule", sigpipe_rule},
    {"pipe_write_eintr", pipe_write_eintr},
    {"pipe_write_restart", pipe_write_restart},
    {"eintr_wait", eintr_wait},
    {"restart_wait", restart_wait},
    {"eintr_sleep", eintr_sleep},
    {"restart_sleep", restart_sleep},
    {"eintr_futex", eintr_futex},
    {"restart_futex", restart_futex},
    {"timed_futex_not_restarted", timed_futex_not_restarted},
    {"eintr_poll", eintr_poll},
    {"poll_not_restarted", poll_not_restarted},
    {"eintr_fifo_open", eintr_fifo_open},
    {"restart_fifo_open", restart_fifo_open},
    {"eintr_console_read", eintr_console_read},
    {"resethand", resethand},
    {"nocldstop", nocldstop},
    {"siginfo_pid", siginfo_pid},
    {"fault_status", fault_status},
    {"ill_addr", ill_addr},
    {"bus_addr", bus_addr},
    {"sibling_no_eintr", sibling_no_eintr},
    {"altstack", altstack},
    {"overflow_caught", overflow_caught},
};

int main(int argc, char** argv) {
    const struct test_suite suite = {"sigtest", tests, sizeof(tests) / sizeof(tests[0]), 0, 0};
    exit(test_run_all(&suite, argc, argv, 1) ? 1 : 0);
}
