/* jobtest - process groups, sessions and the console's foreground group
 * (docs/signals.md "Process groups and job control").
 *
 *   jobtest [name-prefix...]     the tests
 *   jobtest -g                   for signals_tests.py's ^C test: see fg_and_bg()
 *
 * Each test runs in its own child (user/testkit.c): it returns (PASS) or
 * calls FAIL, which prints "FAIL name: reason" and exits 99; every free
 * page must be back afterwards. jobtest runs from the shell at the console,
 * which makes each command its own foreground group: the tests rely on
 * that (fd 0 is the console and the test's group is in the foreground).
 * Order between processes is by pipes and waits, never by timing. */
#include "user/jobtest.h"
#include "kernel/fcntl.h"
#include "kernel/types.h"
#include "user/user.h"
#include "user/usertests.h"

const char* cur = ""; /* FAIL and CHECK: user/usertests.h */

enum { kStudentId = 1000 }; /* /etc/passwd's student (user/hostile.c) */

volatile int got;
volatile int got_sig;

void on_sig(int s) {
    got++;
    got_sig = s;
}

void set_action(int s, unsigned long h) {
    struct ksigaction a = {h, 0, 0};
    CHECK(sigact(s, &a, 0) == 0, "sigact(%d) failed", s);
}

static int wait_status(int pid) {
    int st = -12345;
    CHECK(wait(&st) == pid, "wait did not return the child");
    return st;
}

/* A child that waits until its parent closes the pipe (or it is killed),
 * then exits with `code`. */
static int sleeper(int* gate, int code) {
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        char c;
        close(gate[1]);
        read(gate[0], &c, 1);
        exit(code);
    }
    return pid;
}

static void inherit(void) {
    int pg = getpgid(0), sid = getsid(0);
    CHECK(pg > 0 && sid > 0, "getpgid %d getsid %d", pg, sid);
    CHECK(getpgid(getpid()) == pg, "getpgid(self) %d, want %d", getpgid(getpid()), pg);
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) exit(getpgid(0) == pg && getsid(0) == sid ? 0 : 1);
    CHECK(wait_status(pid) == 0, "the child is not in its parent's group and session");
}

/* The parent moves a child into a new group and a second child into it;
 * a group signal reaches both and not the parent. */
static void groups_and_group_signal(void) {
    int gate[2];
    CHECK(pipe(gate) == 0, "pipe failed");
    int a = sleeper(gate, 0);
    CHECK(setpgid(a, a) == 0, "setpgid(a, a) failed");
    int b = sleeper(gate, 0);
    CHECK(setpgid(b, a) == 0, "setpgid(b, a) failed: errno %d", errno());
    CHECK(getpgid(a) == a && getpgid(b) == a, "groups %d %d, want %d", getpgid(a), getpgid(b), a);
    CHECK(getpgid(0) != a, "the parent moved too");
    CHECK(sigsend(-a, SIGTERM) == 0, "sigsend(-pgid) failed: errno %d", errno());
    int s1 = -5, s2 = -5;
    int w1 = wait(&s1), w2 = wait(&s2);
    CHECK((w1 == a || w1 == b) && (w2 == a || w2 == b) && w1 != w2, "waits %d %d", w1, w2);
    CHECK(s1 == -1 && s2 == -1, "statuses %d %d: not killed by SIGTERM", s1, s2);
    CHECK(sigsend(-a, SIGTERM) == -1 && errno() == ESRCH, "an empty group was signalled");
    close(gate[1]);
}

static void setpgid_errors(void) {
    CHECK(setpgid(1, 0) == -1 && errno() == ESRCH, "setpgid(init) errno %d", errno());
    CHECK(setpgid(99999, 0) == -1 && errno() == ESRCH, "no such pid accepted");
    CHECK(setpgid(0, 99999) == -1 && errno() == EPERM, "a group nobody has: errno %d", errno());
    CHECK(setpgid(0, -3) == -1 && errno() == EINVAL, "negative pgid accepted");
    CHECK(getpgid(99999) == -1 && getsid(99999) == -1, "no such pid answered");
    CHECK(sigsend(-1, SIGUSR1) == -1, "sigsend(-1) (everybody) accepted");
    /* a grandchild is not a child */
    int gate[2];
    CHECK(pipe(gate) == 0, "pipe failed");
    int rep[2];
    CHECK(pipe(rep) == 0, "pipe failed");
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        int g = sleeper(gate, 0);
        close(gate[1]); /* only the test's copy keeps the grandchild waiting */
        write(rep[1], &g, sizeof(g));
        wait(0);
        exit(0);
    }
    int grandchild = 0;
    CHECK(read(rep[0], &grandchild, sizeof(grandchild)) == sizeof(grandchild), "no pid");
    CHECK(setpgid(grandchild, grandchild) == -1 && errno() == ESRCH, "a grandchild was moved");
    close(gate[1]);
    CHECK(wait_status(pid) == 0, "child failed");
}

static void session(void) {
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        int me = getpid();
        if (setsid() != me) exit(1);
        if (getsid(0) != me || getpgid(0) != me) exit(2);
        if (setsid() != -1 || errno() != EPERM) exit(3);          /* a group leader now */
        if (tcsetpgrp(0, me) != -1 || errno() != ENOTTY) exit(4); /* not the console's session */
        exit(0);
    }
    int st = wait_status(pid);
    CHECK(st == 0, "setsid child failed at step %d", st);
    /* a group leader cannot start a session */
    pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) exit(setpgid(0, 0) == 0 && setsid() == -1 && errno() == EPERM ? 0 : 1);
    CHECK(wait_status(pid) == 0, "a group leader started a session");
    /* a process of another session cannot be moved into this one's groups */
    int ready[2], hold[2];
    CHECK(pipe(ready) == 0 && pipe(hold) == 0, "pipe failed");
    pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        char c;
        close(hold[1]);
        setsid();
        write(ready[1], "s", 1);
        read(hold[0], &c, 1); /* until the parent closes hold */
        exit(0);
    }
    char c;
    close(hold[0]);
    CHECK(read(ready[0], &c, 1) == 1, "no sync");
    CHECK(setpgid(pid, getpgid(0)) == -1 && errno() == EPERM, "moved across sessions: errno %d", errno());
    close(hold[1]);
    wait(0);
}

/* The shell made this command the console's foreground group. */
static void foreground(void) {
    CHECK(tcgetpgrp(0) == getpgid(0), "tcgetpgrp %d, my group %d", tcgetpgrp(0), getpgid(0));
    int p[2];
    CHECK(pipe(p) == 0, "pipe failed");
    CHECK(tcgetpgrp(p[0]) == -1 && errno() == ENOTTY, "tcgetpgrp on a pipe");
    CHECK(tcsetpgrp(p[1], getpgid(0)) == -1 && errno() == ENOTTY, "tcsetpgrp on a pipe");
    CHECK(tcsetpgrp(0, 99999) == -1 && errno() == EPERM, "a group nobody has became foreground");
    CHECK(tcsetpgrp(0, getpgid(0)) == 0, "the foreground group could not set itself");
}

/* A background group: tcsetpgrp takes SIGTTOU unless it ignores it; a
 * child that ignores it takes the console and gives it back. */
static void take_console(void) {
    int fg = getpgid(0);
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        int me = getpid();
        if (setpgid(0, 0) != 0) exit(1);
        set_action(SIGTTOU, (unsigned long)on_sig);
        if (tcsetpgrp(0, me) != -1 || errno() != EINTR || got != 1 || got_sig != SIGTTOU) exit(2);
        if (tcgetpgrp(0) != fg) exit(3);
        set_action(SIGTTOU, SIG_IGN);
        if (tcsetpgrp(0, me) != 0 || tcgetpgrp(0) != me) exit(4);
        if (tcsetpgrp(0, fg) != 0) exit(5); /* back: background again, SIGTTOU ignored */
        exit(0);
    }
    int st = wait_status(pid);
    if (tcgetpgrp(0) != fg) tcsetpgrp(0, fg);
    CHECK(st == 0, "child failed at step %d", st);
    CHECK(tcgetpgrp(0) == fg, "the console was not given back");
}

/* A background reader of the console: SIGTTIN (EINTR), or EIO when it
 * ignores SIGTTIN. The check comes before any wait for input, so it
 * cannot hang for a line nobody types. */
static void background_read(void) {
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        char c;
        if (setpgid(0, 0) != 0) exit(1);
        if (tcgetpgrp(0) == getpgid(0)) exit(2); /* would block on the console */
        set_action(SIGTTIN, (unsigned long)on_sig);
        if (read(0, &c, 1) != -1 || errno() != EINTR || got != 1 || got_sig != SIGTTIN) exit(3);
        set_action(SIGTTIN, SIG_IGN);
        if (read(0, &c, 1) != -1 || errno() != EIO) exit(4);
        exit(0);
    }
    CHECK(wait_status(pid) == 0, "background read: step failed");
}

static int become_student(void) { return setgid(kStudentId) == 0 && setuid(kStudentId) == 0 ? 0 : -1; }

/* A student cannot join root's group nor signal it; root's process lives. */
static void student_cannot_join(void) {
    int gate[2];
    CHECK(pipe(gate) == 0, "pipe failed");
    int r = sleeper(gate, 0);
    CHECK(setpgid(r, r) == 0, "setpgid failed");
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        if (become_student() < 0) exit(100);
        if (setpgid(0, r) != -1 || errno() != EPERM) exit(1);
        if (sigsend(-r, SIGKILL) != -1 || errno() != EPERM) exit(2);
        if (sigsend(-r, SIGTERM) != -1 || errno() != EPERM) exit(3);
        if (sigsend(-1, SIGKILL) != -1) exit(4);
        exit(0);
    }
    int st = wait_status(pid);
    CHECK(st == 0, "student step %d", st);
    CHECK(sigsend(r, 0) == 0, "root's process is gone");
    close(gate[1]);
    CHECK(wait_status(r) == 0, "root's process was signalled");
}

/* ---- stop and continue ------------------------------------------------ */

static int readable(int fd) {
    struct pollfd q = {fd, POLLIN, 0};
    return poll(&q, 1, 0) == 1;
}

/* Read what fd holds now, without waiting; returns how many bytes. */
static int drain(int fd) {
    char b[64];
    int n = 0, r;
    while (readable(fd) && (r = read(fd, b, sizeof(b))) > 0) n += r;
    return n;
}

static void spin_writer(int fd) {
    for (;;) {
        for (volatile int i = 0; i < 20000; i++) {}
        if (write(fd, "x", 1) != 1) exit(7);
    }
}

static void spin_thread(void* arg) { spin_writer((int)(long)arg); }

/* Stop, the report of the stop, continue, its report, then a signal's
 * end: Linux's status words through the W* macros. */
static void stop_continue_waitpid(void) {
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        for (;;) sleep(1);
    }
    int st = 0;
    CHECK(sigsend(pid, SIGSTOP) == 0, "SIGSTOP failed");
    CHECK(waitpid(pid, &st, WUNTRACED) == pid, "waitpid WUNTRACED: errno %d", errno());
    CHECK(WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP, "status %x: not stopped by SIGSTOP", st);
    CHECK(waitpid(pid, &st, WUNTRACED | WNOHANG) == 0, "the stop was reported twice");
    CHECK(sigsend(pid, SIGCONT) == 0, "SIGCONT failed");
    CHECK(waitpid(pid, &st, WCONTINUED) == pid && WIFCONTINUED(st), "status %x: not continued", st);
    CHECK(sigsend(pid, SIGTSTP) == 0, "SIGTSTP failed");
    CHECK(waitpid(pid, &st, WUNTRACED) == pid && WIFSTOPPED(st) && WSTOPSIG(st) == SIGTSTP, "status %x", st);
    CHECK(sigsend(pid, SIGTERM) == 0, "SIGTERM failed"); /* pending while stopped */
    CHECK(waitpid(pid, &st, WNOHANG) == 0, "a stopped child ended on SIGTERM");
    CHECK(sigsend(pid, SIGCONT) == 0, "SIGCONT failed");
    CHECK(waitpid(pid, &st, 0) == pid, "waitpid failed");
    CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM, "status %x: not ended by SIGTERM", st);
}

/* A stopped process does not run, all its threads: the pipe its two
 * spinning threads write stays empty over 5 ticks; after SIGCONT it fills
 * again; SIGKILL ends the stopped process. */
static void stopped_does_not_run(void) {
    int p[2];
    CHECK(pipe(p) == 0, "pipe failed");
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        close(p[0]);
        if (thread_create(spin_thread, (void*)(long)p[1]) < 0) exit(8);
        spin_writer(p[1]);
    }
    close(p[1]);
    char c;
    CHECK(read(p[0], &c, 1) == 1, "the child never wrote");
    int st = 0;
    CHECK(sigsend(pid, SIGSTOP) == 0, "SIGSTOP failed");
    CHECK(waitpid(pid, &st, WUNTRACED) == pid && WIFSTOPPED(st), "not stopped: %x", st);
    sleep(1); /* a thread that was past its stop check writes its last byte */
    drain(p[0]);
    sleep(5);
    int n = drain(p[0]);
    CHECK(n == 0, "a stopped process wrote %d bytes", n);
    CHECK(sigsend(pid, SIGCONT) == 0, "SIGCONT failed");
    CHECK(read(p[0], &c, 1) == 1, "no byte after SIGCONT");
    CHECK(sigsend(pid, SIGSTOP) == 0 && waitpid(pid, &st, WUNTRACED) == pid, "second stop");
    CHECK(sigsend(pid, SIGKILL) == 0, "SIGKILL failed");
    CHECK(waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "status %x", st);
}

/* exit() from a second thread ends the process with that status, while the
 * first thread is blocked: waitpid says exited 2, not "killed by SIGKILL"
 * (the first thread was only ended by its sibling's exit; a vecadd whose
 * watchdog thread exits made the shell report "Killed (SIGKILL)"). */
static void exiting_thread(void* arg) {
    (void)arg;
    exit(2);
}
static void exit_from_thread_status(void) {
    for (int round = 0; round < 2; round++) {
        int pid = fork();
        CHECK(pid >= 0, "fork failed");
        if (pid == 0) {
            int p[2];
            if (pipe(p) < 0) exit(8);
            if (thread_create(exiting_thread, 0) < 0) exit(9);
            char c;
            read(p[0], &c, 1); /* blocks until the sibling's exit ends it */
            exit(7);
        }
        int st = 0;
        if (round == 0) {
            CHECK(waitpid(pid, &st, 0) == pid, "waitpid failed");
            CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 2, "status %x: want exited 2", st);
        } else {
            CHECK(wait(&st) == pid && st == 2, "wait: status %d, want 2", st);
        }
    }
}

/* xv6's wait is unchanged: a stopped child killed with xv6's kill reports -1. */
static void xv6_wait_of_stopped(void) {
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        for (;;) sleep(1);
    }
    int st = 0;
    CHECK(sigsend(pid, SIGSTOP) == 0 && waitpid(pid, &st, WUNTRACED) == pid, "not stopped");
    CHECK(kill(pid) == 0, "kill failed");
    CHECK(wait(&st) == pid && st == -1, "wait: status %d, want -1", st);
    pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) exit(5);
    CHECK(wait(&st) == pid && st == 5, "wait: status %d, want 5", st);
}

/* A stop signal with a handler runs it and does not stop; ignored, it does nothing. */
static void tstp_caught_or_ignored(void) {
    set_action(SIGTSTP, (unsigned long)on_sig);
    CHECK(sigsend(getpid(), SIGTSTP) == 0 && got == 1 && got_sig == SIGTSTP, "handler ran %d times", got);
    set_action(SIGTSTP, SIG_IGN);
    CHECK(sigsend(getpid(), SIGTSTP) == 0 && got == 1, "an ignored SIGTSTP ran the handler");
    struct ksigaction a = {(unsigned long)on_sig, 0, 0};
    CHECK(sigact(SIGSTOP, &a, 0) == -1, "SIGSTOP caught");
    unsigned long m = 1ul << SIGSTOP, now = 0;
    CHECK(sigmask(SIG_BLOCK, &m, 0) == 0 && sigmask(SIG_BLOCK, 0, &now) == 0 && !(now & m), "SIGSTOP blocked");
}

/* SIGCHLD for a stop and a continue (and none is lost). */
static void sigchld_on_stop(void) {
    set_action(SIGCHLD, (unsigned long)on_sig);
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        for (;;) sleep(1);
    }
    int st;
    CHECK(sigsend(pid, SIGSTOP) == 0 && waitpid(pid, &st, WUNTRACED) == pid, "not stopped");
    CHECK(got >= 1 && got_sig == SIGCHLD, "no SIGCHLD for the stop (%d)", got);
    int before = got;
    CHECK(sigsend(pid, SIGCONT) == 0 && waitpid(pid, &st, WCONTINUED) == pid, "not continued");
    CHECK(got > before, "no SIGCHLD for the continue");
    sigsend(pid, SIGKILL);
    waitpid(pid, &st, 0);
}

static void waitpid_selection(void) {
    int st = 0;
    CHECK(waitpid(-1, &st, 0) == -1 && errno() == ECHILD, "no children: errno %d", errno());
    CHECK(waitpid(-1, &st, 4) == -1 && errno() == EINVAL, "bad options accepted");
    int gate[2];
    CHECK(pipe(gate) == 0, "pipe failed");
    int a = sleeper(gate, 3);
    int b = sleeper(gate, 4);
    CHECK(setpgid(b, b) == 0, "setpgid failed");
    CHECK(waitpid(a, &st, WNOHANG) == 0, "WNOHANG on a live child did not return 0");
    CHECK(waitpid(99999, &st, WNOHANG) == -1 && errno() == ECHILD, "a stranger was waited for");
    close(gate[1]);
    CHECK(waitpid(-b, &st, 0) == b && WIFEXITED(st) && WEXITSTATUS(st) == 4, "waitpid(-pgid): %x", st);
    CHECK(waitpid(0, &st, 0) == a && WIFEXITED(st) && WEXITSTATUS(st) == 3, "waitpid(0): %x", st);
}

/* A stopped process holds no kernel lock: one stopped while it writes a
 * file in a loop (the inode's sleep lock is taken inside each write) lets
 * another process write and read the same file at once. */
static void stopped_holds_no_lock(void) {
    int fd = open("jobstop.tmp", O_CREATE | O_RDWR);
    CHECK(fd >= 0, "open failed");
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        static char big[4096];
        for (;;) {
            if (write(fd, big, sizeof(big)) < 0) exit(1);
            close(fd);
            fd = open("jobstop.tmp", O_RDWR | O_TRUNC);
        }
    }
    sleep(1);
    int st;
    CHECK(sigsend(pid, SIGSTOP) == 0 && waitpid(pid, &st, WUNTRACED) == pid, "not stopped");
    int mine = open("jobstop.tmp", O_RDWR);
    CHECK(mine >= 0, "open beside the stopped writer failed");
    CHECK(write(mine, "abc", 3) == 3, "write beside the stopped writer failed");
    close(mine);
    CHECK(sigsend(pid, SIGKILL) == 0 && waitpid(pid, &st, 0) == pid, "kill of the stopped writer");
    close(fd);
    CHECK(unlink("jobstop.tmp") == 0, "unlink failed");
}

/* A background reader stops on SIGTTIN by default; its parent hears it. */
static void background_read_stops(void) {
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        char c;
        if (setpgid(0, 0) != 0 || tcgetpgrp(0) == getpgid(0)) exit(1);
        read(0, &c, 1);
        exit(2);
    }
    int st = 0;
    CHECK(waitpid(pid, &st, WUNTRACED) == pid, "waitpid failed");
    CHECK(WIFSTOPPED(st) && WSTOPSIG(st) == SIGTTIN, "status %x: not stopped by SIGTTIN", st);
    CHECK(sigsend(pid, SIGKILL) == 0 && waitpid(pid, &st, 0) == pid, "kill failed");
}

/* Nobody stops init; a student stops no root process. */
static void stop_refused(void) {
    CHECK(sigsend(1, SIGSTOP) == -1, "init stopped");
    CHECK(sigsend(-1, SIGSTOP) == -1, "everybody stopped");
    int gate[2];
    CHECK(pipe(gate) == 0, "pipe failed");
    int r = sleeper(gate, 0);
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        if (become_student() < 0) exit(100);
        if (sigsend(r, SIGSTOP) != -1 || errno() != EPERM) exit(1);
        if (sigsend(r, SIGCONT) != -1) exit(2);
        exit(0);
    }
    int st;
    CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0, "student step %x", st);
    CHECK(waitpid(r, &st, WUNTRACED | WNOHANG) == 0, "root's process changed state");
    close(gate[1]);
    CHECK(waitpid(r, &st, 0) == r && WIFEXITED(st), "root's process: %x", st);
}

static const struct utest tests[] = {
    {"inherit", inherit},
    {"groups_and_group_signal", groups_and_group_signal},
    {"setpgid_errors", setpgid_errors},
    {"session", session},
    {"foreground", foreground},
    {"take_console", take_console},
    {"background_read", background_read},
    {"student_cannot_join", student_cannot_join},
    {"stop_continue_waitpid", stop_continue_waitpid},
    {"stopped_does_not_run", stopped_does_not_run},
    {"xv6_wait_of_stopped", xv6_wait_of_stopped},
    {"exit_from_thread_status", exit_from_thread_status},
    {"tstp_caught_or_ignored", tstp_caught_or_ignored},
    {"sigchld_on_stop", sigchld_on_stop},
    {"waitpid_selection", waitpid_selection},
    {"stopped_holds_no_lock", stopped_holds_no_lock},
    {"stop_mid_pipe_write", stop_mid_pipe_write},
    {"stopped_sleep_resumes", stopped_sleep_resumes},
    {"orphaned_group_not_stopped", orphaned_group_not_stopped},
    {"orphan_stop_race", orphan_stop_race},
    {"stop_cont_no_eintr", stop_cont_no_eintr},
    {"stopped_sigsuspend", stopped_sigsuspend},
    {"background_read_stops", background_read_stops},
    {"stop_refused", stop_refused},
};

/* jobtest -g: the parent stays in the foreground group and spins; its
 * child moves to a group of its own, takes SIGINT's default and prints
 * "bg alive" when its parent has gone (the pipe closes). ^C at the
 * console must end the parent only. */
static void fg_and_bg(void) {
    int gate[2];
    if (pipe(gate) < 0) exit(1);
    int pid = fork();
    if (pid < 0) exit(1);
    if (pid == 0) {
        char c;
        setpgid(0, 0);
        set_action(SIGINT, SIG_DFL);
        close(gate[1]);
        printf("bg ready\n");
        read(gate[0], &c, 1);
        printf("bg alive\n");
        exit(0);
    }
    close(gate[0]);
    set_action(SIGINT, SIG_DFL);
    setpgid(pid, pid);
    for (;;) sleep(1);
}

int main(int argc, char** argv) {
    if (argc == 2 && strcmp(argv[1], "-g") == 0) fg_and_bg();
    const struct test_suite suite = {"jobtest", tests, sizeof(tests) / sizeof(tests[0]), 0, 0};
    exit(test_run_all(&suite, argc, argv, 1) ? 1 : 0);
}
