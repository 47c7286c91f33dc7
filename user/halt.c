/* halt - power the machine off (used by the test runner).
 *
 * `halt [status]` passes the status to the kernel, which reports it to QEMU
 * (the exit code of the emulator) where the platform allows it. -h, more
 * than one argument or a status that is not an integer prints the usage
 * line instead of powering off. Only root may halt: for anyone else the
 * kernel refuses and halt prints "permission denied", exit status 1.
 */
#include "user/args.h"
#include "user/user.h"

int main(int argc, char* argv[]) {
    static const char usage[] = "halt [status]";
    int status = 0;
    usage_on_help(argc, argv, usage);
    if (argc > 2 || (argc == 2 && !parse_int(argv[1], &status))) usage_exit(usage, 1);
    halt(status);
    fprintf(2, geteuid() != 0 ? "halt: permission denied: only root may halt\n" : "halt: failed\n");
    return 1;
}
