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
 * cowbomb: a process with 2 MiB of heap written forks up to 60 children
 *   (fewer if fork fails first); all at once each writes every other page
 *   (a copy-on-write copy each, on every hart at once) and checks every
 *   page's bytes: no child sees another's write, and every page comes back.
 * touchall: every page of the program's own space is read (and the
 *   writable ones written) by one child, which must live; then 320
 *   children each touch one address from a sweep of the whole range
 *   (every region's first and last page and its neighbours, 256 addresses
 *   spread over the 256 GiB of user space, 48 above it, up to 2^64): each
 *   exits 0 or is killed, nothing else, and every page comes back.
 * mmaptrunc: for 2 s, two processes map a file (shared and private) and
 *   read every page, each pass in a child, while a third truncates and
 *   rewrites it and a fourth unlinks and recreates it: a mapped byte is
 *   always one the file held (a pattern letter) or a zero past its end in
 *   the last page, a page with no byte of the file is SIGBUS (the pass's
 *   handler exits 5), nothing else kills, and every page comes back (fsck
 *   at the end: the suite).
 * copyrace: a thread read()s a file of 'X' into a page in a loop while the
 *   main thread unmaps that page, maps a fresh one nearby (which the
 *   allocator hands the freed frame) and fills it with 'Z': no 'X' may
 *   ever appear in the fresh page. Before kernel copies pinned their page
 *   (kernel/mm/fault.h:vm_pin), a read preempted between its look-up and
 *   its copy wrote into the frame after munmap freed it, so into another
 *   mapping's page.
 * lockorder: kernel copies that fault a file page in while holding a
 *   file's lock (docs/memory.md "Lock order"), each under a 30 s watchdog
 *   (a deadlock leaves its processes asleep for ever: the test fails and
 *   says which). 1: for 2 s two processes read() (or write()) their own
 *   file through a buffer whose last page maps the other's file, never
 *   touched, each round at once; before the fix each held its file's lock
 *   and waited for the other's (hung at 1 and 3 harts). 2: for 2 s a
 *   process read()s its file into a buffer ending in an untouched private
 *   mapping of that file while a sibling thread msync()s a shared mapping
 *   of it: before the fix the reader held the file's lock and waited for
 *   the address space's, which the syncer held while it waited for the
 *   file's (hung at 3 harts). */
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
                /* (a file's page past its 10 bytes is SIGBUS: only the first is touched) */
                if (p != MAP_FAILED && (prot & PROT_READ) && (unsigned long)p < 0x3000000000UL &&
                    ((flags & MAP_ANONYMOUS) || off == 0)) {
                    volatile char c = p[0];
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
    struct pagesnap before;
    pages_snap(&before);
    int pid = fork();
    if (pid == 0) garbage_body();
    int st = reap(pid);
    if (st != 0) return fail("mmapgarbage", "the caller did not live: status", st);
    int lost = pages_diff("mmapgarbage", &before);
    if (lost != 0) return fail("mmapgarbage", "pages not back", lost);
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
    struct pagesnap before;
    pages_snap(&before);
    for (int round = 0; round < 10; round++) {
        int pid = fork();
        if (pid == 0) race_body();
        int st = reap(pid);
        if (st != -1 && st != 0) return fail("mprotrace", "status (round*100+status)", round * 100L + st);
    }
    int d = pages_diff("mprotrace", &before);
    if (d != 0) return fail("mprotrace", "pages not back", d);
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
    struct pagesnap before;
    pages_snap(&before);
    int pid = fork();
    if (pid == 0) oom_body();
    int st = reap(pid);
    if (st != 0) return fail("mmapoom", "the mapper did not end cleanly: status", st);
    int lost = pages_diff("mmapoom", &before);
    if (lost != 0) return fail("mmapoom", "pages not back", lost);
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
    struct pagesnap before;
    pages_snap(&before);
    int pid = fork();
    if (pid == 0) copy_body();
    int st = reap(pid);
    unlink("hv_copy");
    if (st != 0) return fail("copyrace", "a read wrote into a page munmap had freed (1), or setup (3+)", st);
    int lost = pages_diff("copyrace", &before);
    if (lost != 0) return fail("copyrace", "pages not back", lost);
    pass("copyrace", "2 s of munmap under a read(): no byte lands in another page");
}

/* ---- cowbomb ---- */

#define COW_PAGES 512

static void cow_child(char* p, int me) {
    for (int i = me % 2; i < COW_PAGES; i += 2) p[i * PGSIZE] = (char)(me + 1); /* copies */
    sleep(1);                                                                   /* all alive at once */
    for (int i = 0; i < COW_PAGES; i++) {
        char want = (i % 2 == me % 2) ? (char)(me + 1) : (char)i;
        if (p[i * PGSIZE] != want) exit(1);
    }
    exit(0);
}

static void cow_body(void) {
    char* p = sbrk(COW_PAGES * PGSIZE);
    if (p == (char*)-1) exit(3);
    for (int i = 0; i < COW_PAGES; i++) p[i * PGSIZE] = (char)i;
    int n = 0;
    for (; n < 60; n++) {
        int pid = fork();
        if (pid < 0) break;
        if (pid == 0) cow_child(p, n);
    }
    int bad = 0;
    for (int i = 0; i < n; i++) {
        int st = -1;
        wait(&st);
        bad += st != 0;
    }
    for (int i = 0; i < COW_PAGES; i++) bad += p[i * PGSIZE] != (char)i; /* the parent's own bytes */
    printf("hostile: cowbomb %d children over %d shared pages, %d bad\n", n, COW_PAGES, bad);
    exit(bad ? 1 : n < 8 ? 2 : 0);
}

void t_cowbomb(void) {
    struct pagesnap before;
    pages_snap(&before);
    int pid = fork();
    if (pid == 0) cow_body();
    int st = reap(pid);
    if (st != 0) return fail("cowbomb", "a child saw a wrong byte (1), fewer than 8 forks (2), setup (3)", st);
    int lost = pages_diff("cowbomb", &before);
    if (lost != 0) return fail("cowbomb", "pages not back", lost);
    pass("cowbomb", "up to 60 children writing 256 of 512 shared pages each at once: every byte right, pages back");
}

/* ---- touchall ---- */

extern char end[];

static void sweep_own(void) {
    static volatile unsigned long zero = 0;
    volatile char* base = (volatile char*)zero;
    char* heap = sbrk(256 * PGSIZE); /* lazy: every page a first-touch fault */
    if (heap == (char*)-1) exit(3);
    unsigned long top = (unsigned long)sbrk(0);
    volatile char here = 0;
    const unsigned long guard = ((unsigned long)end + PGSIZE - 1) & ~(PGSIZE - 1);
    const unsigned long sp_page = (unsigned long)&here & ~(PGSIZE - 1);
    int sum = here;
    for (unsigned long a = 0; a < top; a += PGSIZE) {
        if (a >= guard && a < sp_page) continue; /* the guard page, and the stack below sp (a stray touch) */
        sum += base[a];
    }
    for (unsigned long a = (unsigned long)heap; a < top; a += PGSIZE) base[a] = 1;
    exit(sum & 0);
}

static int touch_one(unsigned long va, int write) {
    int pid = fork();
    if (pid == 0) {
        volatile char* p = (volatile char*)va;
        if (write) *p = 1;
        else (void)*p;
        exit(0);
    }
    return reap(pid);
}

void t_touchall(void) {
    struct pagesnap before;
    pages_snap(&before);
    int pid = fork();
    if (pid == 0) sweep_own();
    int st = reap(pid);
    if (st != 0) return fail("touchall", "reading and writing its own pages did not exit 0", st);
    unsigned long brk = (unsigned long)sbrk(0);
    unsigned long marks[] = {0, (unsigned long)end, brk, 1UL << 30, 128UL << 30, 252UL << 30, 1UL << 38};
    int odd = 0, n = 0;
    for (unsigned i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
        for (long d = -2; d <= 1; d++) {
            unsigned long va = marks[i] + (unsigned long)(d * (long)PGSIZE);
            for (int w = 0; w < 2; w++, n++) {
                int r = touch_one(va, w);
                odd += r != 0 && r != -1;
            }
        }
    }
    for (unsigned long k = 0; k < 256; k++, n++) {
        int r = touch_one(k * ((1UL << 38) / 256) + k * 8, (int)(k & 1));
        odd += r != 0 && r != -1;
    }
    for (unsigned long k = 1; k <= 8; k++, n++) {
        int r = touch_one(k << 56, 0);
        odd += r != 0 && r != -1;
    }
    if (odd) return fail("touchall", "children neither exiting 0 nor killed", odd);
    int lost = pages_diff("touchall", &before);
    if (lost != 0) return fail("touchall", "pages not back", lost);
    printf("hostile: touchall %d probes\n", n);
    pass("touchall", "every own page touched; 320 probes over the whole address space: exit 0 or killed");
}

/* ---- mmaptrunc ---- */

#define MT_PAGES 4

static void mt_write(char letter) {
    int fd = open("hv_trunc", O_CREATE | O_WRONLY | O_TRUNC);
    if (fd < 0) return; /* unlinked and not yet recreated: fine */
    char b[512];
    memset(b, letter, sizeof b);
    for (int i = 0; i < MT_PAGES * PGSIZE / 512; i++) write(fd, b, sizeof b);
    close(fd);
}

static void mt_on_bus(int s) {
    (void)s;
    exit(5); /* a page past the file's end, truncated meanwhile: SIGBUS, as in Linux */
}

/* One pass in a child: map the file, read every page, unmap. Exit 0, 1 on
 * a wrong byte, 5 on SIGBUS. */
static void mt_pass(int shared) {
    struct ksigaction a = {(unsigned long)mt_on_bus, 0, 0};
    if (sigact(SIGBUS, &a, 0) != 0) exit(3);
    int fd = open("hv_trunc", O_RDONLY);
    if (fd < 0) exit(0);
    volatile char* p = mmap(0, MT_PAGES * PGSIZE, PROT_READ, shared ? MAP_SHARED : MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED) exit(3);
    int bad = 0;
    for (int i = 0; i < MT_PAGES * PGSIZE; i += 512) {
        char c = p[i];
        if (c != 0 && (c < 'A' || c > 'Z')) {
            printf("hostile: mmaptrunc byte %d of a %s mapping: %d\n", i, shared ? "shared" : "private", c);
            bad++;
        }
    }
    if (munmap((void*)p, MT_PAGES * PGSIZE) < 0) exit(4);
    exit(bad ? 1 : 0);
}

static void mt_reader(int shared, int until) {
    int bad = 0, buses = 0, passes = 0;
    while (uptime() < until && !bad) {
        int pid = fork();
        if (pid < 0) exit(3);
        if (pid == 0) mt_pass(shared);
        int st = reap(pid);
        passes++;
        buses += st == 5;
        if (st != 0 && st != 5) {
            printf("hostile: mmaptrunc pass of a %s mapping: status %d\n", shared ? "shared" : "private", st);
            bad++;
        }
    }
    printf("hostile: mmaptrunc %s reader: %d passes, %d SIGBUS\n", shared ? "shared" : "private", passes, buses);
    exit(bad ? 1 : 0);
}

void t_mmaptrunc(void) {
    mt_write('A');
    struct pagesnap before;
    pages_snap(&before);
    int until = uptime() + 20;
    int pids[4];
    for (int k = 0; k < 4; k++) {
        pids[k] = fork();
        if (pids[k] < 0) return fail("mmaptrunc", "fork", k);
        if (pids[k] != 0) continue;
        if (k < 2) mt_reader(k, until);
        for (int round = 0; uptime() < until; round++) {
            if (k == 2) mt_write((char)('A' + round % 26));
            else if (unlink("hv_trunc") == 0) mt_write('Q');
        }
        exit(0);
    }
    int bad = 0;
    for (int k = 0; k < 4; k++) {
        int st = -1;
        int w = wait(&st);
        if (st != 0) printf("hostile: mmaptrunc process %d: status %d\n", w, st);
        bad += st != 0;
    }
    unlink("hv_trunc");
    if (bad) return fail("mmaptrunc", "processes that saw a wrong byte or were killed", bad);
    int lost = pages_diff("mmaptrunc", &before);
    if (lost != 0) return fail("mmaptrunc", "pages not back", lost);
    pass("mmaptrunc", "2 s of mapping a file while it is truncated, rewritten, unlinked: right bytes or SIGBUS");
}

/* ---- lockorder ---- */

#define LO_HEAD 16 /* pages of anonymous memory a copy goes through first */
#define LO_TAIL 8  /* pages of each file a tail mapping may take */

/* A file of LO_HEAD + LO_TAIL pages of `letter`: a new file, so none of its
 * pages is in the page cache (truncation took the old ones out). */
static int lo_make(const char* name, char letter) {
    int fd = open(name, O_CREATE | O_RDWR | O_TRUNC);
    if (fd < 0) return -1;
    char b[512];
    memset(b, letter, sizeof b);
    for (int i = 0; i < (LO_HEAD + LO_TAIL) * PGSIZE / 512; i++) write(fd, b, sizeof b);
    close(fd);
    return 0;
}

/* A buffer of LO_HEAD anonymous pages (touched) followed by one page of a
 * mapping of file `name` at page `page`, never touched: a kernel copy
 * through the buffer faults the tail in from the file. */
static char* lo_buffer(char* head, const char* name, int page, int prot, int flags) {
    int fd = open(name, O_RDWR);
    if (fd < 0) return 0;
    char* tail = mmap(head + LO_HEAD * PGSIZE, PGSIZE, prot, flags | MAP_FIXED, fd, (long)page * PGSIZE);
    close(fd);
    return tail == head + LO_HEAD * PGSIZE ? tail : 0;
}

/* Cross: process `me` copies its own file (read() into, or write() from,
 * a buffer whose last page maps the other's file) while the other does
 * the same the other way round: each holds its own file's lock and faults
 * on the other's. Barriers (a byte each way) start the rounds together;
 * every LO_TAIL rounds the files are made anew (fresh uncached pages). */
/* A barrier between the two: process 0 says whether another round runs
 * (its clock decides for both), process 1 answers. */
static int lo_sync(int me, int to, int from, int until) {
    char c = me == 0 && uptime() < until;
    if (me == 0 && (write(to, &c, 1) != 1 || read(from, &c, 1) != 1)) exit(4);
    if (me == 1 && (read(from, &c, 1) != 1 || write(to, &c, 1) != 1)) exit(4);
    return c;
}

static void lo_cross(int me, int to, int from, int until) {
    const char* mine = me ? "hv_lo1" : "hv_lo0";
    const char* other = me ? "hv_lo0" : "hv_lo1";
    char* head = mmap(0, (LO_HEAD + 1) * PGSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (head == MAP_FAILED) exit(3);
    memset(head, 'h', LO_HEAD * PGSIZE);
    int rounds = 0;
    for (int round = 0; lo_sync(me, to, from, until); round++) {
        if (round % LO_TAIL == 0 && round > 0) {
            if (lo_make(mine, me ? 'B' : 'A') < 0) exit(5);
            lo_sync(me, to, from, until);
        }
        const int writing = round / LO_TAIL % 2;
        char* tail = lo_buffer(head, other, LO_HEAD + round % LO_TAIL, PROT_READ | PROT_WRITE,
                               round % 2 ? MAP_SHARED : MAP_PRIVATE);
        if (tail == 0) exit(6);
        int fd = open(mine, O_RDWR);
        if (fd < 0) exit(7);
        const int n = (LO_HEAD + 1) * PGSIZE;
        int got = writing ? write(fd, head, n) : read(fd, head, n);
        close(fd);
        if (got != n) {
            printf("hostile: lockorder %s of %d bytes returned %d\n", writing ? "write" : "read", n, got);
            exit(8);
        }
        if (munmap(tail, PGSIZE) < 0) exit(9);
        rounds++;
    }
    if (me == 0) printf("hostile: lockorder: %d rounds of two processes copying each other's files\n", rounds);
    exit(0);
}

static void lo_cross_body(void) {
    if (lo_make("hv_lo0", 'A') < 0 || lo_make("hv_lo1", 'B') < 0) exit(3);
    int ab[2], ba[2];
    if (pipe(ab) < 0 || pipe(ba) < 0) exit(3);
    const int until = uptime() + 20; /* 2 s */
    int pids[2];
    for (int me = 0; me < 2; me++) {
        pids[me] = fork();
        if (pids[me] < 0) exit(3);
        if (pids[me] == 0 && me == 0) lo_cross(0, ab[1], ba[0], until);
        if (pids[me] == 0) lo_cross(1, ba[1], ab[0], until);
    }
    close(ab[0]);
    close(ab[1]);
    close(ba[0]);
    close(ba[1]);
    int bad = 0;
    for (int me = 0; me < 2; me++) {
        int st = -1;
        if (waitpid(pids[me], &st, 0) == pids[me] && WIFEXITED(st)) st = WEXITSTATUS(st);
        if (st != 0) printf("hostile: lockorder: process %d exited %d\n", me, st);
        bad += st != 0;
    }
    unlink("hv_lo0");
    unlink("hv_lo1");
    exit(bad ? 1 : 0);
}

/* Threads: the main thread read()s its file into a buffer whose last
 * page maps that file, never touched (holding the file's lock, it faults:
 * the fault takes the address space's lock), while a sibling msync()s two
 * dirty pages of a shared mapping of the file (holding the address
 * space's lock, it writes them back: that takes the file's lock). */
static char* volatile lo_shared;
static volatile int lo_until;

static void lo_syncer(void* arg) {
    (void)arg;
    while (uptime() < lo_until) {
        lo_shared[0] = 's';
        lo_shared[PGSIZE] = 's';
        if (msync(lo_shared, 2 * PGSIZE, MS_SYNC) < 0) exit(10);
    }
}

static void lo_threads_body(void) {
    if (lo_make("hv_lo2", 'C') < 0) exit(3);
    int fd = open("hv_lo2", O_RDWR);
    lo_shared = mmap(0, 2 * PGSIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    char* head = mmap(0, (LO_HEAD + 1) * PGSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (lo_shared == MAP_FAILED || head == MAP_FAILED) exit(3);
    memset(head, 'h', LO_HEAD * PGSIZE);
    lo_until = uptime() + 20; /* 2 s */
    int t = thread_create(lo_syncer, 0);
    if (t < 0) exit(4);
    int rounds = 0;
    for (int round = 0; uptime() < lo_until; round++) {
        char* tail = lo_buffer(head, "hv_lo2", LO_HEAD + round % LO_TAIL, PROT_READ | PROT_WRITE, MAP_PRIVATE);
        if (tail == 0) exit(6);
        fd = open("hv_lo2", O_RDONLY);
        const int n = (LO_HEAD + 1) * PGSIZE;
        int got = read(fd, head, n);
        close(fd);
        if (got != n) {
            printf("hostile: lockorder read of %d bytes returned %d\n", n, got);
            exit(8);
        }
        if (munmap(tail, PGSIZE) < 0) exit(9);
        rounds++;
    }
    if (thread_join(t) != 0) exit(11);
    printf("hostile: lockorder: %d read()s into a mapping of the file while a thread msyncs it\n", rounds);
    unlink("hv_lo2");
    exit(0);
}

/* Run body in a child; its status, or -1000 if it has not ended after
 * `secs` seconds (a deadlock: its processes sleep for ever on locks). */
static int watchdog(void (*body)(void), int secs) {
    int pid = fork();
    if (pid < 0) return -100;
    if (pid == 0) body();
    const int deadline = uptime() + secs * 10;
    for (;;) {
        int st = 0;
        int w = waitpid(pid, &st, WNOHANG);
        if (w == pid) return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        if (w < 0) return -100;
        if (uptime() >= deadline) return -1000;
        sleep(2);
    }
}

void t_lockorder(void) {
    struct pagesnap before;
    pages_snap(&before);
    static const char* what[] = {"two processes copying each other's mapped files",
                                 "a read() into a mapping of its file while a thread msyncs it"};
    void (*bodies[])(void) = {lo_cross_body, lo_threads_body};
    for (int k = 0; k < 2; k++) {
        int st = watchdog(bodies[k], 30);
        if (st == -1000) {
            printf("hostile: lockorder: %s: stuck for 30 s (a deadlock)\n", what[k]);
            return fail("lockorder", "deadlock (1: processes, 2: threads)", k + 1);
        }
        if (st != 0) return fail("lockorder", "status (k*100 + status)", k * 100L + st);
    }
    int lost = pages_diff("lockorder", &before);
    if (lost != 0) return fail("lockorder", "pages not back", lost);
    pass("lockorder", "copies between mapped files in two processes, and a read() racing msync: no deadlock");
}
