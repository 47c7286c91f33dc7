/* user/jobtest_stop.c - jobtest's stops and orphans (part of
 * user/jobtest; docs/signals.md "Stop and continue", "Orphaned process
 * groups"): a stop in the middle of a pipe write, a stopped sleep and
 * sigsusp resuming, a SIGCONT that cancels a stop, and orphaned groups
 * that must never stay stopped. */
#include "kernel/fcntl.h"
#include "kernel/types.h"
#include "user/jobtest.h"
#include "user/user.h"
#include "user/usertests.h"

/* A process stopped in the middle of a pipe write (2048 bytes into a pipe
 * of 512 nobody reads yet) and continued: its write returns the 512 bytes
 * it wrote before the stop, a writer that loops on short counts (as every
 * writer must) sends the rest, and the reader gets each byte exactly once.
 * Before, the stop's EINTR restarted the whole write: 512 bytes twice. */
enum { kBigWrite = 2048 };
static unsigned char pattern(int i) { return (unsigned char)(i % 251); }

void stop_mid_pipe_write(void) {
    int p[2];
    CHECK(pipe(p) == 0, "pipe failed");
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        static unsigned char out[kBigWrite];
        for (int i = 0; i < kBigWrite; i++) out[i] = pattern(i);
        close(p[0]);
        int off = 0;
        while (off < kBigWrite) {
            int n = write(p[1], out + off, kBigWrite - off);
            if (n <= 0) exit(1);
            off += n;
        }
        exit(0);
    }
    close(p[1]);
    sleep(2); /* the writer is asleep in its write, 512 bytes in */
    int st = 0;
    CHECK(sigsend(pid, SIGSTOP) == 0 && waitpid(pid, &st, WUNTRACED) == pid && WIFSTOPPED(st), "not stopped");
    CHECK(sigsend(pid, SIGCONT) == 0, "SIGCONT failed");
    static unsigned char in[kBigWrite + 512];
    int total = 0, r;
    while ((r = read(p[0], in + total, sizeof(in) - total)) > 0) total += r;
    CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0, "writer status %x", st);
    CHECK(total == kBigWrite, "the reader got %d bytes, want %d", total, kBigWrite);
    for (int i = 0; i < total; i++) CHECK(in[i] == pattern(i), "byte %d is %d, want %d", i, in[i], pattern(i));
    close(p[0]);
}

/* A sleep the process was stopped in runs again when it continues, with
 * its whole length (xv6's sleep counts ticks from its start): sleep(20)
 * stopped 0.5 s in for 0.5 s returns 0 at least 2.5 s after it began.
 * Before, it failed with -1 (errno EINVAL) and was not restarted. */
void stopped_sleep_resumes(void) {
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        int t0 = uptime();
        int r = sleep(20);
        exit(r == 0 && uptime() - t0 >= 25 ? 0 : r == 0 ? 2 : 1);
    }
    sleep(5);
    int st = 0;
    CHECK(sigsend(pid, SIGSTOP) == 0 && waitpid(pid, &st, WUNTRACED) == pid && WIFSTOPPED(st), "not stopped");
    sleep(5);
    CHECK(sigsend(pid, SIGCONT) == 0, "SIGCONT failed");
    CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st), "status %x", st);
    CHECK(WEXITSTATUS(st) == 0, "the sleep %s", WEXITSTATUS(st) == 1 ? "failed" : "ended early");
}

/* Is pid in the process table (a zombie too)? */
static int in_table(int pid) {
    struct procinfo pi;
    int r;
    for (int i = 0; (r = procinfo(i, &pi)) >= 0; i++) /* 1: an unused slot */
        if (r == 0 && pi.pid == pid) return 1;
    return 0;
}

/* Its parent, from the process table (0 if not found). */
static int parent_of(int pid) {
    struct procinfo pi;
    int r;
    for (int i = 0; (r = procinfo(i, &pi)) >= 0; i++)
        if (r == 0 && pi.pid == pid) return pi.ppid;
    return 0;
}

/* A child in a group of its own whose parent exits (the group is then
 * orphaned: nobody can continue it), doing `act` at the gate: 0, once it is
 * init's child (the group is orphaned for sure); 1, as soon as its parent's
 * files close (racing the parent's end). Returns the pipe the child
 * reports its verdict byte on, and its pid in *pid. */
static int orphan_child(int act, int* pid) {
    int p[2];
    CHECK(pipe(p) == 0, "pipe failed");
    int mid = fork();
    CHECK(mid >= 0, "fork failed");
    if (mid == 0) {
        int gate[2];
        pipe(gate);
        int c = fork();
        if (c == 0) {
            char ch;
            close(p[0]);
            close(gate[1]);
            setpgid(0, 0);
            read(gate[0], &ch, 1); /* until its parent's files close */
            for (int i = 0; act == 0 && i < 50 && parent_of(getpid()) != 1; i++) sleep(1);
            int r = read(0, &ch, 1);
            int e = errno();
            sigsend(getpid(), SIGTSTP);
            char verdict = r == -1 && e == EIO ? 'y' : 'n';
            write(p[1], &verdict, 1);
            exit(0);
        }
        setpgid(c, c);
        write(p[1], &c, sizeof c);
        exit(0); /* closes the gate */
    }
    close(p[1]);
    int st = 0;
    CHECK(waitpid(mid, &st, 0) == mid, "waitpid failed");
    CHECK(read(p[0], pid, sizeof *pid) == sizeof *pid, "no pid from the middle process");
    return p[0];
}

/* Wait (at most 5 s) until fd says something or closes: 1 and the byte,
 * 0 for the end (the child is gone), -1 for nothing (it is stopped). */
static int hear(int fd, char* v) {
    struct pollfd q = {fd, POLLIN, 0};
    if (poll(&q, 1, 5000) != 1) return -1;
    return read(fd, v, 1) == 1 ? 1 : 0;
}

/* An orphaned group must never stop for the terminal: a background read
 * of the console fails with EIO instead of stopping on SIGTTIN, and
 * SIGTSTP is discarded (POSIX). Before, the read stopped it for ever. */
void orphaned_group_not_stopped(void) {
    int orphan = 0;
    int fd = orphan_child(0, &orphan);
    char v = 0;
    int h = hear(fd, &v);
    close(fd);
    CHECK(h != -1, "the orphan did not answer in 5 s: stopped");
    CHECK(h == 1 && v == 'y', "its background read did not fail with EIO (%d %c)", h, v);
    for (int i = 0; i < 50 && in_table(orphan); i++) sleep(1); /* until init has reaped it (its pages) */
}

/* The same read, racing the parent's end: the child may stop on SIGTTIN
 * just before its group is orphaned, and then the parent's end must
 * hang it up (SIGHUP, SIGCONT); or its group is orphaned first and it
 * reads EIO. Never stopped for ever: 10 rounds, each child answers or
 * ends within 5 s. Before, the orphan check at the parent's end ran apart
 * from its children's move to init, and a stop in between was never seen
 * (about 1 round in 3 at 3 harts). */
void orphan_stop_race(void) {
    for (int round = 0; round < 10; round++) {
        int orphan = 0;
        int fd = orphan_child(1, &orphan);
        char v = 0;
        int h = hear(fd, &v);
        close(fd);
        if (h == -1) sigsend(orphan, SIGKILL); /* init reaps it */
        CHECK(h != -1, "round %d: the orphan stayed stopped", round);
        for (int i = 0; i < 50 && in_table(orphan); i++) sleep(1);
    }
}

/* A stop cancelled by SIGCONT before the process took it ran no handler
 * and stopped nothing, so the read it woke must not fail: 500 SIGSTOP and
 * SIGCONT pairs at a process blocked in a pipe read, then a byte: the read
 * returns it. Before, a read woken by a SIGSTOP that the SIGCONT then
 * cancelled returned -1 EINTR (hostile sigstoppipe's writer saw it). */
void stop_cont_no_eintr(void) {
    int p[2];
    CHECK(pipe(p) == 0, "pipe failed");
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        char c;
        close(p[1]);
        int r = read(p[0], &c, 1);
        exit(r == 1 ? 0 : errno() == EINTR ? 2 : 3);
    }
    close(p[0]);
    sleep(1);
    for (int i = 0; i < 500; i++) {
        sigsend(pid, SIGSTOP);
        sigsend(pid, SIGCONT);
    }
    write(p[1], "x", 1);
    int st = 0;
    CHECK(waitpid(pid, &st, WUNTRACED) >= 0, "waitpid failed");
    if (WIFSTOPPED(st)) { /* the last SIGSTOP's report: it continues */
        CHECK(waitpid(pid, &st, 0) == pid, "waitpid failed");
    }
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the read %s (status %x)",
          WEXITSTATUS(st) == 2 ? "failed with EINTR" : "failed", st);
    close(p[1]);
}

/* sigsusp through a stop: it waits on after SIGCONT (no handler ran) with
 * the mask it installed, then a handler's signal ends it: -1 EINTR, the
 * handler ran once, and the caller's own mask is back. Before, it
 * returned at the SIGCONT with no handler run and its temporary mask left
 * installed. */
void stopped_sigsuspend(void) {
    int ready[2];
    CHECK(pipe(ready) == 0, "pipe failed");
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        unsigned long usr1 = 1ul << SIGUSR1, none = 0, now = 0;
        set_action(SIGUSR1, (unsigned long)on_sig);
        sigmask(SIG_BLOCK, &usr1, 0);
        write(ready[1], "r", 1);
        int r = sigsusp(&none);
        int e = errno();
        sigmask(SIG_BLOCK, 0, &now);
        exit(r != -1 || e != EINTR ? 1 : got != 1 ? 2 : now != usr1 ? 3 : 0);
    }
    char c;
    CHECK(read(ready[0], &c, 1) == 1, "child not ready");
    sleep(2);
    int st = 0;
    CHECK(sigsend(pid, SIGSTOP) == 0 && waitpid(pid, &st, WUNTRACED) == pid && WIFSTOPPED(st), "not stopped");
    CHECK(sigsend(pid, SIGCONT) == 0, "SIGCONT failed");
    sleep(2);
    CHECK(waitpid(pid, &st, WNOHANG) == 0, "sigsusp ended at the SIGCONT (status %x)", st);
    CHECK(sigsend(pid, SIGUSR1) == 0, "SIGUSR1 failed");
    CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st), "status %x", st);
    CHECK(WEXITSTATUS(st) == 0, "after the handler: %s", WEXITSTATUS(st) == 2 ? "no handler" : "wrong result or mask");
    close(ready[0]);
    close(ready[1]);
}
