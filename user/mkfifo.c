/* mkfifo - make each named pipe (FIFO); report each failure, exit 1 if any.
 *
 *   mkfifo [-m MODE] path...
 *
 * MODE is octal (default 0644; there is no umask). Opening a FIFO for
 * reading waits for a writer and the other way round (docs/ipc.md). */
#include "kernel/types.h"
#include "user/user.h"

static int octal(const char* s, int* out) {
    int v = 0;
    if (*s == 0) return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '7' || v > 07777) return -1;
        v = v * 8 + (*s - '0');
    }
    *out = v;
    return 0;
}

int main(int argc, char* argv[]) {
    static const char usage[] = "mkfifo [-m MODE] path...";
    int mode = 0644, first = 1;
    if (argc > 2 && strcmp(argv[1], "-m") == 0) {
        if (octal(argv[2], &mode) < 0 || mode > 01777) {
            fprintf(2, "mkfifo: bad mode '%s' (octal, at most 1777)\n", argv[2]);
            exit(1);
        }
        first = 3;
    }
    if (first < argc && argv[first][0] == '-') usage_exit(usage, strcmp(argv[first], "-h") == 0 ? 0 : 1);
    if (first >= argc) usage_exit(usage, 1);
    int status = 0;
    for (int i = first; i < argc; i++) {
        if (mkfifo(argv[i], mode) < 0) {
            perrorf("mkfifo: cannot create %s", argv[i]);
            status = 1;
        }
    }
    return status;
}
