/* tests/libc/numstat.c - statistics of a column of numbers.
 *
 * A textbook C program (strtod/strtol with end-pointer checks, qsort of
 * doubles, sqrt from libm, snprintf and printf with field widths and
 * precisions), compiled with qcc (tests/guest/libc_tests.py).
 *
 *   numstat [-p DIGITS] [-b BASE] [FILE]
 *
 * Reads one number per line (with -b, integers in that base, 0 meaning
 * C's prefixes: 0x.. hex, 0.. octal), skips and reports bad lines on
 * stderr, and prints count, sum, min, max, mean, median and the sample
 * standard deviation with DIGITS decimals (default 3). */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int cmp_double(const void* a, const void* b) {
    const double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

static long parse_long(const char* s, const char* what) {
    char* end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || end == s) {
        fprintf(stderr, "numstat: bad %s '%s'\n", what, s);
        exit(2);
    }
    return v;
}

int main(int argc, char* argv[]) {
    int digits = 3, base = -1, opt;
    while ((opt = getopt(argc, argv, "p:b:")) != -1) {
        if (opt == 'p') digits = (int)parse_long(optarg, "precision");
        else if (opt == 'b') base = (int)parse_long(optarg, "base");
        else {
            fprintf(stderr, "usage: numstat [-p DIGITS] [-b BASE] [FILE]\n");
            return 2;
        }
    }
    FILE* in = optind < argc ? fopen(argv[optind], "r") : stdin;
    if (!in) {
        perror(argv[optind]);
        return 1;
    }
    size_t n = 0, cap = 8;
    double* v = malloc(cap * sizeof *v);
    char line[128];
    int lineno = 0;
    while (fgets(line, sizeof line, in)) {
        lineno++;
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '\0' || line[0] == '#') continue;
        char* end;
        errno = 0;
        double x = base >= 0 ? (double)strtol(line, &end, base) : strtod(line, &end);
        if (end == line || *end != '\0' || errno == ERANGE) {
            fprintf(stderr, "numstat: line %d: not a number: %s\n", lineno, line);
            continue;
        }
        if (n == cap) v = realloc(v, (cap *= 2) * sizeof *v);
        assert(v != NULL);
        v[n++] = x;
    }
    if (n == 0) {
        fprintf(stderr, "numstat: no numbers\n");
        return 1;
    }
    qsort(v, n, sizeof *v, cmp_double);
    double sum = 0, sq = 0;
    for (size_t i = 0; i < n; i++) sum += v[i];
    const double mean = sum / n;
    for (size_t i = 0; i < n; i++) sq += (v[i] - mean) * (v[i] - mean);
    const double sd = n > 1 ? sqrt(sq / (n - 1)) : 0.0;
    const double median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    char row[160];
    snprintf(row, sizeof row, "%-6s %10.*f %10.*f %10.*f", "range", digits, v[0], digits, v[n - 1], digits,
             v[n - 1] - v[0]);
    printf("count  %zu\n", n);
    printf("sum    %.*f\n", digits, sum);
    printf("%s\n", row);
    printf("mean   %.*f\nmedian %.*f\nstddev %.*f\n", digits, mean, digits, median, digits, sd);
    printf("sci    %e %g\n", mean, sd);
    free(v);
    return 0;
}
