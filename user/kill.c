/* kill - kill the processes whose ids are given as arguments. */
#include "kernel/types.h"
#include "user/user.h"

int main(int argc, char* argv[]) {
    if (argc < 2) {
        fprintf(2, "usage: kill pid...\n");
        exit(1);
    }
    int status = 0;
    for (int i = 1; i < argc; i++) {
        if (kill(atoi(argv[i])) < 0) {
            fprintf(2, "kill: %s: no such process\n", argv[i]);
            status = 1;
        }
    }
    return status;
}
