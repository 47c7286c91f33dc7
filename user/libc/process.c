/* user/libc/process.c - POSIX process calls over quanta's system calls.
 *
 * The kernel's wait(status) reaps any child and stores its exit value;
 * here that value v becomes the POSIX status (v & 0xff) << 8, so
 * WIFEXITED holds and WEXITSTATUS is v's low byte (a killed process exits
 * with -1: 255). waitpid for one pid reaps with wait and keeps the other
 * children it reaps meanwhile in a small table that later waits look at
 * first; WNOHANG reaps only when the process table (procinfo) shows a
 * child of ours that is a zombie. kill sends no signals: any signal but 0
 * ends the process (the kernel's kill); 0 checks that it exists. execvp
 * looks a name without '/' up in the current directory, then in '/' (the
 * shell's rule). The environment is not passed to new images. */
#include <errno.h>
#include <signal.h>
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

/* The caller's row of the process table, or -1. */
static int find_proc(int pid, struct q_procinfo* pi) {
    for (int i = 0; qsys2(QSYS_procinfo, i, pi) == 0; i++) {
        if (pi->pid == pid) return 0;
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

int kill(pid_t pid, int sig) {
    struct q_procinfo pi;
    if (sig == 0) {
        if (find_proc(pid, &pi) == 0 && pi.state != 0) return 0;
        errno = ESRCH;
        return -1;
    }
    return qsys_fail(qsys1(QSYS_kill, pid));
}

int sigprocmask(int how, const sigset_t* set, sigset_t* old) {
    (void)how;
    (void)set;
    if (old) *old = 0;
    return 0;
}

/* Children reaped by waitpid while it looked for another. */
enum { kKept = 64 };
static struct {
    pid_t pid;
    int status;
} kept[kKept];
static int nkept;

static pid_t take_kept(pid_t pid, int* status) {
    for (int i = 0; i < nkept; i++) {
        if (pid == -1 || kept[i].pid == pid) {
            const pid_t r = kept[i].pid;
            if (status) *status = kept[i].status;
            kept[i] = kept[--nkept];
            return r;
        }
    }
    return 0;
}

static pid_t reap(int* status) {
    int v = 0;
    const pid_t r = qsys_fail(qsys1(QSYS_wait, &v));
    if (r > 0 && status) *status = (v & 0xff) << 8;
    return r;
}

/* A child of ours (pid, or any for -1) is a zombie. */
static int zombie_child(pid_t pid) {
    struct q_procinfo pi;
    const int me = getpid();
    for (int i = 0; qsys2(QSYS_procinfo, i, &pi) == 0; i++) {
        if (pi.ppid == me && pi.state == 5 && (pid == -1 || pi.pid == pid)) return 1;
    }
    return 0;
}

pid_t waitpid(pid_t pid, int* status, int options) {
    if (pid < -1 || pid == 0) pid = -1; /* no process groups: any child */
    const pid_t k = take_kept(pid, status);
    if (k) return k;
    for (;;) {
        if ((options & WNOHANG) && !zombie_child(-1)) return 0;
        int st = 0;
        const pid_t r = reap(&st);
        if (r < 0) return -1;
        if (pid == -1 || r == pid) {
            if (status) *status = st;
            return r;
        }
        if (nkept < kKept) {
            kept[nkept].pid = r;
            kept[nkept].status = st;
            nkept++;
        }
        if ((options & WNOHANG) && !zombie_child(pid)) return 0;
    }
}

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
