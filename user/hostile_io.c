/* user/hostile_io.c - hostile's console and pipe attacks (part of
 * user/hostile): writes that must stay killable, shared and whole, and
 * bad buffers. The host (tests/guest/hostile.py) judges what reaches the
 * console; the guest cannot see it.
 *
 *   conskill a killed 256 KiB console write writes nothing after a line
 *            written after its kill;
 *   consshare a one-line write gets through beside a 256 KiB write;
 *   console  write from a kernel address is -1; a read into a bad buffer is
 *            -1 and loses no input;
 *   conswrite four processes write lines at once: each write() reaches the
 *            console whole (the host checks the lines);
 *   pipeatomic four processes write 100-byte records into one pipe: none
 *            is split by another's (writes of up to 512 bytes are atomic).
 */
#include "user/hostile.h"
#include "user/user.h"

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
void t_conskill(void) {
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
void t_consshare(void) {
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

/* ---- conswrite ------------------------------------------------------ */

/* Four processes each write 25 lines of 100 copies of their digit (1-4),
 * one write() a line, at the same time. Every line must reach the console
 * whole: the host counts 100 lines of one digit each (the guest cannot see
 * its own console output). */
void t_conswrite(void) {
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
void t_pipeatomic(void) {
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

void t_console(void) {
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
