/* user/hostile_vm.c - hostile uses of mmap, munmap, mprotect, msync
 * (part of user/hostile; docs/memory.md "Mappings").
 *
 * mmapgarbage: 3000 calls with arguments from a fixed pseudo-random stream
 *   (addresses near every boundary, lengths from 0 to 2^64-1, every prot and
 *   flag bit, fds from -2 to 40, offsets) plus touches of whatever a call
 *   returned: no panic, the process lives, and every page comes back.
 * mprotrace: a thread writes a mapped page in a loop while the main thread
 *   makes it read-only: the process is killed, and once mprotect has
 *   returned the writer finishes at most the one write it had started (the
 *   TLB shootdown: without it the writer's hart keeps its writable entry
 *   until its next trap, up to a 100 ms slice).
 * mmapoom: 8 MiB mappings until mmap says no, every page touched: mmap fails
 *   with -1 (memory or the region table), no touch is killed, and every
 *   page comes back at exit.
 * copyrace: a thread read()s a file of 'X' into a page in a loop while the
 *   main thread unmaps that page, maps a fresh one nearby (which the
 *   allocator hands the freed frame) and fills it with 'Z': no 'X' may
 *   ever appear in the fresh page. Before kernel copies pinned their page
 *   (kernel/mm/fault.h:vm_pin), a read preempted between its look-up and
 *   its copy wrote into the frame after munmap freed it, so into another
 *   mapping's page. */
#include "kernel/fcntl.h"
#include "kernel/riscv.h"
#include "user/hostile.h"
#include "user/user.h"

static unsigned long rng = 0x9e3779b97f4a7c15UL;

static unsigned long next(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static unsigned long pick_addr(void) {
    static const unsigned long bases[] = {0,
                                          0x1000,
                                          0x2000000000UL,
                                          0x3fffffe000UL,
                                          0x3ffffff000UL,
                                          0x4000000000UL,
                                          0x80000000UL,
                                          ~0UL & ~0xfffUL,
                                          0x1fffffff000UL};
    unsigned long b = bases[next() % (sizeof(bases) / sizeof(bases[0]))];
    switch (next() % 4) {
        case 0:
            return b;
        case 1:
            return b + (next() % 64) * PGSIZE;
        case 2:
            return b + next() % PGSIZE;
        default:
            return next();
    }
}

static unsigned long pick_len(void) {
    static const unsigned long lens[] = {0, 1, PGSIZE, 2 * PGSIZE, 1UL << 30, 1UL << 40, ~0UL, ~0UL - PGSIZE + 1};
    return next() % 3 ? lens[next() % (sizeof(lens) / sizeof(lens[0]))] : next() % (64 * PGSIZE);
}

static void garbage_body(void) {
    int fd = open("hv.file", O_CREATE | O_RDWR);
    write(fd, "0123456789", 10);
    for (int i = 0; i < 3000; i++) {
        unsigned long addr = pick_addr(), len = pick_len();
        int prot = (int)(next() % 16), flags = (int)(next() % 0x40);
        if (next() % 8 == 0) flags |= (int)next();
        int f = (int)(next() % 43) - 2;
        long off = next() % 4 == 0 ? (long)next() : (long)(next() % 3) * PGSIZE;
        switch (next() % 4) {
            case 0: {
                char* p = mmap((void*)addr, len, prot, flags, f, off);
                if (p != MAP_FAILED && (prot & PROT_READ) && (unsigned long)p < 0x3000000000UL) {
                    volatile char c = p[0]; /* may fault past a file's end page: not here, it is zero */
                    (void)c;
                }
                break;
            }
            case 1:
                munmap((void*)addr, len);
                break;
            case 2:
                mprotect((void*)addr, len, prot);
                break;
            default:
                msync((void*)addr, len, (int)(next() % 8));
                break;
        }
    }
    close(fd);
    unlink("hv.file");
    exit(0);
}

void t_mmapgarbage(void) {
    int before = freepages();
    int pid = fork();
    if (pid == 0) garbage_body();
    int st = reap(pid);
    if (st != 0) return fail("mmapgarbage", "the caller did not live: status", st);
    int after = freepages();
    if (after != before) return fail("mmapgarbage", "pages not back", before - after);
    pass("mmapgarbage", "3000 garbage mmap/munmap/mprotect/msync calls, nothing lost");
}

static char* volatile race_page;
static volatile int writes;
static volatile int go;

static void race_writer(void* arg) {
    (void)arg;
    go = 1;
    for (;;) {
        race_page[writes % PGSIZE] = 1;
        writes++;
    }
}

static void race_body(void) {
    race_page = mmap(0, PGSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (race_page == MAP_FAILED) exit(3);
    race_page[0] = 0;
    if (thread_create(race_writer, 0) < 0) exit(4);
    while (!go || writes < 1000) {}
    if (mprotect(race_page, PGSIZE, PROT_READ) < 0) exit(5);
    int at = writes;
    for (int i = 0; i < 2000000; i++) {
        if (writes > at + 1) {
            printf("FAIL mprotrace: %d writes after mprotect returned\n", writes - at);
            exit(6);
        }
    }
    exit(0); /* the writer was killed, or did not run meanwhile: either way no stale write */
}

void t_mprotrace(void) {
    int before = freepages();
    for (int round = 0; round < 10; round++) {
        int pid = fork();
        if (pid == 0) race_body();
        int st = reap(pid);
        if (st != -1 && st != 0) return fail("mprotrace", "status (round*100+status)", round * 100L + st);
    }
    int after = freepages();
    if (after != before) return fail("mprotrace", "pages not back", before - after);
    pass("mprotrace", "no write lands after mprotect(PROT_READ) returns, 10 rounds");
}

static void oom_body(void) {
    const unsigned long chunk = 8UL << 20;
    int n = 0;
    for (;;) {
        char* p = mmap(0, chunk, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) break;
        for (unsigned long a = 0; a < chunk; a += PGSIZE) p[a] = 1;
        n++;
    }
    printf("hostile: mmapoom mapped and touched %d MiB\n", n * 8);
    exit(n > 0 ? 0 : 7);
}

void t_mmapoom(void) {
    int before = freepages();
    int pid = fork();
    if (pid == 0) oom_body();
    int st = reap(pid);
    if (st != 0) return fail("mmapoom", "the mapper did not end cleanly: status", st);
    int after = freepages();
    if (after != before) return fail("mmapoom", "pages not back", before - after);
    pass("mmapoom", "mmap until it fails, every page touched, nobody killed");
}

/* ---- copyrace ---- */

static char* volatile copy_buf;
static volatile int copy_reads;

static void copy_reader(void* arg) {
    (void)arg;
    for (;;) {
        int fd = open("hv_copy", O_RDONLY);
        if (fd < 0) exit(8);
        (void)read(fd, copy_buf, PGSIZE); /* -1 while the page is unmapped */
        close(fd);
        copy_reads++;
    }
}

/* Rounds of unmap-under-the-reader; returns how many found an 'X' in the
 * fresh page (exit status: 0 clean, 1 corrupted, 3+ setup). */
static void copy_body(void) {
    char* base = mmap(0, 4 * PGSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) exit(3);
    char* fresh = base + 2 * PGSIZE; /* same leaf table: its fault takes no table page */
    base[0] = 0;
    copy_buf = base;
    if (thread_create(copy_reader, 0) < 0) exit(4);
    int start = uptime(), bad = 0, rounds = 0;
    while (uptime() - start < 20 && bad == 0) { /* 2 s */
        rounds++;
        if (mmap(base, PGSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != base) exit(5);
        base[0] = 0;
        int r = copy_reads;
        while (copy_reads == r) {} /* the reader is in a read into it (or just out of one) */
        if (munmap(base, PGSIZE) < 0) exit(6);
        if (mmap(fresh, PGSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != fresh)
            exit(7);
        memset(fresh, 'Z', PGSIZE);
        r = copy_reads;
        while (copy_reads < r + 2) {} /* any read that was under way has ended */
        for (int i = 0; i < PGSIZE; i++) bad += fresh[i] != 'Z';
        if (munmap(fresh, PGSIZE) < 0) exit(6);
    }
    printf("hostile: copyrace %d rounds, %d bytes of another page's read in a fresh page\n", rounds, bad);
    exit(bad ? 1 : 0);
}

void t_copyrace(void) {
    int fd = open("hv_copy", O_CREATE | O_RDWR);
    if (fd < 0) return fail("copyrace", "create", fd);
    char b[PGSIZE];
    memset(b, 'X', sizeof b);
    int w = write(fd, b, sizeof b);
    close(fd);
    if (w != PGSIZE) return fail("copyrace", "write", w);
    int before = freepages();
    int pid = fork();
    if (pid == 0) copy_body();
    int st = reap(pid);
    unlink("hv_copy");
    if (st != 0) return fail("copyrace", "a read wrote into a page munmap had freed (1), or setup (3+)", st);
    int after = freepages();
    if (after != before) return fail("copyrace", "pages not back", before - after);
    pass("copyrace", "2 s of munmap under a read(): no byte lands in another page");
}
