/* user/nice.c - run a command with a changed nice value.
 *
 *   nice -n N command [args...]
 *
 * As in Unix, N is added to the caller's nice value and the result is
 * clamped to -20..19; N itself must be within -40..39. The command inherits
 * the new value (and so do its children). -h prints the usage line and
 * exits 0. Errors: usage or a bad number print one line and exit 1; a
 * command that cannot be run exits 1. */
#include "kernel/types.h"
#include "user/args.h"
#include "user/user.h"

static const char usage[] = "nice -n N command [args...]";

int main(int argc, char* argv[]) {
    int n;
    usage_on_help(argc, argv, usage);
    if (argc < 4 || strcmp(argv[1], "-n") != 0) usage_exit(usage, 1);
    if (!parse_int(argv[2], &n) || n < -40 || n > 39) {
        fprintf(2, "nice: bad value '%s' (want an integer -40..39)\n", argv[2]);
        exit(1);
    }
    int v = getpriority(0) + n;
    if (v < -20) v = -20;
    if (v > 19) v = 19;
    if (setpriority(0, v) < 0) {
        const int why = errno();
        fprintf(2, "nice: cannot set nice %d: %s%s\n", v, strerror(why),
                why == EACCES ? " (only root may lower it)" : "");
        exit(1);
    }
    const int why = exec_search(argv + 3);
    fprintf(2, "nice: cannot run %s: %s\n", argv[3], strerror(why));
    exit(1);
}
