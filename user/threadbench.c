/* threadbench - thread and futex paths, in benchos's format (docs/benchmarks.md).
 *
 *   threadbench [-q] [NAME...]
 *
 * Rows (one operation each):
 *   thread    thread_create + thread_join of a thread that returns at once
 *             (the user library's: a malloc'd stack, the tid word)
 *   tcreate   the raw calls: tcreate on a static stack + futex wait on its
 *             tid word until the kernel clears it (what a pthread library pays)
 *   mutex     an uncontended umutex lock + unlock (no system call)
 *   futexpp   a futex ping-pong round trip between two threads: each wakes
 *             the other and waits (two wake-ups); with 2 or more harts the
 *             two are pinned to harts 0 and 1
 *   wakeup    futex wake-up latency: from just before FUTEX_WAKE in one
 *             thread to just after FUTEX_WAIT returns in the other (mean of
 *             every round trip's second half, from the time CSR), pinned
 *             as futexpp
 * Timing as benchos: uptime() ticks (0.1 s), one untimed tick, then 10
 * ticks (1 with -q) of the operation in batches; under QEMU -icount the
 * clock is virtual. Output: `NAME ops OPS ns/op NS ops/s RATE`, then
 * "threadbench: done N". Compare `thread` with benchos's `fork` row
 * (fork + exit + wait) of the same boot.
 */
#include "user/user.h"

static int ticks = 10;

static int edge(void) {
    int t = uptime();
    while (uptime() == t) {}
    return t + 1;
}

static void die(const char* what) {
    printf("threadbench: %s failed\n", what);
    exit(1);
}

static void nothing(void* arg) { (void)arg; }

static int op_thread(void) {
    int tid = thread_create(nothing, 0);
    if (tid < 0) return -1;
    return thread_join(tid);
}

static char raw_stack[4096] __attribute__((aligned(16)));
static volatile int raw_word;

static void raw_entry(void* arg) {
    (void)arg;
    texit(0);
}

static int op_tcreate(void) {
    int tid = tcreate(raw_entry, 0, raw_stack + sizeof raw_stack, 0, &raw_word);
    if (tid < 0) return -1;
    int v;
    while ((v = raw_word) != 0) futex(&raw_word, FUTEX_WAIT, v, 0);
    return 0;
}

static struct umutex mtx = UMUTEX_INIT;

static int op_mutex(void) {
    umutex_lock(&mtx);
    umutex_unlock(&mtx);
    return 0;
}

/* Ping-pong: ball is 1 when the partner's turn, 0 when ours. */
static volatile int ball;
static volatile int partner_stop;
static int timed; /* wakeup: take the timestamps (futexpp does not) */
static volatile unsigned long sent_ns, latency_ns, latency_n;
static int partner_tid;

static void partner(void* arg) {
    (void)arg;
    for (;;) {
        while (ball != 1) futex(&ball, FUTEX_WAIT, 0, 0);
        if (partner_stop) return;
        if (timed) {
            latency_ns += uptime_ns() - sent_ns;
            latency_n++;
            sent_ns = uptime_ns();
        }
        ball = 0;
        futex(&ball, FUTEX_WAKE, 1, 0);
    }
}

static int op_pingpong(void) {
    if (timed) sent_ns = uptime_ns();
    ball = 1;
    futex(&ball, FUTEX_WAKE, 1, 0);
    while (ball != 0) futex(&ball, FUTEX_WAIT, 1, 0);
    if (timed) {
        latency_ns += uptime_ns() - sent_ns;
        latency_n++;
    }
    return 0;
}

static void start_partner(void) {
    ball = 0;
    partner_stop = 0;
    partner_tid = thread_create(partner, 0);
    if (partner_tid < 0) die("thread_create");
    /* two harts if there are: this thread on 0, the partner on 1 */
    if (setaffinity(partner_tid, 2) == 0) setaffinity(0, 1);
}

static void stop_partner(void) {
    partner_stop = 1;
    ball = 1;
    futex(&ball, FUTEX_WAKE, 1, 0);
    thread_join(partner_tid);
    setaffinity(0, ~0UL);
}

struct bench {
    const char* name;
    int (*op)(void);
    int partner;
};

static struct bench benches[] = {
    {"thread", op_thread, 0},    {"tcreate", op_tcreate, 0}, {"mutex", op_mutex, 0},
    {"futexpp", op_pingpong, 1}, {"wakeup", op_pingpong, 2},
};
#define NBENCH (int)(sizeof(benches) / sizeof(benches[0]))

static void run(struct bench* b) {
    timed = b->partner == 2;
    if (b->partner) start_partner();
    unsigned long per_tick = 0;
    int end = edge() + 1;
    while (uptime() < end) {
        if (b->op() < 0) die(b->name);
        per_tick++;
    }
    unsigned long batch = per_tick / 100 ? per_tick / 100 : 1;
    latency_ns = latency_n = 0;
    int start = edge();
    end = start + ticks;
    unsigned long ops = 0;
    while (uptime() < end) {
        for (unsigned long k = 0; k < batch; k++)
            if (b->op() < 0) die(b->name);
        ops += batch;
    }
    unsigned long ns = (unsigned long)(uptime() - start) * 100000000UL;
    if (b->partner) stop_partner();
    if (ops == 0) ops = 1;
    if (b->partner == 2) { /* one sample per wake-up: two per round trip */
        unsigned long n = latency_n ? latency_n : 1;
        printf("%s ops %lu ns/op %lu ops/s %lu\n", b->name, n, latency_ns / n, n * 1000000000UL / ns);
        return;
    }
    printf("%s ops %lu ns/op %lu ops/s %lu\n", b->name, ops, ns / ops, ops * 1000000000UL / ns);
}

int main(int argc, char* argv[]) {
    static const char usage[] = "threadbench [-q] [NAME...]";
    usage_on_help(argc, argv, usage);
    int i = 1, chosen = 0;
    if (i < argc && strcmp(argv[i], "-q") == 0) {
        ticks = 1;
        i++;
    }
    for (int j = i; j < argc; j++) {
        int found = 0;
        for (int k = 0; k < NBENCH; k++) found |= strcmp(argv[j], benches[k].name) == 0;
        if (!found) usage_exit(usage, 2);
    }
    for (int k = 0; k < NBENCH; k++) {
        int want = i == argc;
        for (int j = i; j < argc; j++) want |= strcmp(argv[j], benches[k].name) == 0;
        if (!want) continue;
        run(&benches[k]);
        chosen++;
    }
    printf("threadbench: done %d\n", chosen);
    exit(0);
}
