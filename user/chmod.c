/* chmod - change the mode of files.
 *
 *   chmod MODE PATH...
 *
 * MODE is octal, 0 to 1777 (rwx for owner, group and others, plus the
 * sticky bit 1000). Only the owner or root may change a file's mode; a
 * refused or failed change prints one line and the exit status is 1 (the
 * other paths are still tried). -h prints the usage line.
 */
#include "user/user.h"

static const char usage[] = "chmod MODE PATH...";

/* Octal digits only, at most 01777; -1 otherwise. */
static int parse_mode(const char* s) {
    int v = 0;
    if (*s == 0) return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '7') return -1;
        v = v * 8 + (*s - '0');
        if (v > 01777) return -1;
    }
    return v;
}

int main(int argc, char* argv[]) {
    usage_on_help(argc, argv, usage);
    if (argc < 3) usage_exit(usage, 1);
    const int mode = parse_mode(argv[1]);
    if (mode < 0) {
        fprintf(2, "chmod: bad mode '%s' (octal, at most 1777)\n", argv[1]);
        exit(1);
    }
    int status = 0;
    for (int i = 2; i < argc; i++) {
        if (chmod(argv[i], mode) < 0) {
            perrorf("chmod: cannot change %s", argv[i]);
            status = 1;
        }
    }
    exit(status);
}
