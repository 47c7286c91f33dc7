/* ln - make a hard link: `ln old new`. -h, a wrong number of arguments or
 * an option prints the usage line. */
#include "kernel/types.h"
#include "user/user.h"

int main(int argc, char* argv[]) {
    static const char usage[] = "ln old new";
    usage_no_options(argc, argv, usage);
    if (argc != 3) usage_exit(usage, 1);
    if (link(argv[1], argv[2]) < 0) {
        perrorf("ln: cannot link %s to %s", argv[2], argv[1]);
        exit(1);
    }
    return 0;
}
