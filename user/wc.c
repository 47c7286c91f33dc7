/* wc - count lines, words and bytes.
 *
 * Output is xv6's exactly: "lines words bytes name\n" per file, and with no
 * arguments the name is empty, so `echo hello | wc` prints "1 1 6 \n".
 * A word is a maximal run of characters that are not space, tab, CR, LF or
 * vertical tab. Arguments are file names; -h or any other option prints
 * the usage line.
 */
#include "kernel/fcntl.h"
#include "kernel/types.h"
#include "user/user.h"

static char buf[512];

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v'; }

static void wc(int fd, const char* name) {
    int lines = 0, words = 0, bytes = 0, in_word = 0, n;
    while ((n = read(fd, buf, sizeof(buf))) > 0) {
        for (int i = 0; i < n; i++) {
            bytes++;
            if (buf[i] == '\n') lines++;
            if (is_space(buf[i])) {
                in_word = 0;
            } else if (!in_word) {
                words++;
                in_word = 1;
            }
        }
    }
    if (n < 0) {
        perrorf("wc: read error");
        exit(1);
    }
    printf("%d %d %d %s\n", lines, words, bytes, name);
}

int main(int argc, char* argv[]) {
    usage_no_options(argc, argv, "wc [file...]");
    if (argc <= 1) {
        wc(0, "");
        return 0;
    }
    for (int i = 1; i < argc; i++) {
        int fd = open(argv[i], O_RDONLY);
        if (fd < 0) {
            perrorf("wc: cannot open %s", argv[i]);
            exit(1);
        }
        wc(fd, argv[i]);
        close(fd);
    }
    return 0;
}
