/* fuzz - a system-call fuzzer.
 *
 *   fuzz SEED SECONDS [WORKERS [SKIPMASK [v|t]]]
 *
 * SKIPMASK (hex) leaves out system calls: bit n set = never issue number n
 * (for narrowing down a failure). A sixth argument, v or t, reports worker
 * deaths (v) or traces every call (t). -h prints the usage line and exits
 * 0; a malformed command line prints it and exits 1.
 *
 * Design. The parent is a supervisor that never makes a random call. It
 * forks WORKERS (default 4) workers; each runs one batch of BATCH random
 * system calls from its own seeded PRNG (xorshift64*, seeded from SEED, the
 * worker's slot and its generation, so a seed names the exact sequence every
 * worker issues) and exits with the number of calls it made. A worker that
 * ends any other way (killed by a fault, or killed by the supervisor because
 * it blocked, e.g. reading an empty pipe it also writes) is simply replaced
 * by the next generation. To wake up without busy-waiting the supervisor
 * forks a "ticker" child that sleeps half a second and exits, so wait()
 * returns regularly; on each tick it prints a progress line, kills workers
 * older than a few seconds, and reports a worker that does not die after
 * being killed (a kernel bug: kill must end even blocked processes).
 *
 * What workers may not do, so that the run continues: exit (except at the end
 * of a batch), halt, kill anything but themselves, their own children and
 * non-existent pids, exec anything that exists as a program (paths come from
 * a table of names that are not programs), mknod the console major, read or
 * write the console (they close descriptors 0-2 first and the random paths
 * never name "console"; only the console shape's child writes to it), grow
 * memory without bound (the heap is shrunk back past 4 MiB), or sleep for
 * long. Everything else is fair game, with hostile arguments.
 *
 * The parts, by subject (each file's opening comment says more):
 *   user/fuzz.c        the PRNG, the raw ecall, the worker's state and
 *                      batch, and the supervisor (this file)
 *   user/fuzz_args.c   the argument makers: hostile pointers, lengths,
 *                      descriptors, pids, paths, open flags, ids
 *   user/fuzz_call.c   one random call: the number, its arguments (per
 *                      number), the trace line; poll
 *   user/fuzz_shape.c  the shapes, call sequences that broke the kernel
 *   user/fuzz_thread.c threads (tcreate) and futexes
 *   user/fuzz_sig.c    signals: handlers, sigsend, sigreturn, their shapes
 * The worker's one stream (rnd) is the only source of randomness, and every
 * part draws from it in program order, so which file holds a maker changes
 * nothing a seed names.
 */
#include "user/fuzz.h"
#include "user/user.h"

#define MAXW 8
#define BATCH 50

/* ---- PRNG ---- */
static unsigned long rng;
unsigned long rnd(void) {
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 2685821657736338717UL;
}
unsigned long below(unsigned long n) { return n ? rnd() % n : 0; }
int chance(int pct) { return (int)below(100) < pct; }
static unsigned long mix(unsigned long a, unsigned long b) {
    unsigned long h = a * 0x9E3779B97F4A7C15UL + b + 0x632BE59BD9B4E019UL;
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9UL;
    h ^= h >> 29;
    return h ? h : 1;
}

long sc(long n, long a0, long a1, long a2, long a3, long a4, long a5) {
    register long r0 asm("a0") = a0;
    register long r1 asm("a1") = a1;
    register long r2 asm("a2") = a2;
    register long r3 asm("a3") = a3;
    register long r4 asm("a4") = a4;
    register long r5 asm("a5") = a5;
    register long r7 asm("a7") = n;
    asm volatile("ecall" : "+r"(r0) : "r"(r1), "r"(r2), "r"(r3), "r"(r4), "r"(r5), "r"(r7) : "memory");
    return r0;
}

/* ---- worker state ---- */
char* scratch;           /* SCRATCH bytes of heap, valid for the kernel */
unsigned long heap_base; /* break after scratch was allocated */
int kids[16];
int nkids;
int verbose;
unsigned long skipmask; /* system calls not to issue (bit n = number n) */
char workdir[16];       /* this worker's directory, /fz/wN */

static void worker(int slot, unsigned long seed) {
    rng = seed;
    for (int fd = 0; fd < 16; fd++)
        if (fd != 2 || verbose < 2) close(fd);
    scratch = sbrk(SCRATCH);
    if (scratch == (char*)-1) exit(0);
    heap_base = (unsigned long)sbrk(0);
    for (int i = 0; i < SCRATCH / 8; i++) ((unsigned long*)scratch)[i] = rnd() | 0x0101010101010101UL;
    strcpy(workdir, "/fz/w0");
    workdir[5] = (char)('0' + slot);
    mkdir("/fz");
    mkdir(workdir);
    if (chdir(workdir) < 0) exit(0);
    for (int i = 0; i < BATCH; i++) one_call();
    exit(BATCH);
}

/* ---- supervisor ---- */
struct slot {
    int pid;
    unsigned long gen;
    unsigned long started;
    int killed;
};

/* A non-empty string of digits in base 10 or 16. */
static int is_number(const char* s, int hex) {
    if (!*s) return 0;
    for (; *s; s++)
        if (!((*s >= '0' && *s <= '9') || (hex && ((*s | 32) >= 'a' && (*s | 32) <= 'f')))) return 0;
    return 1;
}

int main(int argc, char* argv[]) {
    static const char usage[] = "fuzz SEED SECONDS [WORKERS [SKIPMASK [v|t]]]";
    usage_on_help(argc, argv, usage);
    if (argc < 3 || argc > 6 || !is_number(argv[1], 0) || !is_number(argv[2], 0) ||
        (argc > 3 && !is_number(argv[3], 0)) || (argc > 4 && !is_number(argv[4], 1)) ||
        (argc > 5 && strcmp(argv[5], "v") != 0 && strcmp(argv[5], "t") != 0))
        usage_exit(usage, 1);
    unsigned long seed = (unsigned long)atoi(argv[1]);
    unsigned long secs = (unsigned long)atoi(argv[2]);
    int nw = argc > 3 ? atoi(argv[3]) : 4;
    if (nw < 1 || nw > MAXW) nw = 4;
    verbose = argc > 5 ? 1 + (argv[5][0] == 't') : 0; /* "v": report deaths, "t": trace every call */
    for (const char* m = argc > 4 ? argv[4] : ""; *m; m++)
        skipmask = skipmask * 16 + (unsigned long)(*m <= '9' ? *m - '0' : (*m | 32) - 'a' + 10);
    const unsigned long S = 1000000000UL;
    unsigned long t0 = uptime_ns(), last_print = t0;
    unsigned long calls = 0, batches = 0, died = 0, watchdog = 0, gens = 0;
    int stuck = 0;
    struct slot w[MAXW];
    printf("fuzz: seed %d, %d seconds, %d workers\n", (int)seed, (int)secs, nw);
    for (int i = 0; i < nw; i++) w[i].pid = 0, w[i].gen = 0;
    int ticker = 0;
    int stopping = 0;
    for (;;) {
        unsigned long now = uptime_ns();
        if (!stopping && now - t0 >= secs * S) stopping = 1;
        /* (re)start workers */
        for (int i = 0; i < nw && !stopping; i++) {
            if (w[i].pid > 0) continue;
            unsigned long g = w[i].gen++;
            gens++;
            int pid = fork();
            if (pid == 0) worker(i, mix(mix(seed, (unsigned long)i), g));
            if (pid < 0) {
                w[i].pid = 0;
                break; /* out of processes: retry on the next tick */
            }
            w[i].pid = pid;
            w[i].started = now;
            w[i].killed = 0;
        }
        if (ticker == 0) {
            ticker = fork();
            if (ticker == 0) {
                sleep(5);
                exit(0);
            }
            if (ticker < 0) ticker = 0;
        }
        int alive = 0;
        for (int i = 0; i < nw; i++) alive += w[i].pid > 0;
        if (stopping && alive == 0) break;
        int status = 0;
        int pid = wait(&status);
        now = uptime_ns();
        if (pid < 0) {
            sleep(1);
            continue;
        }
        if (pid == ticker) {
            ticker = 0;
        } else {
            for (int i = 0; i < nw; i++) {
                if (w[i].pid != pid) continue;
                w[i].pid = 0;
                if (status == BATCH) {
                    calls += BATCH;
                    batches++;
                } else {
                    died++;
                    if (verbose)
                        printf("fuzz: worker %d generation %d (pid %d) ended with status %d\n", i, (int)(w[i].gen - 1),
                               pid, status);
                }
            }
        }
        /* watchdog: a worker that blocks is killed; one that survives a kill is a kernel bug */
        for (int i = 0; i < nw; i++) {
            if (w[i].pid <= 0) continue;
            unsigned long age = now - w[i].started;
            if (!w[i].killed && (age > 4 * S || stopping)) {
                kill(w[i].pid);
                w[i].killed = 1;
                w[i].started = now;
                if (!stopping) watchdog++;
            } else if (w[i].killed && age > 10 * S && !(stuck & (1 << i))) {
                stuck |= 1 << i;
                printf("fuzz: BUG worker %d (pid %d, generation %d) survived kill for 10 s\n", i, w[i].pid,
                       (int)(w[i].gen - 1));
            }
        }
        if (now - last_print >= S) {
            last_print = now;
            printf("fuzz: progress t=%ds calls=%d batches=%d died=%d watchdog=%d freepages=%d\n", (int)((now - t0) / S),
                   (int)calls, (int)batches, (int)died, (int)watchdog, freepages());
        }
        if (stuck && stopping && now - t0 > (secs + 30) * S) break;
    }
    while (ticker > 0 && wait(0) >= 0)
        ;
    unsigned long el = uptime_ns() - t0;
    printf("fuzz: done calls=%d batches=%d died=%d watchdog=%d generations=%d ms=%d stuck=%d\n", (int)calls,
           (int)batches, (int)died, (int)watchdog, (int)gens, (int)(el / 1000000), stuck ? 1 : 0);
    exit(stuck ? 1 : 0);
}
