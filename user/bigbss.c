/* bigbss - a valid program with a 1 MiB bss (exec needs 256 free pages).
 *
 * Used by `hostile oom`: exec of it must fail cleanly with -1 when memory
 * is short, and succeed once memory is back. Touches both ends of the array
 * and exits 0. It takes no arguments: -h or any argument prints the usage
 * line (without touching the array).
 */
#include "user/user.h"

char big[1 << 20]; /* external and touched through volatile: not optimised away */

int main(int argc, char* argv[]) {
    usage_on_help(argc, argv, "bigbss");
    if (argc > 1) usage_exit("bigbss", 1);
    volatile char* b = big;
    b[0] = 1;
    b[sizeof big - 1] = 1;
    exit(b[0] + b[sizeof big - 1] == 2 ? 0 : 1);
}
