/* user/hostile_threads.c - hostile's attacks on threads and futexes (part
 * of user/hostile; tests/guest/hostile.py runs them, on 8 harts too).
 *
 *   tbomb      threads until tcreate fails, in one process (the per-process
 *              limit, 31 besides the first) three times over, then in ten
 *              processes at once until the process table is full (fork
 *              fails meanwhile), and back;
 *   tfutex     futex on unmapped, kernel, trampoline, trapframe, read-only,
 *              misaligned and just-freed addresses, bad ops, huge and tiny
 *              timeouts, 30 waiters on one word, a waiter whose word's page
 *              is given back under it;
 *   texitrace  exit from the first thread or another one while threads
 *              spin, make threads, fork, use pipes and wait on futexes on
 *              other harts; two threads calling exit at once;
 *   texecrace  exec from one thread while the others run, while another
 *              thread calls exit, and from two threads at once; a failed
 *              exec leaves the threads running;
 *   tkill      kill of a process with 31 threads spinning, asleep in sleep,
 *              futex and pipe reads, and making threads;
 *   tjoin      join of an ended thread, twice, of a detached one, of the
 *              caller, of another process's thread, from two threads at
 *              once; a tidp word whose page is gone when the thread ends;
 *   tstack     threads whose stack is kernel memory, 0, the trampoline, a
 *              trapframe or past MAXVA, or whose entry is kernel memory,
 *              unmapped or data, or that return from their entry function:
 *              the process is killed.
 * Every test checks that the free page count comes back, and the process
 * statuses; the host checks no panic, no hang and a clean fsck after.
 */
#include "kernel/memlayout.h"
#include "kernel/riscv.h"
#include "user/hostile.h"
#include "user/user.h"

enum { kPerProc = 32 /* param::kMaxThreadsPerProc */ };
/* Bombers enough to fill the table: param::kMaxProcs (256) slots at
 * kPerProc threads each need 8; two more make sure some run short. */
enum { kTableSlots = 256, kBombers = kTableSlots / kPerProc + 2 };

static volatile int started;
static volatile int gate;

static void bump(volatile int* w) {
    __atomic_fetch_add(w, 1, __ATOMIC_ACQ_REL);
    futex_wake(w, 1000);
}

static void wait_for(volatile int* w, int want) {
    int v;
    while ((v = __atomic_load_n(w, __ATOMIC_ACQUIRE)) < want) futex_wait(w, v, 0);
}

static void park(void* arg) {
    (void)arg;
    bump(&started);
    while (__atomic_load_n(&gate, __ATOMIC_ACQUIRE) == 0) futex_wait(&gate, 0, 0);
}

static void spin(void* arg) {
    (void)arg;
    bump(&started);
    for (;;) __asm__ volatile("" ::: "memory");
}

static void nap(void* arg) {
    (void)arg;
    bump(&started);
    for (;;) sleep(50);
}

static void quick(void* arg) { (void)arg; }

static void churn(void* arg) { /* makes and joins threads until the process ends */
    (void)arg;
    bump(&started);
    for (;;) {
        int t = thread_create(quick, 0);
        if (t > 0) thread_join(t);
    }
}

static void piper(void* arg) { /* blocks reading a pipe nobody writes */
    (void)arg;
    int p[2];
    if (pipe(p) < 0) return;
    bump(&started);
    char c;
    read(p[0], &c, 1);
}

static void forker(void* arg) {
    (void)arg;
    bump(&started);
    for (;;) {
        int pid = fork();
        if (pid == 0) exit(0);
        if (pid > 0) wait(0);
    }
}

/* Run fn in a child; its exit status (-1: killed). */
static int in_child(void (*fn)(void)) {
    int pid = fork();
    if (pid < 0) return -200;
    if (pid == 0) {
        fn();
        exit(0);
    }
    return reap(pid);
}

/* 1 if every page came back; else counts the failure (no PASS follows). */
static int pages_back(const char* name, const struct pagesnap* before) {
    int d = pages_diff(name, before);
    if (d != 0) fail(name, "pages not back", d);
    return d == 0;
}

/* ---- tbomb --------------------------------------------------------- */

static void bomb_one(void) {
    for (int round = 0; round < 2; round++) {
        int tids[kPerProc];
        int n = 0;
        while (n < kPerProc && (tids[n] = thread_create(park, 0)) > 0) n++;
        if (n != kPerProc - 1) exit(10 + n);
        wait_for(&started, n * (round + 1));
        gate = 1;
        futex_wake(&gate, 1000);
        for (int i = 0; i < n; i++)
            if (thread_join(tids[i]) != 0) exit(2);
        gate = 0;
    }
}

static int table_bomber(int wfd, int rfd) {
    int n = 0;
    while (thread_create(park, 0) > 0) n++;
    char c = (char)n;
    write(wfd, &c, 1);
    read(rfd, &c, 1); /* until the parent closes its end */
    exit(0);
}

void t_tbomb(void) {
    struct pagesnap before;
    pages_snap(&before);
    for (int i = 0; i < 3; i++) {
        int st = in_child(bomb_one);
        if (st != 0) return fail("tbomb", "per-process bomb: status (10+n: n threads made)", st);
    }
    int up[2], down[2];
    if (pipe(up) < 0 || pipe(down) < 0) return fail("tbomb", "pipe", -1);
    int kids[kBombers], total = 0, short_of_limit = 0;
    for (int i = 0; i < kBombers; i++) {
        kids[i] = fork();
        if (kids[i] == 0) {
            close(up[0]);
            close(down[1]);
            table_bomber(up[1], down[0]);
        }
    }
    close(up[1]);
    close(down[0]);
    for (int i = 0; i < kBombers; i++) {
        char c = 0;
        if (kids[i] < 0 || read(up[0], &c, 1) != 1) continue;
        total += c;
        if (c < kPerProc - 1) short_of_limit++;
    }
    int pid = fork(); /* the table is full now */
    if (pid == 0) exit(0);
    if (pid > 0) reap(pid);
    close(down[1]);
    close(up[0]);
    for (int i = 0; i < kBombers; i++)
        if (kids[i] > 0) reap(kids[i]);
    if (pid >= 0) return fail("tbomb", "fork succeeded with the process table full of threads", pid);
    if (short_of_limit == 0) return fail("tbomb", "the bombers never filled the table", total);
    pid = fork();
    if (pid == 0) exit(0);
    if (pid < 0 || reap(pid) != 0) return fail("tbomb", "no fork after the threads ended", pid);
    if (!pages_back("tbomb", &before)) return;
    printf("PASS tbomb (table full at %d threads of %d bombers)\n", total, kBombers);
}

/* ---- tfutex -------------------------------------------------------- */

static volatile int word;
static const int ro_word = 1;

static void futex_addresses(void) {
    char* brk = sbrk(0);
    char* page = sbrk(PGSIZE); /* a page given back just below */
    sbrk(-PGSIZE);
    unsigned long sp = (unsigned long)&brk;
    const unsigned long bad[] = {0,
                                 4,
                                 KERNBASE,
                                 KERNBASE + 0x4000,
                                 TRAMPOLINE,
                                 TRAPFRAME,
                                 TRAPFRAME - 7 * PGSIZE,
                                 MAXVA,
                                 MAXVA + PGSIZE,
                                 (unsigned long)-4096,
                                 (unsigned long)&futex_addresses,
                                 (unsigned long)&ro_word,
                                 (unsigned long)&word + 1,
                                 (unsigned long)&word + 2,
                                 (unsigned long)&word + 3,
                                 PGROUNDUP((unsigned long)&word) - 2,
                                 (unsigned long)page,
                                 (unsigned long)brk + 2 * PGSIZE,
                                 PGROUNDDOWN(sp) - PGSIZE + 64}; /* the stack's guard page */
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int w = futex((volatile int*)bad[i], FUTEX_WAIT, 0, 1000000);
        int k = futex((volatile int*)bad[i], FUTEX_WAKE, 1000, 0);
        int u = futex((volatile int*)bad[i], FUTEX_WAIT_UNTIL, 0, 1);
        if (w != -1 || k != -1 || u != -1) exit(100 + (int)i);
    }
    const int ops[] = {-1, 3, 4, 99, 0x7fffffff};
    for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (futex(&word, ops[i], 0, 0) != -1) exit(50 + (int)i);
    if (futex(&word, FUTEX_WAKE, -5, 0) != -1) exit(60);
    if (futex(&word, FUTEX_WAIT, 1, ~0UL) != FUTEX_MISMATCH) exit(61);
    if (futex(&word, FUTEX_WAIT, 0, 1) != FUTEX_TIMEDOUT) exit(62);
    if (futex(&word, FUTEX_WAIT, 0, 1000) != FUTEX_TIMEDOUT) exit(63);
    if (futex(&word, FUTEX_WAIT_UNTIL, 1, ~0UL) != FUTEX_MISMATCH) exit(64);
    if (futex(&word, FUTEX_WAIT_UNTIL, 0, 1) != FUTEX_TIMEDOUT) exit(65); /* long past */
}

static volatile int woken;

static void waiter(void* arg) {
    unsigned long timeout = (unsigned long)arg;
    bump(&started);
    int r = futex(&word, FUTEX_WAIT, 0, timeout);
    if (r == 0 || r == FUTEX_TIMEDOUT || r == FUTEX_MISMATCH) bump(&woken);
}

static void many_waiters(void) {
    int tids[30];
    for (int i = 0; i < 30; i++) tids[i] = thread_create(waiter, (void*)~0UL); /* huge: no overflow */
    wait_for(&started, 30);
    sleep(1);
    word = 1;
    int n = futex(&word, FUTEX_WAKE, 1000, 0);
    for (int i = 0; i < 30; i++) thread_join(tids[i]);
    if (woken != 30 || n > 30) exit(70);
    word = 0;
    started = woken = 0;
    for (int i = 0; i < 30; i++) tids[i] = thread_create(waiter, (void*)((unsigned long)(1 + i) * 3000000));
    for (int i = 0; i < 30; i++) thread_join(tids[i]);
    if (woken != 30) exit(71); /* every timed wait ended */
}

static volatile int* top_word;

static void top_waiter(void* arg) {
    (void)arg;
    wait_for(&gate, 1);
    bump(&started);
    futex(top_word, FUTEX_WAIT, 0, 0); /* its page is given back under it */
}

static void revoked_word(void) {
    thread_create(top_waiter, 0); /* first: its stack comes from malloc's sbrk */
    top_word = (volatile int*)sbrk(PGSIZE);
    *top_word = 0;
    bump(&gate);
    wait_for(&started, 1);
    sleep(1);
    sbrk(-PGSIZE);
    if (futex(top_word, FUTEX_WAKE, 1, 0) != -1) exit(80);
    exit(0); /* ends the waiter too */
}

void t_tfutex(void) {
    struct pagesnap before;
    pages_snap(&before);
    int st = in_child(futex_addresses);
    if (st != 0) return fail("tfutex", "bad address or argument accepted (status: 100+index, 50+op)", st);
    if ((st = in_child(many_waiters)) != 0) return fail("tfutex", "waiters lost (status)", st);
    if ((st = in_child(revoked_word)) != 0) return fail("tfutex", "word given back under a waiter (status)", st);
    if (!pages_back("tfutex", &before)) return;
    pass("tfutex", "bad addresses and ops -1, timeouts end, 30 waiters");
}

/* ---- texitrace, texecrace -------------------------------------------- */

static void start_busy(void) {
    void (*kinds[])(void*) = {spin, spin, spin, churn, churn, piper, forker, nap, park};
    int n = 0;
    for (unsigned i = 0; i < sizeof kinds / sizeof kinds[0]; i++) n += thread_create(kinds[i], 0) > 0;
    wait_for(&started, n);
}

static int round_no;

static void exit_soon(void* arg) {
    wait_for(&started, 9);
    for (volatile int i = 0; i < (round_no % 4) * 20000; i++) {}
    exit((int)(long)arg);
}

static void exit_round(void) {
    if (round_no % 2) thread_create(exit_soon, (void*)(long)(round_no % 50));
    if (round_no % 5 == 4) thread_create(exit_soon, (void*)(long)(round_no % 50)); /* two at once */
    start_busy();
    if (round_no % 2 == 0) exit(round_no % 50);
    for (;;) futex_wait(&gate, 0, 0);
}

void t_texitrace(void) {
    struct pagesnap before;
    pages_snap(&before);
    for (round_no = 0; round_no < 20; round_no++) {
        int t0 = uptime();
        int st = in_child(exit_round);
        if (st != round_no % 50) return fail("texitrace", "exit status (round*100+status)", round_no * 100 + st);
        /* a hang, not a speed test: hostile.py runs without -icount */
        if (uptime() - t0 > 300) return fail("texitrace", "exit took ticks", uptime() - t0);
    }
    sleep(5); /* orphaned grandchildren of the forkers are reaped by init */
    if (!pages_back("texitrace", &before)) return;
    pass("texitrace", "20 rounds, exit from the first thread and others");
}

static char* exec_argv[] = {"/threadtest", "-x", "42", 0};

static void exec_soon(void* arg) {
    wait_for(&started, 9);
    if (arg) exit(7);
    exec(exec_argv[0], exec_argv);
    exit(3);
}

static void exec_round(void) {
    int mode = round_no % 4; /* 0: first thread, 1: other, 2: other + exit, 3: two execers */
    if (mode >= 1) thread_create(exec_soon, 0);
    if (mode == 2) thread_create(exec_soon, (void*)1L);
    if (mode == 3) thread_create(exec_soon, 0);
    start_busy();
    if (mode == 0) exec(exec_argv[0], exec_argv);
    for (;;) futex_wait(&gate, 0, 0);
}

static void failed_exec(void) {
    start_busy();
    int before = started;
    char* argv[] = {"/no-such-program", 0};
    if (exec(argv[0], argv) != -1) exit(20);
    thread_create(park, 0); /* the other threads still run: they answer */
    wait_for(&started, before + 1);
    exit(0);
}

void t_texecrace(void) {
    struct pagesnap before;
    pages_snap(&before);
    for (round_no = 0; round_no < 16; round_no++) {
        int st = in_child(exec_round);
        int ok = st == 42 || (round_no % 4 == 2 && st == 7);
        if (!ok) return fail("texecrace", "status (round*100+status)", round_no * 100 + st);
    }
    int st = in_child(failed_exec);
    if (st != 0) return fail("texecrace", "a failed exec ended the threads (status)", st);
    sleep(5);
    if (!pages_back("texecrace", &before)) return;
    pass("texecrace", "16 rounds, exec from every kind of thread, racing exit and exec");
}

/* ---- tkill ----------------------------------------------------------- */

static void many_threads(int wfd) {
    void (*kinds[])(void*) = {spin, park, nap, piper, churn, waiter};
    int n = 0;
    for (int i = 0; i < kPerProc - 1; i++) n += thread_create(kinds[i % 6], 0) > 0;
    wait_for(&started, n);
    char c = (char)n;
    write(wfd, &c, 1);
    for (;;) futex_wait(&gate, 0, 0);
}

void t_tkill(void) {
    struct pagesnap before;
    pages_snap(&before);
    for (int round = 0; round < 10; round++) {
        int p[2];
        if (pipe(p) < 0) return fail("tkill", "pipe", round);
        int pid = fork();
        if (pid == 0) {
            close(p[0]);
            many_threads(p[1]);
        }
        close(p[1]);
        char c = 0;
        /* 31 creates, 5 of them churners (kinds[4]) that each hold one short-lived
         * thread of the 32 a process may have: up to 5 creates may find it full */
        if (pid < 0 || read(p[0], &c, 1) != 1 || c < kPerProc - 1 - 5) return fail("tkill", "threads started", c);
        close(p[0]);
        int t0 = uptime();
        if (kill(pid) != 0) return fail("tkill", "kill failed", pid);
        int st = reap(pid);
        if (st != -1) return fail("tkill", "status of a killed process", st);
        if (uptime() - t0 > 300) return fail("tkill", "kill took ticks", uptime() - t0); /* a hang */
    }
    if (!pages_back("tkill", &before)) return;
    pass("tkill", "10 processes of 31 threads killed");
}

/* ---- tjoin ----------------------------------------------------------- */

static volatile int join_results;

static void joiner(void* arg) {
    int r = thread_join((int)(long)arg);
    __atomic_fetch_add(&join_results, r == 0 ? 1 : 100, __ATOMIC_ACQ_REL);
}

static void texit_now(void* arg) {
    (void)arg;
    texit(9);
}

static void raw_park(void* arg) { /* a raw tcreate's entry must not return */
    park(arg);
    texit(0);
}

static volatile int lost_word = 5;

static void join_cases(void) {
    int t = thread_create(quick, 0);
    sleep(1);
    if (thread_join(t) != 0 || thread_join(t) != -1) exit(2); /* ended; twice */
    t = thread_create(park, 0);
    if (thread_detach(t) != 0 || thread_join(t) != -1) exit(3);
    if (thread_join(gettid()) != -1 || thread_join(getpid()) != -1 || thread_join(1) != -1) exit(4);
    t = thread_create(park, 0);
    int a = thread_create(joiner, (void*)(long)t);
    int b = thread_create(joiner, (void*)(long)t);
    sleep(1);
    gate = 1;
    futex_wake(&gate, 1000);
    thread_join(a);
    thread_join(b);
    if (join_results != 101) exit(5); /* exactly one of two joins succeeds */
    t = thread_create(texit_now, 0);
    if (thread_join(t) != 0) exit(6);
    /* a raw thread whose tidp page is given back before it ends */
    char* page = sbrk(PGSIZE);
    static char stack[4096] __attribute__((aligned(16)));
    volatile int* tidp = (volatile int*)page;
    gate = 0;
    if (tcreate(raw_park, 0, stack + sizeof stack, 0, tidp) <= 0) exit(7);
    wait_for(&started, 3);
    sbrk(-PGSIZE);
    gate = 1;
    futex_wake(&gate, 1000);
    sleep(2);
    for (int i = 0; i < 40; i++) thread_detach(thread_create(quick, 0));
    sleep(2);
}

void t_tjoin(void) {
    struct pagesnap before;
    pages_snap(&before);
    int st = in_child(join_cases);
    if (st != 0) return fail("tjoin", "join case failed (status)", st);
    if (!pages_back("tjoin", &before)) return;
    pass("tjoin", "ended, twice, detached, self, racing joins, lost tidp");
}

/* ---- tstack ---------------------------------------------------------- */

static void probe(void* arg) {
    volatile char c[64];
    c[0] = (char)(long)arg;
    c[63] = c[0];
    texit(c[63]);
}

static void returns(void* arg) { (void)arg; }

static unsigned long t_entry, t_stack;
static char good_stack[4096] __attribute__((aligned(16)));

static void bad_thread(void) {
    if (tcreate((void (*)(void*))t_entry, 0, (void*)t_stack, (void*)KERNBASE, 0) <= 0) exit(2);
    sleep(30);
    exit(3); /* not killed */
}

void t_tstack(void) {
    struct pagesnap before;
    pages_snap(&before);
    unsigned long good = (unsigned long)(good_stack + sizeof good_stack);
    const struct {
        unsigned long entry, stack;
    } cases[] = {
        {(unsigned long)probe, KERNBASE + 0x10000},
        {(unsigned long)probe, 0},
        {(unsigned long)probe, TRAMPOLINE + PGSIZE},
        {(unsigned long)probe, TRAPFRAME},
        {(unsigned long)probe, MAXVA + 0x100000},
        {KERNBASE, good},
        {0x3000000000UL, good},
        {good - 64, good},
        {(unsigned long)returns, good},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        t_entry = cases[i].entry;
        t_stack = cases[i].stack;
        int st = in_child(bad_thread);
        if (st != -1) return fail("tstack", "not killed: status (case*100+status)", (long)i * 100 + st);
    }
    if (!pages_back("tstack", &before)) return;
    pass("tstack", "bad stacks and entries kill the process");
}
