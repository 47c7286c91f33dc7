/* tests/libc/fileio.c - stdio on files, formatted conversions, errors.
 *
 * A textbook C program, compiled with qcc (tests/guest/libc_tests.py).
 * Writes a file with fprintf, fputs, fputc and fwrite, reads it back with
 * fgets, fscanf, fgetc/ungetc and fread, appends ("a") and seeks (fseek,
 * ftell, rewind); round-trips doubles through
 * snprintf/strtod and sscanf; checks ctype and strtoul; reports a missing
 * file with perror; leaves one stream unclosed (exit must flush it) and
 * prints from an atexit handler; appends to the console device. Prints "fileio: ok" last on success, and
 * "fileio: FAILED: what" lines otherwise (exit 1).
 *
 *   fileio DIR      (works in DIR, which it creates) */
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int failed;
static volatile size_t small = 4; /* a size the compiler cannot see */

#define CHECK(cond)                                                    \
    do {                                                               \
        if (!(cond)) {                                                 \
            printf("fileio: FAILED: %s (line %d)\n", #cond, __LINE__); \
            failed = 1;                                                \
        }                                                              \
    } while (0)

static void bye(void) { printf("atexit handler ran\n"); }

int main(int argc, char* argv[]) {
    if (argc != 2) {
        fprintf(stderr, "usage: fileio DIR\n");
        return 2;
    }
    atexit(bye);
    if (mkdir(argv[1], 0755) != 0) perror("mkdir");
    if (chdir(argv[1]) != 0) {
        perror(argv[1]);
        return 1;
    }
    FILE* f = fopen("data.txt", "w");
    assert(f != NULL);
    fprintf(f, "%d %s %.2f\n", 7, "seven", 7.25);
    fputs("second line\n", f);
    for (char c = 'a'; c <= 'e'; c++) fputc(c, f);
    fputc('\n', f);
    const int nums[4] = {1, -2, 300000, 0x7fffffff};
    CHECK(fwrite(nums, sizeof nums[0], 4, f) == 4);
    CHECK(fclose(f) == 0);

    struct stat st;
    CHECK(stat("data.txt", &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 31 + 16);

    f = fopen("data.txt", "r");
    assert(f != NULL);
    int n;
    char word[16];
    double d;
    CHECK(fscanf(f, "%d %15s %lf\n", &n, word, &d) == 3 && n == 7 && strcmp(word, "seven") == 0 && d == 7.25);
    char line[64];
    CHECK(fgets(line, sizeof line, f) && strcmp(line, "second line\n") == 0);
    int c = fgetc(f);
    CHECK(c == 'a' && ungetc(c, f) == 'a' && fgetc(f) == 'a');
    CHECK(fgets(line, sizeof line, f) && strcmp(line, "bcde\n") == 0);
    int back[4];
    CHECK(fread(back, sizeof back[0], 4, f) == 4 && memcmp(back, nums, sizeof nums) == 0);
    CHECK(fgetc(f) == EOF && feof(f));
    fclose(f);

    char buf[64];
    snprintf(buf, sizeof buf, "%.17g", 0.1);
    CHECK(strtod(buf, NULL) == 0.1);
    CHECK(snprintf(buf, small, "%s", "truncated") == 9 && strcmp(buf, "tru") == 0);
    unsigned x;
    char name[8];
    CHECK(sscanf("0x1f:abc", "%x:%7s", &x, name) == 2 && x == 31 && strcmp(name, "abc") == 0);
    CHECK(strtoul("0777", NULL, 0) == 511 && strtoul("zz", NULL, 36) == 1295);
    CHECK(isdigit('7') && !isalpha('7') && toupper('q') == 'Q' && isspace('\t'));
    printf("%5d|%-5s|%05.1f|%x|%c|%%\n", 42, "ab", 3.14159, 255, 'z');
    FILE* con = fopen("/console", "a"); /* append to a device: no seek */
    CHECK(con != NULL);
    if (con) {
        fprintf(con, "console append\n");
        fclose(con);
    }

    errno = 0;
    FILE* missing = fopen("no-such-file", "r");
    CHECK(missing == NULL && errno != 0);
    perror("no-such-file");
    f = fopen("data.txt", "a");
    assert(f != NULL);
    fputs("appended\n", f);
    fclose(f);
    f = fopen("data.txt", "r");
    assert(f != NULL);
    CHECK(fseek(f, 0, SEEK_END) == 0 && ftell(f) == 31 + 16 + 9);
    CHECK(fseek(f, -9, SEEK_END) == 0 && fgets(line, sizeof line, f) && strcmp(line, "appended\n") == 0);
    rewind(f);
    CHECK(fgets(line, sizeof line, f) && strcmp(line, "7 seven 7.25\n") == 0 && ftell(f) == 13);
    CHECK(fseek(f, 1000, SEEK_SET) != 0); /* past the end: quanta refuses */
    fclose(f);
    CHECK(unlink("data.txt") == 0 && stat("data.txt", &st) != 0);

    FILE* left = fopen("unclosed.txt", "w");
    assert(left != NULL);
    fprintf(left, "flushed at exit\n");
    printf("%s\n", failed ? "fileio: FAILED" : "fileio: ok");
    return failed;
}
