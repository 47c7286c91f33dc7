/* exhaust - resource exhaustion tests, run in the guest.
 *
 *   exhaust [name...]     run all tests, or the named ones
 *
 * Design: each test drives one resource to exhaustion through the ordinary
 * system calls, checks the failure is an error return (-1 or a short write:
 * nothing panics, nothing hangs), releases everything, checks the resource
 * is usable again, and where it can, that free physical pages return to
 * their starting count (leaks). Each prints `PASS name` or `FAIL name: why`
 * (tests/guest/exhaust.py relays them with the hart count). Tests:
 *   procs   fork until fork fails (the process table, 256), kill and reap,
 *           fork works again, no pages leaked;
 *   fds     open until open fails at the per-process limit (16), close,
 *           open again;
 *   files   children hold open files until the system-wide table (100)
 *           is full: open fails cleanly; released when they exit;
 *   inodes  create empty files until create fails (the disk's inodes),
 *           unlink them all, creating works again;
 *   blocks  write files until the disk is full (a write returns short or
 *           -1 below the maximum file size), delete them, and the same
 *           amount fits again;
 *   memory  sbrk until it fails, give it back, no pages leaked.
 * -h prints the usage line and exits 0; an unknown name or an option prints
 * it and exits 2 (before any test runs).
 */
#include "user/user.h"

static int failures;
static char buf[3072];

static void pass(const char* name, const char* detail) { printf("PASS %s (%s)\n", name, detail); }
static void fail(const char* name, const char* why, int v) {
    printf("FAIL %s: %s (%d)\n", name, why, v);
    failures++;
}

static char* numname(char* out, const char* prefix, int i) {
    int n = 0;
    while (prefix[n]) {
        out[n] = prefix[n];
        n++;
    }
    char tmp[12];
    int k = 0;
    do tmp[k++] = (char)('0' + i % 10);
    while ((i /= 10) > 0);
    while (k > 0) out[n++] = tmp[--k];
    out[n] = 0;
    return out;
}

static void t_procs(void) {
    int before = freepages();
    int n = 0;
    int gate[2];
    if (pipe(gate) < 0) return fail("procs", "pipe failed", -1);
    for (; n < 512; n++) {
        int pid = fork();
        if (pid < 0) break;
        if (pid == 0) {
            char c;
            close(gate[1]);
            read(gate[0], &c, 1); /* blocks until the parent closes its end */
            exit(0);
        }
    }
    int limit_hit = n < 512;
    close(gate[1]);
    close(gate[0]);
    int reaped = 0;
    while (wait(0) >= 0) reaped++;
    if (!limit_hit) return fail("procs", "fork never failed with 512 children", n);
    if (reaped != n) return fail("procs", "reaped a different number of children", reaped);
    int pid = fork();
    if (pid == 0) exit(7);
    int st = 0;
    if (pid < 0 || wait(&st) != pid || st != 7) return fail("procs", "fork after recovery failed", pid);
    int after = freepages();
    if (after < before - 2) return fail("procs", "pages leaked", before - after);
    char d[64];
    numname(d, "forked ", n);
    pass("procs", d);
}

static void t_fds(void) {
    int fds[64], n = 0;
    int fd0 = open("/README.md", O_RDONLY);
    if (fd0 < 0) return fail("fds", "cannot open /README.md", fd0);
    close(fd0);
    for (; n < 64; n++) {
        if ((fds[n] = open("/README.md", O_RDONLY)) < 0) break;
    }
    int d = dup(0);
    int p[2];
    int pr = pipe(p);
    for (int i = 0; i < n; i++) close(fds[i]);
    if (n == 64) return fail("fds", "open never failed", n);
    if (d >= 0 || pr >= 0) return fail("fds", "dup or pipe succeeded with a full descriptor table", d >= 0 ? d : pr);
    int fd = open("/README.md", O_RDONLY);
    if (fd < 0) return fail("fds", "open after closing failed", fd);
    close(fd);
    char s[64];
    numname(s, "open failed after ", n);
    pass("fds", s);
}

static void t_files(void) {
    /* children each fill their table; the system table (100) runs out first */
    int gate[2], res[2];
    if (pipe(gate) < 0 || pipe(res) < 0) return fail("files", "pipe failed", -1);
    int kids = 0, total = 0, failed_opens = 0;
    for (int k = 0; k < 10; k++) {
        int pid = fork();
        if (pid < 0) break;
        if (pid == 0) {
            close(gate[1]);
            close(res[0]);
            int got = 0, bad = 0;
            for (int i = 0; i < 16; i++) {
                if (open("/README.md", O_RDONLY) >= 0) got++;
                else bad++;
            }
            char r[2] = {(char)got, (char)bad};
            write(res[1], r, 2);
            char c;
            read(gate[0], &c, 1);
            exit(0);
        }
        kids++;
        char r[2];
        if (read(res[0], r, 2) == 2) {
            total += r[0];
            failed_opens += r[1];
        }
    }
    /* while they hold everything, the parent cannot open either */
    int fd = open("/README.md", O_RDONLY);
    if (fd >= 0) close(fd);
    close(gate[1]);
    close(gate[0]);
    close(res[0]);
    close(res[1]);
    while (wait(0) >= 0)
        ;
    if (failed_opens == 0) return fail("files", "the system-wide file table never filled", total);
    if (fd >= 0) return fail("files", "open succeeded with the file table full", fd);
    fd = open("/README.md", O_RDONLY);
    if (fd < 0) return fail("files", "open failed after the holders exited", fd);
    close(fd);
    char s[64];
    numname(s, "table full at ", total);
    pass("files", s);
}

static void t_inodes(void) {
    char name[32];
    mkdir("/xi");
    int n = 0;
    for (; n < 1000; n++) {
        int fd = open(numname(name, "/xi/i", n), O_CREATE | O_RDWR);
        if (fd < 0) break;
        close(fd);
    }
    int made = n;
    int bad = 0;
    for (int i = 0; i < made; i++)
        if (unlink(numname(name, "/xi/i", i)) < 0) bad++;
    if (made == 1000) return fail("inodes", "create never failed", made);
    if (bad) return fail("inodes", "unlink failed", bad);
    /* the inodes are free again: as many creates succeed */
    int again = 0;
    for (; again < made; again++) {
        int fd = open(numname(name, "/xi/j", again), O_CREATE | O_RDWR);
        if (fd < 0) break;
        close(fd);
    }
    for (int i = 0; i < again; i++) unlink(numname(name, "/xi/j", i));
    unlink("/xi");
    if (again < made) return fail("inodes", "fewer creates after deleting", again);
    char s[64];
    numname(s, "inodes ran out after ", made);
    pass("inodes", s);
}

/* Write files of at most `per` bytes until the disk is full; returns bytes written. */
static int fill(const char* prefix, int* nfiles, int* full) {
    char name[32];
    int total = 0;
    *full = 0;
    for (int f = 0; f < 64 && !*full; f++) {
        int fd = open(numname(name, prefix, f), O_CREATE | O_RDWR);
        if (fd < 0) {
            *full = 1;
            break;
        }
        *nfiles = f + 1;
        int size = 0;
        for (;;) {
            int r = write(fd, buf, sizeof buf);
            if (r > 0) {
                size += r;
                total += r;
            }
            if (r != (int)sizeof buf) {
                /* short: disk full, unless the file reached its maximum size */
                if (size < (12 + 256) * 1024 - (int)sizeof buf) *full = 1;
                break;
            }
        }
        close(fd);
    }
    return total;
}

static void t_blocks(void) {
    char name[32];
    memset(buf, 'b', sizeof buf);
    mkdir("/xb");
    int nf = 0, full = 0;
    int total = fill("/xb/f", &nf, &full);
    for (int i = 0; i < nf; i++) unlink(numname(name, "/xb/f", i));
    if (!full) return fail("blocks", "the disk never filled", total);
    int nf2 = 0, full2 = 0;
    int total2 = fill("/xb/g", &nf2, &full2);
    for (int i = 0; i < nf2; i++) unlink(numname(name, "/xb/g", i));
    unlink("/xb");
    if (total2 < total - 16 * 1024) return fail("blocks", "less fits after deleting (KiB)", total2 / 1024);
    char s[64];
    numname(s, "KiB until full: ", total / 1024);
    pass("blocks", s);
}

static void t_memory(void) {
    int before = freepages();
    long got = 0;
    const int chunk = 1 << 20;
    for (int i = 0; i < 4096; i++) {
        if (sbrk(chunk) == (char*)-1) break;
        got += chunk;
    }
    char* big = sbrk(0x7fffffff);
    int mid = freepages();
    if (got > 0) sbrk(-(int)(got > 0x7fffffff ? 0x7fffffff : got));
    int after = freepages();
    if (big != (char*)-1) return fail("memory", "sbrk of 2 GiB succeeded", 0);
    if (got == 0 || mid > before) return fail("memory", "sbrk never grew", (int)got);
    /* shrinking keeps the page-table pages (freed at exit): one per 2 MiB plus a few */
    if (after < before - 4 - (int)(got >> 21)) return fail("memory", "pages not returned by sbrk(-n)", before - after);
    /* and in a child that exits without giving it back */
    int pid = fork();
    if (pid == 0) {
        while (sbrk(chunk) != (char*)-1)
            ;
        exit(0);
    }
    wait(0);
    int after2 = freepages();
    if (after2 < after - 2) /* the parent still holds its page-table pages */
        return fail("memory", "pages not freed on exit", after - after2);
    char s[64];
    numname(s, "MiB before sbrk failed: ", (int)(got >> 20));
    pass("memory", s);
}

struct test {
    const char* name;
    void (*fn)(void);
};
static struct test tests[] = {
    {"procs", t_procs},   {"fds", t_fds},       {"files", t_files},
    {"inodes", t_inodes}, {"blocks", t_blocks}, {"memory", t_memory},
};

int main(int argc, char* argv[]) {
    static const char usage[] = "exhaust [procs|fds|files|inodes|blocks|memory...]";
    int ntests = sizeof tests / sizeof tests[0];
    usage_on_help(argc, argv, usage);
    for (int a = 1; a < argc; a++) {
        int known = 0;
        for (int i = 0; i < ntests; i++) known |= !strcmp(argv[a], tests[i].name);
        if (!known) usage_exit(usage, 2);
    }
    for (int i = 0; i < ntests; i++) {
        int run = argc < 2;
        for (int a = 1; a < argc; a++) run |= !strcmp(argv[a], tests[i].name);
        if (run) {
            unsigned long t0 = uptime_ns();
            tests[i].fn();
            printf("exhaust: %s took %d ms\n", tests[i].name, (int)((uptime_ns() - t0) / 1000000));
        }
    }
    printf("exhaust: done, %d failed\n", failures);
    exit(failures ? 1 : 0);
}
