/* user/fptest.c - user floating point survives preemption, fork and exec.
 *
 *   fptest [-n PROCS] [-t MS]     PROCS (1..16, default 4) children for MS ms
 *   fptest -z                     check that FP starts zeroed (run by exec)
 *
 * Each child repeats, until MS ms of uptime have passed: load all 32 FP
 * registers and fcsr with a pattern of its own (fp_hold, fptest_regs.S),
 * spin with them live (getpid calls in between), read them back and compare;
 * then divide under its own rounding mode (fcsr.frm: 1/3 and -1/3 round
 * differently under RDN and RUP) and sum sqrt(k*k)/2, checked against
 * integer arithmetic. Children report rounds and preemptions through a pipe.
 * The parent also checks that fork copies the registers (fp_fork), that a
 * signal handler that clobbers them all leaves them as they were (fp_signal), and that
 * an exec'd image starts with FP zeroed (-z), several times while the
 * children run. Prints `fptest: ok ...` and exits 0, or one line per
 * mismatch and exits 1. Built with D instructions and the lp64 ABI, so it
 * links with the xv6-style library (tests/guest/fp_tests.py). */
#include "kernel/types.h"
#include "user/args.h"
#include "user/user.h"

typedef unsigned long u64;

void fp_hold(const u64 in[33], u64 out[33], u64 iters);
void fp_peek(u64 out[33]);
long fp_fork(const u64 in[33], u64 out[33]);
long fp_signal(const u64 in[33], u64 out[33], int pid, int sig);
void fp_clobber(const u64 in[33]);

static const char usage[] = "fptest [-n PROCS] [-t MS] | fptest -z";

static u64 mix(u64 x) {
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ull;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dull;
    return x ^ (x >> 33);
}

/* A pattern for (seed, round): 32 distinct words, fcsr with rounding mode
 * and flags taken from the seed (frm 0..4, fflags 0..31). */
static void pattern(u64 seed, u64 round, u64 st[33]) {
    for (int i = 0; i < 32; i++) st[i] = mix(seed * 1000003 + round * 64 + i);
    st[32] = ((seed % 5) << 5) | (mix(seed + round) & 31);
}

static int compare(const char* what, const u64 want[33], const u64 got[33]) {
    int bad = 0;
    for (int i = 0; i < 33; i++) {
        if (want[i] == got[i]) continue;
        if (i < 32) fprintf(2, "fptest: %s: pid %d f%d = %lx, want %lx\n", what, getpid(), i, got[i], want[i]);
        else fprintf(2, "fptest: %s: pid %d fcsr = %lx, want %lx\n", what, getpid(), got[i], want[i]);
        bad = 1;
    }
    return bad;
}

static u64 bits(double d) {
    u64 b;
    memcpy(&b, &d, sizeof b);
    return b;
}

/* Arithmetic under rounding mode frm: 1/3 and -1/3 must round as IEEE 754
 * says for that mode, and a sum of exact values must be exact. */
static int math_check(int frm, int n) {
    static const u64 third[5] = {0x3fd5555555555555, 0x3fd5555555555555, 0x3fd5555555555555, 0x3fd5555555555556,
                                 0x3fd5555555555555};
    static const u64 mthird[5] = {0xbfd5555555555555, 0xbfd5555555555555, 0xbfd5555555555556, 0xbfd5555555555555,
                                  0xbfd5555555555555};
    volatile double one = 1.0, three = 3.0;
    asm volatile("fsrm %0" : : "r"(frm));
    double sum = 0;
    for (int k = 1; k <= n; k++) {
        double q = one / three, mq = -one / three;
        if (bits(q) != third[frm] || bits(mq) != mthird[frm]) {
            fprintf(2, "fptest: pid %d frm %d: 1/3 = %lx, -1/3 = %lx\n", getpid(), frm, bits(q), bits(mq));
            return 1;
        }
        double x = (double)k, r;
        asm("fsqrt.d %0, %1" : "=f"(r) : "f"(x * x));
        sum += r * 0.5;
    }
    /* sum = n(n+1)/4; every partial sum is a multiple of 1/2: exact. */
    if ((u64)(sum * 4.0) != (u64)n * (u64)(n + 1)) {
        fprintf(2, "fptest: pid %d: sum = %lx\n", getpid(), bits(sum));
        return 1;
    }
    return 0;
}

static u64 my_preemptions(void) {
    struct procinfo pi;
    for (int i = 0; procinfo(i, &pi) == 0; i++) {
        if (pi.pid == getpid()) return pi.involuntary;
    }
    return 0;
}

static void child(int seed, u64 deadline, int wfd) {
    u64 in[33], out[33], result[3] = {0, 0, 0}; /* worker: 0, rounds, preemptions */
    int bad = 0;
    for (u64 round = 0; !bad && (round == 0 || uptime_ns() < deadline); round++) {
        pattern(seed, round, in);
        fp_hold(in, out, 20000 + (round % 7) * 3000);
        bad |= compare("preempted", in, out);
        bad |= math_check(seed % 5, 200);
        result[1]++;
    }
    result[2] = my_preemptions();
    write(wfd, result, sizeof result);
    exit(bad);
}

static int zero_check(void) {
    u64 out[33], zero[33];
    fp_peek(out);
    memset(zero, 0, sizeof zero);
    return compare("after exec", zero, out);
}

/* fork copies the registers; the parent keeps its own. */
static int fork_check(u64 seed) {
    u64 in[33], out[33];
    pattern(seed, 0, in);
    long pid = fp_fork(in, out);
    if (pid < 0) {
        fprintf(2, "fptest: fork failed\n");
        return 1;
    }
    if (pid == 0) exit(compare("fork child", in, out));
    int st = 1;
    wait(&st);
    return compare("fork parent", in, out) | (st != 0);
}

/* A signal handler that clobbers every FP register and fcsr: the
 * interrupted code finds its own again after sigreturn (docs/signals.md:
 * the frame holds f0..f31 and fcsr). */
static u64 clobber_state[33];
static void on_usr1(int s) {
    (void)s;
    fp_clobber(clobber_state);
}

static int signal_check(u64 seed) {
    u64 in[33], out[33];
    pattern(seed, 0, in);
    pattern(seed + 1, 7, clobber_state);
    struct ksigaction a = {(unsigned long)on_usr1, 0, 0};
    if (sigact(SIGUSR1, &a, 0) < 0 || fp_signal(in, out, getpid(), SIGUSR1) != 0) {
        fprintf(2, "fptest: signal: sigact or sigsend failed\n");
        return 1;
    }
    return compare("signal handler", in, out);
}

/* Dirty the registers, then exec `fptest -z`: the new image sees zeros. */
static int exec_check(u64 seed) {
    u64 in[33], out[33];
    int pid = fork();
    if (pid < 0) return 1;
    if (pid == 0) {
        char* argv[] = {"fptest", "-z", 0};
        pattern(seed, 1, in);
        fp_hold(in, out, 0);
        exec("/fptest", argv);
        fprintf(2, "fptest: exec failed\n");
        exit(1);
    }
    int st = 1;
    wait(&st);
    return st != 0;
}

int main(int argc, char* argv[]) {
    int procs = 4, ms = 1000;
    usage_on_help(argc, argv, usage);
    if (argc == 2 && strcmp(argv[1], "-z") == 0) exit(zero_check());
    for (int i = 1; i < argc; i++) {
        int* v = strcmp(argv[i], "-n") == 0 ? &procs : strcmp(argv[i], "-t") == 0 ? &ms : 0;
        if (!v || i + 1 == argc || !parse_int(argv[++i], v)) usage_exit(usage, 1);
    }
    if (procs < 1 || procs > 16 || ms < 1) usage_exit(usage, 1);
    int bad = fork_check(0x5eed); /* before any other child exists: wait() is its */
    bad |= signal_check(0x516);
    int p[2];
    if (pipe(p) < 0) exit(1);
    const u64 deadline = uptime_ns() + (u64)ms * 1000000;
    for (int i = 0; i < procs; i++) {
        int pid = fork();
        if (pid < 0) {
            fprintf(2, "fptest: fork failed\n");
            exit(1);
        }
        if (pid == 0) {
            close(p[0]);
            child(i + 1, deadline, p[1]);
        }
    }
    /* A checker child forks and execs while the others run (its waits
     * see only its own children); it reports its count as rounds. */
    int pid = fork();
    if (pid == 0) {
        u64 result[3] = {1, 0, 0}; /* checker: 1, checks */
        int cbad = 0;
        close(p[0]);
        while (!cbad && (result[1] == 0 || uptime_ns() < deadline)) {
            cbad |= exec_check(0xe8ec + result[1]);
            cbad |= fork_check(0xf0 + result[1]);
            result[1]++;
            sleep(1);
        }
        write(p[1], result, sizeof result);
        exit(cbad);
    }
    close(p[1]);
    if (pid < 0) exit(1);
    u64 rounds = 0, preempted = 0, checks = 0, r[3];
    for (int i = 0; i <= procs; i++) {
        if (read(p[0], r, sizeof r) != sizeof r) {
            bad = 1;
        } else if (r[0] == 0) {
            rounds += r[1];
            preempted += r[2];
        } else {
            checks += r[1];
        }
        int st = 1;
        wait(&st);
        bad |= st != 0;
    }
    if (bad) {
        printf("fptest: FAILED\n");
        exit(1);
    }
    printf("fptest: ok %d procs %lu rounds %lu preemptions %lu exec checks\n", procs, rounds, preempted, checks);
    exit(0);
}
