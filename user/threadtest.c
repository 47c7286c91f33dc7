/* threadtest - the thread and futex system calls, good and bad (docs/threads.md).
 *
 *   threadtest [name-prefix...]
 *   threadtest -x STATUS      (helper: exit with STATUS, for the exec tests)
 *   threadtest -s N           (helper: N sleeping threads for 5 s, for ps -T)
 *   threadtest -w PID         (helper: the exec test's new image; waits for a child)
 *
 * Each test runs in its own child process, like usertests: it returns
 * (PASS) or calls FAIL, which prints "FAIL name: reason" and exits 99; the
 * parent then checks that the free page count is back where it was before
 * the test (no page of a thread, a stack or a trapframe leaked). The run
 * ends with "threadtest: N passed, N failed". Synchronisation inside the
 * tests is by futex, never by spinning, so one hart runs them as quickly as
 * eight. The process-level tests (exit, kill, exec, fork, memory, files,
 * scheduling, ps) are in user/threadtest_proc.c.
 */
#include "user/threadtest.h"
#include "kernel/fcntl.h"
#include "kernel/memlayout.h"
#include "kernel/param.h"
#include "kernel/riscv.h"
#include "user/user.h"

const char* cur = "";

/* ---- helpers ----------------------------------------------------------- */

volatile int counter;
volatile int gate; /* threads wait here until the test opens it */

void open_gate(void) {
    __atomic_store_n(&gate, 1, __ATOMIC_RELEASE);
    futex_wake(&gate, 1000);
}

void wait_gate(void) {
    while (__atomic_load_n(&gate, __ATOMIC_ACQUIRE) == 0) futex_wait(&gate, 0, 0);
}

/* Wait until *w == want (a futex word other threads change and wake). */
void wait_for(volatile int* w, int want) {
    int v;
    while ((v = __atomic_load_n(w, __ATOMIC_ACQUIRE)) != want) futex_wait(w, v, 0);
}

void add_and_wake(volatile int* w, int n) {
    __atomic_fetch_add(w, n, __ATOMIC_ACQ_REL);
    futex_wake(w, 1000);
}

/* The slot of the calling thread in procinfo's table, or -1. */
static int my_slot(void) {
    struct procinfo pi;
    int r;
    for (int i = 0; (r = procinfo(i, &pi)) >= 0; i++) {
        if (r == 0 && pi.tid == gettid()) return i;
    }
    return -1;
}

/* Live threads of this process, from the process list. */
int my_threads(void) {
    struct procinfo pi;
    const int slot = my_slot();
    return slot >= 0 && procinfo(slot, &pi) == 0 ? pi.threads : -1;
}

void t_incr(void* arg) { add_and_wake(&counter, (int)(long)arg); }

void t_park(void* arg) { /* waits for the gate forever, or until killed */
    (void)arg;
    add_and_wake(&counter, 1);
    wait_gate();
}

void t_spin(void* arg) { /* runs until the process ends */
    (void)arg;
    add_and_wake(&counter, 1);
    for (;;) __asm__ volatile("" ::: "memory");
}

void t_nap(void* arg) { /* sleeps in sleep() until the process ends */
    (void)arg;
    add_and_wake(&counter, 1);
    for (;;) sleep(100);
}

/* Start n threads of each kind that never end by themselves, and wait
 * until all of them run. */
void start_stuck(int n) {
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

/* A joiner that sees the join word cleared sees the thread gone from the
 * count too: procinfo once read the count without the group's lock, and a
 * fast joiner on another hart read it between the kernel's clearing of the
 * word and its dropping of the count (create_join on 3 harts, traced).
 * The joiner spins a while before sleeping, to see the word as soon as it
 * changes. */
static void test_join_count(void) {
    const int slot = my_slot();
    CHECK(slot >= 0, "no procinfo row for the caller");
    for (int round = 0; round < 200; round++) {
        raw_word = 77;
        int tid = tcreate(raw_entry, (void*)1L, raw_stack + sizeof raw_stack, 0, &raw_word);
        CHECK(tid > 0, "tcreate failed in round %d", round);
        int v;
        for (int spin = 0; (v = raw_word) != 0; spin++)
            if (spin > 20000) futex_wait(&raw_word, v, 0);
        struct procinfo pi;
        CHECK(procinfo(slot, &pi) == 0, "procinfo of the caller failed");
        CHECK(pi.threads == 1, "round %d: %d threads after the join word cleared", round, pi.threads);
    }
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
    /* FUTEX_WAIT_UNTIL: an instant on uptime_ns's clock, not a span. */
    const unsigned long at = uptime_ns() + 30 * 1000 * 1000;
    r = futex(&fword, FUTEX_WAIT_UNTIL, 0, at);
    const unsigned long end = uptime_ns();
    CHECK(r == FUTEX_TIMEDOUT, "wait until returned %d", r);
    CHECK(end >= at && end - at < 200000000UL, "a wait until %lu ended at %lu", at, end);
    t0 = uptime_ns();
    r = futex(&fword, FUTEX_WAIT_UNTIL, 0, t0 - 1); /* passed: at once */
    CHECK(r == FUTEX_TIMEDOUT, "wait until a past instant returned %d", r);
    CHECK(uptime_ns() - t0 < 200000000UL, "wait until a past instant took %lu ns", uptime_ns() - t0);
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

static const struct utest tests[] = {
    {"ids", test_ids},
    {"create_join", test_create_join},
    {"join_errors", test_join_errors},
    {"raw_tcreate", test_raw_tcreate},
    {"tcreate_bad", test_tcreate_bad},
    {"join_count", test_join_count},
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
    {"kill_sleepers", test_kill_sleepers},
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

/* threadtest -w PID (exec'd by test_exec): runs as process PID, as its
 * first thread, and waits for the child the process had; exits with the
 * child's status (60: wrong ids, 61: no child). */
static void exec_waiter(int pid) {
    if (getpid() != pid || gettid() != pid) exit(60);
    int st = 0;
    if (wait(&st) < 0) exit(61);
    exit(st);
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
    if (argc == 3 && strcmp(argv[1], "-w") == 0) exec_waiter(atoi(argv[2]));
    if (argc == 3 && strcmp(argv[1], "-s") == 0) sleepers(atoi(argv[2]));
    usage_on_help(argc, argv, "threadtest [-x STATUS | -s N | test-name-prefix...]");
    const struct test_suite suite = {"threadtest", tests, sizeof(tests) / sizeof(tests[0]), test_ids, 0};
    return test_run_all(&suite, argc, argv, 1) ? 1 : 0;
}
