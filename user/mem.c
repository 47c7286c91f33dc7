/* user/mem.c - OSTEP chapter 21's memory toucher: allocate N MiB, then
 * touch all of it in a loop, printing each pass's bandwidth, and check
 * every word still holds what was written (docs/memory.md "Swap").
 *
 *   mem MB [PASSES]    default 4 passes
 *   mem -f MB          fork once the data is written; the child, then the
 *                      parent, each check it and write their own pattern
 *                      once (copy-on-write over pages partly in swap)
 *   mem -F MB          the same with parent and child at once (both
 *                      thrash: every resident page is shared by the two)
 *   mem -w MB HOTKB PASSES   a hot set of HOTKB KiB is touched one page
 *                      for every page of an MB MiB cold sweep, PASSES
 *                      times: clock keeps the hot pages resident (their
 *                      accessed bits), FIFO evicts them by age; vmstat's
 *                      page-ins show the difference (`mem: hot ... ok`)
 *   mem -t N MB        write MB MiB, then N threads each read all of it
 *                      back at once (several harts faulting the same
 *                      swapped pages): `mem: N threads read MB MiB ok`
 *   mem -s MB          write MB MiB, then hand all of it to system calls
 *                      whose copies meet swapped pages: write() into a
 *                      pipe (a child checks every word), write() of its
 *                      first 256 KiB to a file and read() of it back 1
 *                      MiB further on: `mem: syscalls over MB MiB ok`
 *   mem -k MB PAGES    a child touches MB MiB for ever; once PAGES pages
 *                      were read back from swap since it started (MB must
 *                      exceed memory: it pages out and in all the time),
 *                      it is killed mid page-out or page-in; then every
 *                      page must be back: free less swap used as before
 *                      (this process's own pages may have gone to swap
 *                      meanwhile). A condition, not a clock: a slow host
 *                      only makes it wait longer (gives up after 300 s)
 *
 * Pass 0 writes a pattern (each 8-byte word: its index mixed with the
 * pass); every later pass reads the previous pattern back and writes the
 * next, so a page lost or mixed up in the swap area shows as a wrong word.
 * While MB fits in free memory every pass after the first runs at memory
 * speed; past it, every page of every pass is a page-out and a page-in
 * (the cliff). Bandwidth is MiB of the pass per second of uptime_ns (under
 * QEMU -icount, virtual time). Output: `mem: pass P: K KiB/ms` per pass,
 * then `mem: N MiB ok` or `mem: FAIL ...` (exit 1).
 */
#include "kernel/fcntl.h"
#include "kernel/types.h"
#include "user/user.h"

static const char usage_line[] =
    "mem [-f|-F] MB [PASSES] | mem -w MB HOTKB PASSES | mem -t N MB | mem -s MB | mem -k MB PAGES";

static unsigned long word_of(unsigned long i, int pass) { return (i * 0x9e3779b97f4a7c15ul) ^ (unsigned long)pass; }

/* Check pass `check` (or none: -1) and write pass `write` over words. */
static long touch(unsigned long* w, unsigned long n, int check, int write) {
    for (unsigned long i = 0; i < n; i++) {
        if (check >= 0 && w[i] != word_of(i, check)) return (long)i;
        w[i] = word_of(i, write);
    }
    return -1;
}

static int run_passes(unsigned long* w, unsigned long n, int first, int passes, const char* who) {
    for (int pass = first; pass < first + passes; pass++) {
        unsigned long t0 = uptime_ns();
        long bad = touch(w, n, pass == 0 ? -1 : pass - 1, pass);
        unsigned long us = (uptime_ns() - t0) / 1000;
        if (bad >= 0) {
            printf("mem: FAIL%s pass %d: word %ld (page %ld) is %lx, not %lx\n", who, pass, bad, bad / 512, w[bad],
                   word_of((unsigned long)bad, pass - 1));
            return 1;
        }
        unsigned long kib = n * 8 / 1024;
        printf("mem:%s pass %d: %lu KiB in %lu us, %lu KiB/ms\n", who, pass, kib, us, us ? kib * 1000 / us : 0);
    }
    return 0;
}

static unsigned long* t_words;
static unsigned long t_n;
static volatile int t_bad;

static void reader(void* arg) {
    unsigned long start = (unsigned long)arg; /* each starts elsewhere, then wraps: all meet on every page */
    for (unsigned long k = 0; k < t_n; k++) {
        unsigned long i = (start + k) % t_n;
        if (t_words[i] != word_of(i, 0)) {
            t_bad = 1;
            return;
        }
    }
}

static int threads_read(int nthreads, int mb) {
    if (nthreads <= 0 || nthreads > 16) return 1;
    t_n = (unsigned long)mb * (1 << 20) / 8;
    t_words = (unsigned long*)sbrk(mb << 20);
    if (t_words == (unsigned long*)-1) {
        printf("mem: sbrk of %d MiB failed\n", mb);
        return 1;
    }
    touch(t_words, t_n, -1, 0);
    int tids[16];
    for (int i = 0; i < nthreads; i++) {
        tids[i] = thread_create(reader, (void*)(unsigned long)(i * 512 * 8));
        if (tids[i] < 0) {
            printf("mem: thread_create failed\n");
            return 1;
        }
    }
    for (int i = 0; i < nthreads; i++) thread_join(tids[i]);
    if (t_bad) {
        printf("mem: FAIL a thread read a wrong word\n");
        return 1;
    }
    printf("mem: %d threads read %d MiB ok\n", nthreads, mb);
    return 0;
}

static int hot_and_cold(int mb, int hot_kb, int passes) {
    unsigned long cold = (unsigned long)mb * 256, hot = (unsigned long)hot_kb / 4;
    if (hot == 0 || passes <= 0) return 1;
    char* c = sbrk((int)(cold * 4096));
    char* h = sbrk((int)(hot * 4096));
    if (c == (char*)-1 || h == (char*)-1) {
        printf("mem: sbrk failed\n");
        return 1;
    }
    unsigned long k = 0;
    for (int pass = 1; pass <= passes; pass++) {
        for (unsigned long i = 0; i < cold; i++) {
            c[i * 4096] = (char)pass;
            h[(k++ % hot) * 4096] += 1;
        }
    }
    for (unsigned long i = 0; i < cold; i++) {
        if (c[i * 4096] != (char)passes) {
            printf("mem: FAIL cold page %lu holds %d\n", i, c[i * 4096]);
            return 1;
        }
    }
    for (unsigned long j = 0; j < hot; j++) {
        unsigned long want = (k / hot + (j < k % hot ? 1 : 0)) % 256;
        if ((unsigned char)h[j * 4096] != want) {
            printf("mem: FAIL hot page %lu holds %d, not %lu\n", j, (unsigned char)h[j * 4096], want);
            return 1;
        }
    }
    printf("mem: hot %lu pages cold %lu pages passes %d ok\n", hot, cold, passes);
    return 0;
}

/* The pipe's reader: every word of n, in order, must be word_of(i, 0). */
static void check_pipe(int fd, unsigned long n) {
    static unsigned long b[512];
    unsigned long i = 0;
    int have = 0; /* bytes of b filled */
    while (i < n) {
        int got = read(fd, (char*)b + have, sizeof b - have);
        if (got <= 0) exit(2);
        have += got;
        int k = 0;
        for (; (k + 1) * 8 <= have && i < n; k++, i++)
            if (b[k] != word_of(i, 0)) exit(3);
        memmove(b, (char*)b + k * 8, have - k * 8);
        have -= k * 8;
    }
    exit(0);
}

static int syscalls(int mb) {
    const unsigned long n = (unsigned long)mb * (1 << 20) / 8, chunk = 64 << 10, file = 256 << 10;
    int p[2];
    if (pipe(p) < 0) return 1;
    int pid = fork();
    if (pid == 0) {
        close(p[1]);
        check_pipe(p[0], n);
    }
    close(p[0]);
    unsigned long* w = (unsigned long*)sbrk(mb << 20);
    if (pid < 0 || w == (unsigned long*)-1) {
        printf("mem: fork or sbrk of %d MiB failed\n", mb);
        return 1;
    }
    touch(w, n, -1, 0); /* the first pages are in swap when the last are written */
    for (unsigned long off = 0; off < n * 8; off += chunk) {
        int r = write(p[1], (char*)w + off, (int)chunk);
        if (r != (int)chunk) {
            printf("mem: FAIL write() of %lu bytes at %lu into a pipe: %d\n", chunk, off, r);
            return 1;
        }
    }
    close(p[1]);
    int st = -1;
    if (wait(&st) != pid || st != 0) {
        printf("mem: FAIL the pipe's reader exited %d\n", st);
        return 1;
    }
    int fd = open("memswap", O_CREATE | O_RDWR | O_TRUNC);
    int wr = write(fd, w, (int)file);
    close(fd);
    fd = open("memswap", O_RDONLY);
    int rd = read(fd, (char*)w + (1 << 20), (int)file);
    close(fd);
    unlink("memswap");
    if (wr != (int)file || rd != (int)file) {
        printf("mem: FAIL write() to a file %d, read() back %d of %lu\n", wr, rd, file);
        return 1;
    }
    for (unsigned long i = 0; i < file / 8; i++) {
        if (w[(1 << 20) / 8 + i] != word_of(i, 0)) {
            printf("mem: FAIL word %lu read back from the file\n", i);
            return 1;
        }
    }
    printf("mem: syscalls over %d MiB ok\n", mb);
    return 0;
}

#define KILL_GIVE_UP_TICKS 3000 /* 300 s */

static int kill_mid_touch(int mb, int pages) {
    struct vmstat before, after;
    vmstat(&before);
    int pid = fork();
    if (pid < 0) {
        printf("mem: fork failed\n");
        return 1;
    }
    if (pid == 0) {
        unsigned long n = (unsigned long)mb * (1 << 20) / 8;
        unsigned long* w = (unsigned long*)sbrk(mb << 20);
        if (w == (unsigned long*)-1) exit(2);
        for (int pass = 0;; pass++) touch(w, n, -1, pass);
    }
    int waited = 0;
    do {
        sleep(1);
        vmstat(&after);
    } while (after.page_ins - before.page_ins < (unsigned long)pages && ++waited < KILL_GIVE_UP_TICKS);
    kill(pid);
    int st = 0;
    wait(&st);
    if (waited >= KILL_GIVE_UP_TICKS) {
        printf("mem: FAIL %lu page-ins in %d ticks, waited for %d\n", after.page_ins - before.page_ins, waited, pages);
        return 1;
    }
    vmstat(&after);
    /* This process's own pages may have gone to swap meanwhile (a frame
     * freed, a slot used): free minus swap used is what must come back. */
    printf("mem: killed: free %lu of %lu, swap used %lu of %lu, pgout %lu pgin %lu\n", after.free_pages,
           before.free_pages, after.swap_used, before.swap_used, after.page_outs - before.page_outs,
           after.page_ins - before.page_ins);
    return after.free_pages - after.swap_used == before.free_pages - before.swap_used ? 0 : 1;
}

int main(int argc, char* argv[]) {
    usage_on_help(argc, argv, usage_line);
    if (argc == 4 && strcmp(argv[1], "-k") == 0) exit(kill_mid_touch(atoi(argv[2]), atoi(argv[3])));
    if (argc == 4 && strcmp(argv[1], "-t") == 0) exit(threads_read(atoi(argv[2]), atoi(argv[3])));
    if (argc == 3 && strcmp(argv[1], "-s") == 0) exit(syscalls(atoi(argv[2])));
    if (argc == 5 && strcmp(argv[1], "-w") == 0) exit(hot_and_cold(atoi(argv[2]), atoi(argv[3]), atoi(argv[4])));
    int together = argc > 1 && strcmp(argv[1], "-F") == 0;
    int fork_it = together || (argc > 1 && strcmp(argv[1], "-f") == 0);
    if (fork_it) argv++, argc--;
    if (argc < 2 || argc > 3) usage_exit(usage_line, 1);
    int mb = atoi(argv[1]);
    int passes = argc == 3 ? atoi(argv[2]) : 4;
    if (mb <= 0 || passes <= 0) usage_exit(usage_line, 1);
    unsigned long n = (unsigned long)mb * (1 << 20) / 8;
    unsigned long* w = (unsigned long*)sbrk(mb << 20);
    if (w == (unsigned long*)-1) {
        printf("mem: sbrk of %d MiB failed\n", mb);
        exit(1);
    }
    if (!fork_it) {
        int r = run_passes(w, n, 0, passes, "");
        if (r == 0) printf("mem: %d MiB ok\n", mb);
        exit(r);
    }
    if (run_passes(w, n, 0, 1, "") != 0) exit(1);
    int pid = fork();
    if (pid < 0) {
        printf("mem: fork failed\n");
        exit(1);
    }
    if (pid == 0) exit(run_passes(w, n, 1, 1, " child"));
    int st = -1;
    if (wait(&st) != pid || st != 0) { /* (the parent waits: two thrashing at once is another test) */
        printf("mem: FAIL child status %d\n", st);
        exit(1);
    }
    int r = run_passes(w, n, 1, 1, " parent");
    if (r == 0) printf("mem: %d MiB ok (fork)\n", mb);
    exit(r);
}
