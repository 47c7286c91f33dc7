/* hostile - what a hostile user program tries, run in the guest.
 *
 *   hostile TEST...     tests: elf oom rmcwd dirrace console conswrite pipeatomic badsys renice
 *                       (the foreground ones), forkbomb and memhog (run
 *                       in the background by tests/guest/hostile.py),
 *                       orphans and orphanroot (the same, then the machine stops)
 *
 * Design: each test attacks the kernel through ordinary system calls the way
 * one of the bugs of the hardening pass was found, checks that the attack
 * ends in -1 or a killed process, and prints `PASS name (detail)` or
 * `FAIL name: why`. The host side (tests/guest/hostile.py) adds what the
 * guest cannot see: no panic, the shell still answers, and fsck of the disk
 * image is clean afterwards. Tests:
 *   elf      exec every /be_* file (malformed ELFs from tools/mkbadelf.py):
 *            -1 each, the caller's image intact, no page leaked; be_*_k must
 *            be killed instead (valid image, bad entry point);
 *   oom      exec a program with a 1 MiB bss while another process leaves
 *            under 64 pages free: -1, nothing leaked;
 *   rmcwd    a directory removed while it is the cwd: `..` fails and so does
 *            every create in it (file, directory, device, link);
 *   dirrace  one process makes and removes a directory while another
 *            creates and removes entries in it (fsck judges the result);
 *   console  write from a kernel address is -1; a read into a bad buffer is
 *            -1 and loses no input;
 *   conswrite four processes write lines at once: each write() reaches the
 *            console whole (the host checks the lines);
 *   pipeatomic four processes write 100-byte records into one pipe: none
 *            is split by another's (writes of up to 512 bytes are atomic);
 *   badsys   unknown system-call numbers return -1 (the console report is
 *            rate-limited; the host counts the lines);
 *   renice   renice and getpriority on exiting and recycled pids, and policy
 *            switches, while children come and go on every hart;
 *   forkbomb three processes fill the process table for 3 s;
 *   memhog   take every page, then keep grabbing single pages for 30 s;
 *   protlink as student: a hard link to /etc/passwd (root's, not writable
 *            for them) is refused, one to their own file is not;
 *   bigdir   5,000 hard links in one directory (/tmp/bd), then unlinked:
 *            each lookup and insert scans the directory once, a block at
 *            a time (prints the ticks taken);
 *   orphans  (as student, in the background) cwds removed one and two
 *            levels deep and a removed open file, held until the machine
 *            halts or crashes; root's files in /tmp/rootv stay out of reach;
 *   orphanroot (as root, first) the victim: a cwd in /tmp/rootv, a file
 *            there, and an open unlinked file of root's own;
 *   inodehog, filehog (as student, in the background) children hold
 *            distinct inodes (/'s files, then files they create) or open
 *            files until the in-memory inode table or the file table
 *            refuses them, and keep them until root kills the parent
 *            (root's commands must run meanwhile: the host checks).
 * No argument or -h prints the usage line with the list of tests (exit 2,
 * or 0 for -h); an unknown test is reported as `hostile: no test NAME`.
 */
#include "user/hostile.h"

#include "lib/sched/policies.h"
#include "user/user.h"

static int failures;

void pass(const char* name, const char* detail) { printf("PASS %s (%s)\n", name, detail); }
void fail(const char* name, const char* why, long v) {
    printf("FAIL %s: %s (%ld)\n", name, why, v);
    failures++;
}

/* Exit status of child pid, -1 when it was killed; other children reaped
 * meanwhile are dropped, and -100 means pid was one of them (or no child). */
int reap(int pid) {
    int status = 0;
    for (;;) {
        int w = wait(&status);
        if (w == pid) return status;
        if (w < 0) return -100;
    }
}

/* ---- elf ------------------------------------------------------------ */

static volatile int image_marker = 12345;

/* Fork; the child execs path and reports: 0 if exec returned -1 with its
 * image intact, 2 if exec returned anything else, 3 if the image changed. */
static int try_exec(const char* path) {
    int pid = fork();
    if (pid < 0) return -2;
    if (pid == 0) {
        char* argv[] = {(char*)path, 0};
        int r = exec(path, argv);
        if (r != -1) exit(2);
        exit(image_marker == 12345 ? 0 : 3);
    }
    return reap(pid);
}

static void t_elf(void) {
    int fd = open("/", O_RDONLY);
    if (fd < 0) return fail("elf", "cannot open /", fd);
    struct dirent de;
    char names[32][DIRSIZ + 2];
    int n = 0;
    while (n < 32 && read(fd, &de, sizeof de) == sizeof de) {
        if (de.inum == 0 || de.name[0] != 'b' || de.name[1] != 'e' || de.name[2] != '_') continue;
        names[n][0] = '/';
        memmove(names[n] + 1, de.name, DIRSIZ);
        names[n][DIRSIZ + 1] = 0;
        n++;
    }
    close(fd);
    if (n < 10) return fail("elf", "too few /be_* files on the image", n);
    int before = freepages();
    int bad = 0;
    for (int i = 0; i < n; i++) {
        int len = strlen(names[i]);
        int want_killed = len > 2 && names[i][len - 2] == '_' && names[i][len - 1] == 'k';
        int st = try_exec(names[i]);
        if (want_killed ? st != -1 : st != 0) {
            printf("FAIL elf-%s: child status %d (want %s)\n", names[i] + 1, st,
                   want_killed ? "killed, -1" : "exec -1, image intact, 0");
            bad++;
        }
    }
    int after = freepages();
    if (bad) return fail("elf", "cases failed", bad);
    if (after != before) return fail("elf", "free pages changed across the failed execs", after - before);
    char s[48];
    strcpy(s, "cases: ");
    s[7] = (char)('0' + n / 10);
    s[8] = (char)('0' + n % 10);
    s[9] = 0;
    pass("elf", s);
}

/* ---- oom ------------------------------------------------------------ */

/* Grow until at most `keep` pages are free (or sbrk fails). */
static void eat_memory(int keep) {
    while (freepages() > keep + 300)
        if (sbrk(1 << 20) == (char*)-1) break;
    while (freepages() > keep)
        if (sbrk(4096) == (char*)-1) break;
}

static void t_oom(void) {
    int before = freepages();
    int go[2], ready[2];
    if (pipe(go) < 0 || pipe(ready) < 0) return fail("oom", "pipe failed", -1);
    int execer = fork();
    if (execer == 0) {
        char c;
        read(go[0], &c, 1);
        char* argv[] = {"bigbss", 0};
        exec("/bigbss", argv);
        exit(image_marker == 12345 ? 0 : 3); /* exec returned -1: good */
    }
    int hog = fork();
    if (hog == 0) {
        eat_memory(64);
        write(ready[1], "r", 1);
        sleep(200); /* until killed (by the oom rule or by us) */
        exit(0);
    }
    char c;
    read(ready[0], &c, 1);
    int low = freepages();
    write(go[1], "g", 1);
    int st = reap(execer);
    kill(hog);
    reap(hog);
    close(go[0]);
    close(go[1]);
    close(ready[0]);
    close(ready[1]);
    int after = freepages();
    if (low > 64) return fail("oom", "could not bring free pages down to 64", low);
    if (st != 0) return fail("oom", "exec of a 1 MiB bss with 64 pages free did not return -1 cleanly", st);
    if (after != before) return fail("oom", "free pages changed", after - before);
    /* With memory back, the same program runs. */
    int pid = fork();
    if (pid == 0) {
        char* argv[] = {"bigbss", 0};
        exec("/bigbss", argv);
        exit(9);
    }
    st = reap(pid);
    if (st != 0) return fail("oom", "bigbss does not run with memory free", st);
    pass("oom", "exec -1 at 64 free pages, runs afterwards");
}

/* ---- rmcwd ---------------------------------------------------------- */

static int dead_dir_checks(void) {
    int bad = 0;
    if (chdir("..") != -1) bad |= 1;
    int fd = open("f", O_CREATE | O_RDWR);
    if (fd != -1) {
        bad |= 2;
        close(fd);
    }
    if (mkdir("d") != -1) bad |= 4;
    if (mknod("n", 9, 0) != -1) bad |= 8;
    if (link("/README.md", "l") != -1) bad |= 16;
    fd = open(".", O_RDONLY); /* the dead directory itself is still there */
    if (fd < 0) bad |= 32;
    else close(fd);
    if (chdir("/") != 0) bad |= 64;
    return bad;
}

static void t_rmcwd(void) {
    int pid = fork();
    if (pid == 0) {
        /* mkdir /hc; mkdir /hc/s; cd /hc/s; rm /hc/s; rm /hc; cd .. */
        if (mkdir("/hc") < 0 || mkdir("/hc/s") < 0 || chdir("/hc/s") < 0) exit(100);
        if (unlink("/hc/s") < 0 || unlink("/hc") < 0) exit(101);
        exit(dead_dir_checks());
    }
    int st = reap(pid);
    if (st != 0) return fail("rmcwd", "nested: failed checks (bit mask; 100+ = setup)", st);
    pid = fork();
    if (pid == 0) {
        /* mkdir /hd; cd /hd; rm /hd; echo x > f */
        if (mkdir("/hd") < 0 || chdir("/hd") < 0 || unlink("/hd") < 0) exit(100);
        exit(dead_dir_checks());
    }
    st = reap(pid);
    if (st != 0) return fail("rmcwd", "flat: failed checks (bit mask; 100+ = setup)", st);
    struct stat s;
    if (stat("/hc", &s) == 0 || stat("/hd", &s) == 0) return fail("rmcwd", "removed directory still named", 0);
    pass("rmcwd", "cd .. and creates in a removed cwd fail");
}

/* ---- dirrace -------------------------------------------------------- */

static void t_dirrace(void) {
    const int rounds = 400;
    if (mkdir("/hr") < 0 || chdir("/hr") < 0) return fail("dirrace", "setup", -1);
    int a = fork();
    if (a == 0) {
        for (int i = 0; i < rounds; i++) {
            mkdir("rx");
            unlink("rx");
        }
        exit(0);
    }
    int b = fork();
    if (b == 0) {
        for (int i = 0; i < rounds; i++) {
            mkdir("rx/y");
            unlink("rx/y");
            int fd = open("rx/f", O_CREATE | O_RDWR);
            if (fd >= 0) close(fd);
            unlink("rx/f");
        }
        exit(0);
    }
    reap(a);
    reap(b);
    unlink("rx/y");
    unlink("rx/f");
    unlink("rx");
    chdir("/");
    if (unlink("/hr") != 0) return fail("dirrace", "directory not empty after the race", -1);
    pass("dirrace", "400 rounds; fsck judges");
}

/* ---- conswrite ------------------------------------------------------ */

/* Four processes each write 25 lines of 100 copies of their digit (1-4),
 * one write() a line, at the same time. Every line must reach the console
 * whole: the host counts 100 lines of one digit each (the guest cannot see
 * its own console output). */
static void t_conswrite(void) {
    enum { kWriters = 4, kLines = 25, kLen = 100 };
    for (int w = 0; w < kWriters; w++) {
        int pid = fork();
        if (pid < 0) return fail("conswrite", "fork", pid);
        if (pid == 0) {
            char line[kLen + 1];
            memset(line, '1' + w, kLen);
            line[kLen] = '\n';
            for (int i = 0; i < kLines; i++)
                if (write(1, line, kLen + 1) != kLen + 1) exit(1);
            exit(0);
        }
    }
    int bad = 0;
    for (int w = 0; w < kWriters; w++) {
        int status = -1;
        if (wait(&status) < 0 || status != 0) bad++;
    }
    if (bad) return fail("conswrite", "writers that failed", bad);
    pass("conswrite", "four writers; the host checks every line is whole");
}

/* ---- pipeatomic ----------------------------------------------------- */

/* Four processes write 100-byte records of their own letter into one pipe
 * at once (one write() a record, 50 each); the reader takes the stream in
 * whatever pieces come and checks every 100-byte record is one letter:
 * a write of at most 512 bytes must not be split by another writer's. */
static void t_pipeatomic(void) {
    enum { kWriters = 4, kRecords = 50, kLen = 100 };
    static char got[kWriters * kRecords * kLen];
    int fds[2];
    if (pipe(fds) < 0) return fail("pipeatomic", "pipe", -1);
    for (int w = 0; w < kWriters; w++) {
        int pid = fork();
        if (pid < 0) return fail("pipeatomic", "fork", pid);
        if (pid == 0) {
            char rec[kLen];
            close(fds[0]);
            memset(rec, 'a' + w, kLen);
            for (int i = 0; i < kRecords; i++)
                if (write(fds[1], rec, kLen) != kLen) exit(1);
            exit(0);
        }
    }
    close(fds[1]);
    int total = 0, n;
    while (total < (int)sizeof got && (n = read(fds[0], got + total, sizeof got - total)) > 0) total += n;
    close(fds[0]);
    for (int w = 0; w < kWriters; w++) {
        int status = -1;
        wait(&status);
        if (status != 0) return fail("pipeatomic", "a writer failed", status);
    }
    if (total != (int)sizeof got) return fail("pipeatomic", "bytes read", total);
    for (int r = 0; r < kWriters * kRecords; r++)
        for (int i = 1; i < kLen; i++)
            if (got[r * kLen + i] != got[r * kLen]) return fail("pipeatomic", "record split by another writer", r);
    pass("pipeatomic", "200 records of 100 bytes from four writers, none split");
}

/* ---- console -------------------------------------------------------- */

static void t_console(void) {
    const char* kaddr = (const char*)0x80000000L;
    int w = write(1, kaddr, 10);
    if (w != -1) return fail("console", "write from a kernel address", w);
    /* The host types "abc" once it sees this line. */
    printf("console: type a line\n");
    int r = read(0, (char*)kaddr, 10);
    if (r != -1) return fail("console", "read into a kernel address", r);
    r = read(0, (char*)0, 10); /* page 0 is text: not writable */
    if (r != -1) return fail("console", "read into read-only text", r);
    char buf[16];
    memset(buf, 0, sizeof buf);
    r = read(0, buf, sizeof buf);
    if (r != 4 || memcmp(buf, "abc\n", 4) != 0) return fail("console", "the line was not all there after bad reads", r);
    pass("console", "bad buffers -1, no input lost");
}

/* ---- badsys --------------------------------------------------------- */

static long raw_syscall(long num) {
    register long a0 __asm__("a0") = 0;
    register long a7 __asm__("a7") = num;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a7) : "memory");
    return a0;
}

static void t_badsys(void) {
    static const long nums[] = {0, -1, 999, 1L << 40, 200, 64};
    int t0 = uptime();
    for (int i = 0; i < 20000; i++) {
        long r = raw_syscall(nums[i % 6]);
        if (r != -1) return fail("badsys", "unknown system call did not return -1", nums[i % 6]);
    }
    int t1 = uptime();
    printf("badsys: 20000 calls in %d ticks\n", t1 - t0);
    pass("badsys", "20000 unknown calls, -1 each");
}

/* ---- renice --------------------------------------------------------- */

static void t_renice(void) {
    char orig[16];
    if (sched_get(orig, sizeof orig) < 0) return fail("renice", "sched_get", -1);
#define HOSTILE_POLICY_NAME(kind, cls, name) name,
    static const char* policies[] = {Q_SCHED_POLICIES(HOSTILE_POLICY_NAME)};
#undef HOSTILE_POLICY_NAME
    const int npolicies = (int)(sizeof(policies) / sizeof(policies[0]));
    int switcher = fork();
    if (switcher == 0) {
        for (int i = 0; i < 400; i++) sched_set(policies[i % npolicies]);
        exit(0);
    }
    int bad = 0;
    for (int round = 0; round < 100; round++) {
        int kids[4];
        for (int k = 0; k < 4; k++) {
            kids[k] = fork();
            if (kids[k] == 0) exit(0);
        }
        for (int k = 0; k < 4; k++) {
            if (kids[k] < 0) continue;
            /* The child may be running, exiting, a zombie, or gone. */
            setpriority(kids[k], (round + k) % 40 - 20);
            getpriority(kids[k]);
            setpriority(kids[k] + 1, 5); /* perhaps a recycled slot */
        }
        for (int k = 0; k < 4; k++)
            if (kids[k] > 0) reap(kids[k]);
        for (int k = 0; k < 4; k++)
            if (kids[k] > 0 && setpriority(kids[k], 0) != -1) bad++; /* reaped: must be gone */
    }
    reap(switcher);
    sched_set(orig);
    if (bad) return fail("renice", "setpriority of a reaped pid succeeded", bad);
    pass("renice", "100 rounds of 4 children, 400 policy switches");
}

/* ---- background attacks -------------------------------------------- */

static void t_forkbomb(void) {
    int stop = uptime() + 30; /* 3 s */
    int bombers[3];
    for (int b = 0; b < 3; b++) {
        bombers[b] = fork();
        if (bombers[b] == 0) {
            int full = 0;
            while (uptime() < stop) {
                int pid = fork();
                if (pid == 0) {
                    while (uptime() < stop) sleep(1);
                    exit(0);
                }
                if (pid < 0) full++;
            }
            while (wait(0) >= 0) {}
            exit(full > 0 ? 0 : 1);
        }
    }
    int filled = 0;
    for (int b = 0; b < 3; b++)
        if (bombers[b] > 0 && reap(bombers[b]) == 0) filled++;
    printf("forkbomb: done, table filled by %d of 3 bombers\n", filled);
}

static void t_memhog(void) {
    eat_memory(0);
    printf("memhog: full, %d pages free\n", freepages());
    int stop = uptime() + 300; /* 30 s, unless killed */
    while (uptime() < stop) sbrk(4096);
    printf("memhog: not killed\n");
}

struct test {
    const char* name;
    void (*fn)(void);
};
static struct test tests[] = {
    {"elf", t_elf},
    {"oom", t_oom},
    {"rmcwd", t_rmcwd},
    {"dirrace", t_dirrace},
    {"console", t_console},
    {"conswrite", t_conswrite},
    {"pipeatomic", t_pipeatomic},
    {"badsys", t_badsys},
    {"renice", t_renice},
    {"forkbomb", t_forkbomb},
    {"memhog", t_memhog},
    {"orphans", t_orphans},
    {"orphanroot", t_orphanroot},
    {"inodehog", t_inodehog},
    {"filehog", t_filehog},
    {"bigdir", t_bigdir},
    {"protlink", t_protlink},
};

int main(int argc, char* argv[]) {
    int ntests = sizeof tests / sizeof tests[0];
    if (argc < 2 || strcmp(argv[1], "-h") == 0) {
        char line[320] = "hostile TEST...  (tests:";
        for (int i = 0; i < ntests; i++) {
            int n = strlen(line);
            line[n] = ' ';
            strcpy(line + n + 1, tests[i].name);
        }
        strcpy(line + strlen(line), ")");
        usage_exit(line, argc < 2 ? 2 : 0);
    }
    for (int a = 1; a < argc; a++) {
        int found = 0;
        for (int i = 0; i < ntests; i++) {
            if (strcmp(argv[a], tests[i].name) == 0) {
                tests[i].fn();
                found = 1;
            }
        }
        if (!found) {
            fprintf(2, "hostile: no test %s\n", argv[a]);
            exit(2);
        }
    }
    printf("hostile: done, %d failed\n", failures);
    exit(failures ? 1 : 0);
}
