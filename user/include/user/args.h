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

#endif
