/* ipctest - named pipes and poll, good and bad (docs/ipc.md).
 *
 *   ipctest [name-prefix...]
 *
 * Run as root (tests/guest/ipc_tests.py does). Each test runs in its own
 * child process: it returns (PASS) or calls FAIL, which prints
 * "FAIL name: reason" and exits 99; the parent then checks that the free
 * page count is back (no pipe or process leaked a page). The run ends with
 * "ipctest: N passed, N failed". Ordering between processes is by the
 * blocking calls under test (a FIFO open waits for its peer, a read for
 * bytes) and by sleep() where a test needs its peer to be asleep first;
 * the timeout bounds are virtual time (QEMU -icount), not host load. */
#include "kernel/fcntl.h"
#include "kernel/types.h"
#include "user/user.h"
#include "user/usertests.h"

const char* cur = ""; /* FAIL and CHECK: user/usertests.h */

static const char* F = "/ipc_fifo";

static void fresh_fifo(int mode) {
    unlink(F);
    CHECK(mkfifo(F, mode) == 0, "mkfifo %s failed", F);
}

static int child_waits(int pid) {
    int st = -12345;
    CHECK(wait(&st) == pid, "wait did not return the child");
    return st;
}

/* A child that opens F with omode, writes msg (if any) and exits 0. */
static int spawn_opener(int omode, const char* msg, int delay_ticks) {
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        if (delay_ticks) sleep(delay_ticks);
        int fd = open(F, omode);
        if (fd < 0) exit(2);
        if (msg && write(fd, msg, strlen(msg)) != (int)strlen(msg)) exit(3);
        close(fd);
        exit(0);
    }
    return pid;
}

static void reader_first(void) {
    fresh_fifo(0644);
    int pid = spawn_opener(O_WRONLY, "hello", 1); /* the reader is asleep in open first */
    int fd = open(F, O_RDONLY);
    CHECK(fd >= 0, "open O_RDONLY failed");
    char buf[16];
    int n = read(fd, buf, sizeof buf);
    CHECK(n == 5 && memcmp(buf, "hello", 5) == 0, "read %d bytes, not hello", n);
    CHECK(read(fd, buf, sizeof buf) == 0, "no end of file once the writer closed");
    close(fd);
    CHECK(child_waits(pid) == 0, "writer failed");
}

static void writer_first(void) {
    fresh_fifo(0644);
    int pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        sleep(1); /* the writer is asleep in open first */
        int fd = open(F, O_RDONLY);
        char buf[16];
        int n = fd < 0 ? -1 : read(fd, buf, sizeof buf);
        exit(n == 3 && memcmp(buf, "abc", 3) == 0 ? 0 : 4);
    }
    int fd = open(F, O_WRONLY);
    CHECK(fd >= 0, "open O_WRONLY failed");
    CHECK(write(fd, "abc", 3) == 3, "write failed");
    close(fd);
    CHECK(child_waits(pid) == 0, "reader did not get abc");
}

/* The hang lib/fs/fifo_rule.h prevents: the writer opens (a reader is
 * there), closes at once, and the reader must still return from open. */
static void open_close_race(void) {
    for (int round = 0; round < 30; round++) {
        fresh_fifo(0644);
        int pid = spawn_opener(O_WRONLY, 0, round % 2);
        int fd = open(F, O_RDONLY);
        CHECK(fd >= 0, "round %d: open failed", round);
        char c;
        CHECK(read(fd, &c, 1) == 0, "round %d: no end of file", round);
        close(fd);
        CHECK(child_waits(pid) == 0, "round %d: writer failed", round);
    }
}

static void rdwr_no_wait(void) {
    fresh_fifo(0644);
    int fd = open(F, O_RDWR);
    CHECK(fd >= 0, "open O_RDWR waited or failed");
    CHECK(write(fd, "xy", 2) == 2, "write");
    char buf[4];
    CHECK(read(fd, buf, 4) == 2, "read back");
    struct stat st;
    CHECK(fstat(fd, &st) == 0 && st.type == T_FIFO && st.size == 0, "fstat: type %d size %d", st.type, (int)st.size);
    close(fd);
}

static void names(void) {
    fresh_fifo(0640);
    struct xstat x;
    CHECK(xstat(F, &x) == 0 && x.type == T_FIFO && x.mode == 0640, "xstat: type %d mode %o", x.type, x.mode);
    CHECK(mkfifo(F, 0644) < 0, "mkfifo over an existing name succeeded");
    CHECK(mkfifo("/no/such/dir/f", 0644) < 0, "mkfifo in a missing directory succeeded");
    CHECK(unlink(F) == 0, "unlink failed");
    CHECK(open(F, O_RDWR) < 0, "open after unlink succeeded");
}

static int make_pipe(int p[2]) {
    CHECK(pipe(p) == 0, "pipe failed");
    return 0;
}

static void poll_pipe(void) {
    int p[2];
    make_pipe(p);
    struct pollfd f[2] = {{p[0], POLLIN, 0}, {p[1], POLLOUT, 0}};
    CHECK(poll(f, 2, 0) == 1 && f[0].revents == 0 && f[1].revents == POLLOUT, "empty pipe: %d %d", f[0].revents,
          f[1].revents);
    CHECK(write(p[1], "q", 1) == 1, "write");
    CHECK(poll(f, 1, -1) == 1 && f[0].revents == POLLIN, "data: revents %d", f[0].revents);
    close(p[1]);
    char c;
    read(p[0], &c, 1);
    CHECK(poll(f, 1, -1) == 1 && f[0].revents == POLLHUP, "no writers: revents %d, not POLLHUP", f[0].revents);
    close(p[0]);
    CHECK(poll(f, 1, 0) == 1 && f[0].revents == POLLNVAL, "closed fd: revents %d, not POLLNVAL", f[0].revents);
}

/* poll sleeps until another process writes one of two pipes. */
static void poll_wait(void) {
    int a[2], b[2];
    make_pipe(a);
    make_pipe(b);
    int pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        sleep(1);
        write(b[1], "!", 1);
        exit(0);
    }
    struct pollfd f[2] = {{a[0], POLLIN, 0}, {b[0], POLLIN, 0}};
    int n = poll(f, 2, -1);
    CHECK(n == 1 && f[0].revents == 0 && f[1].revents == POLLIN, "poll %d: %d %d", n, f[0].revents, f[1].revents);
    child_waits(pid);
}

static void poll_timeout(void) {
    int p[2];
    make_pipe(p);
    struct pollfd f = {p[0], POLLIN, 0};
    unsigned long t0 = uptime_ns();
    int n = poll(&f, 1, 150);
    unsigned long ms = (uptime_ns() - t0) / 1000000;
    CHECK(n == 0 && f.revents == 0, "poll returned %d", n);
    CHECK(ms >= 150 && ms < 160, "150 ms timeout took %d ms", (int)ms);
    printf("ipctest: a 150 ms poll timeout took %d ms\n", (int)ms);
    t0 = uptime_ns();
    CHECK(poll(&f, 1, 0) == 0, "timeout 0 returned ready");
    ms = (uptime_ns() - t0) / 1000000;
    CHECK(ms < 5, "timeout 0 took %d ms", (int)ms);
    t0 = uptime_ns();
    CHECK(poll(0, 0, 30) == 0, "poll of nothing");
    ms = (uptime_ns() - t0) / 1000000;
    CHECK(ms >= 30 && ms < 40, "30 ms sleep in poll took %d ms", (int)ms);
}

static void poll_fifo(void) {
    fresh_fifo(0644);
    int fd = open(F, O_RDWR);
    CHECK(fd >= 0, "open");
    struct pollfd f = {fd, POLLIN | POLLOUT, 0};
    CHECK(poll(&f, 1, 0) == 1 && f.revents == POLLOUT, "empty FIFO: %d", f.revents);
    int pid = spawn_opener(O_WRONLY, "z", 1);
    f.events = POLLIN;
    CHECK(poll(&f, 1, -1) == 1 && f.revents == POLLIN, "written FIFO: %d", f.revents);
    child_waits(pid);
    close(fd);
}

static void poll_console(void) {
    struct pollfd f[2] = {{0, POLLIN, 0}, {1, POLLOUT, 0}};
    int n = poll(f, 2, 50); /* nobody types: stdin is not ready */
    CHECK(n == 1 && f[0].revents == 0 && f[1].revents == POLLOUT, "console: %d %d %d", n, f[0].revents, f[1].revents);
    struct pollfd g = {0, POLLIN, 0};
    CHECK(poll(&g, 1, 40) == 0, "stdin ready with nothing typed");
}

static void poll_bad(void) {
    struct pollfd f = {0, POLLIN, 0};
    CHECK(poll((struct pollfd*)1, 1, 0) < 0, "bad pointer accepted");
    CHECK(poll((struct pollfd*)0x3fffffff000ul, 1, 0) < 0, "kernel-side pointer accepted");
    CHECK(poll(&f, -1, 0) < 0, "nfds -1 accepted");
    CHECK(poll(&f, 1000, 0) < 0, "nfds 1000 accepted");
    f.fd = -5;
    CHECK(poll(&f, 1, 0) == 0 && f.revents == 0, "negative fd not skipped");
    f.fd = 99;
    CHECK(poll(&f, 1, 0) == 1 && f.revents == POLLNVAL, "fd 99: %d", f.revents);
}

static void student_denied(void) {
    fresh_fifo(0600);
    int pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        if (setuid(1000) < 0) exit(5);
        if (open(F, O_RDONLY) >= 0) exit(6); /* refused at once, never waits */
        if (open(F, O_WRONLY) >= 0) exit(7);
        if (mkfifo("/student_fifo", 0644) >= 0) exit(8); /* / is root's 0755 */
        exit(0);
    }
    int st = child_waits(pid);
    CHECK(st == 0, "student child exit %d", st);
}

static void killed_in_poll(void) {
    int p[2];
    make_pipe(p);
    int pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        struct pollfd f = {p[0], POLLIN, 0};
        poll(&f, 1, -1);
        exit(0); /* not reached: killed */
    }
    sleep(1);
    CHECK(kill(pid) == 0, "kill");
    CHECK(child_waits(pid) == -1, "killed child did not exit -1");
}

static void killed_in_open(void) {
    fresh_fifo(0644);
    int pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        open(F, O_RDONLY);
        exit(0);
    }
    sleep(1);
    CHECK(kill(pid) == 0, "kill");
    CHECK(child_waits(pid) == -1, "killed child did not exit -1");
    /* the killed opener detached: a fresh O_RDWR open sees an empty pipe */
    int fd = open(F, O_RDWR);
    struct pollfd f = {fd, POLLIN, 0};
    CHECK(fd >= 0 && poll(&f, 1, 0) == 0, "pipe not empty after the killed open");
    close(fd);
    unlink(F);
}

/* A thread polls a pipe's read end for ever; the main thread then closes
 * that descriptor. The close wakes the poll (the pipe's reader count
 * changed), whose next scan finds the fd gone: POLLNVAL. The File it held
 * for the scan (fd_ref) kept it alive meanwhile. */
static volatile int poll_result = -100, poll_revents = -100;
static int tp[2];
static void poll_thread(void* arg) {
    (void)arg;
    struct pollfd f = {tp[0], POLLIN, 0};
    poll_result = poll(&f, 1, -1);
    poll_revents = f.revents;
}

static void poll_threads(void) {
    make_pipe(tp);
    int tid = thread_create(poll_thread, 0);
    CHECK(tid > 0, "thread_create failed");
    sleep(1); /* the thread is asleep in poll */
    CHECK(poll_result == -100, "poll returned with nothing ready");
    close(tp[0]);
    CHECK(thread_join(tid) == 0, "thread_join");
    CHECK(poll_result == 1 && poll_revents == POLLNVAL, "poll %d revents %d, not 1 POLLNVAL", poll_result,
          poll_revents);
    close(tp[1]);
}

static const struct utest tests[] = {
    {"fifo_reader_first", reader_first},
    {"fifo_writer_first", writer_first},
    {"fifo_open_close_race", open_close_race},
    {"fifo_rdwr_no_wait", rdwr_no_wait},
    {"fifo_names", names},
    {"poll_pipe", poll_pipe},
    {"poll_wait", poll_wait},
    {"poll_timeout", poll_timeout},
    {"poll_fifo", poll_fifo},
    {"poll_console", poll_console},
    {"poll_bad", poll_bad},
    {"fifo_student_denied", student_denied},
    {"poll_killed", killed_in_poll},
    {"fifo_open_killed", killed_in_open},
    {"poll_thread_close", poll_threads},
};

static void remove_fifo(void) { unlink(F); }

int main(int argc, char** argv) {
    const struct test_suite suite = {"ipctest", tests, sizeof(tests) / sizeof(tests[0]), 0, remove_fifo};
    exit(test_run_all(&suite, argc, argv, 1) ? 1 : 0);
}
