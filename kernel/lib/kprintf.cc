// kernel/lib/kprintf.cc - formatted kernel output, panic, and the lib/ seam.
//
// Characters go to the UART synchronously (uart_putc_sync), so output works
// before interrupts are on and from inside interrupt handlers. A spinlock
// keeps harts from interleaving lines; panic() stops taking it, so a panic
// while the lock is held still prints. After a panic every hart spins.
#include "kernel/lib/kprintf.h"

#include <stdarg.h>

#include "kernel/dev/uart.h"
#include "kernel/sync/spinlock.h"
#include "lib/seam.h"

namespace q {

constinit volatile bool g_panicked = false;
static constinit SpinLock g_print_lock("kprintf");
static constinit bool g_print_locking = true;

// Field width and alignment of one conversion (%5d, %-8s).
struct Spec {
    int width = 0;
    bool left = false;
};

static void pad(int n) {
    while (n-- > 0) uart_putc_sync(' ');
}

static void put_padded(const char* s, int len, Spec spec) {
    if (!spec.left) pad(spec.width - len);
    for (int i = 0; i < len; i++) uart_putc_sync(s[i]);
    if (spec.left) pad(spec.width - len);
}

static void put_num(u64 x, unsigned base, bool is_signed, Spec spec) {
    constexpr char kDigits[] = "0123456789abcdef";
    char buf[24];
    const bool neg = is_signed && static_cast<i64>(x) < 0;
    if (neg) x = static_cast<u64>(-static_cast<i64>(x));
    int i = 0;
    do {
        buf[i++] = kDigits[x % base];
        x /= base;
    } while (x != 0);
    if (neg) buf[i++] = '-';
    char out[24];
    for (int j = 0; j < i; j++) out[j] = buf[i - 1 - j];
    put_padded(out, i, spec);
}

static void put_str(const char* s) {
    while (*s) uart_putc_sync(*s++);
}

static void vformat(const char* fmt, va_list ap) {
    for (; *fmt; fmt++) {
        if (*fmt != '%') {
            uart_putc_sync(*fmt);
            continue;
        }
        fmt++;
        Spec spec;
        if (*fmt == '-') {
            spec.left = true;
            fmt++;
        }
        while (*fmt >= '0' && *fmt <= '9') spec.width = spec.width * 10 + (*fmt++ - '0');
        bool is_long = false;
        while (*fmt == 'l') {
            is_long = true;
            fmt++;
        }
        switch (*fmt) {
            case 'd':
                put_num(is_long ? va_arg(ap, i64) : va_arg(ap, int), 10, true, spec);
                break;
            case 'u':
                put_num(is_long ? va_arg(ap, u64) : va_arg(ap, unsigned), 10, false, spec);
                break;
            case 'x':
                put_num(is_long ? va_arg(ap, u64) : va_arg(ap, unsigned), 16, false, spec);
                break;
            case 'p':
                put_str("0x");
                put_num(reinterpret_cast<u64>(va_arg(ap, void*)), 16, false, spec);
                break;
            case 's': {
                const char* str = va_arg(ap, const char*);
                if (!str) str = "(null)";
                int len = 0;
                while (str[len]) len++;
                put_padded(str, len, spec);
                break;
            }
            case 'c':
                uart_putc_sync(static_cast<char>(va_arg(ap, int)));
                break;
            case '%':
                uart_putc_sync('%');
                break;
            case 0:
                return;
            default:
                uart_putc_sync('%');
                uart_putc_sync(*fmt);
                break;
        }
    }
}

void kprintf(const char* fmt, ...) {
    const bool locking = g_print_locking;
    if (locking) g_print_lock.acquire();
    va_list ap;
    va_start(ap, fmt);
    vformat(fmt, ap);
    va_end(ap);
    if (locking) g_print_lock.release();
}

void panic(const char* fmt, ...) {
    g_print_locking = false;
    put_str("\npanic: ");
    va_list ap;
    va_start(ap, fmt);
    vformat(fmt, ap);
    va_end(ap);
    put_str("\n");
    g_panicked = true;
    for (;;) asm volatile("wfi");
}

namespace seam {
void panic(const char* msg) { q::panic("%s", msg); }
}  // namespace seam

}  // namespace q
