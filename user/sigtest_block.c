/* user/sigtest_block.c - sigtest's blocking calls (part of user/sigtest;
 * docs/signals.md "Interrupting a blocking call"): a pipe write cut after
 * some bytes, every blocking call interrupted with and without SA_RESTART,
 * and a signal that wakes two threads (only the one running the handler
 * sees EINTR). */
#include "kernel/fcntl.h"
#include "kernel/types.h"
#include "user/sigtest.h"
#include "user/user.h"
#include "user/usertests.h"

/* A write of 2048 bytes into an empty pipe (512 bytes) nobody reads: the
 * first 512 go in, then the writer sleeps; a signal's handler interrupts
 * it. With or without SA_RESTART the write returns the 512 it wrote
 * (POSIX: a write cut after some data returns its count); the reader then
 * finds each byte once, in order. (Before, it failed with -1 EINTR, and
 * with SA_RESTART the whole write ran again: the first 512 bytes twice.) */
enum { kBigWrite = 2048 };
static unsigned char pattern(int i) { return (unsigned char)(i % 251); }

static void pipe_write_cut(unsigned long flags) {
    int p[2], ready[2];
    CHECK(pipe(p) == 0 && pipe(ready) == 0, "pipe failed");
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        static unsigned char out[kBigWrite];
        for (int i = 0; i < kBigWrite; i++) out[i] = pattern(i);
        set_handler(SIGUSR1, on_sig, flags);
        close(p[0]);
        write(ready[1], "r", 1);
        int n = write(p[1], out, kBigWrite);
        if (got != 1) exit(10);
        if (n != 512) exit(n < 0 ? 11 : 12);
        exit(write(p[1], out + n, kBigWrite - n) == kBigWrite - n ? 0 : 13); /* the rest */
    }
    close(p[1]);
    char c;
    CHECK(read(ready[0], &c, 1) == 1, "child not ready");
    sleep(2); /* the child is asleep in its write, 512 bytes in */
    CHECK(sigsend(pid, SIGUSR1) == 0, "sigsend failed");
    static unsigned char in[kBigWrite + 512];
    int total = 0, r;
    while ((r = read(p[0], in + total, sizeof(in) - total)) > 0) total += r;
    int st = wait_status(pid);
    CHECK(st == 0, "child status %d (11: -1 EINTR, 12: not 512 bytes)", st);
    CHECK(total == kBigWrite, "the reader got %d bytes, want %d", total, kBigWrite);
    for (int i = 0; i < total; i++) CHECK(in[i] == pattern(i), "byte %d is %d, want %d", i, in[i], pattern(i));
    close(p[0]);
    close(ready[0]);
    close(ready[1]);
}
void pipe_write_eintr(void) { pipe_write_cut(0); }
void pipe_write_restart(void) { pipe_write_cut(SA_RESTART); }

/* ---- every blocking call: EINTR, or run again with SA_RESTART ---------- */
/* The child blocks in one call; the parent sends SIGUSR1 (the handler
 * runs), then ends the wait (a byte to the gate, a FIFO writer). Without
 * SA_RESTART the call fails with EINTR; with it the call goes on and
 * returns what it would have. poll and a futex wait with a timeout are
 * never run again after a handler (Linux's rule: the timeout would start
 * over). */
enum { OP_WAIT, OP_SLEEP, OP_FUTEX, OP_FUTEX_TIMED, OP_POLL, OP_FIFO, OP_CONSOLE };
static const char* const kOpNames[] = {"wait", "sleep", "futex", "timed futex", "poll", "fifo open", "console read"};
static int gate[2];
static volatile int fword;

/* Wakes the futex 1.5 s in; blocks SIGUSR1 so that the main thread takes it. */
static void futex_waker(void* arg) {
    (void)arg;
    unsigned long set = 1ul << SIGUSR1;
    sigmask(SIG_BLOCK, &set, 0);
    sleep(15);
    fword = 1;
    futex_wake(&fword, 1);
}

/* In the child: the call, then whether it behaved (0) or what it returned. */
static int blocking_op(int op, int restart) {
    int r = -2, ok = 0, st = 0;
    int t0 = uptime();
    if (op == OP_WAIT) {
        int pid = fork();
        if (pid == 0) {
            char c;
            read(gate[0], &c, 1);
            exit(7);
        }
        r = wait(&st);
        ok = restart ? r == pid && st == 7 : r == -1;
        if (!restart) wait(0);
    } else if (op == OP_SLEEP) {
        r = sleep(30);
        ok = restart ? r == 0 && uptime() - t0 >= 30 : r == -1 && uptime() - t0 < 30;
    } else if (op == OP_FUTEX) {
        int tid = thread_create(futex_waker, 0);
        r = futex_wait(&fword, 0, 0);
        ok = tid > 0 && (restart ? r >= 0 && fword == 1 : r == -1);
        thread_join(tid);
    } else if (op == OP_FUTEX_TIMED) {
        r = futex_wait(&fword, 0, 20000000000ul); /* 20 s */
        ok = r == -1;
    } else if (op == OP_POLL) {
        struct pollfd q = {gate[0], POLLIN, 0};
        r = poll(&q, 1, -1);
        ok = r == -1;
    } else if (op == OP_FIFO) {
        r = open("sigfifo", O_RDONLY);
        ok = restart ? r >= 0 : r == -1;
    } else {
        char c;
        r = read(0, &c, 1);
        ok = r == -1;
    }
    if (r == -1 && errno() != EINTR) ok = 0;
    if (ok && got == 1) return 0;
    printf("%s%s: returned %d, errno %d, handler ran %d times\n", kOpNames[op], restart ? " (SA_RESTART)" : "", r,
           errno(), got);
    return 1;
}

static void blocking_call(int op, int restart) {
    int ready[2];
    CHECK(pipe(ready) == 0 && pipe(gate) == 0, "pipe failed");
    if (op == OP_FIFO) {
        unlink("sigfifo");
        CHECK(mkfifo("sigfifo", 0666) == 0, "mkfifo failed");
    }
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        set_handler(SIGUSR1, on_sig, restart ? SA_RESTART : 0);
        write(ready[1], "r", 1);
        exit(blocking_op(op, restart));
    }
    char c;
    CHECK(read(ready[0], &c, 1) == 1, "child not ready");
    sleep(3); /* the child is asleep in its call */
    CHECK(sigsend(pid, SIGUSR1) == 0, "sigsend failed");
    sleep(3);
    write(gate[1], "g", 1); /* ends the wait of wait, poll and (its grandchild) */
    int fifo = op == OP_FIFO ? open("sigfifo", O_RDWR) : -1;
    int st = -1, w = 0;
    for (int i = 0; i < 60 && (w = waitpid(pid, &st, WNOHANG)) == 0; i++) sleep(1);
    if (w == 0) {
        sigsend(pid, SIGKILL);
        wait(0);
    }
    if (fifo >= 0) close(fifo);
    if (op == OP_FIFO) unlink("sigfifo");
    CHECK(w == pid, "%s: the child still waits 6 s after the signal", kOpNames[op]);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s%s: wrong result (status %x)", kOpNames[op],
          restart ? " with SA_RESTART" : "", st);
}
void eintr_wait(void) { blocking_call(OP_WAIT, 0); }
void restart_wait(void) { blocking_call(OP_WAIT, 1); }
void eintr_sleep(void) { blocking_call(OP_SLEEP, 0); }
void restart_sleep(void) { blocking_call(OP_SLEEP, 1); }
void eintr_futex(void) { blocking_call(OP_FUTEX, 0); }
void restart_futex(void) { blocking_call(OP_FUTEX, 1); }
void timed_futex_not_restarted(void) { blocking_call(OP_FUTEX_TIMED, 1); }
void eintr_poll(void) { blocking_call(OP_POLL, 0); }
void poll_not_restarted(void) { blocking_call(OP_POLL, 1); }
void eintr_fifo_open(void) { blocking_call(OP_FIFO, 0); }
void restart_fifo_open(void) { blocking_call(OP_FIFO, 1); }
void eintr_console_read(void) { blocking_call(OP_CONSOLE, 0); }

/* A process-directed signal wakes every thread that does not block it;
 * one runs the handler and its blocked read fails with EINTR (no
 * SA_RESTART). Another woken thread ran no handler, so its read must not
 * fail: it goes back to waiting (Linux's ERESTARTSYS). 30 rounds of two
 * readers: EINTRs must equal handler runs. Before, both reads could fail. */
static int sib_pipe[2][2];
static volatile int sib_ret[2], sib_err[2];
static void sib_reader(void* arg) {
    long i = (long)arg;
    char c;
    sib_ret[i] = read(sib_pipe[i][0], &c, 1);
    sib_err[i] = errno();
}
void sibling_no_eintr(void) {
    set_handler(SIGUSR1, on_sig, 0);
    int eintrs = 0;
    for (int round = 0; round < 30; round++) {
        CHECK(pipe(sib_pipe[0]) == 0 && pipe(sib_pipe[1]) == 0, "pipe failed");
        int t0 = thread_create(sib_reader, (void*)0);
        int t1 = thread_create(sib_reader, (void*)1);
        CHECK(t0 > 0 && t1 > 0, "thread_create failed");
        /* the main thread blocks SIGUSR1: a reader takes it */
        unsigned long set = 1ul << SIGUSR1;
        sigmask(SIG_BLOCK, &set, 0);
        sleep(1);
        sigsend(getpid(), SIGUSR1);
        sleep(1);
        write(sib_pipe[0][1], "x", 1);
        write(sib_pipe[1][1], "x", 1);
        thread_join(t0);
        thread_join(t1);
        sigmask(SIG_UNBLOCK, &set, 0);
        for (int i = 0; i < 2; i++) {
            CHECK(sib_ret[i] == 1 || (sib_ret[i] == -1 && sib_err[i] == EINTR), "read: %d errno %d", sib_ret[i],
                  sib_err[i]);
            eintrs += sib_ret[i] == -1;
            close(sib_pipe[i][0]);
            close(sib_pipe[i][1]);
        }
        CHECK(eintrs == got, "round %d: %d reads failed with EINTR, %d handlers ran", round, eintrs, got);
    }
}
