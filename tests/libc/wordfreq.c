/* tests/libc/wordfreq.c - count words, print the most frequent.
 *
 * A textbook C program (getopt, FILE*, malloc/realloc, qsort, ctype,
 * strtol, fprintf to stderr), compiled with qcc and run in the guest by
 * tests/guest/libc_tests.py.
 *
 *   wordfreq [-i] [-n TOP] [-o OUTFILE] [FILE...]
 *
 * Reads the files (or standard input), splits them into words of letters
 * and digits, and prints the TOP (default 10) most frequent as
 * "COUNT WORD", most frequent first, ties in alphabetical order; then
 * "total N words, M distinct". -i folds case. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct entry {
    char* word;
    long count;
};

static struct entry* table;
static size_t used, cap;
static long total;

static void usage(const char* prog) {
    fprintf(stderr, "usage: %s [-i] [-n TOP] [-o OUTFILE] [FILE...]\n", prog);
    exit(2);
}

static void add(const char* w) {
    total++;
    for (size_t i = 0; i < used; i++) {
        if (strcmp(table[i].word, w) == 0) {
            table[i].count++;
            return;
        }
    }
    if (used == cap) {
        cap = cap ? 2 * cap : 16;
        table = realloc(table, cap * sizeof *table);
        if (!table) {
            perror("realloc");
            exit(1);
        }
    }
    table[used].word = strdup(w);
    table[used].count = 1;
    used++;
}

static void count(FILE* in, int fold) {
    char w[64];
    size_t n = 0;
    int c;
    while ((c = getc(in)) != EOF) {
        if (isalnum(c)) {
            if (n < sizeof w - 1) w[n++] = fold ? tolower(c) : c;
        } else if (n > 0) {
            w[n] = '\0';
            add(w);
            n = 0;
        }
    }
    if (n > 0) {
        w[n] = '\0';
        add(w);
    }
}

static int by_count(const void* a, const void* b) {
    const struct entry* x = a;
    const struct entry* y = b;
    if (x->count != y->count) return x->count < y->count ? 1 : -1;
    return strcmp(x->word, y->word);
}

int main(int argc, char* argv[]) {
    int fold = 0, opt;
    long top = 10;
    const char* outname = NULL;
    while ((opt = getopt(argc, argv, "in:o:")) != -1) {
        switch (opt) {
            case 'i':
                fold = 1;
                break;
            case 'n': {
                char* end;
                errno = 0;
                top = strtol(optarg, &end, 10);
                if (errno || *end || top < 1) {
                    fprintf(stderr, "%s: bad count '%s'\n", argv[0], optarg);
                    return 2;
                }
                break;
            }
            case 'o':
                outname = optarg;
                break;
            default:
                usage(argv[0]);
        }
    }
    if (optind == argc) count(stdin, fold);
    for (int i = optind; i < argc; i++) {
        FILE* in = fopen(argv[i], "r");
        if (!in) {
            fprintf(stderr, "%s: %s: %s\n", argv[0], argv[i], strerror(errno));
            return 1;
        }
        count(in, fold);
        fclose(in);
    }
    qsort(table, used, sizeof *table, by_count);
    FILE* out = stdout;
    if (outname && !(out = fopen(outname, "w"))) {
        perror(outname);
        return 1;
    }
    for (size_t i = 0; i < used && (long)i < top; i++) fprintf(out, "%ld %s\n", table[i].count, table[i].word);
    fprintf(out, "total %ld words, %zu distinct\n", total, used);
    if (out != stdout) fclose(out);
    return 0;
}
