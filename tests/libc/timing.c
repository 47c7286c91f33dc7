/* tests/libc/timing.c - measuring time the POSIX way.
 *
 * A textbook C program (gettimeofday, clock_gettime with the monotonic and
 * CPU-time clocks, clock(), time(), usleep, nanosleep, sleep, sched_yield), compiled
 * with qcc (tests/guest/libc_tests.py).
 *
 *   timing [-s MS]
 *
 * Sleeps MS milliseconds (default 30) three ways and measures each sleep
 * with two clocks and the CPU clock; spins for about MS of CPU time and
 * measures that with the CPU clocks. Prints one line per check, "ok" or
 * "BAD" with the figures, and exits 1 if any check failed. A sleep must
 * last at least what was asked and, on an idle machine, less than that
 * plus 150 ms; usleep and nanosleep must cost less than a tenth of their
 * length in CPU time (plus 1 ms): a sleeping program does not spin. */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static int bad;

static double mono_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double tod_ms(void) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return tv.tv_sec * 1e3 + tv.tv_usec / 1e3;
}

static double cpu_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void check(const char* what, double got_ms, double lo, double hi) {
    const int ok = got_ms >= lo && got_ms < hi;
    printf("%-10s %s", what, ok ? "ok" : "BAD");
    if (!ok) printf(" %.3f ms, want [%.0f, %.0f)", got_ms, lo, hi);
    printf("\n");
    bad |= !ok;
}

int main(int argc, char* argv[]) {
    long ms = 30;
    int opt;
    while ((opt = getopt(argc, argv, "s:")) != -1) {
        if (opt != 's' || (ms = strtol(optarg, NULL, 10)) <= 0) {
            fprintf(stderr, "usage: timing [-s MS]\n");
            return 2;
        }
    }
    const time_t t0 = time(NULL);
    double a = mono_ms(), b = tod_ms(), c = cpu_ms();
    usleep(ms * 1000);
    check("usleep", mono_ms() - a, ms, ms + 150);
    check("tod", tod_ms() - b, ms - 1, ms + 150);
    check("usleep cpu", cpu_ms() - c, 0, ms / 10.0 + 1);

    struct timespec req = {ms / 1000, (ms % 1000) * 1000000L}, rem = {9, 9};
    a = mono_ms();
    c = cpu_ms();
    const int r = nanosleep(&req, &rem);
    check("nanosleep", mono_ms() - a, ms, ms + 150);
    check("nanosleep cpu", cpu_ms() - c, 0, ms / 10.0 + 1);
    if (r != 0 || rem.tv_sec != 0 || rem.tv_nsec != 0) {
        printf("nanosleep returned %d rem %ld.%09ld\n", r, (long)rem.tv_sec, rem.tv_nsec);
        bad = 1;
    }
    a = mono_ms();
    sleep(1);
    check("sleep", mono_ms() - a, 1000, 1150);

    struct timespec c0, c1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    const clock_t k0 = clock();
    a = mono_ms();
    volatile unsigned long x = 0;
    while (mono_ms() - a < ms) x++;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    const double cpu = (c1.tv_sec - c0.tv_sec) * 1e3 + (c1.tv_nsec - c0.tv_nsec) / 1e6;
    check("cputime", cpu, ms * 0.5, ms * 1.5 + 100);
    check("clock", (clock() - k0) * 1e3 / CLOCKS_PER_SEC, ms * 0.5, ms * 1.5 + 100);
    const double diff = difftime(time(NULL), t0);
    check("time", diff * 1e3, 1000, 10000);
    if (sched_yield() != 0) {
        printf("sched_yield failed\n");
        bad = 1;
    }
    struct timespec res;
    if (clock_getres(CLOCK_MONOTONIC, &res) != 0 || res.tv_sec != 0 || res.tv_nsec <= 0) bad = 1;
    printf("resolution %ld ns\n", res.tv_nsec);
    return bad;
}
