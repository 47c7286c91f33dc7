/* user/include/user/benchutil.h - helpers for the in-guest benchmarks
 * (schbench, frames, latbench, mlfqtest): the fine clock and integer-only
 * number formatting.
 *
 * rdtime() reads the `time` CSR directly from user mode (the kernel sets
 * scounteren.TM); QEMU virt's timer runs at 10 MHz, so one tick is 100 ns.
 * Integers only: xv6's printf has no %f, and these programs keep working
 * without the FP unit (user floating point works: kernel/arch/fpu.h). */
#ifndef QUANTA_USER_BENCHUTIL_H
#define QUANTA_USER_BENCHUTIL_H

#define BENCH_TICKS_PER_SEC 10000000UL
#define BENCH_NS_PER_TICK 100UL

static inline unsigned long rdtime(void) {
    unsigned long t;
    __asm__ volatile("rdtime %0" : "=r"(t));
    return t;
}

/* Unsigned decimal into buf (at least 24 bytes); returns the length. */
static inline int bench_utoa(unsigned long v, char* buf) {
    char tmp[24];
    int n = 0, len = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n) buf[len++] = tmp[--n];
    buf[len] = 0;
    return len;
}

/* v / scale as a decimal with `decimals` digits (scale = 10^decimals),
 * e.g. bench_fixed(12345, 100, 2) -> "123.45". Returns the length. */
static inline int bench_fixed(unsigned long v, unsigned long scale, int decimals, char* buf) {
    int len = bench_utoa(v / scale, buf);
    if (decimals > 0) {
        unsigned long frac = v % scale;
        buf[len++] = '.';
        for (int i = decimals - 1; i >= 0; i--) {
            buf[len + i] = (char)('0' + frac % 10);
            frac /= 10;
        }
        len += decimals;
        buf[len] = 0;
    }
    return len;
}

/* Pad s with spaces on the right to `width` characters (s must have room). */
static inline void bench_pad(char* s, int width) {
    int n = 0;
    while (s[n]) n++;
    while (n < width) s[n++] = ' ';
    s[n] = 0;
}

#endif
