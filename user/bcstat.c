/* user/bcstat.c - the buffer cache's figures (SYS_bcstat, struct bcachestat).
 *
 *   bcstat               print the cache's size and its counts since boot
 *   bcstat CMD [ARGS...] run CMD, wait for it, then print what it cost the
 *                        cache: hits, misses, blocks read from and written
 *                        to the disk, slabs borrowed and given back (the
 *                        counts are system-wide: run it alone)
 *
 * Disk blocks per operation are the deterministic measure of a disk-bound
 * benchmark (virtual time of a disk wait is not: docs/benchmarks.md).
 * -h prints the usage line and exits 0; a failing system call prints one
 * line and exits 1.
 */
#include "kernel/types.h"
#include "user/dumpfile.h"
#include "user/user.h"

static const char usage_line[] = "bcstat [CMD [ARGS...]]";

static int get(struct bcachestat* s) {
    if (bcstat(s) < 0) {
        fprintf(2, "bcstat: bcstat system call failed\n");
        return -1;
    }
    return 0;
}

static void print_size(const struct bcachestat* s) {
    printf("bcstat: bufs %lu fixed %lu pages %lu\n", s->bufs, s->fixed, s->pages);
}

static void print_counts(const char* what, const struct bcachestat* a, const struct bcachestat* b) {
    printf("bcstat: %s hits %lu misses %lu disk_reads %lu disk_writes %lu grows %lu shrinks %lu\n", what,
           b->hits - a->hits, b->misses - a->misses, b->disk_reads - a->disk_reads, b->disk_writes - a->disk_writes,
           b->grows - a->grows, b->shrinks - a->shrinks);
}

int main(int argc, char* argv[]) {
    usage_on_help(argc, argv, usage_line);
    struct bcachestat zero, before, after;
    memset(&zero, 0, sizeof zero);
    if (get(&before) < 0) exit(1);
    if (argc == 1) {
        print_size(&before);
        print_counts("since boot:", &zero, &before);
        exit(0);
    }
    int status = run_and_wait(argv + 1, "bcstat");
    if (status < 0 || get(&after) < 0) exit(1);
    print_size(&after);
    print_counts("during the command:", &before, &after);
    exit(status);
}
