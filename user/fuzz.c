/* fuzz - a system-call fuzzer.
 *
 *   fuzz SEED SECONDS [WORKERS [SKIPMASK [v|t]]]
 *
 * SKIPMASK (hex) leaves out system calls: bit n set = never issue number n
 * (for narrowing down a failure). A sixth argument, v or t, reports worker
 * deaths (v) or traces every call (t). -h prints the usage line and exits
 * 0; a malformed command line prints it and exits 1.
 *
 * Design. The parent is a supervisor that never makes a random call. It
 * forks WORKERS (default 4) workers; each runs one batch of BATCH random
 * system calls from its own seeded PRNG (xorshift64*, seeded from SEED, the
 * worker's slot and its generation, so a seed names the exact sequence every
 * worker issues) and exits with the number of calls it made. A worker that
 * ends any other way (killed by a fault, or killed by the supervisor because
 * it blocked, e.g. reading an empty pipe it also writes) is simply replaced
 * by the next generation. To wake up without busy-waiting the supervisor
 * forks a "ticker" child that sleeps half a second and exits, so wait()
 * returns regularly; on each tick it prints a progress line, kills workers
 * older than a few seconds, and reports a worker that does not die after
 * being killed (a kernel bug: kill must end even blocked processes).
 *
 * What workers may not do, so that the run continues: exit (except at the end
 * of a batch), halt, kill anything but themselves, their own children and
 * non-existent pids, exec anything that exists as a program (paths come from
 * a table of names that are not programs), mknod the console major, read or
 * write the console (they close descriptors 0-2 first and the random paths
 * never name "console"; only the console shape's child writes to it), grow
 * memory without bound (the heap is shrunk back past 4 MiB), or sleep for
 * long. Everything else is fair game, with hostile arguments: null, kernel
 * (0x80000000..), >= 2^38, the trampoline and trapframe pages, the guard
 * page under the stack, the program text, just past the break, -1; huge and
 * negative lengths; negative, closed and out-of-range descriptors; garbage,
 * over-long, unterminated and 14/15-character paths; random open flags;
 * out-of-range system-call numbers (rarely: the kernel logs each). About 2%
 * of the steps are instead "shapes", the sequences that broke the kernel in
 * the hardening pass (issue 11): exec of a malformed ELF (/be_*, put on the
 * image by tests/guest/fuzz.py), calls in a removed cwd, a mkdir/unlink race
 * with a child on another hart, forking until the table is full, and filling
 * memory until sbrk fails; and those of issue 24: a console write of 32 KiB
 * killed a tick later (a writer alive a second after its kill is reported as
 * `fuzz: BUG`), a two-thread process growing and shrinking 8 MiB killed a
 * tick later (the same report), tracing and profiling with hostile sizes by
 * whoever the worker is, and a child that holds a removed cwd and a removed
 * open file past its batch (orphans for the run's end to find). Shapes are off when a
 * SKIPMASK is given, so a narrowed-down replay issues plain calls only.
 * Users and protection: setuid/setgid get root, student, other and junk
 * ids, so a worker (root at birth) often drops to an ordinary user for the
 * rest of its batch and then meets the permission checks; chmod and chown
 * get random paths with plausible and junk modes and ids (-1 included),
 * xstat/fxstat hostile paths, descriptors and pointers.
 * Threads (docs/threads.md): tcreate usually starts a real thread on one
 * of four static stacks that makes a few random calls itself and then
 * texits (so every call also meets a second thread of the same process),
 * otherwise gets faulting entries, stacks and tidp words; futex waits and
 * wakes on scratch words (with the right or a wrong value, short timeouts)
 * and on hostile addresses with junk ops; the worker's first thread never
 * texits (a thread may), and a wait that nobody ends is the supervisor's
 * kill of a blocked worker, which kill must manage for a futex sleeper.
 * Mappings (docs/memory.md): a shape maps a scratch file (or anonymous
 * memory) shared or private with any protection, touches and writes it,
 * and meanwhile mprotects, unmaps half, msyncs, forks a writer, truncates
 * or unlinks the file, before unmapping it all.
 * Signals (user/fuzz_sig.c, docs/signals.md): real handlers that make
 * calls, signal the worker and scribble their saved context; signals to
 * the worker and its children (stops only paired with SIGCONT); sigreturn
 * on random frames, from a child; a storm of signals and stop/continue
 * pairs at a child writing a pipe; a 200 us periodic timer under other calls.
 * IPC (docs/ipc.md): mkfifo on random paths with plausible and junk modes
 * (so opens meet FIFOs, and may block until the supervisor's kill); poll
 * over scratch arrays of any descriptors, bad array pointers, junk counts,
 * short timeouts and, now and then, an endless one.
 * Valid buffers point into a heap scratch area allocated at start, so that
 * a large read lands in the heap and never in the worker's own variables.
 */
#include "user/fuzz.h"
#include "user/user.h"

#define MAXW 8
#define BATCH 50
#define PGSIZE 4096UL
#define MAXVA (1UL << 38)
#define HEAP_CAP (4UL << 20)

/* ---- PRNG ---- */
static unsigned long rng;
unsigned long rnd(void) {
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 2685821657736338717UL;
}
unsigned long below(unsigned long n) { return n ? rnd() % n : 0; }
int chance(int pct) { return (int)below(100) < pct; }
static unsigned long mix(unsigned long a, unsigned long b) {
    unsigned long h = a * 0x9E3779B97F4A7C15UL + b + 0x632BE59BD9B4E019UL;
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9UL;
    h ^= h >> 29;
    return h ? h : 1;
}

long sc(long n, long a0, long a1, long a2, long a3, long a4, long a5) {
    register long r0 asm("a0") = a0;
    register long r1 asm("a1") = a1;
    register long r2 asm("a2") = a2;
    register long r3 asm("a3") = a3;
    register long r4 asm("a4") = a4;
    register long r5 asm("a5") = a5;
    register long r7 asm("a7") = n;
    asm volatile("ecall" : "+r"(r0) : "r"(r1), "r"(r2), "r"(r3), "r"(r4), "r"(r5), "r"(r7) : "memory");
    return r0;
}

/* ---- worker state ---- */
char* scratch;                  /* SCRATCH bytes of heap, valid for the kernel */
static unsigned long heap_base; /* break after scratch was allocated */
int kids[16];
int nkids;
static int stackvar_anchor;
static int verbose;
static unsigned long skipmask; /* system calls not to issue (bit n = number n) */

static const char* names[] = {
    "a",
    "b",
    "c",
    "d1",
    "d2",
    "d1/a",
    "d1/b",
    "d1/d3",
    "d1/d3/x",
    ".",
    "..",
    "../a",
    "./b",
    "",
    "/",
    "//a",
    "d1/",
    "d1/../a",
    "abcdefghijklmn",
    "abcdefghijklmno",
    "abcdefghijklmnopqrstu/x",
    "p",
    "q",
    "zz",
    "d2/../../a",
    "nonexist/x",
    "a/b",
    "/fz",
    "/README.md",
    "d1/.",
    "d1/..",
};
#define NNAMES (sizeof(names) / sizeof(names[0]))

static char pathbuf[512];

/* A user address the kernel must refuse (or a border case). */
long bad_ptr(void) {
    unsigned long brk = (unsigned long)sc(SYS_sbrk, 0, 0, 0, 0, 0, 0);
    unsigned long stackpage = (unsigned long)&stackvar_anchor & ~(PGSIZE - 1);
    unsigned long sp = (unsigned long)&brk & ~(PGSIZE - 1);
    switch (below(16)) {
        case 0:
            return 0;
        case 1:
            return 0x80000000L + (long)(below(0x800000) * 8);
        case 2:
            return 0x80000000L;
        case 3:
            return (long)MAXVA;
        case 4:
            return (long)(MAXVA - PGSIZE); /* trampoline */
        case 5:
            return (long)(MAXVA - 2 * PGSIZE); /* trapframe */
        case 6:
            return -1;
        case 7:
            return (long)brk;
        case 8:
            return (long)(brk + PGSIZE * below(4));
        case 9:
            return (long)(sp - PGSIZE); /* guard page under the stack */
        case 10:
            return (long)(unsigned long)&bad_ptr; /* program text */
        case 11:
            return (long)rnd();
        case 12:
            return (long)(brk - 1 - below(16)); /* straddles the break */
        case 13:
            return (long)(MAXVA - 1 - below(64));
        case 14:
            return (long)(stackpage - PGSIZE);
        default:
            return (long)(0xFFFFFFC000000000UL + below(1UL << 30)); /* sign-extended high */
    }
}

long ptr_any(void) {
    if (chance(70)) return (long)(scratch + below(SCRATCH - 64));
    return bad_ptr();
}

static long len_any(void) {
    switch (below(12)) {
        case 0:
            return 0;
        case 1:
            return 1;
        case 2:
        case 3:
            return (long)below(600);
        case 4:
            return 4096;
        case 5:
            return (long)below(SCRATCH);
        case 6:
            return 1 << 20;
        case 7:
            return 0x7fffffff;
        case 8:
            return -1;
        case 9:
            return -(long)below(1 << 20);
        case 10:
            return (long)rnd();
        default:
            return 512;
    }
}

static long fd_any(void) {
    switch (below(10)) {
        case 0:
            return -1;
        case 1:
            return 16 + (long)below(8);
        case 2:
            return (long)rnd();
        case 3:
            return -(long)below(100);
        case 4:
            return 0x7fffffff;
        default:
            return (long)below(16);
    }
}

long pid_any(void) {
    switch (below(6)) {
        case 0:
            return getpid();
        case 1:
            return nkids ? kids[below(nkids)] : 100000;
        case 2:
            return -1;
        case 3:
            return 0;
        case 4:
            return 1000 + (long)below(100000);
        default:
            return (long)(rnd() | 0x100000000UL); /* truncates to who knows: keep high bits */
    }
}

/* A path the kernel reads: names from the table, garbage, unterminated. */
static long path_any(void) {
    switch (below(12)) {
        case 0:
            return bad_ptr();
        case 1: { /* garbage bytes, terminated */
            int n = (int)below(40);
            for (int i = 0; i < n; i++) {
                char c = (char)(1 + below(255));
                pathbuf[i] = c;
            }
            pathbuf[n] = 0;
            /* never spell "console" by accident: it cannot, the table lacks it */
            return (long)pathbuf;
        }
        case 2: { /* over-long: longer than kMaxPath */
            int n = 100 + (int)below(400);
            for (int i = 0; i < n; i++) pathbuf[i] = (i % 3 == 2) ? '/' : 'a' + (char)below(3);
            pathbuf[n] = 0;
            return (long)pathbuf;
        }
        case 3: { /* unterminated, running up to the break */
            unsigned long brk = (unsigned long)sc(SYS_sbrk, 0, 0, 0, 0, 0, 0);
            if (brk < heap_base) return bad_ptr();
            char* p = (char*)brk - 32;
            for (int i = 0; i < 32; i++) p[i] = 'x';
            return (long)p;
        }
        case 4: { /* unterminated in scratch: 64 KiB of non-NUL */
            char* p = scratch + SCRATCH - 200;
            for (int i = 0; i < 200; i++) p[i] = 'y';
            return (long)p;
        }
        default:
            return (long)names[below(NNAMES)];
    }
}

static long flags_any(void) {
    static const long f[] = {O_RDONLY,           O_WRONLY, O_RDWR, O_CREATE | O_RDWR, O_CREATE | O_WRONLY | O_TRUNC,
                             O_TRUNC | O_RDONLY, O_CREATE};
    if (chance(20)) return (long)rnd();
    return f[below(sizeof(f) / sizeof(f[0]))];
}

void fill_scratch(void) {
    unsigned long* w = (unsigned long*)(scratch + (below(SCRATCH / 2) & ~7UL));
    for (int i = 0; i < 32; i++) w[i] = rnd();
}

/* ---- shapes: short call sequences that found kernel bugs (issue 11) ---- */

static char workdir[16]; /* this worker's directory, /fz/wN */

/* exec a malformed ELF (/be_*, on the image of tests/guest/fuzz.py; -1, or
 * the worker is killed by be_entry_k's bad entry point and replaced). */
static void shape_bad_elf(void) {
    static const char* elves[] = {"/be_pasteof", "/be_runseof", "/be_filesz", "/be_unalign", "/be_overlap",
                                  "/be_hugemem", "/be_neartop", "/be_wraps",  "/be_offhuge", "/be_phnum",
                                  "/be_magic",   "/be_trunc",   "/be_empty",  "/be_phoff",   "/be_entry_k"};
    const char* path = elves[below(sizeof elves / sizeof elves[0])];
    char* argv[] = {(char*)path, 0};
    exec(path, argv);
}

/* Remove the cwd (and its parent), then try to use it. */
static void shape_removed_cwd(void) {
    char d[32], s[32];
    strcpy(d, workdir);
    strcpy(d + strlen(d), "/rc");
    strcpy(s, d);
    strcpy(s + strlen(s), "/s");
    mkdir(d);
    mkdir(s);
    if (chdir(s) < 0) return;
    unlink(s);
    if (chance(50)) unlink(d);
    for (int i = 0; i < 4; i++) {
        const char* n = names[below(NNAMES)];
        switch (below(5)) {
            case 0:
                chdir(n);
                break;
            case 1:
                close(open(n, O_CREATE | O_RDWR));
                break;
            case 2:
                mkdir(n);
                break;
            case 3:
                link("/README.md", n);
                break;
            default:
                unlink(n);
                break;
        }
    }
    chdir(workdir);
    unlink("rc/s");
    unlink("rc");
}

/* A child makes and removes a directory while we create inside it. */
static void shape_dir_race(void) {
    int pid = fork();
    if (pid == 0) {
        for (int i = 0; i < 20; i++) {
            mkdir("rx");
            unlink("rx");
        }
        exit(0);
    }
    for (int i = 0; i < 20; i++) {
        mkdir("rx/y");
        unlink("rx/y");
        close(open("rx/f", O_CREATE | O_RDWR));
        unlink("rx/f");
    }
    if (pid > 0) wait(0);
}

/* Fork children that sleep a moment, until fork fails or 12 exist. */
static void shape_fork_many(void) {
    int n = 0;
    while (n < 12) {
        int pid = fork();
        if (pid == 0) {
            sleep(2);
            exit(0);
        }
        if (pid < 0) break;
        n++;
    }
    while (n-- > 0) wait(0);
}

/* Mappings with plausible arguments (issue 25's cases): a file of 0-3
 * pages of junk mapped shared or private, readable or not, its pages
 * touched, written where the protection may allow it (a write it does not
 * allow kills the worker, which is fine), then any of: mprotect of part,
 * munmap of half, msync, a child that writes and exits, the file truncated
 * and rewritten or unlinked while mapped; then everything unmapped. */
static void shape_mappings(void) {
    const char* name = chance(50) ? "fz_map" : "fz_map2";
    int fd = open(name, O_CREATE | O_RDWR | (chance(30) ? O_TRUNC : 0));
    if (fd < 0) return;
    int fsize = (int)below(3 * PGSIZE + 1);
    for (int i = 0; i < fsize; i += 512) write(fd, scratch + below(SCRATCH - 512), 512);
    int prot = (int)below(8);
    int shared = chance(50);
    unsigned long len = (1 + below(4)) * PGSIZE;
    long off = chance(80) ? 0 : (long)PGSIZE;
    int anon = chance(25);
    char* p = (char*)sc(SYS_mmap, 0, (long)len, prot, (shared ? MAP_SHARED : MAP_PRIVATE) | (anon ? MAP_ANONYMOUS : 0),
                        anon ? -1 : fd, anon ? 0 : off);
    close(fd);
    if (p == (char*)-1) return;
    for (int k = (int)below(6); k >= 0; k--) {
        unsigned long at = below(len);
        if (prot & PROT_READ) (void)*(volatile char*)(p + at);
        if ((prot & PROT_WRITE) && chance(60)) p[at] = (char)rnd();
        switch (below(7)) {
            case 0:
                sc(SYS_mprotect, (long)(p + PGSIZE * below(len / PGSIZE)), PGSIZE, (long)below(8), 0, 0, 0);
                break;
            case 1:
                sc(SYS_munmap, (long)(p + (len / PGSIZE / 2) * PGSIZE), (long)(len / 2), 0, 0, 0, 0);
                break;
            case 2:
                sc(SYS_msync, (long)p, (long)len, chance(50) ? MS_SYNC : MS_ASYNC, 0, 0, 0);
                break;
            case 3: {
                int pid = fork();
                if (pid == 0) {
                    if (prot & PROT_WRITE) p[below(len)] = 1;
                    exit(0);
                }
                if (pid > 0) wait(0);
                break;
            }
            case 4: {
                int t = open(name, O_WRONLY | O_TRUNC);
                if (t >= 0) {
                    write(t, scratch, (int)below(2 * PGSIZE));
                    close(t);
                }
                break;
            }
            case 5:
                unlink(name);
                break;
            default:
                break;
        }
    }
    sc(SYS_munmap, (long)p, (long)len, 0, 0, 0, 0);
}

/* Take memory until sbrk fails, then give it back. */
static void shape_fill_memory(void) {
    char* start = sbrk(0);
    while (sbrk(1 << 20) != (char*)-1) {}
    sbrk(-(int)(sbrk(0) - start));
}

/* A child that holds a removed cwd (two levels deep, in /tmp, where a
 * worker that dropped to an ordinary user may still write) and a removed
 * open file for up to 5 s, outliving its worker's batch: the run's end
 * (QEMU killed) then finds orphans, which fsck must accept and the next
 * boot must free (tests/guest/fuzz.py checks both). */
static void shape_held_orphans(void) {
    if (fork() != 0) return;
    char d[24] = "/tmp/fzo", s[32], f[32];
    int n = getpid(), len = strlen(d);
    for (int i = 0; i < 5; i++, n /= 10) d[len + i] = (char)('0' + n % 10);
    d[len + 5] = 0;
    strcpy(s, d);
    strcpy(s + strlen(s), "/s");
    strcpy(f, d);
    strcpy(f + strlen(f), "/f");
    mkdir(d);
    mkdir(s);
    int fd = open(f, O_CREATE | O_RDWR);
    if (fd >= 0) write(fd, scratch, 1 + below(5000));
    unlink(f);
    if (chdir(s) == 0) {
        unlink(s);
        unlink(d);
    }
    sleep(1 + below(50));
    exit(0);
}

/* A child writes 32 KiB to the console in one call and is killed a tick
 * later: it must be gone within 10 s of guest time, the supervisor's own
 * bound for a kill (issue 24: a console write held the console and
 * ignored kill for as long as it took; guest time runs on while a loaded
 * host starves the harts, and an exit may wait for the log, so a tighter
 * bound reported load: 12 ticks once in make test). The only console use
 * a worker makes: lines of 'z', through its own descriptor. */
static void shape_console_kill(void) {
    int pid = fork();
    if (pid == 0) {
        enum { kBig = 32 * 1024 };
        char* big = sbrk(kBig);
        int fd = open("/console", O_WRONLY);
        if (fd < 0 || big == (char*)-1) exit(0);
        for (int i = 0; i < kBig; i++) big[i] = i % 101 == 100 ? '\n' : 'z';
        write(fd, big, kBig);
        exit(0);
    }
    if (pid < 0) return;
    sleep(1);
    int t0 = uptime();
    kill(pid);
    while (wait(0) != pid) {}
    int ticks = uptime() - t0;
    if (ticks > 100) {
        int fd = open("/console", O_WRONLY);
        fprintf(fd, "\nfuzz: BUG console writer (pid %d) survived kill for %d ticks\n", pid, ticks);
        close(fd);
    }
}

static void spin_thread(void* arg) {
    (void)arg;
    for (;;) __asm__ volatile("" ::: "memory");
}

/* A child with a second thread spinning (a shared page table) grows 8 MiB,
 * touches it and gives it back until it is killed a tick later: gone
 * within shape_console_kill's bound, or `fuzz: BUG` (issue 24: a growth is
 * mapped a MiB at a time and abandoned when killed, its pages kept mapped
 * without PTE_U for the group; hostile sbrkshared checks they come back). */
static void shape_grow_kill(void) {
    int pid = fork();
    if (pid == 0) {
        if (thread_create(spin_thread, 0) < 0) exit(0);
        for (;;) {
            char* m = sbrk(8 << 20);
            if (m == (char*)-1) continue;
            for (int off = 0; off < (8 << 20); off += 4096) m[off] = 1;
            sbrk(-(8 << 20));
        }
    }
    if (pid < 0) return;
    sleep(1);
    int t0 = uptime();
    kill(pid);
    while (wait(0) != pid) {}
    int ticks = uptime() - t0;
    if (ticks > 100) {
        int fd = open("/console", O_WRONLY);
        fprintf(fd, "\nfuzz: BUG growing process (pid %d) survived kill for %d ticks\n", pid, ticks);
        close(fd);
    }
}

/* Tracing and profiling with hostile sizes, periods and buffers, as
 * whoever the worker is now (a non-root worker must be refused), then
 * stopped again so no session outlives the shape. */
static void shape_trace(void) {
    static const int kbs[] = {0, 3, 4, 512, 8192, 8193, -1, 0x7fffffff};
    int kb = kbs[below(sizeof kbs / sizeof kbs[0])];
    if (chance(50)) trace_start(kb);
    else prof_start(chance(50) ? (int)below(3000) : 1000, kb);
    for (int i = 0; i < 3; i++) {
        trace_read(below(1 << 16), (void*)ptr_any(), (int)len_any());
        prof_read(below(1 << 16), (void*)ptr_any(), (int)len_any());
        trace_stat((struct tracestat*)ptr_any());
    }
    trace_stop();
    prof_stop();
}

static void one_shape(void) {
    if (chance(15)) { /* (the file system's shape) */
        shape_held_orphans();
        return;
    }
    if (chance(15)) { /* (issue 25's) */
        shape_mappings();
        return;
    }
    switch (below(10)) {
        case 9:
            shape_signals();
            break;
        case 5:
            shape_console_kill();
            break;
        case 8:
            shape_grow_kill();
            break;
        case 6:
        case 7:
            shape_trace();
            break;
        case 0:
            shape_bad_elf();
            break;
        case 1:
            shape_removed_cwd();
            break;
        case 2:
            shape_dir_race();
            break;
        case 3:
            shape_fork_many();
            break;
        default:
            shape_fill_memory();
            break;
    }
}

/* A user or group id: root, student, another user, "keep" (-1), the
 * caller's own, or junk. */
static long id_any(void) {
    switch (below(6)) {
        case 0:
            return 0;
        case 1:
            return 1000;
        case 2:
            return 1001;
        case 3:
            return -1;
        case 4:
            return getuid();
        default:
            return (long)rnd();
    }
}

/* ---- threads and futexes (issue 26) ---- */

void one_call(void);

#define TSTACKS 4
#define TSTACK 8192
static char tstacks[TSTACKS][TSTACK] __attribute__((aligned(16)));
static volatile int tstack_word[TSTACKS]; /* tidp of the thread on that stack; 0: free */

/* A worker's second (third...) thread: a few random calls, then texit. */
static void thread_body(void* arg) {
    (void)arg;
    for (int i = 0; i < 8; i++) one_call();
    texit((int)below(256));
}

/* An entry point that faults at once (kernel, unmapped, data, trampoline). */
static long bad_entry(void) {
    switch (below(4)) {
        case 0:
            return 0x80000000L + (long)(below(0x10000) * 4);
        case 1:
            return 0x3000000000L;
        case 2:
            return (long)scratch; /* data: not executable */
        default:
            return (long)MAXVA - PGSIZE; /* the trampoline: not for user mode */
    }
}

/* An address user mode can never write (a thread's stack or tidp). */
static long bad_stack(void) {
    switch (below(5)) {
        case 0:
            return 0x80000000L + (long)(below(0x10000) * 16);
        case 1:
            return 0;
        case 2:
            return (long)MAXVA;
        case 3:
            return (long)MAXVA - PGSIZE;
        default:
            return (long)(unsigned long)&bad_ptr; /* program text */
    }
}

static void fuzz_tcreate(void) {
    if (chance(70)) {
        for (int i = 0; i < TSTACKS; i++) {
            if (!__sync_bool_compare_and_swap(&tstack_word[i], 0, -1)) continue;
            long tid = sc(SYS_tcreate, (long)thread_body, 0, (long)(tstacks[i] + TSTACK), (long)rnd(),
                          (long)&tstack_word[i], 0);
            if (tid < 0) tstack_word[i] = 0;
            return;
        }
        return;
    }
    /* Hostile: each fails (-1) or faults in the new thread before it
     * touches the stack it names, which may be another thread's. */
    long entry = (long)thread_body, stack = (long)(tstacks[0] + TSTACK), tidp = 0;
    switch (below(3)) {
        case 0:
            entry = bad_entry();
            break;
        case 1:
            stack = bad_stack();
            break;
        default:
            tidp = bad_stack();
            break;
    }
    sc(SYS_tcreate, entry, (long)rnd(), stack, (long)rnd(), tidp, 0);
}

static void fuzz_futex(void) {
    volatile int* word = (volatile int*)(scratch + (below(SCRATCH / 4) * 4));
    long addr = chance(60) ? (long)word : bad_ptr() + (chance(20) ? (long)below(4) : 0);
    long op = chance(85) ? (long)below(2) : (long)rnd();
    long val = addr == (long)word && chance(60) ? *word : (long)rnd();
    if (op == FUTEX_WAKE && chance(80)) val = (long)below(8);
    long timeout = chance(90) ? 1 + (long)below(20000000) : chance(50) ? 0 : (long)rnd();
    sc(SYS_futex, addr, op, val, timeout, 0, 0);
}

/* ---- named pipes and poll (docs/ipc.md) ---- */

/* poll over up to 8 entries in scratch naming any descriptors (closed,
 * negative, out of range), with junk events; or a bad array pointer, or a
 * junk count (negative, past 64, huge). The timeout is usually short; now
 * and then -1, a poll nobody ends: the supervisor's kill must end it. */
static void fuzz_poll(void) {
    struct pollfd* fds = (struct pollfd*)(scratch + below(SCRATCH / 2) / 8 * 8);
    long n = (long)below(9);
    for (long i = 0; i < n; i++) {
        fds[i].fd = (int)fd_any();
        fds[i].events = (short)(chance(80) ? (long)below(8) : (long)rnd());
        fds[i].revents = (short)rnd();
    }
    long addr = chance(75) ? (long)fds : bad_ptr();
    if (chance(10)) n = chance(50) ? -(long)below(3) - 1 : chance(50) ? 65 : (long)rnd();
    long timeout = chance(50) ? 0 : chance(90) ? (long)below(30) : chance(50) ? -1 : (long)rnd();
    sc(SYS_poll, addr, n, timeout, 0, 0, 0);
}

/* Issue one random system call. */
void one_call(void) {
    if (skipmask == 0 && chance(2)) {
        one_shape();
        return;
    }
    long num = 1 + (long)below(SYS_MAX);
    /* skipmask names calls 0-63 */
    while (num < 64 && (skipmask >> num & 1)) num = 1 + (long)below(SYS_MAX);
    if (chance(1)) num = chance(50) ? 30 + (long)below(100) : (long)rnd(); /* unknown numbers */
    long a0 = (long)rnd(), a1 = (long)rnd(), a2 = (long)rnd();
    switch (num) {
        case SYS_fork: {
            long pid = sc(SYS_fork, 0, 0, 0, 0, 0, 0);
            if (pid == 0) {
                if (chance(30)) sleep(1);
                exit((int)below(256));
            }
            if (pid > 0 && nkids < 16) kids[nkids++] = (int)pid;
            return;
        }
        case SYS_exit:
        case SYS_halt:
            num = SYS_getpid; /* never: the run must go on */
            break;
        case SYS_wait: {
            if (nkids == 0) a0 = chance(50) ? 0 : bad_ptr();
            else a0 = chance(70) ? (long)scratch : bad_ptr();
            if (nkids == 0 && chance(90)) return; /* would only return -1 anyway */
            long pid = sc(SYS_wait, a0, 0, 0, 0, 0, 0);
            for (int i = 0; i < nkids; i++)
                if (kids[i] == pid) kids[i] = kids[--nkids];
            return;
        }
        case SYS_pipe:
            a0 = ptr_any();
            break;
        case SYS_read:
        case SYS_write:
            a0 = fd_any();
            a1 = ptr_any();
            a2 = len_any();
            if (num == SYS_write && chance(30)) fill_scratch();
            break;
        case SYS_kill: {
            long pid = pid_any();
            int ip = (int)pid, self = getpid();
            if (ip == self && !chance(10)) pid = -1;
            if (ip > 0 && ip != self) {
                int mine = 0;
                for (int i = 0; i < nkids; i++) mine |= kids[i] == ip;
                if (!mine) pid = -5; /* never another process: init, the shell, the fuzzer */
            }
            a0 = pid;
            break;
        }
        case SYS_sigsend: /* user/fuzz_sig.c */
            fuzz_sigsend();
            return;
        case SYS_sigact:
            fuzz_sigact();
            return;
        case SYS_sigsusp: /* a good mask waits for a signal nobody sends: only bad pointers */
            a0 = bad_ptr();
            break;
        case SYS_sigreturn:
            fuzz_sigreturn();
            return;
        case SYS_exec: {
            /* only names that are not programs, garbage or bad pointers */
            a0 = chance(50) ? bad_ptr() : path_any();
            a1 = chance(40) ? ptr_any() : bad_ptr();
            if (a1 >= (long)scratch && a1 < (long)(scratch + SCRATCH)) fill_scratch();
            break;
        }
        case SYS_fstat:
            a0 = fd_any();
            a1 = ptr_any();
            break;
        case SYS_chdir:
        case SYS_unlink:
        case SYS_mkdir:
            a0 = path_any();
            break;
        case SYS_dup:
        case SYS_close:
            a0 = fd_any();
            break;
        case SYS_getpid:
        case SYS_uptime:
        case SYS_uptime_ns:
        case SYS_freepages:
            break;
        case SYS_sbrk: {
            unsigned long brk = (unsigned long)sc(SYS_sbrk, 0, 0, 0, 0, 0, 0);
            if (brk > heap_base + HEAP_CAP) {
                a0 = -(long)(brk - heap_base);
            } else {
                switch (below(8)) {
                    case 0:
                        a0 = (long)below(1 << 16);
                        break;
                    case 1:
                        a0 = -(long)below(brk - heap_base + 1);
                        break;
                    case 2:
                        a0 = 0x7fffffff;
                        break; /* far too much */
                    case 3:
                        a0 = (long)(1UL << 36);
                        break; /* 64-bit huge */
                    case 4:
                        a0 = chance(5) ? -(long)brk - 4096 : 0;
                        break; /* below zero: rare */
                    case 5:
                        a0 = (long)below(PGSIZE * 300);
                        break;
                    case 6:
                        a0 = -0x7fffffffL;
                        break;
                    default:
                        a0 = 1;
                        break;
                }
                if (a0 < 0 && a0 < -(long)(brk - heap_base) && !chance(5)) a0 = -(long)(brk - heap_base);
            }
            break;
        }
        case SYS_sleep:
            a0 = chance(80) ? (long)below(2) : -(long)below(10) - 1;
            if (chance(1)) a0 = (long)rnd() | (1L << 63); /* negative 64-bit */
            break;
        case SYS_open:
            a0 = path_any();
            a1 = flags_any();
            break;
        case SYS_mknod:
            a0 = path_any();
            do a1 = chance(70) ? (long)below(12) : (long)rnd();
            while ((short)a1 == CONSOLE);
            a2 = (long)rnd();
            break;
        case SYS_link:
            a0 = path_any();
            a1 = path_any();
            break;
        case SYS_getpriority:
            a0 = pid_any();
            break;
        case SYS_setpriority:
            a0 = pid_any();
            if (a0 > 0 && a0 < 3) a0 = getpid(); /* leave init and the shell alone */
            a1 = chance(70) ? (long)below(60) - 30 : (long)rnd();
            break;
        case SYS_sched_get:
            a0 = ptr_any();
            a1 = len_any();
            break;
        case SYS_sched_set:
            a0 = chance(70) ? path_any() : bad_ptr();
            break;
        case SYS_procinfo:
            a0 = chance(70) ? (long)below(80) - 8 : (long)rnd();
            a1 = ptr_any();
            break;
        case SYS_setuid:
        case SYS_setgid:
            a0 = id_any();
            break;
        case SYS_chmod:
            a0 = path_any();
            a1 = chance(70) ? (long)below(02001) : chance(50) ? -1 : (long)rnd();
            break;
        case SYS_chown:
            a0 = path_any();
            a1 = id_any();
            a2 = id_any();
            break;
        case SYS_xstat:
            a0 = chance(80) ? path_any() : bad_ptr();
            a1 = ptr_any();
            break;
        case SYS_fxstat:
            a0 = fd_any();
            a1 = ptr_any();
            break;
        case SYS_getrlimit:
        case SYS_setrlimit:
            a0 = chance(80) ? 6 : (long)rnd(); /* RLIMIT_NPROC, or junk */
            a1 = ptr_any();
            if (num == SYS_setrlimit && a1 >= (long)scratch && a1 < (long)(scratch + SCRATCH) && chance(50)) {
                unsigned long* r = (unsigned long*)((unsigned long)a1 & ~7UL);
                r[0] = below(300); /* a plausible limit: fork bombs meet it */
                r[1] = chance(50) ? r[0] : ~0UL;
                a1 = (long)r;
            }
            break;
        case SYS_tcreate:
            fuzz_tcreate();
            return;
        case SYS_futex:
            fuzz_futex();
            return;
        case SYS_mkfifo: /* FIFOs on random paths: a later open of one may block until the supervisor's kill */
            a0 = path_any();
            a1 = chance(70) ? (long)below(02001) : (long)rnd();
            break;
        case SYS_poll:
            fuzz_poll();
            return;
        case SYS_mmap:
        case SYS_munmap:
        case SYS_mprotect:
        case SYS_msync:
            if (chance(50)) {
                shape_mappings(); /* plausible arguments; otherwise random ones below */
                return;
            }
            break;
        case SYS_texit:
            if (gettid() == getpid()) num = SYS_gettid; /* the first thread never: the batch must go on */
            a0 = (long)below(256);
            break;
        case SYS_gettid:
        case SYS_getuid:
        case SYS_geteuid:
        case SYS_getgid:
        case SYS_getegid:
            break;
        default:
            break; /* unknown number: random arguments */
    }
    if (verbose > 1) {
        if ((num == SYS_read || num == SYS_write || num == SYS_close || num == SYS_dup || num == SYS_fstat) &&
            (int)a0 == 2)
            return;
        fprintf(2, "[%d] %d(%p, %p, %p)\n", getpid(), (int)num, (void*)a0, (void*)a1, (void*)a2);
    }
    sc(num, a0, a1, a2, (long)rnd(), (long)rnd(), (long)rnd());
}

static void worker(int slot, unsigned long seed) {
    rng = seed;
    for (int fd = 0; fd < 16; fd++)
        if (fd != 2 || verbose < 2) close(fd);
    scratch = sbrk(SCRATCH);
    if (scratch == (char*)-1) exit(0);
    heap_base = (unsigned long)sbrk(0);
    for (int i = 0; i < SCRATCH / 8; i++) ((unsigned long*)scratch)[i] = rnd() | 0x0101010101010101UL;
    strcpy(workdir, "/fz/w0");
    workdir[5] = (char)('0' + slot);
    mkdir("/fz");
    mkdir(workdir);
    if (chdir(workdir) < 0) exit(0);
    for (int i = 0; i < BATCH; i++) one_call();
    exit(BATCH);
}

/* ---- supervisor ---- */
struct slot {
    int pid;
    unsigned long gen;
    unsigned long started;
    int killed;
};

/* A non-empty string of digits in base 10 or 16. */
static int is_number(const char* s, int hex) {
    if (!*s) return 0;
    for (; *s; s++)
        if (!((*s >= '0' && *s <= '9') || (hex && ((*s | 32) >= 'a' && (*s | 32) <= 'f')))) return 0;
    return 1;
}

int main(int argc, char* argv[]) {
    static const char usage[] = "fuzz SEED SECONDS [WORKERS [SKIPMASK [v|t]]]";
    usage_on_help(argc, argv, usage);
    if (argc < 3 || argc > 6 || !is_number(argv[1], 0) || !is_number(argv[2], 0) ||
        (argc > 3 && !is_number(argv[3], 0)) || (argc > 4 && !is_number(argv[4], 1)) ||
        (argc > 5 && strcmp(argv[5], "v") != 0 && strcmp(argv[5], "t") != 0))
        usage_exit(usage, 1);
    unsigned long seed = (unsigned long)atoi(argv[1]);
    unsigned long secs = (unsigned long)atoi(argv[2]);
    int nw = argc > 3 ? atoi(argv[3]) : 4;
    if (nw < 1 || nw > MAXW) nw = 4;
    verbose = argc > 5 ? 1 + (argv[5][0] == 't') : 0; /* "v": report deaths, "t": trace every call */
    for (const char* m = argc > 4 ? argv[4] : ""; *m; m++)
        skipmask = skipmask * 16 + (unsigned long)(*m <= '9' ? *m - '0' : (*m | 32) - 'a' + 10);
    const unsigned long S = 1000000000UL;
    unsigned long t0 = uptime_ns(), last_print = t0;
    unsigned long calls = 0, batches = 0, died = 0, watchdog = 0, gens = 0;
    int stuck = 0;
    struct slot w[MAXW];
    printf("fuzz: seed %d, %d seconds, %d workers\n", (int)seed, (int)secs, nw);
    for (int i = 0; i < nw; i++) w[i].pid = 0, w[i].gen = 0;
    int ticker = 0;
    int stopping = 0;
    for (;;) {
        unsigned long now = uptime_ns();
        if (!stopping && now - t0 >= secs * S) stopping = 1;
        /* (re)start workers */
        for (int i = 0; i < nw && !stopping; i++) {
            if (w[i].pid > 0) continue;
            unsigned long g = w[i].gen++;
            gens++;
            int pid = fork();
            if (pid == 0) worker(i, mix(mix(seed, (unsigned long)i), g));
            if (pid < 0) {
                w[i].pid = 0;
                break; /* out of processes: retry on the next tick */
            }
            w[i].pid = pid;
            w[i].started = now;
            w[i].killed = 0;
        }
        if (ticker == 0) {
            ticker = fork();
            if (ticker == 0) {
                sleep(5);
                exit(0);
            }
            if (ticker < 0) ticker = 0;
        }
        int alive = 0;
        for (int i = 0; i < nw; i++) alive += w[i].pid > 0;
        if (stopping && alive == 0) break;
        int status = 0;
        int pid = wait(&status);
        now = uptime_ns();
        if (pid < 0) {
            sleep(1);
            continue;
        }
        if (pid == ticker) {
            ticker = 0;
        } else {
            for (int i = 0; i < nw; i++) {
                if (w[i].pid != pid) continue;
                w[i].pid = 0;
                if (status == BATCH) {
                    calls += BATCH;
                    batches++;
                } else {
                    died++;
                    if (verbose)
                        printf("fuzz: worker %d generation %d (pid %d) ended with status %d\n", i, (int)(w[i].gen - 1),
                               pid, status);
                }
            }
        }
        /* watchdog: a worker that blocks is killed; one that survives a kill is a kernel bug */
        for (int i = 0; i < nw; i++) {
            if (w[i].pid <= 0) continue;
            unsigned long age = now - w[i].started;
            if (!w[i].killed && (age > 4 * S || stopping)) {
                kill(w[i].pid);
                w[i].killed = 1;
                w[i].started = now;
                if (!stopping) watchdog++;
            } else if (w[i].killed && age > 10 * S && !(stuck & (1 << i))) {
                stuck |= 1 << i;
                printf("fuzz: BUG worker %d (pid %d, generation %d) survived kill for 10 s\n", i, w[i].pid,
                       (int)(w[i].gen - 1));
            }
        }
        if (now - last_print >= S) {
            last_print = now;
            printf("fuzz: progress t=%ds calls=%d batches=%d died=%d watchdog=%d freepages=%d\n", (int)((now - t0) / S),
                   (int)calls, (int)batches, (int)died, (int)watchdog, freepages());
        }
        if (stuck && stopping && now - t0 > (secs + 30) * S) break;
    }
    while (ticker > 0 && wait(0) >= 0)
        ;
    unsigned long el = uptime_ns() - t0;
    printf("fuzz: done calls=%d batches=%d died=%d watchdog=%d generations=%d ms=%d stuck=%d\n", (int)calls,
           (int)batches, (int)died, (int)watchdog, (int)gens, (int)(el / 1000000), stuck ? 1 : 0);
    exit(stuck ? 1 : 0);
}
