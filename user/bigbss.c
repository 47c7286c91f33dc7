/* bigbss - a valid program with a 1 MiB bss (exec needs 256 free pages).
 *
 * Used by `hostile oom`: exec of it must fail cleanly with -1 when memory
 * is short, and succeed once memory is back. Touches both ends of the array
 * and exits 0.
 */
#include "user/user.h"

char big[1 << 20]; /* external and touched through volatile: not optimised away */

int main(void) {
    volatile char* b = big;
    b[0] = 1;
    b[sizeof big - 1] = 1;
    exit(b[0] + b[sizeof big - 1] == 2 ? 0 : 1);
}
