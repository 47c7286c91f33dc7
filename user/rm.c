/* rm - remove each named file (or empty directory); exit 1 on any failure.
 * -h, no argument or an option prints the usage line (remove -x as ./-x). */
#include "kernel/types.h"
#include "user/user.h"

int main(int argc, char* argv[]) {
    static const char usage[] = "rm file...";
    usage_no_options(argc, argv, usage);
    if (argc < 2) usage_exit(usage, 1);
    int status = 0;
    for (int i = 1; i < argc; i++) {
        if (unlink(argv[i]) < 0) {
            perrorf("rm: cannot remove %s", argv[i]);
            status = 1;
        }
    }
    return status;
}
