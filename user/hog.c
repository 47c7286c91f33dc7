/* user/hog.c - a CPU hog for scheduler experiments.
 *
 *   hog [-p] [-y] [seconds]
 *
 * Spins forever (or for the given seconds of wall time, read from the fine
 * clock). With -p it also prints a dot every few million iterations, like
 * the seed's second hog, which mixes a little I/O into its loop; with -y it
 * calls sched_yield there instead, a polite hog that gives up its turn (a
 * trace shows each yield, and its replay line ends those runs with "yield").
 * -h prints the usage line and exits 0; a bad argument prints it and exits 1. */
#include "kernel/types.h"
#include "user/args.h"
#include "user/user.h"

int main(int argc, char* argv[]) {
    static const char usage[] = "hog [-p] [-y] [seconds]";
    int print = 0, polite = 0, seconds = 0;
    usage_on_help(argc, argv, usage);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-p") == 0) print = 1;
        else if (strcmp(argv[i], "-y") == 0) polite = 1;
        else if (!parse_int(argv[i], &seconds) || seconds < 0) usage_exit(usage, 1);
    }
    unsigned long end = seconds ? uptime_ns() + (unsigned long)seconds * 1000000000UL : 0;
    volatile unsigned long x = 0;
    for (unsigned long n = 1;; n++) {
        x += n;
        if ((n & 0xfffff) == 0) {
            if (print) write(1, ".", 1);
            if (polite) sched_yield();
            if (end && uptime_ns() >= end) break;
        }
    }
    exit(0);
}
