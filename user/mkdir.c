/* mkdir - create each named directory; report each failure, exit 1 if any. */
#include "kernel/types.h"
#include "user/user.h"

int main(int argc, char* argv[]) {
    if (argc < 2) {
        fprintf(2, "usage: mkdir dir...\n");
        exit(1);
    }
    int status = 0;
    for (int i = 1; i < argc; i++) {
        if (mkdir(argv[i]) < 0) {
            fprintf(2, "mkdir: %s failed to create\n", argv[i]);
            status = 1;
        }
    }
    return status;
}
