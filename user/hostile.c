/* hostile - what a hostile user program tries, run in the guest.
 *
 *   hostile TEST...     tests: elf oom oomhuge oomuser oomrace admitrace traceuser
 *                       conskill consshare forkuser sbrkkill sbrkshared
 *                       rmcwd dirrace console
 *                       conswrite pipeatomic badsys renice protlink bigdir
 *                       (the foreground ones), forkbomb, memhog, inodehog
 *                       and filehog (run in the background by
 *                       tests/guest/hostile.py), orphans and orphanroot (the
 *                       same, then the machine stops), and the thread
 *                       attacks (user/hostile_threads.c)
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
 *   oomhuge  as the student, with root holding 20 MiB: impossible execs
 *            and sbrks fail with -1 and kill nobody;
 *   oomuser  whom the out-of-memory rule may kill for a student and for
 *            root (docs/memory.md);
 *   oomrace  refused student requests beside root's forks: no fork fails;
 *   admitrace two students asking at once for 60% of memory each (sbrk),
 *            or forking with 30% each: never both granted;
 *   traceuser tracing and profiling are root's: the student cannot start,
 *            stop, read or replace them; root's buffers are capped;
 *   conskill a killed 256 KiB console write writes nothing after a line
 *            written after its kill;
 *   consshare a one-line write gets through beside a 256 KiB write;
 *   forkuser two users' fork bombs leave root its reserve; RLIMIT_NPROC
 *            (getrlimit, setrlimit) caps each user;
 *   sbrkkill refused sbrks take no time; a process growing and shrinking
 *            its memory again and again dies when killed;
 *   sbrkshared the same with a second thread (a shared page table): every
 *            page comes back;
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
 *   forkbomb three processes fill the process table (however long that
 *            takes) and hold it full for 3 s;
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
 *   tbomb tfutex texitrace texecrace tkill tjoin tstack: threads and
 *            futexes, in user/hostile_threads.c.
 *   sigforge sigstorm sigstoplock sigstoppipe sigkillstopped sigperm:
 *            signals, in user/hostile_sig.c.
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

void pages_snap(struct pagesnap* s) {
    struct vmstat st;
    struct procinfo pi;
    s->free = freepages();
    s->cached = s->idle = 0;
    if (vmstat(&st) == 0) {
        s->cached = st.cached;
        s->idle = st.cache_idle;
    }
    s->n = 0;
    for (int i = 0; procinfo(i, &pi) >= 0 && s->n < 64; i++) {
        if (pi.state == 0) continue;
        s->tid[s->n] = pi.tid;
        s->ppid[s->n] = pi.ppid;
        s->state[s->n] = pi.state;
        s->n++;
    }
}

static void print_snap(const char* when, const struct pagesnap* s) {
    printf("  %s: free %d cached %lu idle %lu threads", when, s->free, s->cached, s->idle);
    for (int i = 0; i < s->n; i++) printf(" %d/%d/%d", s->tid[i], s->ppid[i], s->state[i]);
    printf("\n");
}

int pages_diff(const char* name, const struct pagesnap* before) {
    static struct pagesnap after; /* (off the stack: a reading must not grow it) */
    pages_snap(&after);
    if (after.free == before->free) return 0;
    printf("%s: free pages %d then %d (tid/ppid/state)\n", name, before->free, after.free);
    print_snap("before", before);
    print_snap("after", &after);
    return before->free - after.free;
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

/* ---- oom as a student, with a root victim present ------------------ */

enum { kStudentId = 1000 };

/* Become the student of /etc/passwd (the group first: after setuid a
 * non-root process could no longer change it). */
static int become_student(void) { return setgid(kStudentId) == 0 && setuid(kStudentId) == 0 ? 0 : -1; }

/* Children of the oom tests: a holder of n pages, a hog that leaves n
 * pages free, an exec of /bigbss (256 pages) or of /be_hugemem (252 GiB),
 * and a forker. Each says it is ready on one pipe and waits for "go" on
 * the other; holders and hogs then exit 42, so a status of -1 means the
 * out-of-memory rule (or somebody) killed them. */
enum { kHold, kHog, kExecBig };
struct kid {
    int pid, to, from;
};

static struct { int pid, status; } kept[16];
static int nkept;

/* Exit status of child pid, keeping the statuses of others reaped meanwhile. */
static int reap_kept(int pid) {
    for (;;) {
        for (int i = 0; i < nkept; i++)
            if (kept[i].pid == pid) {
                kept[i].pid = 0;
                return kept[i].status;
            }
        int status = 0;
        int w = wait(&status);
        if (w < 0) return -100;
        if (w == pid) return status;
        if (nkept < 16) {
            kept[nkept].pid = w;
            kept[nkept++].status = status;
        }
    }
}

static void kid_body(int student, int what, int n, int to, int from) {
    if (student && become_student() < 0) exit(100);
    if (what == kHold)
        for (int i = 0; i < n; i += 256)
            if (sbrk(256 * 4096) == (char*)-1) exit(101);
    if (what == kHog) eat_memory(n);
    char c = 'r';
    write(from, &c, 1);
    read(to, &c, 1);
    if (what != kExecBig) exit(42);
    char* argv[] = {"bigbss", 0};
    exec("/bigbss", argv);
    exit(image_marker == 12345 ? 0 : 3); /* exec returned -1: good */
}

/* Start a kid and wait until it is ready; 0, or -1 if it could not start. */
static int kid_start(struct kid* k, int student, int what, int n) {
    int a[2], b[2];
    if (pipe(a) < 0) return -1;
    if (pipe(b) < 0) {
        close(a[0]);
        close(a[1]);
        return -1;
    }
    k->pid = fork();
    if (k->pid == 0) {
        close(a[1]);
        close(b[0]);
        kid_body(student, what, n, a[0], b[1]);
    }
    close(a[0]);
    close(b[1]);
    k->to = a[1];
    k->from = b[0];
    char c;
    if (k->pid < 0 || read(k->from, &c, 1) != 1) return -1;
    return 0;
}

/* Tell the kid to go on; its exit status (42: a holder that survived). */
static int kid_end(struct kid* k) {
    write(k->to, "g", 1); /* -1 if it is dead already: no reader */
    int st = reap_kept(k->pid);
    close(k->to);
    close(k->from);
    return st;
}

/* As the student, with root holding 20 MiB: an exec of a 252 GiB image,
 * sbrk(2^31 - 1) and sbrk of 64 pages more than are free all fail with
 * -1 and kill nobody (before the fix the exec killed root's holder). */
static void t_oomhuge(void) {
    struct kid root;
    if (kid_start(&root, 0, kHold, 5120) < 0) return fail("oomhuge", "root holder did not start", -1);
    int before = freepages();
    int pid = fork();
    if (pid == 0) {
        if (become_student() < 0) exit(100);
        int bad = 0;
        for (int i = 0; i < 10; i++) {
            char* argv[] = {"be_hugemem", 0};
            if (exec("/be_hugemem", argv) != -1) bad |= 1;
            if (sbrk(0x7fffffff) != (char*)-1) bad |= 2;
            if (sbrk((freepages() + 64) * 4096) != (char*)-1) bad |= 4;
        }
        exit(bad);
    }
    int st = reap_kept(pid);
    int after = freepages();
    int rs = kid_end(&root);
    if (st != 0) return fail("oomhuge", "impossible requests not refused (bit mask; 100 = setup)", st);
    if (rs != 42) return fail("oomhuge", "the student's impossible requests killed root's holder", rs);
    if (after < before - 4) return fail("oomhuge", "pages lost", before - after);
    pass("oomhuge", "252 GiB exec, 2 GiB sbrk, free+64 pages sbrk: -1, nobody killed");
}

/* Who the rule may kill when memory is really exhausted (a hog leaves 64
 * pages free and somebody's exec of /bigbss fails):
 *   A: root's hog, a student's exec: nobody (not another user's process);
 *   B: a student's hog and root's 20 MiB holder, a student's exec: the
 *      student's own hog, not root's holder;
 *   C: a student's hog, root's exec: the hog (root can always get memory
 *      back). Every exec returns -1 and no page is lost. */
static int oom_case(int hog_student, int asker_student, int with_holder, int* hog_st, int* holder_st) {
    struct kid holder, asker, hog;
    *holder_st = 42;
    if (with_holder && kid_start(&holder, 0, kHold, 5120) < 0) return 200;
    if (kid_start(&asker, asker_student, kExecBig, 0) < 0) return 201;
    if (kid_start(&hog, hog_student, kHog, 64) < 0) return 202;
    int st = kid_end(&asker);
    *hog_st = kid_end(&hog);
    if (with_holder) *holder_st = kid_end(&holder);
    return st;
}

static void t_oomuser(void) {
    int before = freepages();
    int hog, holder;
    int st = oom_case(0, 1, 0, &hog, &holder);
    if (st != 0) return fail("oomuser", "A: the student's exec did not return -1 cleanly (200+ = setup)", st);
    if (hog != 42) return fail("oomuser", "A: a student's failed exec killed root's hog", hog);
    st = oom_case(1, 1, 1, &hog, &holder);
    if (st != 0) return fail("oomuser", "B: the student's exec did not return -1 cleanly (200+ = setup)", st);
    if (holder != 42) return fail("oomuser", "B: a student's failed exec killed root's holder", holder);
    if (hog != -1) return fail("oomuser", "B: the student's own hog was not killed", hog);
    st = oom_case(1, 0, 0, &hog, &holder);
    if (st != 0) return fail("oomuser", "C: root's exec did not return -1 cleanly (200+ = setup)", st);
    if (hog != -1) return fail("oomuser", "C: root's failed exec did not kill the student's hog", hog);
    int after = freepages();
    if (after < before - 4) return fail("oomuser", "pages lost", before - after);
    pass("oomuser", "A: nobody killed, B: the student's own hog, C: root kills the student's hog");
}

/* While the student asks again and again for 16 MiB more than is free,
 * a root process of 8 MiB forks: every fork succeeds (a refused request
 * takes no page, so memory is never empty for a moment) and root's 20 MiB
 * holder survives. Before the fix sbrk took every free page and gave them
 * back, and a fork landing in between failed and killed the holder.
 * The student's margin of 4,096 pages covers what one of the forker's
 * children gives back between the student's two reads (its 2,087 promised
 * pages and tables), not the forker's own end as well: so the forker
 * outlives the student (it waits on `done` until the student is reaped).
 * When it ended at the same deadline, a student round that read
 * freepages() just before it and asked just after saw 4,209 pages come
 * free (the last child's and the forker's) and was rightly granted
 * (1 in 20 runs with the host loaded). The last round is stale on
 * purpose: it keeps the least count it reads for two ticks of the
 * forker's forks (one child alive) and asks only after the deadline,
 * once the forker has stopped forking; with the forker ending meanwhile
 * it was granted 6 times of 6. */
static void t_oomrace(void) {
    struct kid root;
    int done[2];
    if (kid_start(&root, 0, kHold, 5120) < 0) return fail("oomrace", "root holder did not start", -1);
    if (pipe(done) < 0) return fail("oomrace", "pipe", -1);
    int stop = uptime() + 30; /* 3 s */
    int student = fork();
    if (student == 0) {
        close(done[0]);
        close(done[1]);
        if (become_student() < 0) exit(100);
        while (uptime() < stop) {
            /* 16 MiB more than free: more than a child of the forker gives back */
            int before = freepages();
            if (uptime() >= stop - 1) { /* the last round: stale on purpose */
                for (int t = uptime(); uptime() < t + 2;) {
                    int now = freepages(); /* the least seen: while a child of the forker lived */
                    if (now < before) before = now;
                }
                sleep(stop + 2 - uptime()); /* past the forker's last fork */
            }
            if (sbrk((before + 4096) * 4096) != (char*)-1) {
                /* say how: memory that came free between the two reads, or an admission bug */
                printf("oomrace: sbrk of %d pages granted with %d free before, %d after\n", before + 4096, before,
                       freepages());
                exit(1);
            }
            char* argv[] = {"be_hugemem", 0};
            exec("/be_hugemem", argv);
        }
        exit(0);
    }
    int forker = fork();
    if (forker == 0) {
        close(done[1]);
        if (sbrk(8 << 20) == (char*)-1) exit(100);
        int failed = 0;
        while (uptime() < stop) {
            int pid = fork();
            if (pid == 0) exit(0);
            if (pid < 0) failed++;
            else wait(0);
        }
        char c;
        read(done[0], &c, 1); /* 0 once the student is reaped */
        exit(failed > 99 ? 99 : failed);
    }
    close(done[0]);
    int ss = reap_kept(student);
    close(done[1]);
    int fs = reap_kept(forker);
    int rs = kid_end(&root);
    if (ss != 0 || fs != 0 || rs != 42) /* all three, for an intermittent failure's one sighting */
        printf("oomrace: student %d, root's failed forks %d, root's holder %d (42 = alive), %d pages free now\n", ss,
               fs, rs, freepages());
    if (ss != 0) return fail("oomrace", "the student's request was not refused (100 = setup)", ss);
    if (fs != 0) return fail("oomrace", "root's forks that failed (100 = setup)", fs);
    if (rs != 42) return fail("oomrace", "root's holder was killed", rs);
    pass("oomrace", "3 s of refused student requests beside root's forks: none failed, nobody killed");
}

/* One round of two students asking at the same moment: for 60% of the
 * free pages each with sbrk, or (forks) each holding a lazy heap of 30%
 * and then forking (each child is promised its 30% too). Returns how many
 * of the two requests were granted. A granted heap or child is held until
 * both have answered. */
static int admit_round(int forks) {
    int go[2], res[2], done[2];
    if (pipe(go) < 0 || pipe(res) < 0 || pipe(done) < 0) return -1;
    int want = freepages() * (forks ? 3 : 6) / 10;
    for (int k = 0; k < 2; k++) {
        if (fork() == 0) {
            close(go[1]);
            close(res[0]);
            close(done[1]);
            if (become_student() < 0) exit(100);
            char c = 'n';
            if (forks && sbrk(want * 4096) == (char*)-1) want = 0; /* then never 'y' */
            write(res[1], "r", 1);
            read(go[0], &c, 1);
            int pid = -1;
            if (!forks) c = sbrk(want * 4096) != (char*)-1 ? 'y' : 'n';
            else if (want > 0 && (pid = fork()) == 0) {
                read(done[0], &c, 1);
                exit(0);
            } else c = pid > 0 ? 'y' : 'n';
            write(res[1], &c, 1);
            read(done[0], &c, 1);
            if (pid > 0) wait(0);
            exit(0);
        }
    }
    close(go[0]);
    close(res[1]);
    close(done[0]);
    char c;
    for (int k = 0; k < 2; k++) read(res[0], &c, 1); /* ready */
    write(go[1], "gg", 2);
    int yes = 0;
    for (int k = 0; k < 2; k++)
        if (read(res[0], &c, 1) == 1 && c == 'y') yes++;
    close(done[1]);
    close(go[1]);
    close(res[0]);
    wait(0);
    wait(0);
    return yes;
}

/* At most one of two simultaneous requests for the same free pages is
 * granted. Before admission and promise were one step under kalloc's
 * lock, both could read the same free count (the first one's promise came
 * only after its lazy heap was laid out, or after fork had shared the
 * parent's pages) and both were granted: 120% of memory promised, a page
 * fault later finding none. 30 rounds of sbrks, 30 of forks. */
static void t_admitrace(void) {
    int start = freepages();
    for (int forks = 0; forks < 2; forks++) {
        for (int round = 0; round < 30; round++) {
            int before = freepages();
            int yes = admit_round(forks);
            if (yes < 0) return fail("admitrace", "pipe", -1);
            if (yes == 2) {
                printf("admitrace: %s round %d: both granted with %d pages free before, %d now\n",
                       forks ? "fork" : "sbrk", round, before, freepages());
                return fail("admitrace",
                            forks ? "two forks were promised the same free pages"
                                  : "two sbrks were granted the same free pages",
                            round + 1);
            }
        }
    }
    int end = freepages();
    if (end != start) {
        printf("admitrace: %d pages free before, %d after\n", start, end);
        return fail("admitrace", "a refused request's promises were not given back exactly", end - start);
    }
    pass("admitrace", "30 rounds each of two students' sbrks of 60% of memory and forks of 30% at once: never both");
}

/* ---- tracing and profiling are root's ----------------------------- */

/* Root traces and profiles; the student can neither start their own, nor
 * stop, read or replace root's (before the fix trace_start(8192) and the
 * largest prof_start took every page but 19 at 8 harts and prof stop read
 * root's samples). Root's own buffers stay within 1/8 of memory each. */
static void t_traceuser(void) {
    int before = freepages();
    if (trace_start(512) < 0) return fail("traceuser", "root's trace_start(512)", -1);
    if (prof_start(1000, 64) < 0) {
        trace_stop();
        return fail("traceuser", "root's prof_start(1000, 64)", -1);
    }
    int pid = fork();
    if (pid == 0) {
        if (become_student() < 0) exit(100);
        char buf[64];
        struct tracestat st;
        int bad = 0;
        if (trace_stop() != -1) bad |= 1;
        if (prof_stop() != -1) bad |= 2;
        if (trace_start(8192) != -1) bad |= 4;
        if (prof_start(20, 8192) != -1) bad |= 8;
        if (trace_read(0, buf, sizeof buf) != -1) bad |= 16;
        if (prof_read(0, buf, sizeof buf) != -1) bad |= 32;
        if (trace_stat(&st) != 0 || st.on != 1) bad |= 64; /* the counts are anyone's */
        exit(bad);
    }
    int st = reap_kept(pid);
    int kept = trace_stop(), samples = prof_stop();
    char hdr[16];
    int rd = trace_read(0, hdr, sizeof hdr);
    static char rest[4096];
    unsigned long off = 0;
    int n;
    while ((n = prof_read(off, rest, sizeof rest)) > 0) off += (unsigned long)n; /* to the end: frees it */
    if (st != 0) return fail("traceuser", "the student's calls that did not fail (bit mask; 100 = setup)", st);
    if (kept <= 0 || samples < 0) return fail("traceuser", "root's trace or profile was stopped by the student", kept);
    if (rd != (int)sizeof hdr) return fail("traceuser", "root cannot read its trace", rd);
    /* The largest per-hart size on every hart is over 1/8 of memory here: refused. */
    if (trace_start(8192) != -1) {
        int used = before - freepages();
        trace_stop();
        if (used > before / 8 + 64) return fail("traceuser", "root's trace took more than 1/8 of memory", used);
    }
    if (trace_start(4) < 0) return fail("traceuser", "a small trace no longer starts", -1);
    trace_stop();
    int after = freepages();
    if (after < before - 8) return fail("traceuser", "pages still held by a stopped small trace", before - after);
    pass("traceuser", "the student cannot start, stop or read; root's buffers within 1/8 of memory");
}

/* ---- console writes are killable and shared ----------------------- */

/* A child writes 256 KiB in one write(1, ...) (lines of 100 'z's). */
static int big_writer(void) {
    int pid = fork();
    if (pid == 0) {
        enum { kBig = 256 * 1024 };
        char* buf = sbrk(kBig);
        if (buf == (char*)-1) exit(100);
        for (int i = 0; i < kBig; i++) buf[i] = i % 101 == 100 ? '\n' : 'z';
        write(1, buf, kBig);
        exit(0);
    }
    return pid;
}

/* Killed in the middle of a 256 KiB console write, the writer stops. The
 * guest kills the writer, then writes a marker line; the host counts the
 * writer's bytes: none may follow the marker (the marker waits for the
 * writer's piece in progress, after which the writer sees the kill and
 * takes no other turn), and the marker must come before half of the big
 * write. Counted in bytes, so no host load or hart count changes the
 * verdict (a marker written before the kill raced the writer's next
 * pieces at 8 harts: 1,100 bytes once). Before the fix the marker came
 * only after all 256 KiB (8 s), the kill waiting for the write. The guest
 * checks the writer was killed, and gone within 10 s. */
static void t_conskill(void) {
    int pid = big_writer();
    if (pid < 0) return fail("conskill", "fork", pid);
    sleep(3);
    int t0 = uptime();
    kill(pid);
    /* on a line of its own: the kill may cut the writer's line short */
    static const char mark[] = "\nconskill: the writer is killed\n";
    write(1, mark, sizeof mark - 1);
    int st = reap_kept(pid);
    int ticks = uptime() - t0;
    printf("\nconskill: the writer was gone %d ticks after its kill\n", ticks);
    if (st != -1) return fail("conskill", "the writer was not killed", st);
    if (ticks > 100) return fail("conskill", "ticks from kill to exit of a console writer", ticks);
    pass("conskill", "the host counts the writer's bytes after its kill");
}

/* While another process writes 256 KiB in one call, a one-line write gets
 * through: the host sees the line whole, on a line of its own, before the
 * first half of the big write (bytes, not time: before the fix it came
 * after all of it, 8 s later). */
static void t_consshare(void) {
    int pid = big_writer();
    if (pid < 0) return fail("consshare", "fork", pid);
    sleep(3);
    int t0 = uptime();
    static const char line[] = "consshare: a line between the big writer's lines\n";
    int w = write(1, line, sizeof line - 1);
    int ticks = uptime() - t0;
    kill(pid);
    reap_kept(pid);
    printf("\nconsshare: the line's write took %d ticks\n", ticks);
    if (w != (int)sizeof line - 1) return fail("consshare", "the line's write", w);
    pass("consshare", "the host checks where the line landed");
}

/* ---- memory requests are killable ---------------------------------- */

/* A refused request takes no page, so it takes no time: 100 sbrks of more
 * than RAM and 100 of 16 MiB more than is free finish within 20 ticks
 * (before the fix each one took every free page and gave them back: tens
 * of thousands of pages zeroed and junk-filled; the 200 took 731 ticks).
 * Then, as the student, a child asks for 32 MiB again and again (given
 * back each time) and for more than RAM: killed 0.3 s in, it is gone
 * within 10 s (a growth is mapped a MiB at a time and abandoned when its
 * process is killed; the bounds are loose so a loaded host passes). */
static void t_sbrkkill(void) {
    int t0 = uptime();
    for (int i = 0; i < 100; i++) {
        if (sbrk(0x7fffffff) != (char*)-1) return fail("sbrkkill", "sbrk of 2 GiB succeeded", i);
        if (sbrk((freepages() + 4096) * 4096) != (char*)-1) return fail("sbrkkill", "sbrk past free memory", i);
    }
    int refused = uptime() - t0;
    printf("sbrkkill: 200 refused sbrks took %d ticks\n", refused);
    if (refused > 20) return fail("sbrkkill", "ticks for 200 refused sbrks", refused);
    int pid = fork();
    if (pid == 0) {
        if (become_student() < 0) exit(100);
        for (;;) {
            sbrk(0x7fffffff);
            if (sbrk(32 << 20) != (char*)-1) sbrk(-(32 << 20));
        }
    }
    if (pid < 0) return fail("sbrkkill", "fork", pid);
    sleep(3);
    t0 = uptime();
    kill(pid);
    int st = reap_kept(pid);
    int ticks = uptime() - t0;
    printf("sbrkkill: the child was gone %d ticks after its kill\n", ticks);
    if (st != -1) return fail("sbrkkill", "the child was not killed", st);
    if (ticks > 100) return fail("sbrkkill", "ticks from kill to exit of a process growing its memory", ticks);
    pass("sbrkkill", "refused sbrks take no time; a process growing its memory dies when killed");
}

static void spin_forever(void* arg) {
    (void)arg;
    for (;;) __asm__ volatile("" ::: "memory");
}

/* sbrkkill with a second thread spinning, so the page table is shared: a
 * shrink keeps its pages mapped without PTE_U for the group to reuse
 * (kernel/mm/vm.h:uvm_revoke) and a growth killed between its MiBs leaves
 * its part so too (kernel/proc/oom.cc:oom_grow). Ten students' children
 * grow 32 MiB, touch it and give it back until killed, at 0.1 to 0.3 s:
 * each one dies, and every page comes back. */
static void t_sbrkshared(void) {
    int before = freepages();
    for (int round = 0; round < 10; round++) {
        int pid = fork();
        if (pid == 0) {
            if (become_student() < 0) exit(100);
            if (thread_create(spin_forever, 0) < 0) exit(101);
            for (;;) {
                char* m = sbrk(32 << 20);
                if (m == (char*)-1) continue;
                for (int off = 0; off < (32 << 20); off += 4096) m[off] = 1;
                sbrk(-(32 << 20));
            }
        }
        if (pid < 0) return fail("sbrkshared", "fork", pid);
        sleep(1 + round % 3);
        kill(pid);
        int st = reap_kept(pid);
        if (st != -1) return fail("sbrkshared", "status of a killed two-thread process", st);
    }
    int after = freepages();
    printf("sbrkshared: %d pages free before, %d after\n", before, after);
    if (after != before) return fail("sbrkshared", "pages not back", before - after);
    pass("sbrkshared", "ten two-thread processes growing 32 MiB killed; every page back");
}

/* ---- process slots: root's reserve and the per-user limit --------- */

/* Fork children that wait until the gate pipe's write end closes, until
 * fork fails (or cap of them); returns how many. */
static int bomb(int cap, int gate[2]) {
    int n = 0;
    while (n < cap) {
        int pid = fork();
        if (pid == 0) {
            char c;
            close(gate[1]);
            read(gate[0], &c, 1);
            exit(0);
        }
        if (pid < 0) break;
        n++;
    }
    return n;
}

/* A child running as uid that bombs (at most cap), reports its count on
 * `report` and, once the gate closes, reaps its children and exits. */
static int bomber(int uid, int cap, int gate[2], int report) {
    int pid = fork();
    if (pid == 0) {
        close(gate[1]);
        if (setgid(uid) < 0 || setuid(uid) < 0) exit(100);
        int n = bomb(cap, gate);
        write(report, &n, sizeof n);
        char c;
        read(gate[0], &c, 1);
        while (wait(0) >= 0) {}
        exit(0);
    }
    return pid;
}

/* Two users' fork bombs take what they may; root still forks (it has the
 * last slots to itself). Before the fix a student's bomb took all 64
 * slots and root's shell could not even run kill or ps. */
static int slots_case(int* n1, int* n2, int* root_ok) {
    int gate[2], rep[2];
    if (pipe(gate) < 0 || pipe(rep) < 0) return 200;
    *n1 = *n2 = -1;
    int a = bomber(kStudentId, 1000, gate, rep[1]);
    if (a < 0 || read(rep[0], n1, sizeof *n1) != sizeof *n1) return 201;
    int b = bomber(kStudentId + 1, 1000, gate, rep[1]); /* no slot left for it before the fix */
    if (b > 0 && read(rep[0], n2, sizeof *n2) != sizeof *n2) return 202;
    if (b < 0) *n2 = 0;
    *root_ok = 0;
    for (int i = 0; i < 4; i++) {
        int pid = fork();
        if (pid == 0) exit(7);
        if (pid > 0 && reap_kept(pid) == 7) (*root_ok)++;
    }
    close(gate[0]);
    close(gate[1]);
    close(rep[0]);
    close(rep[1]);
    reap_kept(a);
    if (b > 0) reap_kept(b);
    return 0;
}

/* getrlimit/setrlimit as the student: the default is half the user slots;
 * lowering cur limits the student's forks; cur above max (EINVAL), raising
 * max (EPERM) and unknown resources are refused. Exit status: bit mask of
 * failures. */
static int rlimit_checks(void) {
    if (become_student() < 0) return 100;
    struct rlimit r, d;
    int bad = 0;
    if (getrlimit(RLIMIT_NPROC, &d) != 0 || d.rlim_cur != d.rlim_max || d.rlim_cur < 64) bad |= 1;
    if (getrlimit(999, &r) != -1 || setrlimit(999, &d) != -1) bad |= 2;
    r.rlim_cur = d.rlim_max + 1;
    r.rlim_max = d.rlim_max + 1;
    if (setrlimit(RLIMIT_NPROC, &r) != -1 || errno() != EPERM) bad |= 4; /* raising max: root's */
    r.rlim_cur = d.rlim_max + 1;
    r.rlim_max = d.rlim_max;
    if (setrlimit(RLIMIT_NPROC, &r) != -1 || errno() != EINVAL) bad |= 8; /* cur above max */
    r.rlim_cur = 5;
    if (setrlimit(RLIMIT_NPROC, &r) != 0) bad |= 16;
    int gate[2];
    if (pipe(gate) < 0) return 101;
    int n = bomb(100, gate); /* this process is one of the student's 5 */
    close(gate[1]);
    while (wait(0) >= 0) {}
    close(gate[0]);
    if (n != 4) bad |= 32;
    r.rlim_cur = r.rlim_max = 5;
    if (setrlimit(RLIMIT_NPROC, &r) != 0) bad |= 64;
    r.rlim_max = 6;
    if (setrlimit(RLIMIT_NPROC, &r) != -1 || errno() != EPERM) bad |= 128; /* no way back up */
    if (getrlimit(RLIMIT_NPROC, (struct rlimit*)0x80000000L) != -1) bad |= 256;
    return bad;
}

static void t_forkuser(void) {
    int n1, n2, root_ok;
    int st = slots_case(&n1, &n2, &root_ok);
    if (st != 0) return fail("forkuser", "setup", st);
    struct rlimit d;
    getrlimit(RLIMIT_NPROC, &d);
    printf("forkuser: the student forked %d, another user %d, root %d of 4\n", n1, n2, root_ok);
    if (root_ok != 4) return fail("forkuser", "root's forks that succeeded beside two users' fork bombs", root_ok);
    if (n1 < 1 || n2 < 1) return fail("forkuser", "a user's fork bomb got no process", n1 < 1 ? n1 : n2);
    if (n1 != (int)d.rlim_cur - 1) return fail("forkuser", "the student's children (want RLIMIT_NPROC - 1)", n1);
    int pid = fork();
    if (pid == 0) exit(rlimit_checks());
    st = reap_kept(pid);
    if (st != 0) return fail("forkuser", "getrlimit/setrlimit checks (bit mask; 100+ = setup)", st);
    pass("forkuser", "root forks beside two users' bombs; RLIMIT_NPROC caps each user");
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
    static const long nums[] = {0, -1, 999, 1L << 40, 200, 1000};
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

/* The bombers fork until fork fails, whatever that takes: a 3 s window to
 * fill the table (as before) left it unfilled whenever the loaded host ran
 * the guest slowly (filling took 10-19 of its 30 ticks at 3 harts on a
 * busy host; "filled by 0 of 3" in 2 runs of 18), and reap() of the
 * bombers in pid order dropped the status of one that ended first. Each
 * child holds its slot until the hold pipe's write end (ours only) closes;
 * the table is held full for 3 s after every bomber saw fork fail. */
static int fill_table(int hold, int full, int deadline) {
    int failed = 0;
    while (!failed && uptime() < deadline) {
        int pid = fork();
        if (pid == 0) {
            char c;
            close(full);
            read(hold, &c, 1); /* end of file when the table is let go */
            exit(0);
        }
        failed = pid < 0;
    }
    write(full, failed ? "F" : "N", 1);
    while (wait(0) >= 0) {}
    return failed ? 0 : 1;
}

static void t_forkbomb(void) {
    int hold[2], full[2];
    if (pipe(hold) < 0 || pipe(full) < 0) return fail("forkbomb", "pipe", -1);
    int deadline = uptime() + 600; /* a table still not full after 60 s is a finding */
    int bombers[3];
    for (int b = 0; b < 3; b++) {
        bombers[b] = fork();
        if (bombers[b] == 0) {
            close(hold[1]);
            close(full[0]);
            exit(fill_table(hold[0], full[1], deadline));
        }
    }
    close(hold[0]);
    close(full[1]);
    int filled = 0;
    char c;
    for (int b = 0; b < 3; b++)
        if (bombers[b] > 0 && read(full[0], &c, 1) == 1 && c == 'F') filled++;
    sleep(30); /* 3 s full: the host's pings see `sh: fork failed` */
    close(hold[1]);
    close(full[0]);
    while (wait(0) >= 0) {}
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
    {"oomhuge", t_oomhuge},
    {"oomuser", t_oomuser},
    {"oomrace", t_oomrace},
    {"admitrace", t_admitrace},
    {"traceuser", t_traceuser},
    {"conskill", t_conskill},
    {"consshare", t_consshare},
    {"forkuser", t_forkuser},
    {"sbrkkill", t_sbrkkill},
    {"sbrkshared", t_sbrkshared},
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
    /* threads and futexes (user/hostile_threads.c) */
    {"tbomb", t_tbomb},
    {"tfutex", t_tfutex},
    {"texitrace", t_texitrace},
    {"texecrace", t_texecrace},
    {"tkill", t_tkill},
    {"tjoin", t_tjoin},
    {"tstack", t_tstack},
    /* memory mappings (user/hostile_vm.c) */
    {"mmapgarbage", t_mmapgarbage},
    {"mprotrace", t_mprotrace},
    {"mmapoom", t_mmapoom},
    {"copyrace", t_copyrace},
    {"cowbomb", t_cowbomb},
    {"cowcount", t_cowcount},
    {"filecount", t_filecount},
    {"touchall", t_touchall},
    {"mmaptrunc", t_mmaptrunc},
    {"lockorder", t_lockorder},
    /* signals (user/hostile_sig.c) */
    {"sigforge", t_sigforge},
    {"sigstorm", t_sigstorm},
    {"sigstoplock", t_sigstoplock},
    {"sigstoppipe", t_sigstoppipe},
    {"sigkillstopped", t_sigkillstopped},
    {"sigperm", t_sigperm},
};

int main(int argc, char* argv[]) {
    int ntests = sizeof tests / sizeof tests[0];
    if (argc < 2 || strcmp(argv[1], "-h") == 0) {
        char line[800] = "hostile TEST...  (tests:";
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
