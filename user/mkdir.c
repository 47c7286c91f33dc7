/* mkdir - create each named directory; report each failure, exit 1 if any.
 * -h, no argument or an option prints the usage line. */
#include "kernel/types.h"
#include "user/user.h"

int main(int argc, char* argv[]) {
    static const char usage[] = "mkdir dir...";
    usage_no_options(argc, argv, usage);
    if (argc < 2) usage_exit(usage, 1);
    int status = 0;
    for (int i = 1; i < argc; i++) {
        if (mkdir(argv[i]) < 0) {
            perrorf("mkdir: cannot create %s", argv[i]);
            status = 1;
        }
    }
    return status;
}
