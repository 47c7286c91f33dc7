/* tests/libc/ipcpoll.c - named pipes and poll through the C library
 * (docs/ipc.md): a server makes two FIFOs with mkfifo, forks two writers,
 * and polls both until each has hung up, counting the lines from each.
 * Also: stat's S_ISFIFO, mkfifo's EEXIST, a poll timeout with nothing
 * ready, POLLNVAL for a closed descriptor. Prints one line per check. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char* const names[2] = {"fifo_a", "fifo_b"};

static void writer(int which, int lines) {
    int fd = open(names[which], O_WRONLY);
    if (fd < 0) _exit(2);
    char buf[32];
    for (int i = 0; i < lines; i++) {
        int n = snprintf(buf, sizeof buf, "%c%d\n", 'a' + which, i);
        if (write(fd, buf, (size_t)n) != n) _exit(3);
    }
    close(fd);
    _exit(0);
}

int main(void) {
    for (int i = 0; i < 2; i++) {
        unlink(names[i]);
        if (mkfifo(names[i], 0600) != 0) {
            perror("mkfifo");
            return 1;
        }
    }
    struct stat st;
    printf("S_ISFIFO %d\n", stat(names[0], &st) == 0 && S_ISFIFO(st.st_mode));
    printf("mkfifo again: %s\n", mkfifo(names[0], 0600) < 0 && errno == EEXIST ? "EEXIST" : "?");
    pid_t pids[2];
    const int lines[2] = {5, 9};
    for (int i = 0; i < 2; i++)
        if ((pids[i] = fork()) == 0) writer(i, lines[i]);
    struct pollfd fds[2];
    for (int i = 0; i < 2; i++) {
        fds[i].fd = open(names[i], O_RDONLY); /* waits for writer i */
        fds[i].events = POLLIN;
    }
    int got[2] = {0, 0}, open_fds = 2;
    while (open_fds > 0) {
        if (poll(fds, 2, -1) <= 0) {
            perror("poll");
            return 1;
        }
        for (int i = 0; i < 2; i++) {
            if (fds[i].revents & POLLIN) {
                char buf[64];
                ssize_t n = read(fds[i].fd, buf, sizeof buf);
                for (ssize_t k = 0; k < n; k++) got[i] += buf[k] == '\n';
            } else if (fds[i].revents & POLLHUP) {
                close(fds[i].fd);
                fds[i].fd = -1; /* skipped from now on */
                open_fds--;
            }
        }
    }
    printf("lines a %d b %d\n", got[0], got[1]);
    for (int i = 0; i < 2; i++) {
        int status = -1;
        waitpid(pids[i], &status, 0);
        printf("writer %d: exit %d\n", i, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    int p[2];
    if (pipe(p) != 0) return 1;
    struct pollfd one = {p[0], POLLIN, 0};
    printf("timeout: %d\n", poll(&one, 1, 20));
    close(p[0]);
    close(p[1]);
    printf("closed: %d %s\n", poll(&one, 1, 0), one.revents == POLLNVAL ? "POLLNVAL" : "?");
    for (int i = 0; i < 2; i++) unlink(names[i]);
    printf("ipcpoll: ok\n");
    return 0;
}
