/* rm - remove each named file (or empty directory); exit 1 on any failure. */
#include "kernel/types.h"
#include "user/user.h"

int main(int argc, char* argv[]) {
    if (argc < 2) {
        fprintf(2, "usage: rm files...\n");
        exit(1);
    }
    int status = 0;
    for (int i = 1; i < argc; i++) {
        if (unlink(argv[i]) < 0) {
            fprintf(2, "rm: %s failed to delete\n", argv[i]);
            status = 1;
        }
    }
    return status;
}
