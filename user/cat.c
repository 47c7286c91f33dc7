/* cat - copy each named file (or standard input) to standard output.
 *
 * Reads in 512-byte chunks; a short or failed write, or a read error, is
 * reported with its reason and makes cat exit with status 1. Arguments are file names;
 * -h or any other option prints the usage line (a file named -x is ./-x).
 */
#include "kernel/fcntl.h"
#include "kernel/types.h"
#include "user/user.h"

static char buf[512];

static void copy(int fd, const char* name) {
    int n;
    while ((n = read(fd, buf, sizeof(buf))) > 0) {
        const int w = write(1, buf, n);
        if (w != n) {
            if (w < 0) perrorf("cat: write error");
            else fprintf(2, "cat: write error: wrote %d of %d bytes\n", w, n);
            exit(1);
        }
    }
    if (n < 0) {
        perrorf("cat: read error on %s", name);
        exit(1);
    }
}

int main(int argc, char* argv[]) {
    usage_no_options(argc, argv, "cat [file...]");
    if (argc <= 1) {
        copy(0, "standard input");
        return 0;
    }
    for (int i = 1; i < argc; i++) {
        int fd = open(argv[i], O_RDONLY);
        if (fd < 0) {
            perrorf("cat: cannot open %s", argv[i]);
            exit(1);
        }
        copy(fd, argv[i]);
        close(fd);
    }
    return 0;
}
