/* user/hostile_sig.c - hostile uses of signals (part of user/hostile;
 * docs/signals.md). Each test checks that the attack ends in -1 or in the
 * attacker's own death, that the kernel goes on, and that every page
 * comes back.
 *
 * sigforge: handlers that forge their saved context (pc in kernel text, on
 *   the trampoline, non-canonical; sp in kernel memory; every register
 *   garbage; the blocked mask holding SIGKILL and SIGSTOP; pc on the signal
 *   trampoline; the whole frame random under a good magic word), sigreturn
 *   called with sp at kernel, unmapped and edge addresses, a handler that
 *   faults and one that recurses with SA_NODEFER until its stack is gone:
 *   each forger dies (or, with garbage registers, runs its exit; with sp
 *   in kernel memory, may exit before it needs a stack), SIGKILL
 *   and SIGSTOP still work on a forged mask, and nobody gains anything.
 * sigstorm: 10,000 signals from four senders at a process that reads a
 *   pipe meanwhile (its handlers count, SA_RESTART), a fifth sending
 *   SIGSTOP/SIGCONT pairs; then 10,000 signals a handler sends to itself.
 * sigstoplock: 2,000 SIGSTOP/SIGCONT pairs at a process that writes a file
 *   in a loop (each write takes the inode's sleep lock and a log
 *   transaction) while another process writes and reads the same file.
 * sigstoppipe: 2,000 SIGSTOP/SIGCONT pairs at each end of a pipe while
 *   256 KiB go through it: the reader gets every byte once, in order.
 * sigkillstopped: stopped processes (one with two threads, one with
 *   signals pending) killed with SIGKILL and with xv6's kill; a stopped
 *   process whose parent exits, leaving its group orphaned, is not left
 *   stopped for ever.
 * sigperm: as student, every signal (and 0) to a root process and its
 *   group, xv6's kill, joining its group, waiting for it: all refused; the
 *   root process saw nothing. */
#include "kernel/fcntl.h"
#include "user/hostile.h"
#include "user/user.h"

enum { kStudent = 1000 };

static unsigned long lcg = 0x2545F4914F6CDD1DUL;
static unsigned long rnd(void) { /* Knuth's MMIX LCG, high bits */
    lcg = lcg * 6364136223846793005UL + 1442695040888963407UL;
    return lcg >> 11 | lcg << 53;
}

/* waitpid(pid): Linux's status (0: exit(0)). reap() would drop the other
 * children it meets, and these tests have several running at once. */
static int status_of(int pid) {
    int st = -12345;
    return waitpid(pid, &st, 0) == pid ? st : -12345;
}

/* exit(42) without stack, gp or tp: the target of a garbage-register frame. */
void hostile_exit42(void);
__asm__(".globl hostile_exit42\nhostile_exit42:\n li a0, 42\n li a7, 2\n ecall\n");

/* ---- sigforge --------------------------------------------------------- */

enum { kPcKernel, kPcTrampoline, kPcWild, kSpKernel, kGarbageRegs, kMaskAll, kPcSigtramp, kRandomFrame, kKinds };
static int forge_kind;
static const unsigned long kFrameMagic = 0x5349474652414d45UL; /* "SIGFRAME" */

/* The frame (docs/signals.md): magic, blocked, then the ucontext's pc and
 * x1..x31 (where uc points), FP state, siginfo, errno: 72 words. */
static void forge(int s, struct ksiginfo* info, void* uc) {
    (void)s;
    (void)info;
    unsigned long* mc = uc;
    unsigned long* frame = mc - 2;
    switch (forge_kind) {
        case kPcKernel:
            mc[0] = 0x80000000UL;
            break;
        case kPcTrampoline:
            mc[0] = 0x3ffffff000UL;
            mc[2] = 0x3fffffe000UL;
            break;
        case kPcWild:
            mc[0] = ~0UL - 3;
            break;
        case kSpKernel:
            mc[2] = 0x80001000UL;
            break;
        case kGarbageRegs:
            for (int i = 1; i < 32; i++) mc[i] = rnd();
            mc[0] = (unsigned long)hostile_exit42;
            break;
        case kMaskAll:
            frame[1] = ~0UL;
            break;
        case kPcSigtramp:
            mc[0] = (unsigned long)__builtin_return_address(0); /* sigreturn again, on a stack with no frame */
            break;
        default:
            for (int i = 0; i < 72; i++) frame[i] = rnd();
            frame[0] = kFrameMagic;
            break;
    }
}

/* A child that forges kind; returns its pid. kMaskAll's child stays. */
static int forger(int kind) {
    forge_kind = kind;
    rnd();
    int pid = fork();
    if (pid == 0) {
        struct ksigaction a = {(unsigned long)forge, 0, SA_SIGINFO};
        if (sigact(SIGUSR1, &a, 0) < 0) exit(2);
        sigsend(getpid(), SIGUSR1);
        if (kind == kMaskAll)
            for (;;) sleep(1);
        exit(3);
    }
    return pid;
}

/* sigreturn straight away with sp = addr: nothing there is a frame. */
static int bad_sigreturn(unsigned long addr) {
    int pid = fork();
    if (pid == 0) {
        __asm__ volatile("mv sp, %0\n li a7, 83\n ecall" : : "r"(addr) : "memory");
        exit(3);
    }
    return reap(pid);
}

static volatile int* volatile text_word = (volatile int*)8; /* program text: not writable */
static void on_usr1_fault(int s) { *text_word = s; }
static void on_segv_fault(int s) { text_word[2] = s; }
static volatile int depth;
static void on_usr1_recurse(int s) {
    depth++;
    sigsend(getpid(), s); /* SA_NODEFER: delivered at once, one frame deeper */
}

/* A child with handler h (flags) for sig that sends itself sig; its
 * waitpid status. */
static int handler_child(int sig, void (*h)(int), unsigned long flags, int also_segv) {
    int pid = fork();
    if (pid == 0) {
        struct ksigaction a = {(unsigned long)h, 0, flags};
        if (sigact(sig, &a, 0) < 0) exit(2);
        if (also_segv) {
            struct ksigaction b = {(unsigned long)on_segv_fault, 0, 0};
            sigact(SIGSEGV, &b, 0);
        }
        sigsend(getpid(), sig);
        exit(3);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return st;
}

void t_sigforge(void) {
    int free0 = freepages();
    for (int kind = 0; kind < kKinds; kind++) {
        int rounds = kind == kRandomFrame ? 100 : 3;
        for (int r = 0; r < rounds; r++) {
            int pid = forger(kind);
            if (pid < 0) return fail("sigforge", "fork", pid);
            if (kind == kMaskAll) {
                int st = 0;
                sleep(1);
                if (sigsend(pid, SIGSTOP) < 0 || waitpid(pid, &st, WUNTRACED) != pid || !WIFSTOPPED(st))
                    return fail("sigforge", "a forged mask blocked SIGSTOP", st);
                sigsend(pid, SIGKILL);
                if (waitpid(pid, &st, 0) != pid || !WIFSIGNALED(st) || WTERMSIG(st) != SIGKILL)
                    return fail("sigforge", "a forged mask blocked SIGKILL", st);
                continue;
            }
            int st = reap(pid);
            int want = kind == kGarbageRegs ? 42 : -1;
            if (kind == kSpKernel && st == 3) continue; /* its exit(3) needed no stack: no harm either */
            if (st != want) {
                printf("sigforge: kind %d, status %d\n", kind, st);
                return fail("sigforge", "a forged context's child ended wrongly (kind above)", kind);
            }
        }
    }
    const unsigned long bad_sp[] = {
        0,       8, 0x80000000UL, 0x3ffffff000UL, 0x3fffffe000UL, 0x4000000000UL, (unsigned long)sbrk(0) + 4096 * 16,
        ~0UL - 7};
    for (unsigned i = 0; i < sizeof bad_sp / sizeof bad_sp[0]; i++)
        if (bad_sigreturn(bad_sp[i]) != -1)
            return fail("sigforge", "sigreturn with sp at a bad address lived", (long)i);
    int st = handler_child(SIGUSR1, on_usr1_fault, 0, 0);
    if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGSEGV) return fail("sigforge", "a faulting handler: status", st);
    st = handler_child(SIGUSR1, on_usr1_fault, 0, 1); /* its SIGSEGV handler faults again */
    if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGSEGV) return fail("sigforge", "a faulting SIGSEGV handler: status", st);
    st = handler_child(SIGUSR1, on_usr1_recurse, SA_NODEFER, 0);
    if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGSEGV) return fail("sigforge", "endless handler recursion: status", st);
    if (freepages() != free0) return fail("sigforge", "pages lost", free0 - freepages());
    pass("sigforge",
         "8 kinds of forged context (100 random frames), 8 bad sigreturn stacks, faulting and "
         "recursing handlers: each forger died, SIGKILL and SIGSTOP beat a forged mask");
}

/* ---- sigstorm --------------------------------------------------------- */

static volatile int storm_got;
static void count(int s) {
    (void)s;
    storm_got++;
}
static void self_storm(int s) {
    depth++;
    if (depth > 1) exit(50); /* nested: the signal was not blocked in its handler */
    if (storm_got++ < 9999) sigsend(getpid(), s);
    depth--;
}

static int sender(int target, int n, int stops) {
    int pid = fork();
    if (pid == 0) {
        int bad = 0;
        for (int i = 0; i < n; i++) {
            if (stops) bad += sigsend(target, i & 1 ? SIGCONT : SIGSTOP) < 0;
            else bad += sigsend(target, i & 1 ? SIGUSR1 : SIGUSR2) < 0;
        }
        exit(bad ? 1 : 0);
    }
    return pid;
}

/* Wait up to 10 s for pid's end; its waitpid status, or -1000 (then killed). */
static int end_within(int pid) {
    int st = 0;
    for (int i = 0; i < 100; i++) {
        int w = waitpid(pid, &st, WNOHANG);
        if (w == pid) return st;
        if (w < 0) return -1001;
        sleep(1);
    }
    sigsend(pid, SIGCONT);
    sigsend(pid, SIGKILL);
    waitpid(pid, &st, 0);
    return -1000;
}

void t_sigstorm(void) {
    int free0 = freepages();
    int gate[2], ready[2];
    if (pipe(gate) < 0 || pipe(ready) < 0) return fail("sigstorm", "pipe", -1);
    int target = fork();
    if (target == 0) {
        struct ksigaction a = {(unsigned long)count, 0, SA_RESTART};
        sigact(SIGUSR1, &a, 0);
        sigact(SIGUSR2, &a, 0);
        close(gate[1]);
        write(ready[1], "r", 1);
        char c;
        while (read(gate[0], &c, 1) != 0) {} /* interrupted, restarted, stopped... until the gate closes */
        exit(storm_got > 0 && storm_got <= 10000 ? 0 : 1);
    }
    close(gate[0]);
    char c;
    read(ready[0], &c, 1);
    int s[5];
    for (int i = 0; i < 4; i++) s[i] = sender(target, 2500, 0);
    s[4] = sender(target, 2000, 1);
    for (int i = 0; i < 5; i++)
        if (status_of(s[i]) != 0) return fail("sigstorm", "a send failed (sender's status)", i);
    close(gate[1]);
    int st = end_within(target);
    if (st != 0) return fail("sigstorm", "the target did not end well after the storm (status)", st);
    /* a handler that signals itself 10,000 times */
    int pid = fork();
    if (pid == 0) {
        struct ksigaction a = {(unsigned long)self_storm, 0, 0};
        sigact(SIGUSR1, &a, 0);
        storm_got = 0;
        sigsend(getpid(), SIGUSR1);
        exit(storm_got == 10000 ? 0 : 1);
    }
    st = end_within(pid);
    if (st != 0) return fail("sigstorm", "10,000 sends from its own handler: status (50: nested)", st);
    close(ready[0]);
    close(ready[1]);
    if (freepages() != free0) return fail("sigstorm", "pages lost", free0 - freepages());
    pass("sigstorm", "10,000 signals and 1,000 stop/continue pairs at a pipe reader, 10,000 sends from a handler");
}

/* ---- stop and continue at a sleep lock and a pipe --------------------- */

static int stopper(int target, int pairs) {
    int pid = fork();
    if (pid == 0) {
        for (int i = 0; i < pairs; i++) {
            sigsend(target, SIGSTOP);
            sigsend(target, SIGCONT);
        }
        exit(0);
    }
    return pid;
}

static int file_writer(int n, int len) {
    int pid = fork();
    if (pid == 0) {
        static char b[4096];
        for (int i = 0; i < n; i++) {
            int fd = open("hs.lock", O_CREATE | O_RDWR);
            if (fd < 0 || write(fd, b, len) != len) exit(1);
            if (len < 1000 && read(fd, b, len) < 0) exit(2);
            close(fd);
        }
        exit(0);
    }
    return pid;
}

void t_sigstoplock(void) {
    int a = file_writer(300, 4096);
    int s = stopper(a, 2000);
    int c = file_writer(300, 100);
    int sa = status_of(s), sc = end_within(c), st = end_within(a);
    unlink("hs.lock");
    if (sa != 0 || sc != 0) return fail("sigstoplock", "the stopper or the other writer failed", sa * 1000 + sc);
    if (st != 0) return fail("sigstoplock", "the stopped writer did not finish (status)", st);
    pass("sigstoplock", "2,000 stop/continue pairs at a file writer; a second writer of the file finished beside it");
}

enum { kPipeTotal = 256 * 1024, kChunk = 3000 };
static unsigned char pat(int i) { return (unsigned char)(i % 253); }

void t_sigstoppipe(void) {
    int p[2];
    if (pipe(p) < 0) return fail("sigstoppipe", "pipe", -1);
    int w = fork();
    if (w == 0) {
        static unsigned char b[kChunk];
        close(p[0]);
        for (int off = 0; off < kPipeTotal;) {
            int len = kPipeTotal - off < kChunk ? kPipeTotal - off : kChunk;
            for (int i = 0; i < len; i++) b[i] = pat(off + i);
            for (int done = 0; done < len;) {
                int n = write(p[1], b + done, len - done);
                if (n <= 0) exit(1);
                done += n;
            }
            off += len;
        }
        exit(0);
    }
    int r = fork();
    if (r == 0) {
        static unsigned char b[1024];
        close(p[1]);
        int total = 0, n;
        while ((n = read(p[0], b, sizeof b)) != 0) {
            if (n < 0) exit(2);
            for (int i = 0; i < n; i++)
                if (b[i] != pat(total + i)) exit(3);
            total += n;
        }
        exit(total == kPipeTotal ? 0 : 4);
    }
    close(p[0]);
    close(p[1]);
    int s1 = stopper(w, 2000), s2 = stopper(r, 2000);
    status_of(s1);
    status_of(s2);
    int ws = end_within(w), rs = end_within(r);
    if (ws != 0) return fail("sigstoppipe", "the writer failed (status)", ws);
    if (rs != 0) return fail("sigstoppipe", "the reader (2: error, 3: a byte wrong, 4: count)", rs);
    pass("sigstoppipe", "256 KiB through a pipe, 2,000 stop/continue pairs at each end: every byte once, in order");
}

/* ---- kill of a stopped process ---------------------------------------- */

static void spin_thread(void* arg) {
    (void)arg;
    for (;;) {}
}

static int stopped_child(int threads, int pending) {
    int pid = fork();
    if (pid == 0) {
        struct ksigaction a = {(unsigned long)count, 0, 0};
        sigact(SIGUSR1, &a, 0);
        if (threads) thread_create(spin_thread, 0);
        for (;;) sleep(1);
    }
    int st = 0;
    sigsend(pid, SIGSTOP);
    waitpid(pid, &st, WUNTRACED);
    if (pending) {
        sigsend(pid, SIGUSR1);
        sigsend(pid, SIGTERM);
    }
    return WIFSTOPPED(st) ? pid : -pid;
}

void t_sigkillstopped(void) {
    int free0 = freepages();
    for (int i = 0; i < 12; i++) {
        int pid = stopped_child(i % 3 == 1, i % 3 == 2);
        if (pid < 0) return fail("sigkillstopped", "not stopped", -pid);
        int st = 0;
        if (i % 2 == 0) {
            sigsend(pid, SIGKILL);
            if (waitpid(pid, &st, 0) != pid || !WIFSIGNALED(st) || WTERMSIG(st) != SIGKILL)
                return fail("sigkillstopped", "SIGKILL of a stopped process: status", st);
        } else {
            kill(pid);
            if (reap(pid) != -1) return fail("sigkillstopped", "xv6's kill of a stopped process", i);
        }
    }
    /* a parent puts its child in a group of its own, stops it and exits:
     * the child, now init's, is in an orphaned group (nobody can continue
     * it), which gets SIGHUP and SIGCONT (POSIX) and ends */
    int gate[2], tell[2];
    pipe(gate);
    pipe(tell);
    int mid = fork();
    if (mid == 0) {
        int c = fork();
        if (c == 0) {
            close(gate[0]);
            setpgid(0, 0);
            for (;;) sleep(1);
        }
        int st = 0;
        setpgid(c, c);
        write(tell[1], &c, sizeof c);
        sigsend(c, SIGSTOP);
        waitpid(c, &st, WUNTRACED);
        exit(WIFSTOPPED(st) ? 0 : 1);
    }
    close(gate[1]);
    close(tell[1]);
    int orphan = 0;
    read(tell[0], &orphan, sizeof orphan);
    close(tell[0]);
    if (status_of(mid) != 0) return fail("sigkillstopped", "the middle process could not stop its child", 0);
    struct pollfd q = {gate[0], POLLIN, 0};
    int ended = poll(&q, 1, 5000) == 1; /* POLLHUP once the orphan has ended (its write end closes) */
    close(gate[0]);
    if (!ended) {
        sigsend(orphan, SIGKILL); /* init reaps it */
        return fail("sigkillstopped", "a stopped orphan was still stopped 5 s later (pid)", orphan);
    }
    /* init reaps the orphan (its page table) a moment after its files close */
    for (int i = 0; i < 50 && freepages() != free0; i++) sleep(1);
    if (freepages() != free0) return fail("sigkillstopped", "pages lost", free0 - freepages());
    pass("sigkillstopped",
         "12 stopped processes (threads, pending signals) killed by SIGKILL and xv6's kill; "
         "a stopped orphan got SIGHUP and SIGCONT");
}

/* ---- permission -------------------------------------------------------- */

void t_sigperm(void) {
    int gate[2], ready[2];
    pipe(gate);
    pipe(ready);
    int root = fork();
    if (root == 0) {
        struct ksigaction a = {(unsigned long)count, 0, SA_RESTART};
        for (int s = 1; s < 32; s++) sigact(s, &a, 0);
        setpgid(0, 0);
        close(gate[1]);
        write(ready[1], "r", 1);
        char c;
        read(gate[0], &c, 1);
        exit(storm_got == 0 ? 0 : 10 + storm_got);
    }
    setpgid(root, root);
    char c;
    read(ready[0], &c, 1);
    int student = fork();
    if (student == 0) {
        if (setgid(kStudent) < 0 || setuid(kStudent) < 0) exit(100);
        for (int s = 0; s < 32; s++) {
            if (sigsend(root, s) != -1 || errno() != EPERM) exit(1 + s);
            if (sigsend(-root, s) != -1 || errno() != EPERM) exit(40 + s);
            if (sigsend(1, s) != -1) exit(80);
            if (sigsend(-1, s) != -1) exit(81);
        }
        if (kill(root) != -1) exit(82);
        if (setpgid(0, root) != -1) exit(83);
        if (setpgid(root, 0) != -1) exit(84);
        int st;
        if (waitpid(root, &st, WNOHANG) != -1) exit(85);
        exit(0);
    }
    int st = status_of(student);
    int w = 0, rs = 0;
    close(gate[1]);
    w = waitpid(root, &rs, 0);
    close(gate[0]);
    close(ready[0]);
    close(ready[1]);
    if (st != 0)
        return fail("sigperm",
                    "the student got through (1-32: signal s-1 to the pid, 40+: to the group, 80+: "
                    "init, everyone, kill, setpgid, waitpid)",
                    st);
    if (w != root || !WIFEXITED(rs) || WEXITSTATUS(rs) != 0)
        return fail("sigperm", "root's process saw a signal or was stopped (status)", rs);
    pass("sigperm",
         "as student: signals 0-31 to root's process and group, init and -1, kill, setpgid, waitpid: refused");
}
