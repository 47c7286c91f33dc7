/* user/bcstat.c - the buffer cache's figures (SYS_bcstat, struct bcachestat).
 *
 *   bcstat               print the cache's size and its counts since boot
 *   bcstat -m            probe memory: grow with sbrk until it fails, print
 *                        the pages got and what freepages() said before
 *                        (a cache that gives memory back must not shrink
 *                        this), then give them back
 *   bcstat -c TICKS FILE...
 *                        count-race probe: one child reads the files again
 *                        and again (the cache borrows slabs), another
 *                        promises every free page with sbrk and gives it
 *                        back (the cache gives its idle slabs back), while
 *                        this process reads freepages() for TICKS ticks;
 *                        prints the most it read while both were idle and
 *                        the most it read meanwhile: a page counted both as
 *                        borrowed and as free (a slab given back between
 *                        two reads of the count) reads above the first
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
#include "kernel/fcntl.h"
#include "kernel/types.h"
#include "user/dumpfile.h"
#include "user/user.h"

static const char usage_line[] = "bcstat [-m | -c TICKS FILE... | CMD [ARGS...]]";

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

/* Read every file to its end (the cache borrows slabs to hold them). */
static void read_files(char** files, int n) {
    static char buf[4096];
    for (int i = 0; i < n; i++) {
        int fd = open(files[i], O_RDONLY);
        if (fd < 0) {
            fprintf(2, "bcstat: cannot open %s\n", files[i]);
            exit(1);
        }
        while (read(fd, buf, sizeof buf) > 0) {}
        close(fd);
    }
}

/* Promise all but 64 free pages (the cache gives its idle slabs back to
 * keep them on the free list), then give them back untouched. */
static void squeeze(void) {
    int n = freepages() - 64;
    if (n > 0 && sbrk(n * 4096) != (char*)-1) sbrk(-(n * 4096));
}

/* The churner k (0 reads, 1 squeezes): once, says ready, then on "go"
 * until killed. */
static void churn(int k, int ready, int go, char** files, int n) {
    if (k == 0) read_files(files, n);
    else squeeze(); /* its page tables stay promised: before the quiet reads */
    write(ready, "r", 1);
    char c;
    read(go, &c, 1);
    for (;;) {
        if (k == 0) read_files(files, n);
        else squeeze();
    }
}

static int count_race(int ticks, char** files, int n) {
    int ready[2], go[2], kids[2];
    if (pipe(ready) < 0 || pipe(go) < 0) {
        fprintf(2, "bcstat: pipe failed\n");
        return 1;
    }
    for (int k = 0; k < 2; k++) {
        kids[k] = fork();
        if (kids[k] < 0) {
            fprintf(2, "bcstat: fork failed\n");
            return 1;
        }
        if (kids[k] == 0) {
            close(ready[0]);
            close(go[1]);
            churn(k, ready[1], go[0], files, n);
        }
    }
    close(ready[1]);
    close(go[0]);
    char c;
    for (int k = 0; k < 2; k++) read(ready[0], &c, 1);
    struct bcachestat before, after;
    if (get(&before) < 0) return 1;
    int quiet = 0;
    for (int i = 0; i < 1000; i++) {
        int f = freepages();
        if (f > quiet) quiet = f;
    }
    write(go[1], "gg", 2);
    long readings = 0, above = 0;
    int most = 0, end = uptime() + ticks;
    while (uptime() < end) {
        int f = freepages();
        readings++;
        if (f > quiet) above++;
        if (f > most) most = f;
    }
    kill(kids[0]);
    kill(kids[1]);
    wait(0);
    wait(0);
    if (get(&after) < 0) return 1;
    printf("bcstat: free quiet %d, churning %d at most; %ld readings, %ld above quiet; %lu slabs given back\n", quiet,
           most, readings, above, after.shrinks - before.shrinks);
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
    if (strcmp(argv[1], "-c") == 0) {
        if (argc < 4 || atoi(argv[2]) <= 0) usage_exit(usage_line, 1);
        exit(count_race(atoi(argv[2]), argv + 3, argc - 3));
    }
    int status = run_and_wait(argv + 1, "bcstat");
    if (status < 0 || get(&after) < 0) exit(1);
    print_size(&after);
    print_counts("during the command:", &before, &after);
    exit(status);
}
