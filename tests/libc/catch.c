/* tests/libc/catch.c - catch Ctrl-C, clean up, exit (OSTEP chapter 5's
 * signal exercise, as a course would set it; docs/signals.md "Exercise").
 *
 * A textbook C program, compiled with qcc (tests/guest/libc_tests.py
 * types ^C at it): it opens a scratch file and appends a line to it every
 * 100 ms; SIGINT's handler only sets a flag (the one thing a handler may
 * safely do), the loop sees it, and the program closes and removes its
 * file, says how many lines it wrote, and exits 0. SIGINT is blocked
 * around each write so that the file never holds half a line.
 *
 *   catch [FILE]     (default catch.tmp) */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_int(int sig) {
    (void)sig;
    stop = 1;
}

int main(int argc, char** argv) {
    const char* path = argc > 1 ? argv[1] : "catch.tmp";
    struct sigaction sa = {0};
    sa.sa_handler = on_int;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGINT, &sa, NULL) < 0) {
        perror("sigaction");
        return 1;
    }
    FILE* f = fopen(path, "w");
    if (f == NULL) {
        perror(path);
        return 1;
    }
    sigset_t intr, old;
    sigemptyset(&intr);
    sigaddset(&intr, SIGINT);
    int lines = 0;
    do {
        sigprocmask(SIG_BLOCK, &intr, &old);
        fprintf(f, "line %d\n", lines++);
        fflush(f);
        sigprocmask(SIG_SETMASK, &old, NULL);
        if (lines == 1) {
            printf("working; press Ctrl-C to stop\n");
            fflush(stdout);
        }
        usleep(100000); /* a ^C here ends the sleep early: EINTR */
    } while (!stop);
    fclose(f);
    if (remove(path) < 0) perror(path);
    printf("caught SIGINT after %d line%s; %s removed, bye\n", lines, lines == 1 ? "" : "s", path);
    return 0;
}
