/* user/mmaptest.c - mmap, munmap, mprotect, msync in the guest
 * (docs/memory.md "Mappings").
 *
 *   mmaptest [test-name-prefix...]
 *   mmaptest -hold W R T   (a running copy for the page-cache tests)
 *   mmaptest -exit7        (exits 7: a copy of this program ran)
 *
 * Each test runs in a child and prints PASS name / FAIL name: why; a test
 * passes only if every page came back afterwards (freepages). The kill
 * tests expect the child killed (status -1); tests/guest/vm_tests.py checks
 * the console's kill lines and fsck after the file tests. */
#include "kernel/fcntl.h"
#include "kernel/riscv.h"
#include "user/user.h"
#include "user/usertests.h"

const char* cur = "";

static char* map_anon(unsigned long len, int prot, int flags) {
    char* p = mmap(0, len, prot, flags | MAP_ANONYMOUS, -1, 0);
    CHECK(p != MAP_FAILED, "mmap of %lu bytes failed", len);
    return p;
}

/* A file of n bytes, byte i = 'a' + i % 26. */
static void make_pattern(const char* name, int n) {
    unlink(name);
    int fd = open(name, O_CREATE | O_RDWR);
    CHECK(fd >= 0, "cannot create %s", name);
    char b[512];
    for (int done = 0; done < n;) {
        int k = n - done < (int)sizeof(b) ? n - done : (int)sizeof(b);
        for (int i = 0; i < k; i++) b[i] = 'a' + (done + i) % 26;
        CHECK(write(fd, b, k) == k, "write to %s", name);
        done += k;
    }
    close(fd);
}

int file_size(const char* name) {
    struct stat st;
    if (stat(name, &st) < 0) return -1;
    return (int)st.size;
}

static char file_byte(const char* name, int off) {
    int fd = open(name, O_RDONLY);
    CHECK(fd >= 0, "cannot open %s", name);
    char b[1] = {0};
    for (int i = 0; i <= off; i++) CHECK(read(fd, b, 1) == 1, "%s shorter than %d", name, off + 1);
    close(fd);
    return b[0];
}

/* ---- anonymous --------------------------------------------------------- */

static void t_anon_private(void) {
    int before = freepages();
    char* p = map_anon(64 * PGSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE);
    CHECK(freepages() <= before - 64, "64 pages not promised: %d -> %d", before, freepages());
    for (int i = 0; i < 64; i++) CHECK(p[i * PGSIZE] == 0, "page %d not zero", i);
    for (int i = 0; i < 64; i++) p[i * PGSIZE + 7] = (char)i;
    for (int i = 0; i < 64; i++) CHECK(p[i * PGSIZE + 7] == (char)i, "page %d lost its byte", i);
    int pid = fork();
    if (pid == 0) {
        p[7] = 99; /* the child's own copy */
        exit(p[PGSIZE + 7] == 1 ? 0 : 1);
    }
    int st = -1;
    wait(&st);
    CHECK(st == 0, "child saw wrong data (%d)", st);
    CHECK(p[7] == 0, "the child's write reached the parent's private mapping");
    CHECK(munmap(p, 64 * PGSIZE) == 0, "munmap failed");
    /* the page-table pages (a middle and a leaf table) stay until exit */
    CHECK(before - freepages() <= 2, "pages not back after munmap: %d vs %d", freepages(), before);
}

static void t_anon_shared_fork(void) {
    volatile int* p = (volatile int*)map_anon(2 * PGSIZE, PROT_READ | PROT_WRITE, MAP_SHARED);
    p[0] = 1; /* touched before fork */
    /* p[1024] (the second page) is untouched before fork: still shared */
    int pid = fork();
    if (pid == 0) {
        p[0] = 42;
        p[1024] = 43;
        exit(0);
    }
    wait(0);
    CHECK(p[0] == 42, "the child's write to a shared page is not seen (%d)", p[0]);
    CHECK(p[1024] == 43, "the child's write to an untouched shared page is not seen (%d)", p[1024]);
}

static void t_munmap_untouched(void) {
    int before = freepages();
    char* p = map_anon(300 * PGSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE);
    p[5 * PGSIZE] = 1;
    CHECK(munmap(p + 100 * PGSIZE, 100 * PGSIZE) == 0, "munmap of untouched middle failed");
    CHECK(munmap(p, 300 * PGSIZE) == 0, "munmap of the rest failed");
    CHECK(munmap(p, 300 * PGSIZE) == 0, "munmap of nothing failed");
    char* q = map_anon(8 * PGSIZE, PROT_READ, MAP_PRIVATE); /* never touched at all */
    CHECK(munmap(q, 8 * PGSIZE) == 0, "munmap of a never touched mapping failed");
    /* page-table pages and their promises (2 per mapping) stay until exit */
    CHECK(before - freepages() <= 4, "pages not back: %d vs %d", freepages(), before);
}

static void t_munmap_half(void) {
    char* p = map_anon(4 * PGSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE);
    for (int i = 0; i < 4; i++) p[i * PGSIZE] = (char)(i + 1);
    CHECK(munmap(p + PGSIZE, 2 * PGSIZE) == 0, "munmap of the middle failed");
    CHECK(p[0] == 1 && p[3 * PGSIZE] == 4, "the ends lost their data");
}

static char* volatile target;
static void touch_target(void) {
    *target = 1;
    printf("mmaptest: write to %p did not fault\n", target);
}
static void read_target(void) {
    volatile char c = *target;
    (void)c;
    printf("mmaptest: read of %p did not fault\n", target);
}

static void t_munmap_touch_kills(void) {
    char* p = map_anon(2 * PGSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE);
    p[0] = 1;
    CHECK(munmap(p, 2 * PGSIZE) == 0, "munmap failed");
    target = p;
    int st = child_status(read_target);
    CHECK(st == -1, "read after munmap: status %d, expected -1", st);
    printf("mmaptest: unmapped at %p\n", p);
}

static void t_mprotect_kills(void) {
    char* p = map_anon(2 * PGSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE);
    p[PGSIZE] = 5;
    CHECK(mprotect(p + PGSIZE, PGSIZE, PROT_READ) == 0, "mprotect failed");
    CHECK(p[PGSIZE] == 5, "read-only page lost its data");
    p[0] = 1; /* the other page stays writable */
    target = p + PGSIZE;
    int st = child_status(touch_target);
    CHECK(st == -1, "write to a read-only page: status %d, expected -1", st);
    printf("mmaptest: read-only at %p\n", p + PGSIZE);
    CHECK(mprotect(p + PGSIZE, PGSIZE, PROT_READ | PROT_WRITE) == 0, "mprotect back failed");
    p[PGSIZE] = 6;
    CHECK(mprotect(p, 2 * PGSIZE, PROT_NONE) == 0, "PROT_NONE failed");
    target = p;
    CHECK(child_status(read_target) == -1, "read of a PROT_NONE page did not kill");
}

/* A private page fork shared while it was read-only stays the child's
 * after the parent makes it writable: the write copies it. */
static void t_mprotect_after_fork(void) {
    char* p = map_anon(PGSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE);
    p[0] = 'p';
    CHECK(mprotect(p, PGSIZE, PROT_READ) == 0, "mprotect read-only failed");
    int gate[2];
    CHECK(pipe(gate) == 0, "pipe");
    int pid = fork();
    if (pid == 0) {
        char c;
        close(gate[1]);
        read(gate[0], &c, 1); /* the parent has written its page */
        exit(p[0] == 'p' ? 0 : 1);
    }
    close(gate[0]);
    CHECK(mprotect(p, PGSIZE, PROT_READ | PROT_WRITE) == 0, "mprotect writable failed");
    p[0] = 'X';
    write(gate[1], "g", 1);
    close(gate[1]);
    int st = -1;
    wait(&st);
    CHECK(st == 0, "the parent's write reached the child's page (status %d)", st);
    CHECK(p[0] == 'X', "the parent lost its write");
}

static void t_bad_args(void) {
    char* p = map_anon(PGSIZE, PROT_READ, MAP_PRIVATE);
    int fd = open("mm_ro", O_CREATE | O_RDWR);
    write(fd, "x", 1);
    close(fd);
    int wo = open("mm_ro", O_WRONLY), ro = open("mm_ro", O_RDONLY);
    struct {
        void* addr;
        unsigned long len;
        int prot, flags, fd;
        long off;
    } bad[] = {
        {0, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0},                   /* zero length */
        {0, 1UL << 62, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0},           /* huge */
        {0, ~0UL, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0},                /* huge */
        {0, PGSIZE, 8, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0},                      /* bad prot */
        {0, PGSIZE, PROT_READ, MAP_ANONYMOUS, -1, 0},                            /* neither shared nor private */
        {0, PGSIZE, PROT_READ, MAP_SHARED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0}, /* both */
        {0, PGSIZE, PROT_READ, MAP_PRIVATE | 0x40000, -1, 0},                    /* unknown flag */
        {(void*)0x1001, PGSIZE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0}, /* unaligned */
        {0, PGSIZE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0},             /* fixed over text */
        {(void*)0x3fffffe000UL, PGSIZE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0}, /* trapframe */
        {(void*)0x3ffffff000UL, PGSIZE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0}, /* trampoline */
        {0, PGSIZE, PROT_READ, MAP_PRIVATE, 55, 0},                                                 /* bad fd */
        {0, PGSIZE, PROT_READ, MAP_PRIVATE, -1, 0},                                                 /* no fd */
        {0, PGSIZE, PROT_READ, MAP_PRIVATE, wo, 0},                                                 /* write-only fd */
        {0, PGSIZE, PROT_READ | PROT_WRITE, MAP_SHARED, ro, 0}, /* shared writable, read-only fd */
        {0, PGSIZE, PROT_READ, MAP_PRIVATE, ro, 100},           /* unaligned offset */
        {0, PGSIZE, PROT_READ, MAP_PRIVATE, 0, 0},              /* the console */
    };
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        void* r = mmap(bad[i].addr, bad[i].len, bad[i].prot, bad[i].flags, bad[i].fd, bad[i].off);
        CHECK(r == MAP_FAILED, "bad mmap %u succeeded at %p", i, r);
    }
    CHECK(munmap(p + 1, PGSIZE) < 0, "unaligned munmap succeeded");
    CHECK(munmap(p, 0) < 0, "zero-length munmap succeeded");
    CHECK(munmap((void*)0x3ffffff000UL, PGSIZE) < 0, "munmap of the trampoline succeeded");
    CHECK(munmap(p, ~0UL) < 0, "huge munmap succeeded");
    CHECK(mprotect(p, PGSIZE, 8) < 0, "bad prot succeeded");
    CHECK(mprotect(p + 16 * PGSIZE, PGSIZE, PROT_READ) < 0, "mprotect of nothing succeeded");
    CHECK(mprotect(0, PGSIZE, PROT_READ) < 0, "mprotect of the text succeeded");
    CHECK(msync(p + 1, PGSIZE, MS_SYNC) < 0, "unaligned msync succeeded");
    CHECK(msync(p, PGSIZE, MS_SYNC | MS_ASYNC) < 0, "msync sync+async succeeded");
    char* s = mmap(0, PGSIZE, PROT_READ, MAP_SHARED, ro, 0);
    CHECK(s != MAP_FAILED, "shared read-only mapping of a read-only fd failed");
    CHECK(mprotect(s, PGSIZE, PROT_READ | PROT_WRITE) < 0, "a read-only fd's shared mapping became writable");
    CHECK(s[0] == 'x', "the file's byte is %d", s[0]);
    close(wo);
    close(ro);
    unlink("mm_ro");
}

static void t_over_limit(void) {
    int before = freepages();
    void* r =
        mmap(0, (unsigned long)(before + 100) * PGSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(r == MAP_FAILED, "mmap of more than is free succeeded");
    r = mmap(0, 1UL << 36, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(r == MAP_FAILED, "mmap of 64 GiB succeeded");
    int n = 0;
    while (n < 100 && mmap(0, PGSIZE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) != MAP_FAILED) n++;
    CHECK(n > 10 && n < 100, "mappings until the table is full: %d", n);
    CHECK(freepages() < before, "no pages promised");
}

/* MAP_FIXED in the top GiB of user memory, where the trampoline's and the
 * trapframes' tables are: every page and page table comes back when the
 * process ends (its exit frees the top GiB's tables its own way). */
static void top_gib_child(void) {
    const unsigned long top_gib = (1UL << 38) - (1UL << 30);
    char* a = mmap((void*)top_gib, PGSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    char* b = mmap((void*)(0x3fffe00000UL - 2 * PGSIZE), PGSIZE, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (a == MAP_FAILED || b == MAP_FAILED) exit(2);
    a[0] = 1;
    b[0] = 2;
    exit(a[0] + b[0] == 3 ? 0 : 3);
}

static void t_top_gib(void) {
    int before = freepages();
    for (int i = 0; i < 4; i++) CHECK(child_status(top_gib_child) == 0, "the child failed");
    CHECK(freepages() == before, "%d pages lost by 4 processes mapping the top GiB", before - freepages());
}

/* ---- files ------------------------------------------------------------- */

static void t_file_private(void) {
    make_pattern("mm_priv", 3 * PGSIZE + 100);
    int fd = open("mm_priv", O_RDONLY);
    char* p = mmap(0, 4 * PGSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    CHECK(p != MAP_FAILED, "mmap of a file failed");
    close(fd); /* the mapping keeps the file */
    CHECK(p[0] == 'a' && p[PGSIZE] == 'a' + PGSIZE % 26, "wrong bytes %c %c", p[0], p[PGSIZE]);
    CHECK(p[3 * PGSIZE + 99] == 'a' + (3 * PGSIZE + 99) % 26, "last byte wrong");
    CHECK(p[3 * PGSIZE + 100] == 0, "past the end not zero");
    p[0] = 'Z';
    p[2 * PGSIZE] = 'Z';
    CHECK(munmap(p, 4 * PGSIZE) == 0, "munmap failed");
    CHECK(file_byte("mm_priv", 0) == 'a', "a private write reached the file");
    fd = open("mm_priv", O_RDONLY);
    p = mmap(0, PGSIZE, PROT_READ, MAP_PRIVATE, fd, 2 * PGSIZE); /* at an offset */
    close(fd);
    CHECK(p != MAP_FAILED && p[0] == 'a' + (2 * PGSIZE) % 26, "offset mapping wrong");
    unlink("mm_priv");
}

static void t_file_shared(void) {
    make_pattern("mm_shr", 2 * PGSIZE);
    int fd = open("mm_shr", O_RDWR);
    char* p = mmap(0, 2 * PGSIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    CHECK(p != MAP_FAILED, "shared file mmap failed");
    close(fd);
    p[10] = 'Q';
    CHECK(msync(p, 2 * PGSIZE, MS_SYNC) == 0, "msync failed");
    CHECK(file_byte("mm_shr", 10) == 'Q', "msync did not write the file");
    p[PGSIZE + 1] = 'R';
    CHECK(munmap(p, 2 * PGSIZE) == 0, "munmap failed");
    CHECK(file_byte("mm_shr", PGSIZE + 1) == 'R', "munmap did not write the file");
    CHECK(file_size("mm_shr") == 2 * PGSIZE, "the file's size changed");
    unlink("mm_shr");
}

static void shared_writer_exits(void) {
    int fd = open("mm_exit", O_RDWR);
    char* p = mmap(0, PGSIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) exit(3);
    p[5] = 'E';
    exit(0); /* no msync, no munmap */
}

static void t_file_shared_exit(void) {
    make_pattern("mm_exit", 100);
    CHECK(child_status(shared_writer_exits) == 0, "the writer failed");
    CHECK(file_byte("mm_exit", 5) == 'E', "exit did not write the file");
    CHECK(file_size("mm_exit") == 100, "the file grew to %d", file_size("mm_exit"));
}

/* exec from a process holding mappings: they are released (the shared
 * file page written back) and the new program runs. */
static void exec_with_mappings(void) {
    int fd = open("mm_exec", O_RDWR);
    char* p = mmap(0, PGSIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    char* a = mmap(0, 64 * PGSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED || a == MAP_FAILED) exit(3);
    p[1] = 'X';
    a[0] = 1;
    char* argv[] = {"echo", "exec-with-mappings-ok", 0};
    exec("echo", argv);
    exit(4);
}

static void t_exec_with_mappings(void) {
    make_pattern("mm_exec", 100);
    CHECK(child_status(exec_with_mappings) == 0, "the exec'd program failed");
    CHECK(file_byte("mm_exec", 1) == 'X', "exec did not write the shared page back");
    unlink("mm_exec");
}

/* System calls copy into and out of file mappings never touched: read()
 * into a private writable one (its copy-on-write page is copied: the file
 * keeps its bytes), write() from a read-only one, and the same through a
 * pipe (which copies under a spinlock). */
static void t_syscall_file_map(void) {
    make_pattern("mm_sys", 2 * PGSIZE);
    int src = open("mm_src", O_CREATE | O_RDWR | O_TRUNC);
    char s[100];
    memset(s, 'S', sizeof s);
    CHECK(src >= 0 && write(src, s, sizeof s) == sizeof s, "mm_src");
    close(src);
    int fd = open("mm_sys", O_RDONLY);
    char* p = mmap(0, 2 * PGSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    char* q = mmap(0, PGSIZE, PROT_READ, MAP_PRIVATE, fd, PGSIZE);
    close(fd);
    CHECK(p != MAP_FAILED && q != MAP_FAILED, "mmap");
    src = open("mm_src", O_RDONLY);
    CHECK(src >= 0, "open");
    CHECK(read(src, p, 100) == 100, "read() into an untouched private file page");
    close(src);
    CHECK(p[0] == 'S' && p[99] == 'S' && p[100] == 'a' + 100 % 26, "the bytes read");
    src = open("mm_src", O_RDWR);
    CHECK(src >= 0 && write(src, q, 8) == 8, "write() from an untouched file page");
    close(src);
    CHECK(file_byte("mm_src", 0) == 'a' + PGSIZE % 26, "the bytes written");
    /* a pipe copies under its spinlock: the page is read in with it dropped */
    int pp[2];
    CHECK(pipe(pp) == 0, "pipe");
    CHECK(write(pp[1], "pipe", 4) == 4, "pipe write");
    CHECK(read(pp[0], p + PGSIZE, 4) == 4, "a pipe's read into an untouched private file page");
    CHECK(memcmp(p + PGSIZE, "pipe", 4) == 0 && p[PGSIZE + 4] == 'a' + (PGSIZE + 4) % 26, "the pipe's bytes");
    CHECK(munmap(q, PGSIZE) == 0, "munmap");
    fd = open("mm_sys", O_RDONLY);
    q = mmap(0, PGSIZE, PROT_READ, MAP_PRIVATE, fd, PGSIZE); /* untouched again */
    close(fd);
    CHECK(q != MAP_FAILED && write(pp[1], q, 8) == 8, "a pipe's write from an untouched file page");
    char b[8];
    CHECK(read(pp[0], b, 8) == 8 && b[0] == 'a' + PGSIZE % 26, "the bytes through the pipe");
    close(pp[0]);
    close(pp[1]);
    CHECK(file_byte("mm_sys", 0) == 'a', "a private mapping's read() reached the file");
    CHECK(munmap(p, 2 * PGSIZE) == 0 && munmap(q, PGSIZE) == 0, "munmap");
    unlink("mm_sys");
    unlink("mm_src");
}

/* ---- a lock across processes --------------------------------------------- */

struct shared_counter {
    struct umutex lock;
    int count;
};

static void t_futex_cross_process(void) {
    struct shared_counter* s = (struct shared_counter*)map_anon(PGSIZE, PROT_READ | PROT_WRITE, MAP_SHARED);
    int pids[2];
    for (int k = 0; k < 2; k++) {
        pids[k] = fork();
        CHECK(pids[k] >= 0, "fork failed");
        if (pids[k] == 0) {
            for (int i = 0; i < 1000; i++) {
                umutex_lock(&s->lock);
                int c = s->count;
                if (i % 64 == 0) sleep(0);
                s->count = c + 1;
                umutex_unlock(&s->lock);
            }
            exit(0);
        }
    }
    for (int k = 0; k < 2; k++) wait(0);
    CHECK(s->count == 2000, "count %d, expected 2000", s->count);
}

/* ---- the page cache and ETXTBSY (docs/memory.md "The page cache") ------- */

extern char end[];

/* mmaptest -hold W R T: a running copy for text_shared and etxtbsy. With T
 * 1 it reads a byte of every page of [0, end) (its text and data: the
 * text pages fault in), then writes a byte to fd W and waits until fd R
 * reads end of file. */
static int hold(int wfd, int rfd, int touch) {
    static volatile unsigned long zero = 0; /* address 0, which the compiler may not assume */
    volatile char* base = (volatile char*)zero;
    int sum = 0;
    if (touch)
        for (unsigned long a = 0; a < (unsigned long)end; a += PGSIZE) sum += base[a];
    char c = (char)sum;
    write(wfd, &c, 1);
    while (read(rfd, &c, 1) > 0) {}
    return 0;
}

static void exec_hold(const char* prog, int wfd, int rfd, int touch) {
    char w[4] = {(char)('0' + wfd), 0}, r[4] = {(char)('0' + rfd), 0}, t[2] = {(char)('0' + touch), 0};
    char* argv[] = {(char*)prog, "-hold", w, r, t, 0};
    exec(prog, argv);
    exit(errno() == 26 ? 26 : 99);
}

/* Start k copies of prog holding (touching their text if touch); returns
 * the free pages they took once all are running. *gate: the write end
 * that releases them (close it, then reap_holders). */
static int start_holders(const char* prog, int k, int touch, int* gate) {
    int ready[2], g[2];
    CHECK(pipe(ready) == 0 && pipe(g) == 0, "pipe");
    CHECK(ready[1] < 10 && g[0] < 10, "descriptors above 9");
    int before = freepages();
    for (int i = 0; i < k; i++) {
        int pid = fork();
        CHECK(pid >= 0, "fork %d", i);
        if (pid == 0) {
            close(ready[0]);
            close(g[1]);
            exec_hold(prog, ready[1], g[0], touch);
        }
    }
    close(ready[1]);
    close(g[0]);
    char c;
    for (int i = 0; i < k; i++) CHECK(read(ready[0], &c, 1) == 1, "holder %d did not start", i);
    close(ready[0]);
    *gate = g[1];
    return before - freepages();
}

static void reap_holders(int gate, int k) {
    close(gate);
    for (int i = 0; i < k; i++) {
        int st = -1;
        wait(&st);
        CHECK(st == 0, "a holder exited %d", st);
    }
}

/* Eight copies of one program share its text. Each copy's text pages are
 * promised at exec, and a page mapped from the page cache gives its
 * promise back: copies that ran all their text hold fewer pages than
 * copies that ran only what starting takes (with a private copy each,
 * the same). And the text is read from the file once, not once a copy:
 * the page faults of the copies that ran it are minor, not major. */
static void t_text_shared(void) {
    const int k = 8, pages = (int)((unsigned long)end / PGSIZE);
    int gate;
    int idle = start_holders("mmaptest", k, 0, &gate);
    reap_holders(gate, k);
    struct vmstat a, b;
    CHECK(vmstat(&a) == 0, "vmstat");
    int ran = start_holders("mmaptest", k, 1, &gate);
    CHECK(vmstat(&b) == 0, "vmstat");
    reap_holders(gate, k);
    const int major = (int)(b.major_faults - a.major_faults);
    printf(
        "mmaptest: %d copies of a %d-page image: %d pages ran little, %d ran it all (%d major faults), %lu "
        "pages cached\n",
        k, pages, idle, ran, major, b.cached);
    CHECK(pages >= 8, "the image is %d pages", pages);
    CHECK(ran <= idle - k, "copies that ran their text held %d pages, those that did not %d", ran, idle);
    CHECK(major < k * pages / 2, "%d copies reading %d pages: %d major faults", k, pages, major);
    CHECK(b.cached >= (unsigned long)pages / 2, "%lu pages cached", b.cached);
}

static int open_at(const char* name, int mode, int off) {
    int fd = open(name, mode);
    CHECK(fd >= 0, "cannot open %s", name);
    char b[512];
    for (int done = 0; done < off;) {
        int n = off - done < (int)sizeof(b) ? off - done : (int)sizeof(b);
        CHECK(read(fd, b, n) == n, "%s shorter than %d", name, off);
        done += n;
    }
    return fd;
}

/* MAP_SHARED mappings of one file in two processes that mapped it
 * separately are one page: a store is seen by the other mapper and by
 * read() before any msync, and write() is seen by both mappings. */
static void t_shared_coherent(void) {
    make_pattern("mm_coh", 2 * PGSIZE);
    int go[2], done[2];
    CHECK(pipe(go) == 0 && pipe(done) == 0, "pipe");
    int pid = fork();
    if (pid == 0) {
        int fd = open("mm_coh", O_RDWR);
        volatile char* q = mmap(0, 2 * PGSIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (q == MAP_FAILED) exit(2);
        char c = q[PGSIZE + 1]; /* touched before the parent's write() */
        q[100] = 'C';
        write(done[1], &c, 1);
        read(go[0], &c, 1); /* the parent wrote 'W' at 200 and PGSIZE + 1 */
        exit(q[200] == 'W' && q[PGSIZE + 1] == 'W' ? 0 : 3);
    }
    int fd = open("mm_coh", O_RDWR);
    volatile char* p = mmap(0, 2 * PGSIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    CHECK(p != MAP_FAILED, "mmap");
    CHECK(p[200] == 'a' + 200 % 26, "first byte");
    char c;
    CHECK(read(done[0], &c, 1) == 1, "the child did not map");
    CHECK(p[100] == 'C', "the other mapper's store is not seen (%c)", p[100]);
    CHECK(file_byte("mm_coh", 100) == 'C', "read() does not see a mapping's store before msync");
    int wfd = open_at("mm_coh", O_RDWR, 200);
    CHECK(write(wfd, "W", 1) == 1, "write");
    close(wfd);
    wfd = open_at("mm_coh", O_RDWR, PGSIZE + 1);
    CHECK(write(wfd, "W", 1) == 1, "write");
    close(wfd);
    CHECK(p[200] == 'W', "the mapping does not see write() (%c)", p[200]);
    write(go[1], "g", 1);
    int st = -1;
    wait(&st);
    CHECK(st == 0, "the other mapper did not see write() (status %d)", st);
    CHECK(munmap((void*)p, 2 * PGSIZE) == 0, "munmap");
    close(fd);
    CHECK(file_byte("mm_coh", 100) == 'C' && file_byte("mm_coh", 200) == 'W', "the file lost a byte");
    unlink("mm_coh");
}

/* Truncate and unlink a mapped file: the mappings stay readable (what they
 * had, zeros past the new end), a new mapping and read() see the new
 * bytes (no stale cached page), and every page comes back. */
static void t_truncate_mapped(void) {
    int before = freepages();
    make_pattern("mm_trunc", 3 * PGSIZE);
    int fd = open("mm_trunc", O_RDONLY);
    volatile char* p = mmap(0, 3 * PGSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    volatile char* q = mmap(0, 3 * PGSIZE, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    CHECK(p != MAP_FAILED && q != MAP_FAILED, "mmap");
    CHECK(p[0] == 'a' && q[PGSIZE] == 'a' + PGSIZE % 26, "bytes before truncation");
    p[1] = 'P'; /* a private copy */
    fd = open("mm_trunc", O_WRONLY | O_TRUNC);
    CHECK(fd >= 0, "truncating open");
    char b[PGSIZE];
    memset(b, 'N', sizeof b);
    CHECK(write(fd, b, sizeof b) == (int)sizeof b, "rewrite");
    close(fd);
    CHECK(file_size("mm_trunc") == PGSIZE, "size %d", file_size("mm_trunc"));
    CHECK(p[1] == 'P', "the private copy changed");
    (void)q[PGSIZE];                /* the old page: still readable */
    target = (char*)p + 2 * PGSIZE; /* never touched, past the new end */
    CHECK(child_status(read_target) == -1, "a touch past the new end did not kill");
    CHECK(file_byte("mm_trunc", 0) == 'N', "read() sees the old bytes");
    fd = open("mm_trunc", O_RDONLY);
    volatile char* r = mmap(0, PGSIZE, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    CHECK(r != MAP_FAILED && r[0] == 'N' && r[PGSIZE - 1] == 'N', "a new mapping sees the old bytes (%c)", r[0]);
    CHECK(unlink("mm_trunc") == 0, "unlink of a mapped file");
    CHECK(q[0] != 1 && r[5] == 'N', "mappings of an unlinked file");
    CHECK(munmap((void*)p, 3 * PGSIZE) == 0 && munmap((void*)q, 3 * PGSIZE) == 0, "munmap");
    CHECK(munmap((void*)r, PGSIZE) == 0, "munmap");
    CHECK(before - freepages() <= 6, "pages not back: %d vs %d", freepages(), before);
}

/* Linux's SIGBUS: a page of a mapping with no byte of the file in it
 * (past the end) is not there. A touch kills (or runs a SIGBUS handler),
 * a system call's copy fails; the last, partial page reads zeros past the
 * end. */
static void on_bus(int s, struct ksiginfo* info, void* uc) {
    (void)uc;
    exit(s == SIGBUS && info->signo == SIGBUS && (char*)info->addr == target ? 42 : 43);
}

static void bus_handled(void) {
    struct ksigaction a = {(unsigned long)on_bus, 0, SA_SIGINFO};
    if (sigact(SIGBUS, &a, 0) != 0) exit(2);
    (void)*(volatile char*)target;
    exit(3);
}

static void t_past_end(void) {
    make_pattern("mm_end", PGSIZE + 100);
    int fd = open("mm_end", O_RDWR);
    char* p = mmap(0, 4 * PGSIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    char* q = mmap(0, 4 * PGSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    close(fd);
    CHECK(p != MAP_FAILED && q != MAP_FAILED, "mmap");
    CHECK(p[PGSIZE + 99] == 'a' + (PGSIZE + 99) % 26 && p[PGSIZE + 100] == 0, "the last, partial page");
    CHECK(q[PGSIZE + 100] == 0, "the private mapping's last page");
    target = p + 2 * PGSIZE;
    CHECK(child_status(read_target) == -1, "a read past the end of a shared mapping did not kill");
    printf("mmaptest: past the end at %p\n", target);
    target = q + 3 * PGSIZE;
    CHECK(child_status(touch_target) == -1, "a write past the end of a private mapping did not kill");
    CHECK(child_status(bus_handled) == 42, "no SIGBUS handler ran for a touch past the end");
    int src = open("mm_end", O_RDONLY);
    CHECK(read(src, q + 2 * PGSIZE, 10) == -1, "read() into a page past the end succeeded");
    close(src);
    fd = open("mm_end", O_RDWR);
    CHECK(write(fd, p + 3 * PGSIZE, 10) == -1, "write() from a page past the end succeeded");
    close(fd);
    CHECK(file_size("mm_end") == PGSIZE + 100, "the file changed size (%d)", file_size("mm_end"));
    CHECK(munmap(p, 4 * PGSIZE) == 0 && munmap(q, 4 * PGSIZE) == 0, "munmap");
    unlink("mm_end");
}

/* A shared page mapped before its file was truncated holds bytes the file
 * no longer has: once the file grew again, its write-back (munmap, msync,
 * exit) must not put them over the file's new bytes. */
static void t_truncate_regrow(void) {
    make_pattern("mm_regrow", 2 * PGSIZE);
    int fd = open("mm_regrow", O_RDWR);
    char* p = mmap(0, 2 * PGSIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    CHECK(p != MAP_FAILED, "mmap");
    p[10] = 'S'; /* stores before the truncation */
    p[PGSIZE + 20] = 'S';
    fd = open("mm_regrow", O_WRONLY | O_TRUNC);
    CHECK(fd >= 0, "truncate");
    static char b[2 * PGSIZE];
    memset(b, 'N', sizeof b);
    CHECK(write(fd, b, sizeof b) == (int)sizeof b, "regrow");
    close(fd);
    CHECK(msync(p, 2 * PGSIZE, MS_SYNC) == 0, "msync");
    CHECK(munmap(p, 2 * PGSIZE) == 0, "munmap");
    CHECK(file_byte("mm_regrow", 10) == 'N', "a page mapped before the truncation was written back over byte 10 (%c)",
          file_byte("mm_regrow", 10));
    CHECK(file_byte("mm_regrow", PGSIZE + 20) == 'N', "the old page was written back over byte %d", PGSIZE + 20);
    CHECK(file_size("mm_regrow") == 2 * PGSIZE, "size %d", file_size("mm_regrow"));
    unlink("mm_regrow");
}

static void copy_file(const char* from, const char* to) {
    unlink(to);
    int in = open(from, O_RDONLY), out = open(to, O_CREATE | O_WRONLY | O_TRUNC);
    CHECK(in >= 0 && out >= 0, "copy %s to %s", from, to);
    static char b[4096];
    int n;
    while ((n = read(in, b, sizeof b)) > 0) CHECK(write(out, b, n) == n, "write %s", to);
    close(in);
    close(out);
    CHECK(chmod(to, 0755) == 0, "chmod %s", to);
}

static int run_status(char* prog, char* arg) {
    int pid = fork();
    if (pid == 0) {
        char* argv[] = {prog, arg, 0};
        exec(prog, argv);
        exit(errno() == 26 ? 26 : 99);
    }
    int st = -1;
    wait(&st);
    return st;
}

/* A program file rewritten after it ran: the next exec runs the new bytes
 * (the cached pages of the old text went with the truncation). */
static void t_rewritten_program(void) {
    copy_file("mmaptest", "mm_prog");
    CHECK(run_status("mm_prog", "-exit7") == 7, "the copy did not run");
    copy_file("echo", "mm_prog");
    CHECK(run_status("mm_prog", "-exit7") == 0, "the rewritten program ran the old text");
    unlink("mm_prog");
}

/* Idle page-cache frames count as free, and a process that takes all free
 * memory gets them: the cache gives them back (they are the first memory
 * kalloc asks for when its free list runs dry). */
static void fill_all(void) {
    int n = freepages() - 64; /* its page tables, and the fault path's own */
    char* p = sbrk(n * PGSIZE);
    if (p == (char*)-1) exit(2);
    for (int i = 0; i < n; i++) p[i * PGSIZE] = 1;
    exit(0);
}

static void t_cache_evicted(void) {
    CHECK(run_status("mmaptest", "-exit7") == 7, "a copy did not run");
    struct vmstat a, b;
    CHECK(vmstat(&a) == 0 && a.cache_idle > 0, "no idle cached page after a program ran (%lu)", a.cache_idle);
    CHECK(child_status(fill_all) == 0, "a process touching all free memory failed");
    CHECK(vmstat(&b) == 0, "vmstat");
    printf("mmaptest: cached %lu (%lu idle) before filling memory, %lu after\n", a.cached, a.cache_idle, b.cached);
    CHECK(b.cached < a.cached, "no cached page was given back (%lu -> %lu)", a.cached, b.cached);
}

/* ETXTBSY (26, Linux's): a running program's file cannot be opened to
 * write or truncate; a file open for writing cannot be executed. */
static void t_etxtbsy(void) {
    copy_file("mmaptest", "mm_txt");
    int size = file_size("mm_txt");
    int gate;
    start_holders("mm_txt", 1, 0, &gate);
    CHECK(open("mm_txt", O_WRONLY) < 0 && errno() == 26, "open to write a running program: errno %d", errno());
    CHECK(open("mm_txt", O_RDWR) < 0 && errno() == 26, "open read-write: errno %d", errno());
    CHECK(open("mm_txt", O_RDONLY | O_TRUNC) < 0 && errno() == 26, "truncate: errno %d", errno());
    CHECK(file_size("mm_txt") == size, "the running program's file was truncated");
    int fd = open("mm_txt", O_RDONLY);
    CHECK(fd >= 0, "open to read a running program");
    close(fd);
    CHECK(open("mmaptest", O_WRONLY) < 0 && errno() == 26, "open to write this very program: errno %d", errno());
    reap_holders(gate, 1);
    fd = open("mm_txt", O_WRONLY);
    CHECK(fd >= 0, "open to write once the program ended");
    CHECK(run_status("mm_txt", "-exit7") == 26, "exec of a file open for writing did not fail with ETXTBSY");
    close(fd);
    CHECK(run_status("mm_txt", "-exit7") == 7, "exec once the writer closed");
    CHECK(unlink("mm_txt") == 0, "unlink");
}

/* ---- the stack ------------------------------------------------------------ */

static int deep(int n) {
    volatile char frame[1024];
    frame[0] = (char)n;
    if (n == 0) return frame[0];
    return deep(n - 1) + frame[0];
}

static void t_stack_grows(void) { CHECK(deep(100) >= 0, "recursion"); }

static void deeper(void) {
    deep(200);
    printf("mmaptest: 200 KiB of stack did not kill\n");
}

static void t_stack_limit(void) { CHECK(child_status(deeper) == -1, "a stack past its limit did not kill"); }

static const struct utest tests[] = {
    {"anon_private", t_anon_private},
    {"anon_shared_fork", t_anon_shared_fork},
    {"munmap_untouched", t_munmap_untouched},
    {"munmap_half", t_munmap_half},
    {"munmap_touch_kills", t_munmap_touch_kills},
    {"mprotect_kills", t_mprotect_kills},
    {"mprotect_after_fork", t_mprotect_after_fork},
    {"bad_args", t_bad_args},
    {"over_limit", t_over_limit},
    {"top_gib", t_top_gib},
    {"file_private", t_file_private},
    {"file_shared", t_file_shared},
    {"file_shared_exit", t_file_shared_exit},
    {"exec_with_mappings", t_exec_with_mappings},
    {"syscall_file_map", t_syscall_file_map},
    {"futex_cross_process", t_futex_cross_process},
    {"stack_grows", t_stack_grows},
    {"stack_limit", t_stack_limit},
    {"text_shared", t_text_shared},
    {"shared_coherent", t_shared_coherent},
    {"truncate_mapped", t_truncate_mapped},
    {"past_end", t_past_end},
    {"truncate_regrow", t_truncate_regrow},
    {"rewritten_program", t_rewritten_program},
    {"etxtbsy", t_etxtbsy},
    {"cache_evicted", t_cache_evicted},
};

int main(int argc, char* argv[]) {
    if (argc == 5 && strcmp(argv[1], "-hold") == 0) return hold(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
    if (argc == 2 && strcmp(argv[1], "-exit7") == 0) return 7;
    usage_on_help(argc, argv, "mmaptest [test-name-prefix...]");
    const struct test_suite suite = {"mmaptest", tests, sizeof(tests) / sizeof(tests[0]), t_munmap_half, 0};
    return test_run_all(&suite, argc, argv, 1) ? 1 : 0;
}
