/* diskstat - the disk's and the log's counters (SYS_diskstat), and what one
 * file-system operation costs in disk traffic.
 *
 *   diskstat             print the counters since boot
 *   diskstat [-n N] OP   run OP N times (default 100) and print the traffic
 *                        per operation: OP is create (create + write 512 B +
 *                        close + unlink), append (512 B to a file that grows
 *                        from empty; N <= 400) or mkdir (mkdir + unlink), as
 *                        benchos does them
 *
 * Counts are deterministic (unlike disk-bound times under -icount), so they
 * compare two kernels' write paths exactly. Figures per operation print
 * with two decimals (hundredths, integer arithmetic). The files it makes
 * (dstat.tmp, dstat.app, dstat.dir) are removed again.
 */
#include "user/args.h"
#include "user/user.h"

static const char usage[] = "diskstat [-n N] [create|append|mkdir]";
static char buf[512];

static void show(const char* what, unsigned long v, int ops) {
    unsigned long h = (v * 100 + ops / 2) / ops;
    printf(" %s %lu.%lu%lu", what, h / 100, (h / 10) % 10, h % 10);
}

static int op_create(int i) {
    (void)i;
    int fd = open("dstat.tmp", O_CREATE | O_RDWR);
    if (fd < 0) return -1;
    int n = write(fd, buf, sizeof buf);
    close(fd);
    return n == sizeof buf && unlink("dstat.tmp") == 0 ? 0 : -1;
}

static int append_fd = -1;
static int op_append(int i) {
    (void)i;
    return write(append_fd, buf, sizeof buf) == sizeof buf ? 0 : -1;
}

static int op_mkdir(int i) {
    (void)i;
    return mkdir("dstat.dir") == 0 && unlink("dstat.dir") == 0 ? 0 : -1;
}

int main(int argc, char* argv[]) {
    usage_on_help(argc, argv, usage);
    int n = 100, a = 1;
    if (a + 1 < argc && strcmp(argv[a], "-n") == 0) {
        if (!parse_int(argv[a + 1], &n) || n < 1) usage_exit(usage, 1);
        a += 2;
    }
    struct diskstat s0, s1;
    if (a == argc) {
        if (diskstat(&s0) < 0) {
            fprintf(2, "diskstat: the kernel refused\n");
            return 1;
        }
        printf("requests read %lu write %lu blocks read %lu written %lu round_trips %lu\n", s0.read_requests,
               s0.write_requests, s0.blocks_read, s0.blocks_written, s0.round_trips);
        printf("log commits %lu installs %lu slots %u pinned %u\n", s0.log_commits, s0.log_installs, s0.log_slots,
               s0.log_pinned);
        return 0;
    }
    if (a + 1 != argc) usage_exit(usage, 1);
    int (*op)(int) = 0;
    const char* name = argv[a];
    if (strcmp(name, "create") == 0) op = op_create;
    if (strcmp(name, "append") == 0) op = op_append;
    if (strcmp(name, "mkdir") == 0) op = op_mkdir;
    if (!op || (op == op_append && n > 400)) usage_exit(usage, 1);
    if (op == op_append && (append_fd = open("dstat.app", O_CREATE | O_RDWR)) < 0) {
        perrorf("diskstat: cannot create dstat.app");
        return 1;
    }
    if (diskstat(&s0) < 0) {
        fprintf(2, "diskstat: the kernel refused\n");
        return 1;
    }
    for (int i = 0; i < n; i++) {
        if (op(i) < 0) {
            perrorf("diskstat: %s failed at operation %d", name, i);
            return 1;
        }
    }
    diskstat(&s1);
    if (append_fd >= 0) {
        close(append_fd);
        unlink("dstat.app");
    }
    printf("%s ops %d per op:", name, n);
    show("write_requests", s1.write_requests - s0.write_requests, n);
    show("blocks_written", s1.blocks_written - s0.blocks_written, n);
    show("read_requests", s1.read_requests - s0.read_requests, n);
    show("blocks_read", s1.blocks_read - s0.blocks_read, n);
    show("round_trips", s1.round_trips - s0.round_trips, n);
    show("commits", s1.log_commits - s0.log_commits, n);
    show("installs", s1.log_installs - s0.log_installs, n);
    printf("\n");
    return 0;
}
