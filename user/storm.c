/* user/storm.c - a sleep/wakeup storm to shake out SMP races.
 *
 *   storm [pairs] [rounds]
 *
 * Forks `pairs` pairs of processes (default 12, 24 processes) that bounce a
 * counter through two pipes `rounds` times (default 500): every hop is a
 * sleep in read() and a wakeup in write(), on whichever harts the processes
 * land. Each pair checks the counter arrives in order; a lost wakeup shows
 * as a hang (the test runner's timeout), a lost or duplicated message as a
 * wrong value. Prints `storm: ok P pairs R rounds` and exits 0, or exits 1.
 * -h prints the usage line and exits 0; bad arguments print it, exit 1. */
#include "kernel/types.h"
#include "user/args.h"
#include "user/user.h"

static void bounce(int in, int out, int rounds, int first) {
    for (int i = 0; i < rounds; i++) {
        int v;
        if (first) {
            v = 2 * i;
            if (write(out, &v, sizeof v) != sizeof v) exit(1);
            if (read(in, &v, sizeof v) != sizeof v || v != 2 * i + 1) exit(1);
        } else {
            if (read(in, &v, sizeof v) != sizeof v || v != 2 * i) exit(1);
            v++;
            if (write(out, &v, sizeof v) != sizeof v) exit(1);
        }
    }
    exit(0);
}

int main(int argc, char* argv[]) {
    static const char usage[] = "storm [pairs<=30] [rounds]";
    int pairs = 12, rounds = 500;
    usage_on_help(argc, argv, usage);
    if (argc > 3 || (argc > 1 && !parse_int(argv[1], &pairs)) || (argc > 2 && !parse_int(argv[2], &rounds)) ||
        pairs < 1 || rounds < 1 || pairs > 30)
        usage_exit(usage, 1);
    for (int p = 0; p < pairs; p++) {
        int ab[2], ba[2];
        if (pipe(ab) < 0 || pipe(ba) < 0) {
            perrorf("storm: pipe failed");
            exit(1);
        }
        for (int side = 0; side < 2; side++) {
            int pid = fork();
            if (pid < 0) {
                perrorf("storm: fork failed");
                exit(1);
            }
            if (pid == 0) {
                if (side == 0) bounce(ba[0], ab[1], rounds, 1);
                else bounce(ab[0], ba[1], rounds, 0);
            }
        }
        close(ab[0]);
        close(ab[1]);
        close(ba[0]);
        close(ba[1]);
    }
    int bad = 0;
    for (int i = 0; i < 2 * pairs; i++) {
        int st;
        if (wait(&st) < 0 || st != 0) bad++;
    }
    if (bad) {
        printf("storm: %d processes failed\n", bad);
        exit(1);
    }
    printf("storm: ok %d pairs %d rounds\n", pairs, rounds);
    exit(0);
}
