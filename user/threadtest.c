/* threadtest - the thread and futex system calls, good and bad (docs/threads.md).
 *
 *   threadtest [name-prefix...]
 *   threadtest -x STATUS      (helper: exit with STATUS, for the exec tests)
 *   threadtest -s N           (helper: N sleeping threads for 5 s, for ps -T)
 *
 * Each test runs in its own child process, like usertests: it returns
 * (PASS) or calls FAIL, which prints "FAIL name: reason" and exits 99; the
 * parent then checks that the free page count is back where it was before
 * the test (no page of a thread, a stack or a trapframe leaked). The run
 * ends with "threadtest: N passed, N failed". Synchronisation inside the
 * tests is by futex, never by spinning, so one hart runs them as quickly as
 * eight.
 */
#include "kernel/fcntl.h"
#include "kernel/memlayout.h"
#include "kernel/param.h"
#include "kernel/riscv.h"
#include "user/user.h"

static const char* cur = "";
enum { kFailStatus = 99, kMaxThreads = 32 /* param::kMaxThreadsPerProc */ };

#define FAIL(...)                         \
    do {                                  \
        printf("FAIL %s: ", cur);         \
        printf(__VA_ARGS__);              \
        printf(" (line %d)\n", __LINE__); \
        exit(kFailStatus);                \
    } while (0)
#define CHECK(cond, ...)                \
    do {                                \
        if (!(cond)) FAIL(__VA_ARGS__); \
    } while (0)

/* ---- helpers ----------------------------------------------------------- */

static volatile int counter;
static volatile int gate; /* threads wait here until the test opens it */

static void open_gate(void) {
    __atomic_store_n(&gate, 1, __ATOMIC_RELEASE);
    futex_wake(&gate, 1000);
}

static void wait_gate(void) {
    while (__atomic_load_n(&gate, __ATOMIC_ACQUIRE) == 0) futex_wait(&gate, 0, 0);
}

/* Wait until *w == want (a futex word other threads change and wake). */
static void wait_for(volatile int* w, int want) {
    int v;
    while ((v = __atomic_load_n(w, __ATOMIC_ACQUIRE)) != want) futex_wait(w, v, 0);
}

static void add_and_wake(volatile int* w, int n) {
    __atomic_fetch_add(w, n, __ATOMIC_ACQ_REL);
    futex_wake(w, 1000);
}

static int child_status(void (*fn)(void)) {
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        fn();
        exit(0);
    }
    int st = -12345;
    CHECK(wait(&st) == pid, "wait did not return the child");
    return st;
}

/* Live threads of this process, from the process list. */
static int my_threads(void) {
    struct procinfo pi;
    int r;
    for (int i = 0; (r = procinfo(i, &pi)) >= 0; i++) {
        if (r == 0 && pi.tid == gettid()) return pi.threads;
    }
    return -1;
}

static void t_incr(void* arg) { add_and_wake(&counter, (int)(long)arg); }

static void t_park(void* arg) { /* waits for the gate forever, or until killed */
    (void)arg;
    add_and_wake(&counter, 1);
    wait_gate();
}

static void t_spin(void* arg) { /* runs until the process ends */
    (void)arg;
    add_and_wake(&counter, 1);
    for (;;) __asm__ volatile("" ::: "memory");
}

static void t_nap(void* arg) { /* sleeps in sleep() until the process ends */
    (void)arg;
    add_and_wake(&counter, 1);
    for (;;) sleep(100);
}

/* Start n threads of each kind that never end by themselves, and wait
 * until all of them run. */
static void start_stuck(int n) {
    void (*kinds[])(void*) = {t_park, t_spin, t_nap};
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 3; k++) CHECK(thread_create(kinds[k], 0) > 0, "thread_create %d failed", i);
    wait_for(&counter, 3 * n);
}

/* ---- tests ------------------------------------------------------------- */

static volatile int seen_pid, seen_tid;

static void t_ids(void* arg) {
    (void)arg;
    seen_pid = getpid();
    seen_tid = gettid();
    add_and_wake(&counter, 1);
}

static void test_ids(void) {
    CHECK(gettid() == getpid(), "first thread: tid %d, pid %d", gettid(), getpid());
    int tid = thread_create(t_ids, 0);
    CHECK(tid > 0, "thread_create failed");
    CHECK(thread_join(tid) == 0, "join failed");
    CHECK(seen_pid == getpid(), "getpid in a thread: %d, process %d", seen_pid, getpid());
    CHECK(seen_tid == tid && tid != getpid(), "gettid in a thread: %d, created %d", seen_tid, tid);
}

static void test_create_join(void) {
    int tids[8];
    for (int i = 0; i < 8; i++) {
        tids[i] = thread_create(t_incr, (void*)(long)(i + 1));
        CHECK(tids[i] > 0, "thread_create %d failed", i);
    }
    for (int i = 0; i < 8; i++) CHECK(thread_join(tids[i]) == 0, "join of %d failed", tids[i]);
    CHECK(counter == 36, "threads added %d, expected 36", counter);
    CHECK(my_threads() == 1, "%d threads left after the joins", my_threads());
}

static void test_join_errors(void) {
    int tid = thread_create(t_incr, (void*)1L);
    CHECK(tid > 0, "thread_create failed");
    wait_for(&counter, 1);
    sleep(1); /* it has ended by now: joining an ended thread returns at once */
    CHECK(thread_join(tid) == 0, "join of an ended thread failed");
    CHECK(thread_join(tid) == -1, "second join of %d succeeded", tid);
    CHECK(thread_join(gettid()) == -1, "join of the caller succeeded");
    CHECK(thread_join(123456) == -1, "join of an unknown tid succeeded");
    tid = thread_create(t_park, 0);
    CHECK(tid > 0 && thread_detach(tid) == 0, "detach failed");
    CHECK(thread_join(tid) == -1, "join of a detached thread succeeded");
    CHECK(thread_detach(tid) == -1, "second detach succeeded");
    open_gate(); /* the detached thread ends; its stack goes at the next create */
}

static volatile int raw_word = 77;
static char raw_stack[4096] __attribute__((aligned(16)));
static volatile long raw_tp;

static void raw_entry(void* arg) {
    long tp;
    __asm__ volatile("mv %0, tp" : "=r"(tp));
    raw_tp = tp;
    add_and_wake(&counter, (int)(long)arg);
    texit(0);
}

static void test_raw_tcreate(void) {
    int tid = tcreate(raw_entry, (void*)5L, raw_stack + sizeof raw_stack, (void*)0x1234, &raw_word);
    CHECK(tid > 0, "tcreate failed");
    /* the tid is in the word before tcreate returns; 0 once the thread has ended */
    int v = raw_word;
    CHECK(v == tid || v == 0, "tid word %d after tcreate of %d", v, tid);
    while ((v = raw_word) != 0) futex_wait(&raw_word, v, 0);
    CHECK(counter == 5, "entry got arg %d, expected 5", counter);
    CHECK(raw_tp == 0x1234, "tp in the thread was %lx", raw_tp);
}

static void test_tcreate_bad(void) {
    const unsigned long bad[] = {KERNBASE, MAXVA, TRAPFRAME, 16, (unsigned long)&test_tcreate_bad};
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int r = tcreate(raw_entry, 0, raw_stack + sizeof raw_stack, 0, (volatile int*)bad[i]);
        CHECK(r == -1, "tcreate with tidp %lx returned %d", bad[i], r);
    }
    CHECK(my_threads() == 1, "a failed tcreate left %d threads", my_threads());
}

static void test_limit(void) {
    int tids[kMaxThreads];
    int n = 0;
    while (n < kMaxThreads && (tids[n] = thread_create(t_park, 0)) > 0) n++;
    CHECK(n == kMaxThreads - 1, "made %d threads, expected %d (the limit less the first)", n, kMaxThreads - 1);
    CHECK(thread_create(t_park, 0) == -1, "a thread past the limit was made");
    wait_for(&counter, n);
    open_gate();
    for (int i = 0; i < n; i++) CHECK(thread_join(tids[i]) == 0, "join %d failed", i);
    CHECK((tids[0] = thread_create(t_incr, 0)) > 0, "no thread after the others ended");
    CHECK(thread_join(tids[0]) == 0, "join failed");
}

/* At the limit, a thread whose join returned no longer counts: when all
 * of them end at once and are joined, as many can be made again at once,
 * every round (the kernel clears the join word and drops its thread count
 * in one step; it once cleared the word first, and a fast joiner then hit
 * the limit on 8 harts). */
static void test_limit_refill(void) {
    for (int round = 0; round < 20; round++) {
        int tids[kMaxThreads];
        int n = 0;
        gate = 0;
        counter = 0;
        while (n < kMaxThreads - 1 && (tids[n] = thread_create(t_park, 0)) > 0) n++;
        CHECK(n == kMaxThreads - 1, "round %d: made %d threads after the joins, expected %d", round, n,
              kMaxThreads - 1);
        wait_for(&counter, n);
        open_gate();
        for (int i = 0; i < n; i++) CHECK(thread_join(tids[i]) == 0, "join in round %d", round);
    }
}

static volatile int fword;

static void t_waiter(void* arg) {
    (void)arg;
    add_and_wake(&counter, 1);
    int r = futex_wait(&fword, 0, 0);
    if (r != 0 && r != FUTEX_MISMATCH) add_and_wake(&counter, 1000); /* an error */
}

static void test_futex_wait_wake(void) {
    CHECK(futex_wait(&fword, 1, 0) == FUTEX_MISMATCH, "wait with the wrong value did not return at once");
    CHECK(futex_wake(&fword, 5) == 0, "wake with no waiters woke someone");
    int tids[4];
    for (int i = 0; i < 4; i++) CHECK((tids[i] = thread_create(t_waiter, 0)) > 0, "create failed");
    wait_for(&counter, 4);
    int woken = 0;
    for (int tries = 0; woken < 2 && tries < 50; tries++) { /* they may not all be asleep yet */
        woken += futex_wake(&fword, 2 - woken);
        if (woken < 2) sleep(1);
    }
    CHECK(woken == 2, "wake of 2 woke %d", woken);
    fword = 1;
    futex_wake(&fword, 1000);
    for (int i = 0; i < 4; i++) CHECK(thread_join(tids[i]) == 0, "join failed");
    CHECK(counter == 4, "a waiter's futex_wait failed (counter %d)", counter);
}

static void test_futex_timeout(void) {
    unsigned long t0 = uptime_ns();
    int r = futex_wait(&fword, 0, 30 * 1000 * 1000);
    unsigned long ms = (uptime_ns() - t0) / 1000000;
    CHECK(r == FUTEX_TIMEDOUT, "timed wait returned %d", r);
    CHECK(ms >= 30 && ms < 1000, "a 30 ms wait took %lu ms", ms);
    t0 = uptime_ns();
    r = futex_wait(&fword, 0, 1); /* 1 ns: over at the next timer interrupt at the latest */
    CHECK(r == FUTEX_TIMEDOUT, "1 ns wait returned %d", r);
    CHECK(uptime_ns() - t0 < 200000000UL, "1 ns wait took %lu ns", uptime_ns() - t0);
}

static void test_futex_bad(void) {
    static const int ro = 0;
    const unsigned long bad[] = {KERNBASE,
                                 KERNBASE + 0x1000,
                                 MAXVA - 4,
                                 TRAPFRAME,
                                 TRAMPOLINE,
                                 0x3000000000UL,
                                 (unsigned long)&ro,
                                 (unsigned long)&test_futex_bad,
                                 (unsigned long)&fword + 1,
                                 (unsigned long)&fword + 2};
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int w = futex((volatile int*)bad[i], FUTEX_WAIT, 0, 0);
        int k = futex((volatile int*)bad[i], FUTEX_WAKE, 1, 0);
        CHECK(w == -1 && k == -1, "futex on %lx: wait %d, wake %d", bad[i], w, k);
    }
    CHECK(futex(&fword, 7, 0, 0) == -1, "an unknown op succeeded");
    CHECK(futex(&fword, FUTEX_WAKE, -1, 0) == -1, "a negative wake count succeeded");
}

static struct umutex mtx = UMUTEX_INIT;
static volatile long shared_count;

static void t_locked_add(void* arg) {
    for (int i = 0; i < (int)(long)arg; i++) {
        umutex_lock(&mtx);
        shared_count++;
        umutex_unlock(&mtx);
    }
}

static void test_mutex(void) {
    int tids[6];
    for (int i = 0; i < 6; i++) CHECK((tids[i] = thread_create(t_locked_add, (void*)20000L)) > 0, "create");
    for (int i = 0; i < 6; i++) CHECK(thread_join(tids[i]) == 0, "join");
    CHECK(shared_count == 120000, "count %ld under the mutex, expected 120000", shared_count);
    CHECK(umutex_trylock(&mtx) == 0 && umutex_trylock(&mtx) == -1, "trylock");
    umutex_unlock(&mtx);
}

static void t_exit7(void* arg) {
    (void)arg;
    sleep(2);
    texit(7);
}

static void leader_texits(void) {
    CHECK(thread_create(t_exit7, 0) > 0, "create failed");
    texit(0); /* the process lives on in the other thread */
}

static void test_texit(void) {
    /* the first thread ends first; the last one's status is the process's */
    CHECK(child_status(leader_texits) == 7, "status is not the last thread's");
}

static void exit_with_stuck(void) {
    start_stuck(4);
    exit(5);
}

static void test_exit_all(void) {
    unsigned long t0 = uptime_ns();
    CHECK(child_status(exit_with_stuck) == 5, "exit status lost");
    CHECK(uptime_ns() - t0 < 5000000000UL, "exit took %lu ms", (uptime_ns() - t0) / 1000000);
}

static void t_exit_from_thread(void* arg) {
    wait_for(&counter, 9);
    exit((int)(long)arg);
}

static void exit_from_thread(void) {
    CHECK(thread_create(t_exit_from_thread, (void*)9L) > 0, "create failed");
    start_stuck(3);
    for (;;) sleep(100); /* the first thread waits to be ended */
}

static void test_exit_from_thread(void) {
    CHECK(child_status(exit_from_thread) == 9, "exit from a thread did not end the process with 9");
}

static void test_kill(void) {
    int pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        start_stuck(5);
        for (;;) futex_wait(&gate, 0, 0);
    }
    sleep(3); /* the child's threads are running and asleep by now */
    CHECK(kill(pid) == 0, "kill failed");
    int st = 0;
    CHECK(wait(&st) == pid && st == -1, "killed process: status %d", st);
}

static char* exec_argv[] = {"/threadtest", "-x", "42", 0};

static void t_execer(void* arg) {
    (void)arg;
    wait_for(&counter, 6);
    exec(exec_argv[0], exec_argv);
    exit(3); /* exec failed */
}

static void exec_from_thread(void) {
    CHECK(thread_create(t_execer, 0) > 0, "create failed");
    start_stuck(2);
    for (;;) futex_wait(&gate, 0, 0);
}

static void exec_from_first(void) {
    start_stuck(2);
    exec(exec_argv[0], exec_argv);
    exit(3);
}

static void test_exec(void) {
    CHECK(child_status(exec_from_thread) == 42, "exec from a thread: not the new program's status");
    CHECK(child_status(exec_from_first) == 42, "exec from the first thread: not the new program's status");
}

static volatile int fork_child;

static void t_forker(void* arg) {
    (void)arg;
    int pid = fork();
    if (pid == 0) exit(my_threads() == 1 ? 11 : 12); /* only the caller is copied */
    fork_child = pid;
    add_and_wake(&counter, 1);
}

static void t_waiter_for_child(void* arg) {
    (void)arg;
    int st = 0;
    int pid = wait(&st);
    add_and_wake(&counter, pid == fork_child && st == 11 ? 10 : 100);
}

static void test_fork_wait(void) {
    start_stuck(1);
    int base = counter;
    int tid = thread_create(t_forker, 0);
    CHECK(tid > 0 && thread_join(tid) == 0, "forking thread");
    CHECK(fork_child > 0, "fork from a thread failed");
    /* another thread of the process reaps the child a thread forked */
    tid = thread_create(t_waiter_for_child, 0);
    CHECK(tid > 0 && thread_join(tid) == 0, "waiting thread");
    CHECK(counter == base + 11, "wait in a thread: counter %d (child's status wrong or not reaped)", counter);
    CHECK(wait(0) == -1, "a child is left");
}

static char* volatile grown;

static void t_grow(void* arg) {
    (void)arg;
    char* p = sbrk(8 * PGSIZE);
    for (int i = 0; i < 8 * PGSIZE; i += PGSIZE) p[i] = 'g';
    grown = p;
    add_and_wake(&counter, 1);
}

static void test_sbrk_shared(void) {
    start_stuck(1);
    int tid = thread_create(t_grow, 0);
    CHECK(tid > 0 && thread_join(tid) == 0, "grow thread");
    for (int i = 0; i < 8 * PGSIZE; i += PGSIZE) CHECK(grown[i] == 'g', "memory a thread grew is not shared");
    char* top = sbrk(0);
    CHECK(sbrk(-8 * PGSIZE) == top, "shrink with other threads running");
    char* again = sbrk(8 * PGSIZE); /* takes the kept pages back, zeroed */
    CHECK(again == top - 8 * PGSIZE, "regrow returned %p", again);
    for (int i = 0; i < 8 * PGSIZE; i += 512) CHECK(again[i] == 0, "regrown memory not zeroed at %d", i);
}

static volatile int shared_fd = -1;

static void t_open(void* arg) {
    shared_fd = open((char*)arg, O_CREATE | O_RDWR);
    if (shared_fd >= 0) write(shared_fd, "threads", 7);
    add_and_wake(&counter, 1);
}

static void t_chdir(void* arg) {
    (void)arg;
    chdir("/tt.dir");
    add_and_wake(&counter, 1);
}

static void test_files_shared(void) {
    int tid = thread_create(t_open, "tt.file");
    CHECK(tid > 0 && thread_join(tid) == 0, "open thread");
    CHECK(shared_fd >= 0, "open in a thread failed");
    char b[8] = {0};
    int fd = open("tt.file", O_RDONLY);
    CHECK(fd >= 0 && read(fd, b, 7) == 7 && strcmp(b, "threads") == 0, "file written by a thread");
    close(fd);
    CHECK(close(shared_fd) == 0, "the first thread cannot close a thread's descriptor");
    CHECK(unlink("tt.file") == 0, "unlink");
    CHECK(mkdir("/tt.dir") == 0, "mkdir");
    tid = thread_create(t_chdir, 0);
    CHECK(tid > 0 && thread_join(tid) == 0, "chdir thread");
    fd = open("here", O_CREATE | O_RDWR);
    CHECK(fd >= 0, "create in the new cwd");
    close(fd);
    CHECK(open("/tt.dir/here", O_RDONLY) >= 0, "a thread's chdir did not change the process's cwd");
    chdir("/");
    CHECK(unlink("/tt.dir/here") == 0 && unlink("/tt.dir") == 0, "cleanup");
}

static volatile int fd_errors;

static void t_fd_churn(void* arg) {
    (void)arg;
    for (int i = 0; i < 200; i++) {
        int p[2];
        if (pipe(p) < 0) continue; /* the table may be full for a moment */
        char c = 'x';
        if (write(p[1], &c, 1) != 1 || read(p[0], &c, 1) != 1 || c != 'x') __atomic_fetch_add(&fd_errors, 1, 0);
        close(p[0]);
        close(p[1]);
    }
}

static void test_fd_race(void) {
    int tids[4];
    for (int i = 0; i < 4; i++) CHECK((tids[i] = thread_create(t_fd_churn, 0)) > 0, "create");
    for (int i = 0; i < 4; i++) CHECK(thread_join(tids[i]) == 0, "join");
    CHECK(fd_errors == 0, "%d pipe round trips went wrong with four threads opening and closing", fd_errors);
    int p[2];
    CHECK(pipe(p) == 0 && p[0] == 3 && p[1] == 4, "descriptors leaked: a new pipe got %d %d", p[0], p[1]);
}

static void test_sched_per_thread(void) {
    int tid = thread_create(t_park, 0);
    CHECK(tid > 0, "create");
    wait_for(&counter, 1);
    CHECK(setpriority(tid, 7) == 0, "renice of a thread");
    CHECK(getpriority(tid) == 7 && getpriority(getpid()) == 0, "nice: thread %d, process %d", getpriority(tid),
          getpriority(getpid()));
    CHECK(setaffinity(tid, 1) == 0 && getaffinity(tid) == 1, "affinity of a thread");
    open_gate();
    CHECK(thread_join(tid) == 0, "join");
    CHECK(getpriority(tid) == -1 && setpriority(tid, 1) == -1, "an ended thread can still be reniced");
}

static volatile int uid_seen;

static void t_getuid(void* arg) {
    (void)arg;
    uid_seen = getuid();
    add_and_wake(&counter, 1);
}

static void setuid_in_thread(void) {
    int tid = thread_create(t_park, 0);
    CHECK(tid > 0 && setuid(1000) == 0, "setuid");
    int t2 = thread_create(t_getuid, 0);
    CHECK(t2 > 0 && thread_join(t2) == 0, "getuid thread");
    CHECK(uid_seen == 1000, "a new thread runs as %d", uid_seen);
    CHECK(setpriority(tid, 5) == 0, "the other thread runs as someone else (cannot renice it)");
    CHECK(setpriority(tid, 0) == -1, "the other thread may still lower its nice (still root?)");
    open_gate();
    CHECK(thread_join(tid) == 0, "join");
}

static void test_creds(void) {
    if (getuid() != 0) return; /* the console shell runs as root */
    CHECK(child_status(setuid_in_thread) == 0, "setuid in a process with threads");
}

/* A process that filled memory and then fails to fork gets -1; the
 * out-of-memory rule spares the caller's process, so it must not pick
 * another thread of that same process (it once could: the rule compared
 * slots, not processes). */
static void fill_then_fork(void) {
    CHECK(thread_create(t_park, 0) > 0, "create");
    wait_for(&counter, 1);
    long total = 0;
    for (int chunk = 1 << 20; chunk >= PGSIZE; chunk /= 2)
        while (sbrk(chunk) != (char*)-1) total += chunk;
    int pid = fork();
    if (pid == 0) exit(0);
    if (pid > 0) wait(0);
    sbrk(-(int)(total > 0x7fffffff ? 0x7fffffff : total));
    CHECK(pid < 0, "fork succeeded with memory full");
    open_gate();
}

static void test_oom_spares_own_threads(void) {
    CHECK(child_status(fill_then_fork) == 0, "the process that filled memory was killed by the oom rule");
}

/* Run argv with its output in out (NUL-terminated); returns its status. */
static int capture(char** argv, char* out, int max) {
    int p[2];
    CHECK(pipe(p) == 0, "pipe");
    int pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        close(1);
        dup(p[1]);
        close(p[0]);
        close(p[1]);
        exec(argv[0], argv);
        exit(127);
    }
    close(p[1]);
    int n = 0, r;
    while (n < max - 1 && (r = read(p[0], out + n, max - 1 - n)) > 0) n += r;
    out[n] = 0;
    close(p[0]);
    int st = -1;
    wait(&st);
    return st;
}

/* Rows of ps output whose first column is pid (and, with -T, second tid). */
static int rows_of(const char* out, int pid, int tid) {
    int n = 0;
    for (const char* line = out; *line; line++) {
        int col[2] = {0, 0};
        const char* s = line;
        for (int c = 0; c < 2; c++) {
            while (*s == ' ') s++;
            while (*s >= '0' && *s <= '9') col[c] = col[c] * 10 + (*s++ - '0');
        }
        if (col[0] == pid && (tid == 0 || col[1] == tid)) n++;
        while (*line && *line != '\n') line++;
        if (!*line) break;
    }
    return n;
}

static char psout[4096];

static void test_ps_renice_taskset(void) {
    int tids[3];
    for (int i = 0; i < 3; i++) CHECK((tids[i] = thread_create(t_park, 0)) > 0, "create");
    wait_for(&counter, 3);
    char* ps_t[] = {"/ps", "-T", 0};
    CHECK(capture(ps_t, psout, sizeof psout) == 0, "ps -T failed");
    CHECK(strchr(psout, 'T') && rows_of(psout, getpid(), 0) == 4, "ps -T: %d rows of pid %d, expected 4:\n%s",
          rows_of(psout, getpid(), 0), getpid(), psout);
    for (int i = 0; i < 3; i++) CHECK(rows_of(psout, getpid(), tids[i]) == 1, "ps -T: no row for tid %d", tids[i]);
    char* ps[] = {"/ps", 0};
    CHECK(capture(ps, psout, sizeof psout) == 0, "ps failed");
    CHECK(rows_of(psout, getpid(), 0) == 1, "ps: %d rows of a process with 4 threads:\n%s", rows_of(psout, getpid(), 0),
          psout);
    char tid[12];
    int v = tids[1], k = 0;
    char rev[12];
    while (v > 0) rev[k++] = (char)('0' + v % 10), v /= 10;
    for (int j = 0; j < k; j++) tid[j] = rev[k - 1 - j];
    tid[k] = 0;
    char* renice[] = {"/renice", "-n", "6", "-p", tid, 0};
    CHECK(capture(renice, psout, sizeof psout) == 0, "renice of a thread: %s", psout);
    CHECK(getpriority(tids[1]) == 6 && getpriority(tids[0]) == 0 && getpriority(getpid()) == 0,
          "renice -p TID changed more than that thread");
    char* taskset[] = {"/taskset", "-p", "1", tid, 0};
    CHECK(capture(taskset, psout, sizeof psout) == 0, "taskset of a thread: %s", psout);
    CHECK(getaffinity(tids[1]) == 1 && getaffinity(tids[0]) != 1, "taskset -p MASK TID changed more than that thread");
    open_gate();
    for (int i = 0; i < 3; i++) CHECK(thread_join(tids[i]) == 0, "join");
}

struct test {
    const char* name;
    void (*fn)(void);
};

static struct test tests[] = {
    {"ids", test_ids},
    {"create_join", test_create_join},
    {"join_errors", test_join_errors},
    {"raw_tcreate", test_raw_tcreate},
    {"tcreate_bad", test_tcreate_bad},
    {"limit", test_limit},
    {"limit_refill", test_limit_refill},
    {"futex_wait_wake", test_futex_wait_wake},
    {"futex_timeout", test_futex_timeout},
    {"futex_bad", test_futex_bad},
    {"mutex", test_mutex},
    {"texit", test_texit},
    {"exit_all", test_exit_all},
    {"exit_from_thread", test_exit_from_thread},
    {"kill", test_kill},
    {"exec", test_exec},
    {"fork_wait", test_fork_wait},
    {"sbrk_shared", test_sbrk_shared},
    {"files_shared", test_files_shared},
    {"fd_race", test_fd_race},
    {"sched_per_thread", test_sched_per_thread},
    {"creds", test_creds},
    {"ps_renice_taskset", test_ps_renice_taskset},
    {"oom_spares_own_threads", test_oom_spares_own_threads},
};

static int selected(const char* name, int argc, char** argv) {
    if (argc < 2) return 1;
    for (int i = 1; i < argc; i++) {
        int n = strlen(argv[i]);
        if (memcmp(name, argv[i], n) == 0) return 1;
    }
    return 0;
}

/* Run t in a child; PASS needs status 0 and every page back. */
static int run_test(struct test* t) {
    cur = t->name;
    int before = freepages();
    int st = child_status(t->fn);
    int after = freepages();
    if (st == kFailStatus) return 0;
    if (st != 0) {
        printf("FAIL %s: exit status %d\n", t->name, st);
        return 0;
    }
    if (after != before) {
        printf("FAIL %s: %d pages not back after the test\n", t->name, before - after);
        return 0;
    }
    printf("PASS %s\n", t->name);
    return 1;
}

/* threadtest -s N: N threads besides the first, all asleep, for `ps -T`,
 * renice and taskset of one thread (tests/guest/threads_tests.py); prints
 * "threads: PID TID..." and ends after 5 seconds. */
static void sleepers(int n) {
    printf("threads: %d", getpid());
    for (int i = 0; i < n; i++) printf(" %d", thread_create(t_nap, 0));
    printf("\n");
    sleep(50);
    exit(0);
}

int main(int argc, char* argv[]) {
    if (argc == 3 && strcmp(argv[1], "-x") == 0) exit(atoi(argv[2]));
    if (argc == 3 && strcmp(argv[1], "-s") == 0) sleepers(atoi(argv[2]));
    usage_on_help(argc, argv, "threadtest [-x STATUS | -s N | test-name-prefix...]");
    int passed = 0, failed = 0;
    child_status(test_ids); /* warm-up: first-use allocations (buffer cache) */
    for (unsigned i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
        if (!selected(tests[i].name, argc, argv)) continue;
        if (run_test(&tests[i])) passed++;
        else failed++;
    }
    printf("threadtest: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
