/* user/hostile_fs.c - hostile's file-system tests (user/hostile.c runs them).
 *
 * orphans and orphanroot leave cwds and open files unlinked while in use
 * for the host to halt or crash the machine on (tests/guest/hostile.py
 * then checks fsck and the next boot); inodehog and filehog fill the
 * in-memory inode table or the file table as a student (root's commands
 * must still run); protlink tries a student's hard link to /etc/passwd;
 * bigdir puts 5,000 names in one directory; rmcwd removes a cwd (one and
 * two levels deep) and tries `..` and every kind of create in it; dirrace
 * makes and removes a directory while another process fills and empties
 * it, and inoreuse frees inode numbers beside creates that undo (fsck
 * judges both). Each prints `PASS name (detail)` or `FAIL name: why`
 * through hostile.c's pass and fail.
 */
#include "kernel/fcntl.h"
#include "kernel/fs.h"
#include "kernel/stat.h"
#include "user/hostile.h"
#include "user/user.h"

/* ---- orphans: run in the background, then the machine stops ---------- */

/* Report setup on the pipe, then hold what was made (a cwd, open files)
 * until the machine halts or crashes (tests/guest/hostile.py). */
static void hold(int ready, int ok) {
    write(ready, ok ? "1" : "0", 1);
    close(ready);
    for (;;) sleep(1000);
}

/* Each child makes one shape of "unlinked while in use"; 1 if it did. */
static int dead_cwd_two_deep(void) {
    return chdir("/tmp/ho/a/b") == 0 && unlink("/tmp/ho/a/b") == 0 && unlink("/tmp/ho/a") == 0 &&
           open("..", O_RDONLY) < 0;
}
static int dead_cwd(void) { return chdir("/tmp/ho/c") == 0 && unlink("/tmp/ho/c") == 0; }
static int open_unlinked(void) {
    static char block[1024];
    int fd = open("/tmp/ho/f", O_CREATE | O_RDWR);
    if (fd < 0) return 0;
    for (int i = 0; i < 20; i++) /* direct and indirect blocks */
        if (write(fd, block, sizeof block) != sizeof block) return 0;
    if (link("/tmp/ho/f", "/tmp/ho/f2") < 0 || unlink("/tmp/ho/f") < 0 || unlink("/tmp/ho/f2") < 0) return 0;
    struct stat st;
    return fstat(fd, &st) == 0 && st.nlink == 0 && st.size == 20 * sizeof block;
}
/* The root victim's files in sticky /tmp stay out of a student's reach. */
static int spare_the_victim(void) {
    return unlink("/tmp/rootv/keep") < 0 && unlink("/tmp/rootv") < 0 && open("/tmp/rootv/new", O_CREATE) < 0;
}

void t_orphans(void) {
    int (*shapes[])(void) = {dead_cwd_two_deep, dead_cwd, open_unlinked, spare_the_victim};
    const int n = sizeof shapes / sizeof shapes[0];
    if (mkdir("/tmp/ho") < 0 || mkdir("/tmp/ho/a") < 0 || mkdir("/tmp/ho/a/b") < 0 || mkdir("/tmp/ho/c") < 0)
        return fail("orphans", "cannot make /tmp/ho/{a/b,c}", -1);
    int p[2];
    if (pipe(p) < 0) return fail("orphans", "pipe failed", -1);
    for (int i = 0; i < n; i++) {
        if (fork() == 0) {
            close(p[0]);
            hold(p[1], shapes[i]());
        }
    }
    close(p[1]);
    int ok = 0;
    char c;
    for (int i = 0; i < n; i++) ok += read(p[0], &c, 1) == 1 && c == '1';
    close(p[0]);
    if (ok != n) return fail("orphans", "shapes made (of 4)", ok);
    pass("orphans", "2 dead cwds, an open unlinked file, the victim spared; holding until the machine stops");
    printf("orphans: ready\n");
}

/* Root's processes: a file to keep in /tmp/rootv, its cwd there, and an
 * open unlinked file of its own. */
void t_orphanroot(void) {
    if (mkdir("/tmp/rootv") < 0) return fail("orphanroot", "mkdir /tmp/rootv", -1);
    int fd = open("/tmp/rootv/keep", O_CREATE | O_WRONLY);
    if (fd < 0 || write(fd, "root's file\n", 12) != 12) return fail("orphanroot", "write /tmp/rootv/keep", fd);
    close(fd);
    int p[2];
    if (pipe(p) < 0) return fail("orphanroot", "pipe failed", -1);
    if (fork() == 0) {
        close(p[0]);
        int gone = open("/tmp/rootv/gone", O_CREATE | O_RDWR);
        hold(p[1], chdir("/tmp/rootv") == 0 && gone >= 0 && write(gone, "x", 1) == 1 && unlink("gone") == 0);
    }
    close(p[1]);
    char c = 0;
    read(p[0], &c, 1);
    close(p[0]);
    if (c != '1') return fail("orphanroot", "victim setup failed", c);
    pass("orphanroot", "root's cwd /tmp/rootv, an open unlinked file, /tmp/rootv/keep");
    printf("orphanroot: ready\n");
}

/* ---- tablehog: a student fills the inode or the file table ---------- */

#define HOG_KIDS 40
#define HOG_FDS 13 /* of 16 descriptors (0-2 closed): two pipe ends and the probe stay free */

/* "/tmp/th/cKK_JJ" */
static void hog_name(char* s, int k, int j) {
    strcpy(s, "/tmp/th/c00_00");
    s[9] = (char)('0' + k / 10);
    s[10] = (char)('0' + k % 10);
    s[12] = (char)('0' + j / 10);
    s[13] = (char)('0' + j % 10);
}

/* The entries of / (the image's files, all readable), for the inode hog
 * to open before it creates files of its own: the disk has fewer free
 * inodes than the in-memory table has entries. Not the programs root runs
 * meanwhile (the host's check): their inodes must need new entries. */
static char hog_have[80][DIRSIZ + 2];
static int hog_nhave;

static int root_uses(const char* entry) {
    static const char* const used[] = {"sh", "ls", "echo", "cat", "wc", "kill", "etc", "tmp"};
    char name[DIRSIZ + 1];
    memmove(name, entry, DIRSIZ);
    name[DIRSIZ] = 0;
    for (unsigned i = 0; i < sizeof used / sizeof used[0]; i++)
        if (strcmp(name, used[i]) == 0) return 1;
    return 0;
}

static void hog_list_root(void) {
    int fd = open("/", O_RDONLY);
    struct dirent de;
    hog_nhave = 0;
    while (fd >= 0 && hog_nhave < 80 && read(fd, &de, sizeof de) == sizeof de) {
        if (de.inum == 0 || de.name[0] == '.' || root_uses(de.name)) continue;
        hog_have[hog_nhave][0] = '/';
        memmove(hog_have[hog_nhave] + 1, de.name, DIRSIZ);
        hog_have[hog_nhave][DIRSIZ + 1] = 0;
        int probe = open(hog_have[hog_nhave], O_RDONLY); /* only what a student may open */
        if (probe >= 0) {
            close(probe);
            hog_nhave++;
        }
    }
    close(fd);
}

/* Kid k of the inode hog: opens distinct inodes (its share of /'s entries,
 * then files it creates) until open fails; of the file hog: opens
 * /README.md until open fails. Reports how many on `report`, and whether
 * one more open that needs a new table entry fails; holds them until
 * `stop` reaches end of file (its parent died: root killed it), then
 * closes them and removes what it created. */
static void hog_kid(int k, int distinct, int report, int stop) {
    close(0);
    close(1);
    close(2);
    int got = 0, made = 0, fds[HOG_FDS];
    char name[32];
    for (int j = 0; j < HOG_FDS; j++) {
        int fd, g = k * HOG_FDS + j;
        if (!distinct) {
            fd = open("/README.md", O_RDONLY);
        } else if (g < hog_nhave) {
            fd = open(hog_have[g], O_RDONLY);
        } else {
            hog_name(name, k, made);
            fd = open(name, O_CREATE | O_RDWR);
            made += fd >= 0;
        }
        if (fd < 0) break;
        fds[got++] = fd;
    }
    /* /etc/passwd is held by nobody: opening it needs a new table entry */
    int probe = distinct ? open("/etc/passwd", O_RDONLY) : open("/README.md", O_RDONLY);
    char r[2] = {(char)got, (char)(probe < 0)};
    if (probe >= 0) close(probe);
    write(report, r, 2);
    close(report);
    while (read(stop, r, 1) > 0) {}
    for (int j = 0; j < got; j++) close(fds[j]);
    for (int j = 0; j < made; j++) {
        hog_name(name, k, j);
        unlink(name);
    }
    exit(0);
}

/* Fork kids until one finds the table full (its probe, an open that needs
 * a new entry, fails; running out of disk inodes is not that), report,
 * and hold everything until killed. */
static void tablehog(const char* test, int distinct) {
    mkdir("/tmp/th");
    hog_list_root();
    int rep[2], stop[2];
    if (pipe(rep) < 0 || pipe(stop) < 0) return fail(test, "pipe failed", -1);
    int kids = 0, held = 0, refused = 0;
    for (int k = 0; k < HOG_KIDS && !refused; k++) {
        int pid = fork();
        if (pid < 0) break;
        if (pid == 0) {
            close(rep[0]);
            close(stop[1]);
            hog_kid(k, distinct, rep[1], stop[0]);
        }
        kids++;
        char r[2] = {0, 0};
        if (read(rep[0], r, 2) == 2) held += r[0];
        refused = r[1]; /* the table refused a student's open */
    }
    close(rep[0]);
    close(rep[1]);
    close(stop[0]);
    if (!refused) fail(test, "the table never filled", held);
    else pass(test, "the table refused the student; the host checks root's commands");
    printf("%s: full, %d %s held by %d processes; kill %d to end\n", test, held, distinct ? "inodes" : "files", kids,
           getpid());
    for (;;) sleep(1000); /* the kids hold on while stop[1] is open here */
}

void t_inodehog(void) { tablehog("inodehog", 1); }
void t_filehog(void) { tablehog("filehog", 0); }

/* ---- protlink: hard links to files a student cannot write ----------- */

/* As student (uid 1000): 0 if every check held, else the first that failed. */
static int protlink_as_student(void) {
    if (setgid(1000) < 0 || setuid(1000) < 0) return 1;
    if (link("/etc/passwd", "/tmp/pl-pw") == 0) return 2; /* would pin root's file in sticky /tmp */
    int fd = open("/tmp/pl-own", O_CREATE | O_RDWR);
    if (fd < 0) return 3;
    close(fd);
    if (link("/tmp/pl-own", "/tmp/pl-own2") < 0) return 4; /* their own file: allowed */
    if (unlink("/tmp/pl-own2") < 0 || unlink("/tmp/pl-own") < 0) return 5;
    return 0;
}

void t_protlink(void) {
    int pid = fork();
    if (pid == 0) exit(protlink_as_student());
    int st = reap(pid);
    struct stat s;
    if (stat("/tmp/pl-pw", &s) == 0) {
        unlink("/tmp/pl-pw");
        return fail("protlink", "a student hard-linked /etc/passwd into /tmp", st);
    }
    if (st != 0) return fail("protlink", "student's checks (1 setuid, 2 link passwd, 3-5 own file)", st);
    pass("protlink", "a student cannot link /etc/passwd into /tmp; own files link");
}

/* ---- bigdir: 5,000 names in one directory --------------------------- */

#define BIGDIR_N 5000

/* "/tmp/bd/nNNNN" */
static void bigdir_name(char* s, int i) {
    strcpy(s, "/tmp/bd/n0000");
    for (int d = 12; d >= 9; d--, i /= 10) s[d] = (char)('0' + i % 10);
}

void t_bigdir(void) {
    char name[32];
    if (mkdir("/tmp/bd") < 0) return fail("bigdir", "mkdir /tmp/bd", -1);
    int fd = open("/tmp/bd/f", O_CREATE | O_RDWR);
    if (fd < 0) return fail("bigdir", "create /tmp/bd/f", fd);
    close(fd);
    int t0 = uptime();
    for (int i = 0; i < BIGDIR_N; i++) {
        bigdir_name(name, i);
        if (link("/tmp/bd/f", name) < 0) return fail("bigdir", "link failed at", i);
    }
    int t1 = uptime();
    struct stat st;
    bigdir_name(name, BIGDIR_N - 1);
    if (stat("/tmp/bd/f", &st) < 0 || st.nlink != BIGDIR_N + 1) return fail("bigdir", "nlink", st.nlink);
    if (link("/tmp/bd/f", name) == 0) return fail("bigdir", "a name linked twice", BIGDIR_N - 1);
    for (int i = 0; i < BIGDIR_N; i++) {
        bigdir_name(name, i);
        if (unlink(name) < 0) return fail("bigdir", "unlink failed at", i);
    }
    int t2 = uptime();
    if (stat("/tmp/bd/f", &st) < 0 || st.nlink != 1) return fail("bigdir", "nlink after unlinks", st.nlink);
    if (unlink("/tmp/bd/f") < 0 || unlink("/tmp/bd") < 0) return fail("bigdir", "cleanup", -1);
    printf("bigdir: %d links in %d ticks, %d unlinks in %d ticks\n", BIGDIR_N, t1 - t0, BIGDIR_N, t2 - t1);
    pass("bigdir", "5000 links and unlinks in one directory");
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

void t_rmcwd(void) {
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

void t_dirrace(void) {
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

/* ---- inoreuse ------------------------------------------------------- */

/* Numbers freed and reused at once (kernel/fs/inode.cc:ialloc): one child
 * creates and removes /hu/f again and again (each removal's iput frees
 * the number last), while another, its cwd a directory removed under it,
 * tries mkdir and create there (each allocates a number, then undoes: the
 * dead directory takes no entry), and a third makes and removes /hu/d.
 * Before the fix a number still being freed by the first child's iput
 * could go to the others with the old entry's reference: their undo or
 * unlink then freed nothing (fsck: a leaked directory whose '..' names a
 * freed one, or an orphan listed until the next boot; the host checks
 * both after the suite). Every create in the dead directory must fail. */
void t_inoreuse(void) {
    const int rounds = 400;
    if (mkdir("/hu") < 0 || mkdir("/hu/dead") < 0) return fail("inoreuse", "setup", -1);
    int kids[3];
    for (int k = 0; k < 3; k++) {
        kids[k] = fork();
        if (kids[k] != 0) continue;
        int bad = 0;
        if (k == 0) {
            for (int i = 0; i < rounds; i++) {
                int fd = open("/hu/f", O_CREATE | O_RDWR);
                if (fd >= 0) close(fd);
                unlink("/hu/f");
            }
        } else if (k == 1) {
            if (chdir("/hu/dead") < 0 || unlink("/hu/dead") < 0) exit(100);
            for (int i = 0; i < rounds; i++) {
                if (mkdir("x") != -1) bad++;
                int fd = open("y", O_CREATE | O_RDWR);
                if (fd >= 0) {
                    bad++;
                    close(fd);
                }
            }
        } else {
            for (int i = 0; i < rounds; i++) {
                mkdir("/hu/d");
                unlink("/hu/d");
            }
        }
        exit(bad);
    }
    int bad = 0;
    for (int k = 0; k < 3; k++) {
        int st = reap_kept(kids[k]);
        if (st != 0) bad = st;
    }
    unlink("/hu/f");
    unlink("/hu/d");
    if (unlink("/hu") != 0) return fail("inoreuse", "/hu not empty afterwards", -1);
    if (bad != 0) return fail("inoreuse", "creates in the removed cwd that did not fail (100 = setup)", bad);
    pass("inoreuse", "400 rounds of frees beside creates in a removed cwd and mkdir/rmdir; fsck judges");
}
