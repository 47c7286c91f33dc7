/* halt - power the machine off (used by the test runner).
 *
 * `halt [status]` passes the status to the kernel, which reports it to QEMU
 * (the exit code of the emulator) where the platform allows it.
 */
#include "user/user.h"

int main(int argc, char* argv[]) {
    int status = argc > 1 ? atoi(argv[1]) : 0;
    halt(status);
    fprintf(2, "halt: failed\n");
    return 1;
}
