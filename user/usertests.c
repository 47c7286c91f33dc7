/* usertests - the in-guest test suite: every system call, good and bad.
 *
 *   usertests [-q] [-h] [name...]
 *
 * Each test runs in its own child process: it either returns (PASS) or
 * calls FAIL, which prints "FAIL name: reason" and exits 99; any other exit
 * status (e.g. -1 when the kernel killed it) is reported by the parent.
 * Tests that must be killed (isolation) run the dangerous access in a
 * grandchild and check its status is -1. The run ends with
 * "usertests: N passed, N failed". -q skips the slow tests (those marked
 * SLOW: disk and inode exhaustion, huge transfers); -h powers the machine
 * off afterwards with halt(failed ? 1 : 0); names select tests by prefix.
 * All files are created in the current directory with a "ut" prefix and
 * removed again. Last, as xv6's usertests do, the pages a process gets
 * from sbrk until it fails are counted again: fewer than before the tests
 * is a failure (sbrk_pages), since the kernel must give back every page
 * its caches do not strictly need.
 */
#include "user/usertests.h"
#include "kernel/fcntl.h"
#include "kernel/fs.h"
#include "kernel/memlayout.h"
#include "kernel/param.h"
#include "kernel/stat.h"
#include "kernel/types.h"
#include "user/user.h"

const char* cur = "";
char buf[8192];
volatile unsigned long g_addr;

/* ---- helpers ----------------------------------------------------------- */

int make_file(const char* name, int n) {
    int fd = open(name, O_CREATE | O_RDWR | O_TRUNC);
    CHECK(fd >= 0, "cannot create %s", name);
    for (int i = 0; i < n; i++) buf[i] = (char)(i * 7 + 3);
    if (n > 0) CHECK(write(fd, buf, n) == n, "short write to %s", name);
    return fd;
}

int file_size(const char* name) {
    struct stat st;
    if (stat(name, &st) < 0) return -1;
    return (int)st.size;
}

static void read_addr(void) { g_addr = *(volatile char*)g_addr; }
static void write_addr(void) { *(volatile char*)g_addr = 1; }

void expect_killed(void (*fn)(void), unsigned long addr, const char* what) {
    g_addr = addr;
    int st = child_status(fn);
    CHECK(st == -1, "%s %p: child exit status %d, expected -1", what, (void*)addr, st);
}

/* The bad addresses every pointer argument is tried with. */
const unsigned long bad_ptrs[] = {
    KERNBASE, KERNBASE + 0x12345, MAXVA, MAXVA + PGSIZE, TRAMPOLINE, 0xffffffffffff0000UL, 0xfffffffffffff000UL};

/* ---- memory ------------------------------------------------------------ */

static void t_sbrk_basic(void) {
    char* a = sbrk(0);
    char* b = sbrk(3 * PGSIZE);
    CHECK(a == b, "sbrk returned %p, break was %p", b, a);
    for (int i = 0; i < 3 * PGSIZE; i += 512) b[i] = (char)i;
    CHECK(sbrk(0) == a + 3 * PGSIZE, "break did not move");
    unsigned long page = PGROUNDUP((unsigned long)a) + PGSIZE;
    CHECK(sbrk(-3 * PGSIZE) == a + 3 * PGSIZE, "shrink returned the wrong old break");
    CHECK(sbrk(0) == a, "break not restored");
    expect_killed(read_addr, page, "read of memory freed by sbrk at");
}

static void t_sbrk_bad(void) {
    char* a = sbrk(0);
    CHECK(sbrk(0x7fffffff) == (char*)-1, "sbrk of 2 GiB succeeded");
    CHECK(sbrk(-(int)(unsigned long)a - PGSIZE) == (char*)-1, "sbrk below zero succeeded");
    CHECK(sbrk(-0x7fffffff - 1) == (char*)-1, "sbrk(INT_MIN) succeeded");
    CHECK(sbrk(0) == a, "failed sbrk moved the break");
}

static void t_sbrk_100mib(void) {
    const int n = 100 << 20;
    char* p = sbrk(n);
    CHECK(p != (char*)-1, "sbrk(100 MiB) failed");
    for (int i = 0; i < n; i += PGSIZE) p[i] = (char)(i >> 12);
    for (int i = 0; i < n; i += PGSIZE) CHECK(p[i] == (char)(i >> 12), "page %d lost its contents", i / PGSIZE);
    CHECK(sbrk(-n) == p + n, "shrink failed");
}

/* Fill memory until sbrk fails; returns the bytes taken. */
static long exhaust_memory(void) {
    long total = 0;
    for (int chunk = 1 << 20; chunk >= PGSIZE; chunk /= 2)
        while (sbrk(chunk) != (char*)-1) total += chunk;
    return total;
}

static void t_oom_fork_exec(void) {
    long total = exhaust_memory();
    CHECK(total > 0, "could not allocate anything");
    int pid = fork();
    if (pid == 0) exit(0);
    if (pid > 0) wait(0);
    CHECK(pid < 0, "fork succeeded with memory exhausted");
    char* argv[] = {"kill", 0}; /* exits 1 if the exec wrongly succeeds */
    CHECK(exec("kill", argv) < 0, "exec returned although memory is exhausted");
    sbrk(-(int)(total > 0x7fffffff ? 0x7fffffff : total));
    pid = fork();
    CHECK(pid >= 0, "fork fails after memory was freed");
    if (pid == 0) exit(0);
    wait(0);
}

static void churn(void) {
    int p[2];
    if (pipe(p) == 0) {
        close(p[0]);
        close(p[1]);
    }
    sbrk(1 << 20);
    sbrk(-(1 << 16));
}

static void t_free_on_exit(void) {
    child_status(churn); /* warm-up: first-use allocations */
    int before = freepages();
    for (int i = 0; i < 5; i++) CHECK(child_status(churn) == 0, "churn child failed");
    int after = freepages();
    CHECK(after == before, "free pages %d before, %d after: %d leaked", before, after, before - after);
}

/* ---- isolation --------------------------------------------------------- */

static void t_kernel_memory(void) {
    expect_killed(read_addr, KERNBASE, "read of kernel memory at");
    expect_killed(write_addr, KERNBASE + 0x10000, "write of kernel memory at");
    expect_killed(read_addr, TRAMPOLINE, "read of the trampoline at");
    expect_killed(write_addr, TRAPFRAME, "write of the trapframe at");
}

static void t_high_addresses(void) {
    expect_killed(read_addr, MAXVA, "read at");
    expect_killed(write_addr, 1UL << 38, "write at");
    expect_killed(read_addr, (1UL << 38) + 12345, "read at");
    expect_killed(read_addr, 1UL << 40, "read at");
    expect_killed(write_addr, 0xffffffffffff0000UL, "write at");
}

static void t_guard_page(void) {
    char local;
    unsigned long below = PGROUNDDOWN((unsigned long)&local) - (USERSTACK - 1) * PGSIZE - 16;
    expect_killed(read_addr, below, "read of the stack guard page at");
    expect_killed(write_addr, below, "write of the stack guard page at");
}

static void t_text_readonly(void) {
    expect_killed(write_addr, (unsigned long)t_text_readonly, "write to program text at");
    expect_killed(write_addr, 0, "write to address");
}

static unsigned short code_buf[4];
static void call_data(void) {
    code_buf[0] = 0x8082; /* c.ret */
    ((void (*)(void))code_buf)();
}

static void t_data_noexec(void) {
    int st = child_status(call_data);
    CHECK(st == -1, "jumping into data returned status %d", st);
}

static void t_bad_pointers(void) {
    int fd = make_file("utbad", 100);
    close(fd);
    fd = open("utbad", O_RDWR);
    for (int i = 0; i < NBAD; i++) {
        void* p = (void*)bad_ptrs[i];
        CHECK(open(p, O_RDONLY) < 0, "open(%p)", p);
        CHECK(write(fd, p, 10) < 0, "write from %p", p);
        CHECK(read(fd, p, 10) < 0, "read into %p", p);
        CHECK(fstat(fd, p) < 0, "fstat into %p", p);
        CHECK(pipe(p) < 0, "pipe into %p", p);
        CHECK(exec(p, 0) < 0, "exec(%p)", p);
        CHECK(mknod(p, 1, 0) < 0, "mknod(%p)", p);
        CHECK(unlink(p) < 0 && link(p, "x") < 0 && link("utbad", p) < 0, "link/unlink %p", p);
        CHECK(mkdir(p) < 0 && chdir(p) < 0, "mkdir/chdir %p", p);
        CHECK(sched_get(p, 16) < 0 && sched_set(p) < 0, "sched_get/set %p", p);
        CHECK(procinfo(0, p) < 0, "procinfo into %p", p);
        char* argv[] = {"echo", p, 0};
        CHECK(exec("echo", argv) < 0, "exec with argv[1] = %p", p);
    }
    CHECK(read(fd, (void*)0x10, 10) < 0, "read into program text succeeded");
    close(fd);
    unlink("utbad");
}

/* ---- pipes ------------------------------------------------------------- */

static void t_pipe_basic(void) {
    int p[2];
    CHECK(pipe(p) == 0, "pipe");
    CHECK(write(p[1], "hello", 5) == 5 && read(p[0], buf, 10) == 5 && memcmp(buf, "hello", 5) == 0, "round trip");
    CHECK(write(p[0], "x", 1) < 0 && read(p[1], buf, 1) < 0, "wrong-direction use succeeded");
    close(p[1]);
    CHECK(read(p[0], buf, 1) == 0, "no EOF after the write end closed");
    close(p[0]);
    CHECK(pipe(p) == 0, "pipe");
    close(p[0]);
    CHECK(write(p[1], "x", 1) < 0, "write with no reader succeeded");
    close(p[1]);
}

/* Move total bytes from nw writers to nr readers through one pipe. */
static void pipe_transfer(int nw, int nr, int total) {
    int p[2], res[2];
    CHECK(pipe(p) == 0 && pipe(res) == 0, "pipe");
    for (int w = 0; w < nw; w++) {
        if (fork() == 0) {
            for (int i = 0; i < 1000; i++) buf[i] = (char)(i % 251);
            for (int left = total / nw; left > 0;) {
                int n = write(p[1], buf, left < 1000 ? left : 1000);
                if (n <= 0) exit(1);
                left -= n;
            }
            exit(0);
        }
    }
    for (int r = 0; r < nr; r++) {
        if (fork() == 0) {
            close(p[1]);
            long got = 0, n;
            while ((n = read(p[0], buf, 777)) > 0) got += n;
            write(res[1], &got, sizeof(got));
            exit(0);
        }
    }
    close(p[0]), close(p[1]), close(res[1]);
    long sum = 0, got;
    while (read(res[0], &got, sizeof(got)) == sizeof(got)) sum += got;
    close(res[0]);
    for (int i = 0; i < nw + nr; i++) {
        int st;
        CHECK(wait(&st) > 0 && st == 0, "a pipe worker failed (%d)", st);
    }
    CHECK(sum == (total / nw) * nw, "moved %d of %d bytes", (int)sum, total);
}

static void t_pipe_large(void) { pipe_transfer(1, 1, 1 << 20); }
static void t_pipe_many(void) { pipe_transfer(4, 3, 400000); }
static void t_pipe_huge(void) { pipe_transfer(2, 2, 20 << 20); }

/* ---- processes --------------------------------------------------------- */

static void t_fork_wait(void) {
    int codes[] = {0, 1, 42, -7};
    for (int i = 0; i < 4; i++) {
        int pid = fork();
        CHECK(pid >= 0, "fork");
        if (pid == 0) exit(codes[i]);
        int st = 12345;
        CHECK(wait(&st) == pid && st == codes[i], "exit(%d) reported as %d", codes[i], st);
    }
    CHECK(wait(0) < 0, "wait with no children succeeded");
    int me = getpid(), pid = fork();
    if (pid == 0) exit(getpid() != me && getpid() > 0 ? 0 : 1);
    int st;
    CHECK(wait(&st) == pid && st == 0 && me > 0, "getpid");
    pid = fork();
    if (pid == 0) exit(3);
    CHECK(wait((int*)KERNBASE) < 0, "wait wrote status to a kernel address");
    while (wait(0) > 0) {}
}

static void spin(void) {
    for (;;) g_addr++;
}
static void nap(void) { sleep(1000); }
static void block_read(void) {
    int p[2];
    pipe(p);
    read(p[0], buf, 1);
}

static void t_kill(void) {
    void (*victims[])(void) = {spin, nap, block_read};
    for (int i = 0; i < 3; i++) {
        int pid = fork();
        CHECK(pid >= 0, "fork");
        if (pid == 0) {
            victims[i]();
            exit(0);
        }
        sleep(1);
        int t0 = uptime();
        CHECK(kill(pid) == 0, "kill");
        int st;
        CHECK(wait(&st) == pid && st == -1, "victim %d exit status %d", i, st);
        CHECK(uptime() - t0 < 50, "kill took %d ticks", uptime() - t0);
    }
    CHECK(kill(0) < 0 && kill(-5) < 0 && kill(99999) < 0, "kill of a missing process");
}

static void t_fork_full(void) {
    int p[2], n = 0, pid;
    CHECK(pipe(p) == 0, "pipe");
    while ((pid = fork()) > 0) n++;
    if (pid == 0) {
        close(p[1]);
        read(p[0], buf, 1);
        exit(0);
    }
    CHECK(n > 5 && n < NPROC, "forked %d children before failing", n);
    close(p[1]);
    for (int i = 0; i < n; i++) CHECK(wait(0) > 0, "wait");
    CHECK((pid = fork()) >= 0, "fork fails after recovery");
    if (pid == 0) exit(0);
    wait(0);
}

static int pid_exists(int pid) {
    struct procinfo pi;
    for (int i = 0; i < NPROC; i++)
        if (procinfo(i, &pi) == 0 && pi.pid == pid) return 1;
    return 0;
}

static void t_orphans(void) {
    int p[2];
    CHECK(pipe(p) == 0, "pipe");
    int pid = fork();
    if (pid == 0) {
        int g = fork();
        if (g == 0) {
            sleep(3);
            exit(0);
        }
        write(p[1], &g, sizeof(g));
        exit(0);
    }
    int g = 0;
    CHECK(read(p[0], &g, sizeof(g)) == sizeof(g) && g > 0, "grandchild pid");
    wait(0);
    int i = 0;
    while (pid_exists(g) && i++ < 100) sleep(1);
    CHECK(!pid_exists(g), "orphan %d never reaped", g);
}

static int echo_output(char** argv);

static void t_exec(void) {
    char* ok[] = {"echo", "a", "b", 0};
    int n = echo_output(ok);
    CHECK(n == 4 && memcmp(buf, "a b\n", 4) == 0, "echo printed %d bytes (-1: it did not exit 0)", n);
    CHECK(exec("utnope", ok) < 0 && exec("README.md", ok) < 0, "exec of a non-program");
    static char* many[MAXARG + 3];
    for (int i = 0; i < MAXARG + 2; i++) many[i] = "x";
    CHECK(exec("echo", many) < 0, "exec with %d arguments", MAXARG + 2);
}

/* Run echo with argv in a child, its output read into buf; returns the
 * byte count, or -1 if echo did not run (the exec failed). */
static int echo_output(char** argv) {
    int p[2];
    CHECK(pipe(p) == 0, "pipe");
    int pid = fork();
    if (pid == 0) {
        close(1);
        dup(p[1]);
        exec("echo", argv);
        exec("/echo", argv);
        exit(5);
    }
    close(p[1]);
    int n = 0, r, st;
    while (n < (int)sizeof(buf) && (r = read(p[0], buf + n, sizeof(buf) - n)) > 0) n += r;
    close(p[0]);
    CHECK(wait(&st) == pid, "wait for echo");
    return st == 0 ? n : -1;
}

/* exec's argument strings and argv array share the new stack's top page:
 * what fits arrives intact (3 strings of 1,200 bytes), what does not
 * (4 of them) fails the exec; 31 arguments are accepted, 32 are not. */
static void t_exec_args(void) {
    static char big[4][1201];
    for (int i = 0; i < 4; i++) {
        memset(big[i], 'a' + i, 1200);
        big[i][1200] = 0;
    }
    char* three[] = {"echo", big[0], big[1], big[2], 0};
    int n = echo_output(three);
    CHECK(n == 3603, "echo of 3 x 1200 bytes printed %d", n);
    int count[256] = {0};
    for (int i = 0; i < n; i++) count[(unsigned char)buf[i]]++;
    CHECK(count['a'] == 1200 && count['b'] == 1200 && count['c'] == 1200 && count[' '] == 2 && count['\n'] == 1,
          "echo's bytes: a %d b %d c %d", count['a'], count['b'], count['c']);
    char* four[] = {"echo", big[0], big[1], big[2], big[3], 0};
    CHECK(exec("echo", four) < 0, "exec with 4,800 bytes of arguments");
    static char* many[MAXARG + 1];
    many[0] = "echo";
    for (int i = 1; i < MAXARG - 1; i++) many[i] = "x";
    n = echo_output(many); /* 31 arguments */
    CHECK(n == 60 && buf[0] == 'x' && buf[58] == 'x' && buf[59] == '\n', "echo of 30 x printed %d", n);
    many[MAXARG - 1] = "x";
    CHECK(exec("echo", many) < 0, "exec with %d arguments", MAXARG);
}

static void t_time(void) {
    int t0 = uptime();
    unsigned long n0 = uptime_ns();
    CHECK(sleep(0) == 0 && sleep(3) == 0, "sleep");
    int t1 = uptime();
    unsigned long n1 = uptime_ns();
    CHECK(t1 - t0 >= 3 && t1 - t0 < 100, "slept %d ticks for 3", t1 - t0);
    CHECK(n1 > n0 && n1 - n0 >= 200000000UL, "uptime_ns moved %d ms", (int)((n1 - n0) / 1000000));
}

static void t_sched_calls(void) {
    int me = getpid();
    CHECK(setpriority(me, 5) == 0 && getpriority(me) == 5, "set/get own priority");
    CHECK(setpriority(me, 0) == 0 && getpriority(0) == 0, "restore priority");
    CHECK(setpriority(99999, 1) < 0 && setpriority(me, 100) < 0, "bad setpriority");
    char name[32];
    CHECK(sched_get(name, sizeof(name)) == 0 && strlen(name) > 0, "sched_get");
    CHECK(sched_set("utnope") < 0, "unknown policy accepted");
    CHECK(sched_set(name) == 0, "re-selecting the current policy failed");
    struct procinfo pi;
    CHECK(procinfo(-1, &pi) < 0 && procinfo(100000, &pi) < 0, "procinfo index out of range");
    CHECK(freepages() > 0, "freepages");
}

/* A system call by number, for one the library has no stub for. */
static long raw_call(long num) {
    register long a0 asm("a0") = 0;
    register long a7 asm("a7") = num;
    asm volatile("ecall" : "+r"(a0) : "r"(a7) : "memory");
    return a0;
}

/* errno(): why the last failed call failed (lib/abi/errno.h); a successful
 * call leaves it alone; a new process starts with 0. */
static void t_errno(void) {
    CHECK(errno() == 0, "a new process has errno %d", errno());
    CHECK(open("utnope", O_RDONLY) < 0 && errno() == ENOENT, "open missing: errno %d", errno());
    CHECK(getpid() > 0 && errno() == ENOENT, "a successful call changed errno to %d", errno());
    CHECK(mkdir("utedir") == 0 && mkdir("utedir") < 0 && errno() == EEXIST, "mkdir twice: errno %d", errno());
    close(make_file("utedir/f", 1));
    CHECK(unlink("utedir") < 0 && errno() == ENOTEMPTY, "unlink full dir: errno %d", errno());
    CHECK(open("utedir", O_RDWR) < 0 && errno() == EISDIR, "open dir for writing: errno %d", errno());
    CHECK(open("utedir/f/x", O_RDONLY) < 0 && errno() == ENOTDIR, "path through a file: errno %d", errno());
    CHECK(unlink("utedir/f") == 0 && unlink("utedir") == 0, "clean up utedir");
    CHECK(close(-1) < 0 && errno() == EBADF, "close(-1): errno %d", errno());
    CHECK(read(NOFILE, buf, 1) < 0 && errno() == EBADF, "read of a bad fd: errno %d", errno());
    for (int i = 0; i < NBAD; i++) {
        CHECK(open((const char*)bad_ptrs[i], O_RDONLY) < 0 && errno() == EFAULT, "open(%p): errno %d",
              (void*)bad_ptrs[i], errno());
    }
    CHECK(pipe((int*)bad_ptrs[0]) < 0 && errno() == EFAULT, "pipe into a bad address: errno %d", errno());
    char path[MAXPATH + 20];
    memset(path, 'a', sizeof(path) - 1);
    path[sizeof(path) - 1] = 0;
    CHECK(open(path, O_RDONLY) < 0 && errno() == ENAMETOOLONG, "overlong path: errno %d", errno());
    CHECK(kill(99999) < 0 && errno() == ESRCH, "kill of no process: errno %d", errno());
    CHECK(wait(0) < 0 && errno() == ECHILD, "wait without children: errno %d", errno());
    char* argv[] = {"utexec", 0};
    CHECK(exec("/README.md", argv) < 0 && errno() == EACCES, "exec of a 0644 file: errno %d", errno());
    close(make_file("utexec", 100));
    CHECK(chmod("utexec", 0755) == 0, "chmod utexec");
    CHECK(exec("utexec", argv) < 0 && errno() == ENOEXEC, "exec of an executable non-ELF: errno %d", errno());
    unlink("utexec");
    CHECK(raw_call(SYS_MAX + 1) == -1 && errno() == ENOSYS, "unknown call: errno %d", errno());
    CHECK(raw_call(SYS_errno) == ENOSYS, "the raw call returned %ld", raw_call(SYS_errno));
    CHECK(strcmp(strerror(EACCES), "permission denied") == 0 &&
              strcmp(strerror(ENOENT), "no such file or directory") == 0,
          "strerror text");
}

/* ---- driver ------------------------------------------------------------ */

enum { QUICK = 0, SLOW = 1 };
static const struct test {
    const char* name;
    void (*fn)(void);
    int slow;
} tests[] = {
    {"sbrk_basic", t_sbrk_basic, QUICK},
    {"sbrk_bad", t_sbrk_bad, QUICK},
    {"sbrk_100mib", t_sbrk_100mib, QUICK},
    {"oom_fork_exec", t_oom_fork_exec, QUICK},
    {"free_on_exit", t_free_on_exit, QUICK},
    {"kernel_memory", t_kernel_memory, QUICK},
    {"high_addresses", t_high_addresses, QUICK},
    {"guard_page", t_guard_page, QUICK},
    {"text_readonly", t_text_readonly, QUICK},
    {"data_noexec", t_data_noexec, QUICK},
    {"bad_pointers", t_bad_pointers, QUICK},
    {"file_rw", t_file_rw, QUICK},
    {"bad_fds", t_bad_fds, QUICK},
    {"truncate", t_truncate, QUICK},
    {"offsets", t_offsets, QUICK},
    {"max_file", t_max_file, QUICK},
    {"short_write", t_short_write, QUICK},
    {"nested_dirs", t_nested_dirs, QUICK},
    {"unlink_open", t_unlink_open, QUICK},
    {"names14", t_names, QUICK},
    {"dirs", t_dirs, QUICK},
    {"links", t_links, QUICK},
    {"mknod", t_mknod, QUICK},
    {"concurrent_dir", t_concurrent_dir, QUICK},
    {"fd_limit", t_fd_limit, QUICK},
    {"pipe_basic", t_pipe_basic, QUICK},
    {"pipe_large", t_pipe_large, QUICK},
    {"pipe_many", t_pipe_many, QUICK},
    {"fork_wait", t_fork_wait, QUICK},
    {"kill", t_kill, QUICK},
    {"fork_full", t_fork_full, QUICK},
    {"orphans", t_orphans, QUICK},
    {"exec", t_exec, QUICK},
    {"exec_args", t_exec_args, QUICK},
    {"time", t_time, QUICK},
    {"sched_calls", t_sched_calls, QUICK},
    {"errno", t_errno, QUICK},
    {"pipe_huge", t_pipe_huge, SLOW},
    {"disk_full", t_disk_full, SLOW},
    {"inodes_full", t_inodes_full, SLOW},
};

/* Pages sbrk gets before it fails, given back at once (xv6's usertests
 * count them before and after the run: every page must come back, buffer
 * cache or not). */
static long sbrk_pages(void) {
    char* start = sbrk(0);
    long n = 0;
    while (sbrk(1 << 20) != (char*)-1) n += 256;
    while (sbrk(4096) != (char*)-1) n++;
    sbrk(-(int)(sbrk(0) - start));
    return n;
}

/* Run one test in a child; returns 1 if it passed. */
static int run_test(const struct test* t) {
    cur = t->name;
    int pid = fork();
    if (pid < 0) {
        printf("FAIL %s: fork failed\n", t->name);
        return 0;
    }
    if (pid == 0) {
        t->fn();
        exit(0);
    }
    int st = -12345, w;
    while ((w = wait(&st)) >= 0 && w != pid) {}
    if (st == 0) printf("PASS %s\n", t->name);
    else if (st != kFailStatus) printf("FAIL %s: test process exited with status %d\n", t->name, st);
    return st == 0;
}

int main(int argc, char* argv[]) {
    int quick = 0, do_halt = 0, first = 1;
    for (; first < argc && argv[first][0] == '-'; first++) {
        if (strcmp(argv[first], "-q") == 0) quick = 1;
        else if (strcmp(argv[first], "-h") == 0) do_halt = 1;
        else {
            fprintf(2, "usage: usertests [-q] [-h] [test-name-prefix...]\n");
            exit(2);
        }
    }
    printf("usertests: starting (%s mode)\n", quick ? "quick" : "full");
    int passed = 0, failed = 0;
    long free0 = sbrk_pages();
    for (unsigned i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
        if ((quick && tests[i].slow) || !test_selected(tests[i].name, argc, argv, first)) continue;
        if (run_test(&tests[i])) passed++;
        else failed++;
    }
    /* A test's orphaned children may still be waiting for init to reap them
     * (their kernel stacks and page tables go then): a real loss persists. */
    long free1 = sbrk_pages();
    for (int tries = 0; free1 < free0 && tries < 10; tries++) {
        sleep(2);
        free1 = sbrk_pages();
    }
    if (free1 >= free0) {
        printf("PASS sbrk_pages %ld before, %ld after\n", free0, free1);
        passed++;
    } else {
        printf("FAIL sbrk_pages: sbrk got %ld pages before the tests, %ld after: %ld lost\n", free0, free1,
               free0 - free1);
        failed++;
    }
    printf("usertests: %d passed, %d failed\n", passed, failed);
    if (do_halt) halt(failed ? 1 : 0);
    return failed ? 1 : 0;
}
