/* user/bcstat.c - the buffer cache's figures (SYS_bcstat, struct bcachestat).
 *
 *   bcstat               print the cache's size and its counts since boot
 *   bcstat -m            probe memory: grow with sbrk until it fails, print
 *                        the pages got and what freepages() said before
 *                        (a cache that gives memory back must not shrink
 *                        this), then give them back
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

static const char usage_line[] = "bcstat [-m | CMD [ARGS...]]";

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

static int probe_memory(void) {
    int free_before = freepages();
    long pages = 0;
    while (sbrk(1 << 20) != (char*)-1) pages += 256;
    while (sbrk(4096) != (char*)-1) pages++;
    printf("bcstat: sbrk got %ld pages; %d were free before\n", pages, free_before);
    while (pages > 0) {
        long n = pages > 256 ? 256 : pages;
        if (sbrk(-(int)(n * 4096)) == (char*)-1) {
            fprintf(2, "bcstat: sbrk shrink failed\n");
            return 1;
        }
        pages -= n;
    }
    return 0;
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
    if (strcmp(argv[1], "-m") == 0) {
        if (argc != 2) usage_exit(usage_line, 1);
        exit(probe_memory());
    }
    int status = run_and_wait(argv + 1, "bcstat");
    if (status < 0 || get(&after) < 0) exit(1);
    print_size(&after);
    print_counts("during the command:", &before, &after);
    exit(status);
}
