/* user/fuzz_shape.c - the fuzzer's shapes (part of user/fuzz).
 *
 * A shape is a short call sequence that broke the kernel once, made in
 * place of a random call (user/fuzz_call.c:one_call). Those of the
 * hardening pass (issue 11): exec of a malformed ELF (/be_*, put on the
 * image by tests/guest/fuzz.py), calls in a removed cwd, a mkdir/unlink
 * race with a child on another hart, forking until the table is full, and
 * filling memory until sbrk fails. Those of issue 24: a console write of
 * 32 KiB killed a tick later (a writer alive 10 s after its kill is
 * reported as `fuzz: BUG`), a two-thread process growing and shrinking
 * 8 MiB killed a tick later (the same report), tracing and profiling with
 * hostile sizes by whoever the worker is, and a child that holds a removed
 * cwd and a removed open file past its batch (orphans for the run's end to
 * find). Mappings (issue 25, docs/memory.md): a scratch file (or anonymous
 * memory) mapped shared or private with any protection, touched and
 * written, and meanwhile mprotected, half unmapped, msynced, written by a
 * forked child, truncated or unlinked, before it is all unmapped.
 * The signal shapes live in user/fuzz_sig.c.
 */
#include "user/fuzz.h"
#include "user/user.h"

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
        const char* n = name_any();
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
void shape_mappings(void) {
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

/* Kill child pid a tick from now and reap it: more than 100 ticks (10 s of
 * guest time, the supervisor's own bound for a kill) from the kill to its
 * end is reported on the console as `fuzz: BUG WHAT (pid N) survived kill
 * for N ticks` (the shapes below; issue 24). */
static void kill_in_bound(int pid, const char* what) {
    sleep(1);
    int t0 = uptime();
    kill(pid);
    while (wait(0) != pid) {}
    int ticks = uptime() - t0;
    if (ticks > 100) {
        int fd = open("/console", O_WRONLY);
        fprintf(fd, "\nfuzz: BUG %s (pid %d) survived kill for %d ticks\n", what, pid, ticks);
        close(fd);
    }
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
    kill_in_bound(pid, "console writer");
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
    kill_in_bound(pid, "growing process");
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

void one_shape(void) {
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
