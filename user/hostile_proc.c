/* user/hostile_proc.c - hostile's attacks on processes and the kernel's
 * entry points (part of user/hostile): malformed programs, tracing as a
 * student, the process table and its per-user limit, unknown system
 * calls, renice and policy switches on racing pids.
 *
 *   elf      exec every /be_* file (malformed ELFs from tools/mkbadelf.py):
 *            -1 each, the caller's image intact, no page leaked; be_*_k must
 *            be killed instead (valid image, bad entry point);
 *   traceuser tracing and profiling are root's: the student cannot start,
 *            stop, read or replace them; root's buffers are capped;
 *   forkuser two users' fork bombs leave root its reserve; RLIMIT_NPROC
 *            (getrlimit, setrlimit) caps each user;
 *   badsys   unknown system-call numbers return -1 (the console report is
 *            rate-limited; the host counts the lines);
 *   renice   renice and getpriority on exiting and recycled pids, and policy
 *            switches, while children come and go on every hart;
 *   forkbomb three processes fill the process table (however long that
 *            takes) and hold it full for 3 s (in the background).
 */
#include "lib/sched/policies.h"
#include "user/hostile.h"
#include "user/user.h"

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

void t_elf(void) {
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

/* ---- tracing and profiling are root's ----------------------------- */

/* Root traces and profiles; the student can neither start their own, nor
 * stop, read or replace root's (before the fix trace_start(8192) and the
 * largest prof_start took every page but 19 at 8 harts and prof stop read
 * root's samples). Root's own buffers stay within 1/8 of memory each. */
void t_traceuser(void) {
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

void t_forkuser(void) {
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

/* ---- badsys --------------------------------------------------------- */

static long raw_syscall(long num) {
    register long a0 __asm__("a0") = 0;
    register long a7 __asm__("a7") = num;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a7) : "memory");
    return a0;
}

void t_badsys(void) {
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

void t_renice(void) {
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

void t_forkbomb(void) {
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
