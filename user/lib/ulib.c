/* user/lib/ulib.c - string, memory and small I/O helpers of the user library.
 *
 * Straightforward byte loops: user programs are small and clarity matters
 * more than speed. This file is compiled with
 * -fno-tree-loop-distribute-patterns so GCC cannot turn the memset loop into
 * a call to memset itself. atoi accepts an optional leading '-' (xv6's does
 * not; programs like nice need negative numbers). The usage_* helpers at the
 * end give every program the same `-h` and bad-argument behaviour.
 */
#include "user/user.h"

char* strcpy(char* dst, const char* src) {
    char* d = dst;
    while ((*d++ = *src++) != 0) {}
    return dst;
}

int strcmp(const char* p, const char* q) {
    while (*p && *p == *q) p++, q++;
    return (unsigned char)*p - (unsigned char)*q;
}

unsigned int strlen(const char* s) {
    unsigned int n = 0;
    while (s[n]) n++;
    return n;
}

char* strchr(const char* s, char c) {
    for (; *s; s++)
        if (*s == c) return (char*)s;
    return 0;
}

void* memset(void* dst, int c, unsigned int n) {
    char* d = (char*)dst;
    for (unsigned int i = 0; i < n; i++) d[i] = (char)c;
    return dst;
}

void* memmove(void* vdst, const void* vsrc, int n) {
    char* dst = (char*)vdst;
    const char* src = (const char*)vsrc;
    if (n <= 0) return vdst;
    if (src > dst) {
        while (n-- > 0) *dst++ = *src++;
    } else {
        dst += n;
        src += n;
        while (n-- > 0) *--dst = *--src;
    }
    return vdst;
}

void* memcpy(void* dst, const void* src, unsigned int n) { return memmove(dst, src, (int)n); }

int memcmp(const void* s1, const void* s2, unsigned int n) {
    const unsigned char* a = (const unsigned char*)s1;
    const unsigned char* b = (const unsigned char*)s2;
    for (unsigned int i = 0; i < n; i++)
        if (a[i] != b[i]) return a[i] - b[i];
    return 0;
}

int atoi(const char* s) {
    int neg = 0, n = 0;
    if (*s == '-') {
        neg = 1;
        s++;
    }
    while (*s >= '0' && *s <= '9') n = n * 10 + (*s++ - '0');
    return neg ? -n : n;
}

/* Read a line (with its newline) of at most max-1 characters; "" at EOF. */
char* gets(char* buf, int max) {
    int i = 0;
    while (i + 1 < max) {
        char c;
        if (read(0, &c, 1) < 1) break;
        buf[i++] = c;
        if (c == '\n' || c == '\r') break;
    }
    buf[i] = 0;
    return buf;
}

/* Through xstat rather than open + fstat (as xv6 does), so that, as in
 * Unix, stat needs no read permission on the file itself. */
int stat(const char* path, struct stat* st) {
    struct xstat x;
    if (xstat(path, &x) < 0) return -1;
    st->dev = x.dev;
    st->ino = x.ino;
    st->type = x.type;
    st->nlink = x.nlink;
    st->size = x.size;
    return 0;
}

/* Print "usage: LINE" on stderr and exit with status. */
void usage_exit(const char* line, int status) {
    fprintf(2, "usage: %s\n", line);
    exit(status);
}

/* A first argument of exactly "-h" asks for the usage line: print it and
 * exit 0. Anything else returns. */
void usage_on_help(int argc, char** argv, const char* line) {
    if (argc > 1 && strcmp(argv[1], "-h") == 0) usage_exit(line, 0);
}

/* For programs whose arguments are names or numbers, not options: -h first
 * prints the usage line and exits 0; any other argument that starts with
 * '-' and is not "-" alone prints it and exits 1 (name such a file ./-x). */
void usage_no_options(int argc, char** argv, const char* line) {
    usage_on_help(argc, argv, line);
    for (int i = 1; i < argc; i++)
        if (argv[i][0] == '-' && argv[i][1] != 0) usage_exit(line, 1);
}

/* The message for an error number (lib/abi/errno.h), e.g. "permission denied". */
const char* strerror(int e) { return errno_text(e); }

int exec_search(char** argv) {
    exec(argv[0], argv);
    int why = errno();
    char path[128]; /* the kernel's longest path (lib/params.h kMaxPath) */
    if (strchr(argv[0], '/') == 0 && strlen(argv[0]) < sizeof(path) - 1) {
        path[0] = '/';
        strcpy(path + 1, argv[0]);
        exec(path, argv);
        if (why == ENOENT) why = errno(); /* "not here" is the least telling reason */
    }
    return why;
}

/* "S: REASON\n" on stderr for the last failed system call, as in C. */
void perror(const char* s) { fprintf(2, "%s: %s\n", s, strerror(errno())); }
