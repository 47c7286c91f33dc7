/* user/vmstat.c - memory and paging counters (SYS_vmstat, struct vmstat).
 *
 *   vmstat               print free and total pages, swap in use, and the
 *                        fault and paging counts since boot
 *   vmstat CMD [ARGS...] run CMD, wait for it, then print what happened
 *                        during it (the counts are system-wide: run it alone)
 *
 * Output, one line each (tests parse them):
 *   vmstat: free F total T swap U/S
 *   vmstat: WHAT minflt N majflt N cow N pgin N pgout N
 *   vmstat: cache C idle I   (page-cache frames, and those nobody maps)
 * -h prints the usage line and exits 0; a failing system call prints one
 * line and exits 1.
 */
#include "kernel/types.h"
#include "user/dumpfile.h"
#include "user/user.h"

static const char usage_line[] = "vmstat [CMD [ARGS...]]";

static int get(struct vmstat* s) {
    if (vmstat(s) < 0) {
        fprintf(2, "vmstat: vmstat system call failed\n");
        return -1;
    }
    return 0;
}

static void print_now(const struct vmstat* s) {
    printf("vmstat: free %lu total %lu swap %lu/%lu\n", s->free_pages, s->total_pages, s->swap_used, s->swap_total);
    printf("vmstat: cache %lu idle %lu\n", s->cached, s->cache_idle);
}

static void print_counts(const char* what, const struct vmstat* a, const struct vmstat* b) {
    printf("vmstat: %s minflt %lu majflt %lu cow %lu pgin %lu pgout %lu\n", what, b->minor_faults - a->minor_faults,
           b->major_faults - a->major_faults, b->cow_copies - a->cow_copies, b->page_ins - a->page_ins,
           b->page_outs - a->page_outs);
}

int main(int argc, char* argv[]) {
    usage_on_help(argc, argv, usage_line);
    struct vmstat zero, before, after;
    memset(&zero, 0, sizeof zero);
    if (get(&before) < 0) exit(1);
    if (argc == 1) {
        print_now(&before);
        print_counts("since-boot", &zero, &before);
        exit(0);
    }
    int status = run_and_wait(argv + 1, "vmstat");
    if (status < 0 || get(&after) < 0) exit(1);
    print_now(&after);
    print_counts("during", &before, &after);
    exit(status);
}
