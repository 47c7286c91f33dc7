/* user/libc/process.c - POSIX process calls over quanta's system calls.
 *
 * wait and waitpid are the kernel's waitpid (86), whose status words are
 * Linux's (sys/wait.h: WIFEXITED, WTERMSIG, WIFSTOPPED, WIFCONTINUED);
 * kill and the other signal calls are in signal.c. Process groups,
 * sessions and the console's foreground group are the kernel's calls as
 * they are (docs/signals.md "Process groups and job control"). execvp looks a name
 * without '/' up in the current directory, then in '/' (the shell's
 * rule). The environment is not passed to new images. */
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sys.h"

pid_t fork(void) { return qsys_fail(qsys0(QSYS_fork)); }

void _exit(int status) {
    qsys1(QSYS_exit, status);
    __builtin_unreachable();
}

pid_t getpid(void) { return qsys0(QSYS_getpid); }

/* The caller's row of the process table, or -1. procinfo says 1 for an
 * unused slot (go on) and -1 past the last. */
static int find_proc(int pid, struct q_procinfo* pi) {
    long r;
    for (int i = 0; (r = qsys2(QSYS_procinfo, i, pi)) >= 0; i++) {
        if (r == 0 && pi->pid == pid) return 0;
    }
    return -1;
}

pid_t getppid(void) {
    struct q_procinfo pi;
    return find_proc(getpid(), &pi) == 0 ? pi.ppid : 1;
}

uid_t getuid(void) { return qsys0(QSYS_getuid); }
uid_t geteuid(void) { return qsys0(QSYS_geteuid); }
gid_t getgid(void) { return qsys0(QSYS_getgid); }
gid_t getegid(void) { return qsys0(QSYS_getegid); }
int setuid(uid_t uid) { return qsys_fail(qsys1(QSYS_setuid, uid)); }
int setgid(gid_t gid) { return qsys_fail(qsys1(QSYS_setgid, gid)); }

int setpgid(pid_t pid, pid_t pgid) { return qsys_fail(qsys2(QSYS_setpgid, pid, pgid)) < 0 ? -1 : 0; }
pid_t getpgid(pid_t pid) { return qsys_fail(qsys1(QSYS_getpgid, pid)); }
pid_t getpgrp(void) { return getpgid(0); }
int setpgrp(void) { return setpgid(0, 0); }
pid_t setsid(void) { return qsys_fail(qsys0(QSYS_setsid)); }
pid_t getsid(pid_t pid) { return qsys_fail(qsys1(QSYS_getsid, pid)); }
int tcsetpgrp(int fd, pid_t pgrp) { return qsys_fail(qsys2(QSYS_tcsetpgrp, fd, pgrp)) < 0 ? -1 : 0; }
pid_t tcgetpgrp(int fd) { return qsys_fail(qsys1(QSYS_tcgetpgrp, fd)); }

pid_t waitpid(pid_t pid, int* status, int options) { return qsys_fail(qsys3(QSYS_waitpid, pid, status, options)); }

pid_t wait(int* status) { return waitpid(-1, status, 0); }

int execv(const char* path, char* const argv[]) { return qsys_fail(qsys2(QSYS_exec, path, argv)); }

int execve(const char* path, char* const argv[], char* const envp[]) {
    (void)envp;
    return execv(path, argv);
}

int execvp(const char* file, char* const argv[]) {
    if (strchr(file, '/')) return execv(file, argv);
    execv(file, argv);
    char path[128] = "/";
    if (strlen(file) + 2 > sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(path + 1, file);
    return execv(path, argv);
}

/* execl, execlp: the arguments up to the terminating null pointer. */
#define COLLECT_ARGS(first, argv)                                \
    char* argv[32];                                              \
    do {                                                         \
        va_list ap;                                              \
        int n = 0;                                               \
        va_start(ap, first);                                     \
        argv[n] = (char*)(first);                                \
        while (argv[n] && n < 31) argv[++n] = va_arg(ap, char*); \
        argv[n] = 0;                                             \
        va_end(ap);                                              \
    } while (0)

int execl(const char* path, const char* arg, ...) {
    COLLECT_ARGS(arg, argv);
    return execv(path, argv);
}

int execlp(const char* file, const char* arg, ...) {
    COLLECT_ARGS(arg, argv);
    return execvp(file, argv);
}

void* sbrk(ptrdiff_t n) {
    if (n > 0x7fffffff || n < -0x7fffffff) {
        errno = ENOMEM;
        return (void*)-1;
    }
    const long r = qsys_fail(qsys1(QSYS_sbrk, n));
    if (r == -1) errno = ENOMEM;
    return (void*)r;
}

int getentropy(void* buf, size_t n) {
    /* Not random: the clock, mixed. Enough for rand seeds and hash maps. */
    unsigned long x = qsys0(QSYS_uptime_ns) ^ ((unsigned long)getpid() << 32);
    unsigned char* p = buf;
    for (size_t i = 0; i < n; i++) {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        p[i] = (unsigned char)((x * 0x2545f4914f6cdd1dull) >> 56);
    }
    return 0;
}
