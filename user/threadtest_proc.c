/* user/threadtest_proc.c - threadtest's process-level tests: texit and
 * exit, kill, exec and fork from threads, shared memory, files and cwd,
 * per-thread scheduling, credentials, ps -T, and the out-of-memory rule
 * (the driver and the thread and futex tests are user/threadtest.c). */
#include "kernel/fcntl.h"
#include "kernel/riscv.h"
#include "user/threadtest.h"
#include "user/user.h"

static void t_exit7(void* arg) {
    (void)arg;
    sleep(2);
    texit(7);
}

static void leader_texits(void) {
    CHECK(thread_create(t_exit7, 0) > 0, "create failed");
    texit(0); /* the process lives on in the other thread */
}

void test_texit(void) {
    /* the first thread ends first; the last one's status is the process's */
    CHECK(child_status(leader_texits) == 7, "status is not the last thread's");
}

static void exit_with_stuck(void) {
    start_stuck(4);
    exit(5);
}

void test_exit_all(void) {
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

void test_exit_from_thread(void) {
    CHECK(child_status(exit_from_thread) == 9, "exit from a thread did not end the process with 9");
}

void test_kill(void) {
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

void test_exec(void) {
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

void test_fork_wait(void) {
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

void test_sbrk_shared(void) {
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

void test_files_shared(void) {
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

void test_fd_race(void) {
    int tids[4];
    for (int i = 0; i < 4; i++) CHECK((tids[i] = thread_create(t_fd_churn, 0)) > 0, "create");
    for (int i = 0; i < 4; i++) CHECK(thread_join(tids[i]) == 0, "join");
    CHECK(fd_errors == 0, "%d pipe round trips went wrong with four threads opening and closing", fd_errors);
    int p[2];
    CHECK(pipe(p) == 0 && p[0] == 3 && p[1] == 4, "descriptors leaked: a new pipe got %d %d", p[0], p[1]);
}

void test_sched_per_thread(void) {
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

void test_creds(void) {
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

void test_oom_spares_own_threads(void) {
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

void test_ps_renice_taskset(void) {
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
