/* user/include/user/args.h - strict integer parsing for command-line tools.
 *
 * xv6's atoi() accepts garbage ("12abc" is 12) and no sign; tools that must
 * reject malformed input use parse_int(): optional '-', at least one digit,
 * nothing after. Returns 1 and stores the value on success, 0 otherwise. */
#ifndef QUANTA_USER_ARGS_H
#define QUANTA_USER_ARGS_H

static inline int parse_int(const char* s, int* out) {
    int neg = 0;
    long v = 0;
    if (*s == '-') {
        neg = 1;
        s++;
    }
    if (*s == 0) return 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return 0;
        v = v * 10 + (*s - '0');
        if (v > 1000000000L) return 0;
    }
    *out = (int)(neg ? -v : v);
    return 1;
}

/* Signal names (Linux's numbers, user.h), for kill, the shell's job
 * reports and the C library's sig2str/str2sig (user/libc/signal.c): index
 * n is signal n's name without "SIG" (0: none). Self-contained C, so the
 * C library's glue includes it too. */
static const char* const kSignalNames[] = {
    0,      "HUP",  "INT",  "QUIT", "ILL",    "TRAP",   "ABRT",  "BUS",  "FPE",  "KILL", "USR1",
    "SEGV", "USR2", "PIPE", "ALRM", "TERM",   "STKFLT", "CHLD",  "CONT", "STOP", "TSTP", "TTIN",
    "TTOU", "URG",  "XCPU", "XFSZ", "VTALRM", "PROF",   "WINCH", "IO",   "PWR",  "SYS",
};
enum { kNamedSignals = sizeof(kSignalNames) / sizeof(kSignalNames[0]) };

/* A signal given as a number (1..31), a name or SIG + name: its number, or 0. */
static inline int signal_number(const char* s) {
    int n;
    if (parse_int(s, &n)) return n >= 1 && n <= 31 ? n : 0;
    if (s[0] == 'S' && s[1] == 'I' && s[2] == 'G') s += 3;
    for (int i = 1; i < kNamedSignals; i++) {
        const char* a = kSignalNames[i];
        const char* b = s;
        while (a && *a && *a == *b) a++, b++;
        if (a && *a == 0 && *b == 0) return i;
    }
    return 0;
}

#endif
