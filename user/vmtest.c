/* user/vmtest.c - virtual memory in the guest (docs/memory.md): the
 * page-fault path, the address-space map, the lazy heap.
 *
 *   vmtest [test-name-prefix...]
 *
 * Each test runs in a child and prints PASS name / FAIL name: why; a test
 * passes only if every page came back afterwards (freepages). The fault
 * tests expect the child killed (status -1); the console lines saying where
 * and why are checked by tests/guest/vm_tests.py. `vmtest -t N` runs the
 * threads case with N threads (8 on 8 harts); `vmtest -m` touches 32 heap
 * pages, then execs `ps -m`, whose row for this process (faults are kept
 * across exec, as in Linux) must show them. */
#include "kernel/fcntl.h"
#include "kernel/memlayout.h"
#include "kernel/param.h"
#include "kernel/riscv.h"
#include "user/user.h"
#include "user/usertests.h"

const char* cur = "";

static int nthreads = 4;
int main(int argc, char* argv[]);

/* This process's fault counters (procinfo of its own first thread). */
static unsigned long faults(unsigned long* major) {
    struct procinfo pi;
    for (int i = 0; procinfo(i, &pi) >= 0; i++) {
        if (pi.pid == getpid() && pi.tid == getpid()) {
            if (major) *major = pi.majflt;
            return pi.minflt;
        }
    }
    FAIL("no procinfo row for pid %d", getpid());
}

/* ---- faults that kill ---------------------------------------------------- */

static volatile unsigned long target;

static void read_target(void) {
    volatile char c = *(volatile char*)target;
    (void)c;
    printf("vmtest: read of %p did not fault\n", (void*)target);
}

static void write_target(void) {
    *(volatile char*)target = 1;
    printf("vmtest: write to %p did not fault\n", (void*)target);
}

static void jump_target(void) {
    ((void (*)(void))target)();
    printf("vmtest: jump to %p did not fault\n", (void*)target);
}

static void expect_kill(void (*fn)(void), unsigned long addr, const char* what) {
    target = addr;
    int st = child_status(fn);
    CHECK(st == -1, "%s %p: status %d, expected -1 (killed)", what, (void*)addr, st);
}

static void t_fault_kernel(void) {
    expect_kill(read_target, KERNBASE, "read of the kernel at");
    expect_kill(write_target, KERNBASE + 0x1000, "write to the kernel at");
    expect_kill(read_target, TRAMPOLINE, "read of the trampoline at");
    expect_kill(write_target, TRAPFRAME, "write to the trapframe at");
    expect_kill(jump_target, TRAMPOLINE, "jump to the trampoline at");
    expect_kill(read_target, MAXVA + PGSIZE, "read past the address space at");
}

/* The stack guard page is just below the stack page holding sp. */
static void t_fault_guard(void) {
    char here;
    unsigned long guard = PGROUNDDOWN((unsigned long)&here) - PGSIZE;
    expect_kill(read_target, guard, "read of the stack guard at");
    expect_kill(write_target, guard + 100, "write to the stack guard at");
}

static void t_fault_text(void) { expect_kill(write_target, (unsigned long)main, "write to program text at"); }

static void t_fault_heap_exec(void) {
    char* p = sbrk(PGSIZE);
    p[0] = 0x13; /* a nop (addi x0, x0, 0) would run: the heap is not executable */
    p[1] = 0;
    p[2] = 0;
    p[3] = 0;
    expect_kill(jump_target, (unsigned long)p, "jump into the heap at");
}

static void t_fault_unmapped(void) {
    char* top = sbrk(0);
    expect_kill(read_target, PGROUNDUP((unsigned long)top) + 16 * PGSIZE, "read above the break at");
    expect_kill(write_target, 0x40000000UL, "write far above the break at");
}

/* ---- the lazy heap --------------------------------------------------------- */

/* sbrk promises the pages (they count as taken) and maps none; each first
 * touch is one minor fault; shrinking gives every page back. */
static void t_lazy_sbrk(void) {
    const int n = 64;
    int free0 = freepages();
    unsigned long f0 = faults(0);
    char* p = sbrk(n * PGSIZE);
    CHECK(p != (char*)-1, "sbrk");
    int free1 = freepages();
    CHECK(free0 - free1 >= n && free0 - free1 <= n + 2, "sbrk of %d pages took %d", n, free0 - free1);
    unsigned long f1 = faults(0);
    CHECK(f1 - f0 <= 2, "sbrk faulted %lu pages in: it should map none", f1 - f0);
    for (int i = 0; i < n; i++) CHECK(p[i * PGSIZE + 7] == 0, "untouched heap page %d not zero", i);
    unsigned long f2 = faults(0);
    CHECK(f2 - f1 >= n && f2 - f1 <= n + 2, "%d first touches made %lu faults", n, f2 - f1);
    for (int i = 0; i < n; i++) p[i * PGSIZE] = (char)i;
    CHECK(faults(0) - f2 <= 1, "a second touch faulted again");
    for (int i = 0; i < n; i++) CHECK(p[i * PGSIZE] == (char)i, "page %d lost its contents", i);
    CHECK(sbrk(-n * PGSIZE) == p + n * PGSIZE, "shrink");
    CHECK(freepages() >= free0 - 1, "shrink gave back %d of %d pages", freepages() - free1, free0 - free1);
}

/* exec loads only the pages of a segment that hold file bytes: the whole
 * bss pages above them are lazy, each first touch (a read too) one minor
 * fault, so a big bss costs what is touched. No test touches this array
 * before this one, and each test runs in a fork of an untouched parent. */
static char lazy_bss[64 * PGSIZE] __attribute__((aligned(PGSIZE)));

static void t_lazy_bss(void) {
    const int n = sizeof lazy_bss / PGSIZE;
    unsigned long f0 = faults(0);
    for (int i = 0; i < n; i++) CHECK(lazy_bss[i * PGSIZE + 5] == 0, "bss page %d not zero", i);
    unsigned long f1 = faults(0);
    CHECK(f1 - f0 >= n && f1 - f0 <= n + 2, "%d first reads of bss made %lu faults: exec mapped it", n, f1 - f0);
    for (int i = 0; i < n; i++) lazy_bss[i * PGSIZE] = (char)(i + 1);
    CHECK(faults(0) - f1 <= 1, "a write after the read faulted again");
    for (int i = 0; i < n; i++) CHECK(lazy_bss[i * PGSIZE] == (char)(i + 1), "bss page %d lost its contents", i);
}

/* Half touched, then shrunk: the touched pages are freed, the promises
 * for the others dropped, and memory freed by sbrk cannot be read. */
static void t_lazy_shrink_half(void) {
    const int n = 32;
    int free0 = freepages();
    char* p = sbrk(n * PGSIZE);
    for (int i = 0; i < n; i += 2) p[i * PGSIZE] = 1;
    CHECK(sbrk(-n * PGSIZE) == p + n * PGSIZE, "shrink");
    CHECK(freepages() >= free0 - 1, "%d pages not back", free0 - freepages());
    expect_kill(read_target, (unsigned long)p, "read of freed heap at");
    expect_kill(read_target, (unsigned long)p + PGSIZE, "read of freed, never touched heap at");
    char* q = sbrk(n * PGSIZE); /* grows again, zeroed */
    CHECK(q == p, "regrow at %p, not %p", q, p);
    for (int i = 0; i < n; i++) CHECK(q[i * PGSIZE] == 0, "regrown page %d not zero", i);
}

/* The kernel's copies fault untouched heap pages in: read() into one and
 * write() out of one (zeroes) work without the program touching them. */
static void t_lazy_syscalls(void) {
    char* p = sbrk(5 * PGSIZE);
    int fd = open("vm.tmp", O_CREATE | O_RDWR | O_TRUNC);
    CHECK(fd >= 0, "create");
    CHECK(write(fd, p, 2 * PGSIZE) == 2 * PGSIZE, "write() out of untouched heap");
    CHECK(write(fd, "lazy", 4) == 4, "write");
    close(fd);
    fd = open("vm.tmp", O_RDONLY);
    CHECK(read(fd, p + 2 * PGSIZE + 100, 2 * PGSIZE + 4) == 2 * PGSIZE + 4, "read() into untouched heap");
    close(fd);
    CHECK(memcmp(p + 4 * PGSIZE + 100, "lazy", 4) == 0, "read() data");
    for (int i = 0; i < 2 * PGSIZE; i += 512) CHECK(p[2 * PGSIZE + 100 + i] == 0, "zeroes read back");
    CHECK(unlink("vm.tmp") == 0, "unlink");
}

/* fork with untouched heap pages: the child's are promised too, and are
 * its own (zeroed) when it touches them. */
static char* fork_heap;
static void touch_fork_heap(void) {
    for (int i = 0; i < 16; i++) {
        if (fork_heap[i * PGSIZE] != (i < 8 ? 'p' : 0)) exit(3);
        fork_heap[i * PGSIZE] = 'c';
    }
    exit(0);
}

static void t_lazy_fork(void) {
    fork_heap = sbrk(16 * PGSIZE);
    for (int i = 0; i < 8; i++) fork_heap[i * PGSIZE] = 'p';
    CHECK(child_status(touch_fork_heap) == 0, "the child saw the wrong heap");
    for (int i = 0; i < 16; i++)
        CHECK(fork_heap[i * PGSIZE] == (i < 8 ? 'p' : 0), "the child's write is in the parent");
}

/* sbrk's admission is unchanged: an impossible request fails at once. */
static void t_lazy_admission(void) {
    char* a = sbrk(0);
    CHECK(sbrk(0x7fffffff) == (char*)-1, "sbrk of 2 GiB succeeded");
    CHECK(sbrk(0) == a, "failed sbrk moved the break");
    int free0 = freepages();
    CHECK(sbrk((free0 + 1000) * PGSIZE) == (char*)-1, "sbrk of more than is free succeeded");
}

/* Take every page sbrk will give, then touch them all: each first touch
 * finds its page and its page-table page promised (no fault-time kill). */
static void t_lazy_fill_all(void) {
    char* start = sbrk(0);
    long n = 0;
    while (sbrk(1 << 20) != (char*)-1) n += 256;
    while (sbrk(PGSIZE) != (char*)-1) n++;
    CHECK(n > 1000, "sbrk got only %ld pages", n);
    for (long i = 0; i < n; i++) start[i * PGSIZE] = (char)i;
    for (long i = 0; i < n; i += 97) CHECK(start[i * PGSIZE] == (char)i, "page %ld lost its contents", i);
    CHECK(sbrk(-(int)(n * PGSIZE)) == start + n * PGSIZE, "shrink");
}

/* ---- threads fault the same fresh pages at once ------------------------------ */

enum { kSharedPages = 64 };
static char* volatile shared_heap;
static volatile int started, done;

static void toucher(void* arg) {
    int me = (int)(unsigned long)arg;
    __atomic_fetch_add(&started, 1, __ATOMIC_ACQ_REL);
    while (__atomic_load_n(&started, __ATOMIC_ACQUIRE) < nthreads) {}
    for (int i = 0; i < kSharedPages; i++) {
        volatile int* w = (volatile int*)(shared_heap + i * PGSIZE);
        __atomic_fetch_add(&w[0], 1, __ATOMIC_ACQ_REL);
        w[1 + me] = me + 1;
    }
    __atomic_fetch_add(&done, 1, __ATOMIC_ACQ_REL);
}

static void t_threads_fault(void) {
    shared_heap = sbrk(kSharedPages * PGSIZE);
    unsigned long f0 = faults(0);
    int tids[32];
    for (int t = 0; t < nthreads; t++) {
        tids[t] = thread_create(toucher, (void*)(unsigned long)t);
        CHECK(tids[t] > 0, "thread %d", t);
    }
    for (int t = 0; t < nthreads; t++) CHECK(thread_join(tids[t]) == 0, "join");
    for (int i = 0; i < kSharedPages; i++) {
        int* w = (int*)(shared_heap + i * PGSIZE);
        CHECK(w[0] == nthreads, "page %d counted %d of %d touches: a thread got its own page", i, w[0], nthreads);
        for (int t = 0; t < nthreads; t++) CHECK(w[1 + t] == t + 1, "page %d lost thread %d's write", i, t);
    }
    unsigned long f = faults(0) - f0;
    /* one per page, plus the threads' own lazily allocated stacks (16 KiB each) */
    CHECK(f >= kSharedPages && f <= kSharedPages + 6 * nthreads, "%lu faults for %d pages", f, kSharedPages);
}

/* ---- copy-on-write fork ---------------------------------------------------- */

enum { kCowPages = 64 };
static char* cow;

static void fill_cow(char c) {
    cow = sbrk(kCowPages * PGSIZE);
    CHECK(cow != (char*)-1, "sbrk");
    for (int i = 0; i < kCowPages; i++) memset(cow + i * PGSIZE, c, 64);
}

static int cow_is(char c) {
    for (int i = 0; i < kCowPages; i++) {
        for (int k = 0; k < 64; k += 8) {
            if (cow[i * PGSIZE + k] != c) return 0;
        }
    }
    return 1;
}

/* The child reads the parent's pages without faulting (they are shared),
 * and its first write to each is one fault (the copy); the parent's pages
 * keep their contents. fork still takes the child's size from the free
 * count (each shared page is promised its copy), and every page comes back. */
static void cow_child(void) {
    unsigned long f0 = faults(0);
    if (!cow_is('p')) exit(3);
    unsigned long f1 = faults(0);
    for (int i = 0; i < kCowPages; i += 2) cow[i * PGSIZE] = 'c';
    unsigned long f2 = faults(0);
    if (f1 - f0 > 2) exit(4);                                            /* reads copied nothing */
    if (f2 - f1 < kCowPages / 2 || f2 - f1 > kCowPages / 2 + 2) exit(5); /* one fault per page written */
    exit(0);
}

static void t_cow_fork(void) {
    fill_cow('p');
    int free0 = freepages();
    int pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) cow_child();
    int st = -12345;
    CHECK(wait(&st) == pid, "wait");
    CHECK(st == 0, "child status %d (3: wrong contents, 4: reads faulted, 5: not one fault per written page)", st);
    CHECK(cow_is('p'), "the child's writes reached the parent");
    CHECK(freepages() == free0, "%d pages not back after the child", free0 - freepages());
}

/* The parent writes after fork: the child still sees the old contents. */
static void t_cow_parent_writes(void) {
    fill_cow('a');
    int go[2], back[2];
    CHECK(pipe(go) == 0 && pipe(back) == 0, "pipe");
    int pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        char c;
        if (read(go[0], &c, 1) != 1) exit(6);
        exit(cow_is('a') ? 0 : 3);
    }
    for (int i = 0; i < kCowPages; i++) memset(cow + i * PGSIZE, 'b', 64);
    CHECK(write(go[1], "x", 1) == 1, "write");
    int st = -1;
    CHECK(wait(&st) == pid && st == 0, "the child saw the parent's writes (status %d)", st);
    CHECK(cow_is('b'), "the parent lost its writes");
    close(go[0]);
    close(go[1]);
    close(back[0]);
    close(back[1]);
}

/* A system call writing into a shared page (read() in the child) copies
 * it too: the parent's page is untouched. */
static void t_cow_syscall(void) {
    fill_cow('p');
    int fd = open("vm.cow", O_CREATE | O_RDWR | O_TRUNC);
    CHECK(fd >= 0 && write(fd, "kernel", 6) == 6, "create");
    close(fd);
    int pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        int f = open("vm.cow", O_RDONLY);
        if (f < 0 || read(f, cow + 5 * PGSIZE, 6) != 6) exit(3);
        exit(memcmp(cow + 5 * PGSIZE, "kernel", 6) == 0 ? 0 : 4);
    }
    int st = -1;
    CHECK(wait(&st) == pid && st == 0, "read() in the child: status %d", st);
    CHECK(cow_is('p'), "the child's read() wrote the parent's page");
    CHECK(unlink("vm.cow") == 0, "unlink");
}

/* Eight processes sharing the same pages all write them at once (on
 * several harts): each ends with its own copy, the parent's is untouched,
 * and every page comes back. */
static void t_cow_many_writers(void) {
    fill_cow('p');
    int free0 = freepages();
    int pids[8];
    for (int k = 0; k < 8; k++) {
        pids[k] = fork();
        CHECK(pids[k] >= 0, "fork %d", k);
        if (pids[k] == 0) {
            char me = (char)('0' + k);
            for (int round = 0; round < 4; round++) {
                for (int i = 0; i < kCowPages; i++) memset(cow + i * PGSIZE, me, 64);
                if (!cow_is(me)) exit(3);
            }
            exit(0);
        }
    }
    for (int k = 0; k < 8; k++) {
        int st = -1;
        CHECK(wait(&st) > 0 && st == 0, "a writer saw another's write (status %d)", st);
    }
    CHECK(cow_is('p'), "the writers reached the parent's pages");
    CHECK(freepages() == free0, "%d pages not back after the writers", free0 - freepages());
}

/* After fork the child makes threads, which all write the shared pages at
 * once: the child's pages become its own before its second thread runs
 * (docs/memory.md), so every write lands in the child, none in the parent. */
static void cow_writer(void* arg) {
    int me = (int)(unsigned long)arg;
    __atomic_fetch_add(&started, 1, __ATOMIC_ACQ_REL);
    while (__atomic_load_n(&started, __ATOMIC_ACQUIRE) < nthreads) {}
    for (int i = 0; i < kCowPages; i++) cow[i * PGSIZE + 64 + me] = (char)(me + 1);
}

static void t_cow_threads(void) {
    fill_cow('p');
    int pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        int tids[32];
        for (int t = 0; t < nthreads; t++) {
            tids[t] = thread_create(cow_writer, (void*)(unsigned long)t);
            if (tids[t] <= 0) exit(3);
        }
        for (int t = 0; t < nthreads; t++) {
            if (thread_join(tids[t]) != 0) exit(4);
        }
        for (int i = 0; i < kCowPages; i++) {
            for (int t = 0; t < nthreads; t++) {
                if (cow[i * PGSIZE + 64 + t] != (char)(t + 1)) exit(5);
            }
        }
        exit(cow_is('p') ? 0 : 6);
    }
    int st = -1;
    CHECK(wait(&st) == pid && st == 0, "threads writing shared pages: status %d", st);
    for (int i = 0; i < kCowPages; i++)
        CHECK(cow[i * PGSIZE + 64] == 0, "a child's thread wrote the parent's page %d", i);
}

/* A fork bomb of big processes: each fork takes the child's size from the
 * free count, so once memory is short fork fails cleanly (-1, nobody
 * killed); each child writes all its pages and exits; all pages come back. */
static void t_cow_bomb(void) {
    int free0 = freepages();
    int pages = free0 / 3;
    char* p = sbrk(pages * PGSIZE);
    CHECK(p != (char*)-1, "sbrk of a third of memory");
    for (int i = 0; i < pages; i++) p[i * PGSIZE] = 1;
    int forked = 0, failed = 0;
    for (int k = 0; k < 6; k++) {
        int pid = fork();
        if (pid < 0) {
            failed++;
            continue;
        }
        if (pid == 0) {
            for (int i = 0; i < pages; i++) p[i * PGSIZE] = 2;
            sleep(1);
            exit(0);
        }
        forked++;
    }
    CHECK(forked >= 1 && failed >= 1, "%d forks of a third of memory succeeded, %d failed", forked, failed);
    for (int k = 0; k < forked; k++) {
        int st = -1;
        CHECK(wait(&st) > 0 && st == 0, "a child of the bomb: status %d", st);
    }
    for (int i = 0; i < pages; i++) CHECK(p[i * PGSIZE] == 1, "the children wrote the parent's page %d", i);
    CHECK(sbrk(-pages * PGSIZE) == p + pages * PGSIZE, "shrink");
}

static const struct utest tests[] = {
    {"fault_kernel", t_fault_kernel},
    {"fault_guard", t_fault_guard},
    {"fault_text", t_fault_text},
    {"fault_heap_exec", t_fault_heap_exec},
    {"fault_unmapped", t_fault_unmapped},
    {"lazy_sbrk", t_lazy_sbrk},
    {"lazy_shrink_half", t_lazy_shrink_half},
    {"lazy_syscalls", t_lazy_syscalls},
    {"lazy_fork", t_lazy_fork},
    {"lazy_admission", t_lazy_admission},
    {"lazy_fill_all", t_lazy_fill_all},
    {"lazy_bss", t_lazy_bss},
    {"threads_fault", t_threads_fault},
    {"cow_fork", t_cow_fork},
    {"cow_parent_writes", t_cow_parent_writes},
    {"cow_syscall", t_cow_syscall},
    {"cow_many_writers", t_cow_many_writers},
    {"cow_threads", t_cow_threads},
    {"cow_bomb", t_cow_bomb},
};

int main(int argc, char* argv[]) {
    usage_on_help(argc, argv, "vmtest [-m | -t THREADS] [test-name-prefix...]");
    if (argc == 2 && strcmp(argv[1], "-m") == 0) {
        char* p = sbrk(32 * PGSIZE);
        for (int i = 0; i < 32; i++) p[i * PGSIZE] = 1;
        char* args[] = {"ps", "-m", 0};
        exec("ps", args);
        exit(1);
    }
    int first = 1;
    if (argc >= 3 && strcmp(argv[1], "-t") == 0) {
        nthreads = atoi(argv[2]);
        if (nthreads < 1 || nthreads > 30) usage_exit("vmtest [-t THREADS] [test-name-prefix...]", 2);
        first = 3;
    }
    const struct test_suite suite = {"vmtest", tests, sizeof(tests) / sizeof(tests[0]), t_lazy_admission, 0};
    return test_run_all(&suite, argc, argv, first) ? 1 : 0;
}
