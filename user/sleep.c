/* sleep - wait for a number of seconds.
 *
 *   sleep SECONDS
 *
 * SECONDS is a decimal number, with a fraction if wanted ("2", "0.5",
 * "1.25"). It waits at least that long by the 10 MHz clock (uptime_ns),
 * in a futex wait nobody wakes whose timeout is the time left: futex
 * deadlines are timer cycles, so it overshoots by about one timer
 * interrupt, not by up to a 100 ms tick as the kernel's sleep(n) does
 * (it returns after n tick boundaries). -h, no
 * argument, or a malformed or negative number prints the usage line. */
#include "user/user.h"

static const char usage[] = "sleep SECONDS";

/* "12.345" -> nanoseconds; -1 if malformed or more than 10^8 seconds. */
static long parse_ns(const char* s) {
    long whole = 0, frac = 0, scale = 1;
    const char* p = s;
    for (; *p >= '0' && *p <= '9'; p++) {
        whole = whole * 10 + (*p - '0');
        if (whole > 100000000L) return -1;
    }
    int digits = p != s;
    if (*p == '.') {
        for (p++; *p >= '0' && *p <= '9'; p++, digits++) {
            if (scale < 1000000000L) {
                frac = frac * 10 + (*p - '0');
                scale *= 10;
            }
        }
    }
    if (*p != 0 || digits == 0) return -1;
    return whole * 1000000000L + frac * (1000000000L / scale);
}

int main(int argc, char* argv[]) {
    usage_on_help(argc, argv, usage);
    if (argc != 2) usage_exit(usage, 1);
    const long ns = parse_ns(argv[1]);
    if (ns < 0) usage_exit(usage, 1);
    const unsigned long deadline = uptime_ns() + (unsigned long)ns;
    volatile int word = 0;
    for (unsigned long now = uptime_ns(); now < deadline; now = uptime_ns()) {
        if (futex_wait(&word, 0, deadline - now) < 0) exit(1); /* killed */
    }
    exit(0);
}
