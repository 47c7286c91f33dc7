/* permtest - users and file protection, checked from inside the guest.
 *
 *   permtest
 *
 * Must start as root (the console's shell is). Builds a small tree under
 * /ptest as root, then forks a child that becomes student (uid and gid
 * 1000) and tries every refused operation (each must return -1) and every
 * permitted one (each must succeed). Back as root, the parent checks that
 * the refused operations changed nothing (owners, modes, sizes, contents,
 * entries, nice values, the policy, a root process still alive) and that
 * root may do all of it. One line per check, `PASS name` or
 * `FAIL name: why`, relayed by tests/guest/users_tests.py, which also runs
 * fsck on the disk afterwards. The tree is left in place for inspection.
 * Exit status: 0 when every check passed, 1 otherwise; -h prints the usage.
 */
#include "kernel/fcntl.h"
#include "user/user.h"

static int failures;

static void check(int ok, const char* name, const char* why) {
    if (ok) {
        printf("PASS %s\n", name);
    } else {
        printf("FAIL %s: %s\n", name, why);
        failures++;
    }
}
#define REFUSED(name, call) check((call) == -1, name, #call " did not return -1")
/* Refused, and errno() says why (Linux's number for that refusal). */
#define REFUSED_E(name, call, e)                                                         \
    do {                                                                                 \
        const int r_ = (call);                                                           \
        const int why_ = errno();                                                        \
        check(r_ == -1 && why_ == (e), name, #call " did not fail with " #e);            \
        if (r_ == -1 && why_ != (e)) printf("  (errno %d: %s)\n", why_, strerror(why_)); \
    } while (0)
#define ALLOWED(name, call) check((call) >= 0, name, #call " failed")

static int write_file(const char* path, const char* text) {
    int fd = open(path, O_CREATE | O_WRONLY | O_TRUNC);
    if (fd < 0) return -1;
    int n = write(fd, text, strlen(text));
    close(fd);
    return n == (int)strlen(text) ? 0 : -1;
}

/* The file's first bytes into buf[64] (NUL-terminated), or -1. */
static int read_file(const char* path, char* buf) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) return -1;
    int n = read(fd, buf, 63);
    close(fd);
    if (n < 0) return -1;
    buf[n] = 0;
    return n;
}

static int copy_file(const char* from, const char* to) {
    int in = open(from, O_RDONLY), out = open(to, O_CREATE | O_WRONLY | O_TRUNC);
    char buf[512];
    int n, ok = in >= 0 && out >= 0;
    while (ok && (n = read(in, buf, sizeof buf)) > 0) ok = write(out, buf, n) == n;
    close(in);
    close(out);
    return ok ? 0 : -1;
}

/* Run path with one argument in a child; its exit status, or -1 if exec failed. */
static int run(const char* path, char* arg) {
    char* argv[] = {(char*)path, arg, 0};
    int pid = fork();
    if (pid == 0) {
        exec(path, argv);
        exit(99);
    }
    int status = -1;
    wait(&status);
    return status == 99 ? -1 : status;
}

static int same_stat(const char* path, const struct xstat* want) {
    struct xstat st;
    return xstat(path, &st) == 0 && st.uid == want->uid && st.gid == want->gid && st.mode == want->mode &&
           st.size == want->size && st.nlink == want->nlink;
}

static void setup(void) {
    int ok = mkdir("/ptest") == 0 && write_file("/ptest/secret", "root secret") == 0 &&
             chmod("/ptest/secret", 0600) == 0 && write_file("/ptest/pub", "public text") == 0 &&
             mkdir("/ptest/rootdir") == 0 && mkdir("/ptest/locked") == 0 &&
             write_file("/ptest/locked/f", "hidden") == 0 && chmod("/ptest/locked", 0700) == 0 &&
             mkdir("/ptest/home") == 0 && chown("/ptest/home", 1000, 1000) == 0 && mkdir("/ptest/sticky") == 0 &&
             chmod("/ptest/sticky", 01777) == 0 && write_file("/ptest/sticky/rootfile", "r") == 0 &&
             chmod("/ptest/sticky/rootfile", 0666) == 0 && copy_file("/echo", "/ptest/echo700") == 0 &&
             chmod("/ptest/echo700", 0700) == 0;
    check(ok, "setup", "could not build /ptest as root (run permtest as root, once per boot)");
    if (!ok) exit(1);
}

/* As student: everything the issue says must be refused. */
static void student_refusals(int root_sleeper) {
    char buf[64];
    REFUSED("read-0600-root-file", open("/ptest/secret", O_RDONLY));
    REFUSED("write-0644-root-file", open("/ptest/pub", O_WRONLY));
    REFUSED("rdwr-0644-root-file", open("/ptest/pub", O_RDWR));
    REFUSED("truncate-0644-root-file", open("/ptest/pub", O_RDONLY | O_TRUNC));
    REFUSED("create-in-root-0755-dir", open("/ptest/rootdir/new", O_CREATE | O_RDWR));
    REFUSED("create-in-root-dir-slash", open("/new-by-student", O_CREATE | O_RDWR));
    REFUSED("mkdir-in-root-0755-dir", mkdir("/ptest/rootdir/d"));
    REFUSED("link-into-root-dir", link("/ptest/pub", "/ptest/rootdir/l"));
    REFUSED("unlink-from-root-dir", unlink("/ptest/pub"));
    REFUSED("unlink-others-file-in-sticky-dir", unlink("/ptest/sticky/rootfile"));
    REFUSED("chmod-not-owner", chmod("/ptest/pub", 0666));
    REFUSED("chown-not-owner", chown("/ptest/pub", 1000, 1000));
    REFUSED("chown-give-away-own-dir", chown("/ptest/home", 0, -1));
    REFUSED("chown-own-dir-to-others-group", chown("/ptest/home", -1, 0));
    REFUSED("chdir-no-search", chdir("/ptest/locked"));
    REFUSED("open-through-no-search-dir", open("/ptest/locked/f", O_RDONLY));
    REFUSED("mknod-not-root", mknod("/ptest/home/dev", CONSOLE, 0));
    REFUSED("exec-0700-root-program", run("/ptest/echo700", "no"));
    REFUSED_E("setuid-root", setuid(0), EPERM);
    REFUSED_E("setuid-other-user", setuid(1001), EPERM);
    REFUSED_E("setgid-root", setgid(0), EPERM);
    REFUSED_E("renice-init", setpriority(1, 5), EPERM);
    REFUSED_E("renice-root-process", setpriority(root_sleeper, 5), EPERM);
    REFUSED_E("kill-root-process", kill(root_sleeper), EPERM);
    REFUSED_E("affinity-of-init", setaffinity(1, 1), EPERM);
    REFUSED_E("lower-own-nice-below-0", setpriority(0, -1), EACCES);
    REFUSED_E("sched-set-policy", sched_set("rr"), EPERM);
    REFUSED_E("halt", halt(0), EPERM);
    check(read_file("/ptest/secret", buf) < 0, "cat-secret-fails", "read the secret");
}

/* As student: what an ordinary user may do. */
static void student_permitted(void) {
    char buf[64];
    struct xstat st;
    check(getuid() == 1000 && geteuid() == 1000 && getgid() == 1000 && getegid() == 1000, "ids-are-student",
          "getuid/geteuid/getgid/getegid are not all 1000");
    ALLOWED("setuid-self", setuid(1000));
    check(read_file("/ptest/pub", buf) == 11 && strcmp(buf, "public text") == 0, "read-0644-root-file",
          "cannot read it");
    ALLOWED("create-at-home", write_file("/ptest/home/f", "student data"));
    check(xstat("/ptest/home/f", &st) == 0 && st.uid == 1000 && st.gid == 1000 && st.mode == 0644,
          "new-file-owned-by-student", "wrong owner or mode");
    ALLOWED("mkdir-at-home", mkdir("/ptest/home/d"));
    ALLOWED("chdir-own-dir", chdir("/ptest/home/d"));
    ALLOWED("chdir-back", chdir("/"));
    ALLOWED("link-at-home", link("/ptest/home/f", "/ptest/home/g"));
    ALLOWED("unlink-at-home", unlink("/ptest/home/g"));
    ALLOWED("chmod-own-file", chmod("/ptest/home/f", 0600));
    ALLOWED("chgrp-own-file-to-own-group", chown("/ptest/home/f", -1, 1000));
    ALLOWED("create-in-sticky-dir", write_file("/ptest/sticky/mine", "m"));
    ALLOWED("unlink-own-file-in-sticky-dir", unlink("/ptest/sticky/mine"));
    ALLOWED("write-0666-file-in-sticky-dir", write_file("/ptest/sticky/rootfile", "w"));
    check(run("/echo", "student-runs-echo") == 0, "exec-0755-program", "exec /echo failed");
    ALLOWED("raise-own-nice", setpriority(0, 5));
    REFUSED("lower-own-nice-back", setpriority(0, 4));
    check(getpriority(0) == 5, "own-nice-is-5", "nice changed by a refused call");
    ALLOWED("own-affinity", setaffinity(0, getaffinity(0)));
}

int main(int argc, char* argv[]) {
    usage_no_options(argc, argv, "permtest");
    if (argc > 1) usage_exit("permtest", 1);
    if (geteuid() != 0) {
        fprintf(2, "permtest: run me as root\n");
        exit(1);
    }
    setup();
    struct xstat secret, pub, rootfile;
    xstat("/ptest/secret", &secret);
    xstat("/ptest/pub", &pub);
    xstat("/ptest/sticky/rootfile", &rootfile);
    char policy[32];
    sched_get(policy, sizeof policy);
    const int init_nice = getpriority(1);

    int sleeper = fork();
    if (sleeper == 0) {
        sleep(100000);
        exit(0);
    }
    int pid = fork();
    if (pid == 0) {
        if (setgid(1000) < 0 || setuid(1000) < 0) {
            printf("FAIL become-student: setgid/setuid as root failed\n");
            exit(1);
        }
        student_refusals(sleeper);
        student_permitted();
        exit(failures > 0);
    }
    int status = -1;
    wait(&status);
    check(status == 0, "student-checks", "some student check failed (see above)");

    /* Back as root: the refusals changed nothing. */
    char buf[64], now[32];
    check(
        same_stat("/ptest/secret", &secret) && read_file("/ptest/secret", buf) == 11 && strcmp(buf, "root secret") == 0,
        "unchanged-secret", "owner, mode, size or contents changed");
    check(same_stat("/ptest/pub", &pub) && read_file("/ptest/pub", buf) == 11 && strcmp(buf, "public text") == 0,
          "unchanged-pub", "owner, mode, size or contents changed");
    struct xstat st;
    check(xstat("/ptest/rootdir/new", &st) < 0 && xstat("/ptest/rootdir/d", &st) < 0 &&
              xstat("/ptest/rootdir/l", &st) < 0 && xstat("/new-by-student", &st) < 0 &&
              xstat("/ptest/home/dev", &st) < 0,
          "no-entries-made", "a refused create, mkdir, link or mknod left an entry");
    check(xstat("/ptest/sticky/rootfile", &st) == 0 && st.uid == 0 && st.mode == rootfile.mode,
          "sticky-file-still-there", "gone or changed");
    check(xstat("/ptest/home", &st) == 0 && st.uid == 1000 && st.gid == 1000, "home-still-students",
          "a refused chown changed it");
    check(getpriority(1) == init_nice, "init-nice-unchanged", "renice of init took effect");
    check(getpriority(sleeper) == 0, "root-process-nice-unchanged", "renice of a root process took effect");
    sched_get(now, sizeof now);
    check(strcmp(now, policy) == 0, "policy-unchanged", "sched_set by student took effect");

    /* Root may do all of it. */
    check(read_file("/ptest/secret", buf) == 11, "root-reads-secret", "cannot");
    ALLOWED("root-creates-in-rootdir", write_file("/ptest/rootdir/new", "r"));
    ALLOWED("root-reads-students-0600-file", read_file("/ptest/home/f", buf));
    ALLOWED("root-chowns", chown("/ptest/home/f", 0, 0));
    ALLOWED("root-chmods", chmod("/ptest/home/f", 0644));
    ALLOWED("root-unlinks-in-sticky-dir", unlink("/ptest/sticky/rootfile"));
    ALLOWED("root-enters-0700-dir", chdir("/ptest/locked"));
    ALLOWED("root-chdir-back", chdir("/"));
    check(run("/ptest/echo700", "root-runs-echo700") == 0, "root-execs-0700-program", "exec failed");
    ALLOWED("root-lowers-nice", setpriority(sleeper, -5));
    check(getpriority(sleeper) == -5, "root-lowered-nice", "not -5");
    ALLOWED("root-renices-init", setpriority(1, 3));
    ALLOWED("root-renices-init-back", setpriority(1, init_nice));
    ALLOWED("root-sets-affinity-of-init", setaffinity(1, getaffinity(1)));
    ALLOWED("root-switches-policy", sched_set(strcmp(policy, "rr") == 0 ? "eevdf" : "rr"));
    ALLOWED("root-switches-policy-back", sched_set(policy));
    ALLOWED("root-kills-sleeper", kill(sleeper));
    check(wait(0) == sleeper, "sleeper-reaped", "the root process did not die");
    printf("permtest: %s\n", failures == 0 ? "ok" : "FAILED");
    exit(failures > 0);
}
