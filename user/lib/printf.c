/* user/lib/printf.c - printf and fprintf for user programs.
 *
 * Conversions: %d %u %x %p %s %c %% with the length modifiers l and ll
 * (so %ld %lu %lx %lld %llu %llx, as xv6-riscv accepts; a bare %l, as old
 * xv6 programs write it, prints a 64-bit decimal). Output is gathered
 * in a small buffer and written with as few write() calls as possible, so a
 * short line from one process is not interleaved character by character
 * with another's. Unknown conversions are printed literally. perrorf
 * adds why the last system call failed (lib/abi/errno.h's text).
 */
#include <stdarg.h>

#include "user/user.h"

struct out {
    int fd;
    int n;
    char buf[128];
};

static void flush(struct out* o) {
    if (o->n > 0) write(o->fd, o->buf, o->n);
    o->n = 0;
}

static void put(struct out* o, char c) {
    if (o->n == (int)sizeof(o->buf)) flush(o);
    o->buf[o->n++] = c;
}

static void put_str(struct out* o, const char* s) {
    if (s == 0) s = "(null)";
    while (*s) put(o, *s++);
}

static void put_num(struct out* o, unsigned long x, int base, int neg) {
    static const char digits[] = "0123456789abcdef";
    char tmp[24];
    int i = 0;
    do {
        tmp[i++] = digits[x % base];
        x /= base;
    } while (x != 0);
    if (neg) put(o, '-');
    while (i > 0) put(o, tmp[--i]);
}

static void put_signed(struct out* o, long v) {
    if (v < 0) put_num(o, -(unsigned long)v, 10, 1);
    else put_num(o, (unsigned long)v, 10, 0);
}

/* Format one conversion starting at fmt (just after '%'); returns the
 * number of format characters consumed. */
static int convert(struct out* o, const char* fmt, va_list* ap) {
    int len = 0;
    while (fmt[len] == 'l') len++;
    char c = fmt[len];
    int is_long = len > 0;
    switch (c) {
        case 'd':
            put_signed(o, is_long ? va_arg(*ap, long) : va_arg(*ap, int));
            break;
        case 'u':
            put_num(o, is_long ? va_arg(*ap, unsigned long) : va_arg(*ap, unsigned int), 10, 0);
            break;
        case 'x':
            put_num(o, is_long ? va_arg(*ap, unsigned long) : va_arg(*ap, unsigned int), 16, 0);
            break;
        case 'p':
            put_str(o, "0x");
            put_num(o, (unsigned long)va_arg(*ap, void*), 16, 0);
            break;
        case 's':
            put_str(o, va_arg(*ap, const char*));
            break;
        case 'c':
            put(o, (char)va_arg(*ap, int));
            break;
        case '%':
            put(o, '%');
            break;
        case 0:
            put(o, '%');
            return len;
        default:
            if (is_long) { /* old xv6 "%l": a 64-bit decimal; c is plain text */
                put_signed(o, va_arg(*ap, long));
                return len;
            }
            put(o, '%');
            for (int i = 0; i <= len; i++) put(o, fmt[i]);
            break;
    }
    return len + 1;
}

static void format(struct out* o, const char* fmt, va_list ap) {
    while (*fmt) {
        if (*fmt != '%') {
            put(o, *fmt++);
            continue;
        }
        fmt++;
        fmt += convert(o, fmt, &ap);
    }
}

static void vfmt(int fd, const char* fmt, va_list ap) {
    struct out o;
    o.fd = fd;
    o.n = 0;
    format(&o, fmt, ap);
    flush(&o);
}

void fprintf(int fd, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfmt(fd, fmt, ap);
    va_end(ap);
}

void printf(const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfmt(1, fmt, ap);
    va_end(ap);
}

/* "MESSAGE: REASON\n" on stderr, REASON being why the last failed system
 * call failed (strerror(errno())), e.g. "cat: cannot open x: permission
 * denied". The reason is taken before anything is written. */
void perrorf(const char* fmt, ...) {
    const char* why = strerror(errno());
    struct out o;
    o.fd = 2;
    o.n = 0;
    va_list ap;
    va_start(ap, fmt);
    format(&o, fmt, ap);
    va_end(ap);
    put_str(&o, ": ");
    put_str(&o, why);
    put(&o, '\n');
    flush(&o);
}
