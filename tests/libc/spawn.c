/* tests/libc/spawn.c - processes: fork, exec, pipe, dup2, waitpid.
 *
 * A textbook C program, compiled with qcc (tests/guest/libc_tests.py):
 * runs `echo one two three | wc` with two children joined by a pipe
 * (dup2 onto 0 and 1, execvp), waits for each by pid and prints their
 * exit statuses; then a child that exits 3 and one whose exec fails, and
 * waitpid's WNOHANG on a child that is still running, and getppid in a
 * child whose process-table row lies past a free one.
 *
 *   spawn */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t run(char* const argv[], int in, int out, int closefd) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(1);
    }
    if (pid == 0) {
        if (in >= 0 && dup2(in, 0) < 0) perror("dup2");
        if (out >= 0 && dup2(out, 1) < 0) perror("dup2");
        if (in >= 0) close(in);
        if (out >= 0) close(out);
        if (closefd >= 0) close(closefd);
        execvp(argv[0], argv);
        perror(argv[0]);
        _exit(127);
    }
    return pid;
}

/* getppid in a child whose process-table row lies past a freed one: the
 * first child ends and is reaped after the second has its row. (The glue
 * stopped at the first free row and answered 1.) */
static void ppid_past_a_hole(void) {
    int gate[2];
    if (pipe(gate) < 0) return;
    const pid_t parent = getpid();
    fflush(stdout);
    pid_t a = fork();
    if (a == 0) _exit(0);
    pid_t b = fork();
    if (b == 0) {
        char c;
        close(gate[1]);
        read(gate[0], &c, 1);
        _exit(getppid() == parent ? 0 : 1);
    }
    waitpid(a, NULL, 0); /* its row is free now, below b's */
    close(gate[0]);
    write(gate[1], "g", 1);
    close(gate[1]);
    int st = 0;
    waitpid(b, &st, 0);
    printf("getppid past a free row: %s\n", WIFEXITED(st) && WEXITSTATUS(st) == 0 ? "right" : "wrong");
}

static void report(const char* what, pid_t pid) {
    int status = -1;
    pid_t r = waitpid(pid, &status, 0);
    if (r != pid) printf("%s: waitpid returned %d\n", what, (int)r);
    else if (WIFEXITED(status)) printf("%s: exit %d\n", what, WEXITSTATUS(status));
    else printf("%s: status %#x\n", what, status);
}

int main(void) {
    int fd[2];
    if (pipe(fd) < 0) {
        perror("pipe");
        return 1;
    }
    char* echo[] = {"echo", "one", "two", "three", NULL};
    char* wc[] = {"wc", NULL};
    pid_t a = run(echo, -1, fd[1], fd[0]);
    pid_t b = run(wc, fd[0], -1, fd[1]);
    close(fd[0]);
    close(fd[1]);
    report("wc", b); /* reaped out of order: echo's status is kept */
    report("echo", a);

    fflush(stdout);
    pid_t c = fork();
    if (c == 0) exit(3);
    report("exit3", c);

    char* nope[] = {"no-such-program", NULL};
    report("missing", run(nope, -1, -1, -1));

    fflush(stdout);
    pid_t d = fork();
    if (d == 0) {
        usleep(300000);
        exit(0);
    }
    int status;
    printf("nohang: %d\n", (int)waitpid(d, &status, WNOHANG));
    report("sleeper", d);
    printf("parent %s\n", getppid() > 0 ? "has a parent" : "orphan");
    ppid_past_a_hole();
    return 0;
}
