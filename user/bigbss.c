/* bigbss - a valid program with a 1 MiB bss (exec needs 256 free pages).
 *
 * Used by `hostile oom`: exec of it must fail cleanly with -1 when memory
 * is short, and succeed once memory is back. Touches both ends of the array
 * and exits 0.
 */
#include "user/user.h"

static char big[1 << 20];

int main(void) {
    big[0] = 1;
    big[sizeof big - 1] = 1;
    exit(big[0] + big[sizeof big - 1] == 2 ? 0 : 1);
}
