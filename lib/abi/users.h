/* lib/abi/users.h - users and modes as user programs see them: the
 * /etc/passwd format and the `ls -l` mode string.
 *
 * /etc/passwd holds one account per line:
 *   name:uid:gid:home:shell
 *
 * e.g. "student:1000:1000:/home/student:/sh". There is no password field:
 * quanta has no passwords (docs/users-and-protection.md says why). mkfs
 * writes the file (tools/mkfs.cc); su, id, whoami, ls and ps read it
 * through pw_parse() (user/lib/passwd.c). Valid C and C++, pure and
 * allocation-free, so the host tests check the same parser the programs use.
 *
 * Invariants: pw_parse() never reads past the line's end (a NUL or '\n'),
 * always NUL-terminates every field it fills, and accepts a line only when
 * it has exactly five fields, a non-empty name, and decimal ids that fit in
 * 31 bits; on refusal it returns 0 and the entry's contents are unspecified.
 */
#ifndef QUANTA_USERS_H
#define QUANTA_USERS_H

#include "lib/abi/abi.h"

enum { PW_NAME_MAX = 16, PW_PATH_MAX = 64 };

struct pwent {
    char name[PW_NAME_MAX];
    unsigned int uid;
    unsigned int gid;
    char home[PW_PATH_MAX];
    char shell[PW_PATH_MAX];
};

/* Copy text up to ':' or the line's end into out[max]; returns a pointer to
 * the separator, or 0 when the field does not fit. */
static inline const char* pw_field(const char* s, char* out, int max) {
    int n = 0;
    while (*s && *s != ':' && *s != '\n') {
        if (n + 1 >= max) return 0;
        out[n++] = *s++;
    }
    out[n] = 0;
    return s;
}

/* A decimal id up to ':' or the line's end; returns the separator, or 0. */
static inline const char* pw_id(const char* s, unsigned int* out) {
    unsigned long v = 0;
    const char* start = s;
    while (*s >= '0' && *s <= '9') {
        v = v * 10 + (unsigned long)(*s - '0');
        if (v > 0x7fffffffUL) return 0;
        s++;
    }
    if (s == start || (*s && *s != ':' && *s != '\n')) return 0;
    *out = (unsigned int)v;
    return s;
}

/* Parse one line into *e: 1 on success, 0 for a malformed line. */
static inline int pw_parse(const char* line, struct pwent* e) {
    const char* s = pw_field(line, e->name, PW_NAME_MAX);
    if (!s || *s != ':' || e->name[0] == 0) return 0;
    s = pw_id(s + 1, &e->uid);
    if (!s || *s != ':') return 0;
    s = pw_id(s + 1, &e->gid);
    if (!s || *s != ':') return 0;
    s = pw_field(s + 1, e->home, PW_PATH_MAX);
    if (!s || *s != ':') return 0;
    s = pw_field(s + 1, e->shell, PW_PATH_MAX);
    return s != 0 && (*s == 0 || *s == '\n');
}

/* "drwxr-xr-x" for a type (T_DIR, ...) and mode into out[11]; the sticky
 * bit shows as 't' (or 'T' without x) in the others' x position, as ls does. */
static inline void mode_string(int type, unsigned int mode, char* out) {
    const char* rwx = "rwxrwxrwx";
    int i;
    out[0] = type == T_DIR ? 'd' : type == T_DEVICE ? 'c' : type == T_FIFO ? 'p' : '-';
    for (i = 0; i < 9; i++) out[1 + i] = (mode & (0400u >> i)) ? rwx[i] : '-';
    if (mode & 01000u) out[9] = (mode & 1u) ? 't' : 'T';
    out[10] = 0;
}

#endif
