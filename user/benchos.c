/* user/benchos.c - an lmbench-style suite of operating-system paths.
 *
 *   benchos [-q] [-t TICK_MS] [NAME...]
 *
 * Written against the xv6 user API only (fork, exec, pipe, read, write,
 * open, close, unlink, mkdir, sbrk, uptime), so the same source builds and
 * runs on xv6-riscv: the figures of both kernels come from one program.
 *
 * Timing: uptime() counts timer ticks (0.1 s on quanta and xv6-riscv; -t
 * sets another length). Each benchmark runs one untimed tick (warm-up and
 * calibration), waits for a tick edge, then repeats its operation until a
 * later edge: `ticks` whole ticks (10, or 1 with -q), reading the clock
 * every 1/100 of a tick's worth of operations, so the count overshoots the
 * edge by under 1% of a tick. Under
 * QEMU -icount the clock is virtual and the figures repeat run to run.
 * Output: one line a benchmark,
 *   NAME ops OPS ns/op NS ops/s RATE
 * then "benchos: done". NAME arguments run only those benchmarks. */
#include "kernel/fcntl.h"
#include "kernel/stat.h"
#include "kernel/types.h"
#include "user/user.h"

#define FILE_KB 50

static int ticks = 10;
static unsigned long tick_ns = 100000000UL;
static char buf[4096];
static char* self = "benchos";

/* Waits for the clock to reach the next tick edge; returns that tick. */
static int edge(void) {
    int t = uptime();
    while (uptime() == t) {}
    return t + 1;
}

static void die(char* what) {
    printf("benchos: %s failed\n", what);
    exit(1);
}

/* One operation of each benchmark; each returns 0, or -1 on failure. */
static int op_null(void) { return getpid() > 0 ? 0 : -1; }

static int op_fork(void) {
    int pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) exit(0);
    return wait(0) == pid ? 0 : -1;
}

static int exec_self(char* flag) {
    int pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        char* argv[] = {self, flag, 0};
        exec(self, argv);
        exit(1);
    }
    int status = -1;
    return wait(&status) == pid && status == 0 ? 0 : -1;
}

static int op_exec(void) { return exec_self("-x"); }

/* exectext: the exec row with a child that reads a byte of every page of
 * its image, [0, end): each text page is a fault, served by the page
 * cache (this program runs the same file) or read from the file. */
extern char end[];
static int touch_image(void) {
    static volatile unsigned long zero = 0; /* address 0, which the compiler may not assume */
    volatile char* base = (volatile char*)zero;
    int sum = 0;
    for (unsigned long a = 0; a < (unsigned long)end; a += 4096) sum += base[a];
    return sum & 0;
}
static int op_exectext(void) { return exec_self("-X"); }

/* cow64, cow64r: fork + exit + wait of a process with 64 heap pages
 * written, whose child writes (64 copy-on-write copies) or only reads
 * each page first: the difference is 64 copy-on-write faults. */
static char* cow_pages;
static int cow_child_writes;
static int op_cow(void) {
    int pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        int sum = 0;
        for (int i = 0; i < 64; i++) {
            if (cow_child_writes) cow_pages[i * 4096] = (char)i;
            else sum += cow_pages[i * 4096];
        }
        exit(sum & 0);
    }
    return wait(0) == pid ? 0 : -1;
}

/* Pipe round trip: a partner process echoes one byte back. */
static int ping[2], pong[2];

static int op_pipe(void) {
    char c = 'x';
    if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1) return -1;
    return 0;
}

static int op_create(void) {
    int fd = open("bo.tmp", O_CREATE | O_RDWR);
    if (fd < 0) return -1;
    int n = write(fd, buf, 512);
    close(fd);
    if (n != 512 || unlink("bo.tmp") < 0) return -1;
    return 0;
}

static int append_fd = -1;
static int appended = 0;

static int op_append(void) {
    /* A file grows to 1 MB at most; then it starts over (xv6's largest file
     * is 268 KB: there it starts over at 200 KB). */
    if (appended >= 400) {
        close(append_fd);
        unlink("bo.app");
        append_fd = open("bo.app", O_CREATE | O_RDWR);
        appended = 0;
    }
    appended++;
    return write(append_fd, buf, 512) == 512 ? 0 : -1;
}

static int read_fd = -1;
static int read_size = 512;

static int op_read(void) {
    int n = read(read_fd, buf, read_size);
    if (n == read_size) return 0;
    if (n < 0) return -1;
    /* End of file: start again from the beginning (no lseek in xv6). */
    close(read_fd);
    read_fd = open("bo.read", O_RDONLY);
    return read_fd < 0 ? -1 : 0;
}

static int op_mkdir(void) {
    if (mkdir("bo.dir") < 0) return -1;
    return unlink("bo.dir");
}

static int op_sbrk(void) {
    char* p = sbrk(4096);
    if (p == (char*)-1) return -1;
    p[0] = 1;
    p[4095] = 2;
    return sbrk(-4096) == (char*)-1 ? -1 : 0;
}

/* Page fault cost: grow by 64 pages, touch each, shrink (one op = 64
 * pages; quanta maps sbrk memory eagerly, so the touch is a store, not a
 * fault: the figure is what a page of memory costs either way). */
static int op_pages(void) {
    char* p = sbrk(64 * 4096);
    if (p == (char*)-1) return -1;
    for (int i = 0; i < 64; i++) p[i * 4096] = (char)i;
    return sbrk(-64 * 4096) == (char*)-1 ? -1 : 0;
}

#ifndef BENCHOS_XV6
/* quanta's mappings (calls 90-93, docs/memory.md "Mappings"; build with
 * -DBENCHOS_XV6 for xv6, which has none). mmap64: map 64 anonymous pages,
 * touch each (64 zero-fill faults), unmap: the pages64 row through mmap.
 * mmapfile: map bo.read (50 KB, 13 pages) privately, read a byte of each
 * page (13 major faults, each reading its page from the cached file),
 * unmap: compare read4k's 12.5 reads of the same bytes. */
static int op_mmap64(void) {
    char* p = mmap(0, 64 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return -1;
    for (int i = 0; i < 64; i++) p[i * 4096] = (char)i;
    return munmap(p, 64 * 4096);
}

static int op_mmapfile(void) {
    const int len = FILE_KB * 1024;
    volatile char* p = mmap(0, len, PROT_READ, MAP_PRIVATE, read_fd, 0);
    if (p == MAP_FAILED) return -1;
    int sum = 0;
    for (int i = 0; i < len; i += 4096) sum += p[i];
    (void)sum;
    return munmap((void*)p, len);
}
#endif

static void setup_pipe(void) {
    if (pipe(ping) < 0 || pipe(pong) < 0) die("pipe");
    int pid = fork();
    if (pid < 0) die("fork");
    if (pid == 0) {
        char c;
        close(ping[1]);
        close(pong[0]);
        while (read(ping[0], &c, 1) == 1) write(pong[1], &c, 1);
        exit(0);
    }
    close(ping[0]);
    close(pong[1]);
}

static void teardown_pipe(void) {
    close(ping[1]);
    close(pong[0]);
    wait(0);
}

static void setup_read(int size) {
    int fd = open("bo.read", O_CREATE | O_RDWR);
    if (fd < 0) die("create bo.read");
    for (int i = 0; i < FILE_KB * 2; i++) {
        if (write(fd, buf, 512) != 512) die("write bo.read");
    }
    close(fd);
    read_fd = open("bo.read", O_RDONLY);
    if (read_fd < 0) die("open bo.read");
    read_size = size;
}

static void teardown_read(void) {
    close(read_fd);
    unlink("bo.read");
}

#ifndef BENCHOS_XV6
/* signal: sigsend to itself, the handler runs on the way back from the
 * call and returns through the trampoline's sigreturn (docs/signals.md):
 * the round trip kill -> handler -> sigreturn. */
static volatile int sig_seen;
static void on_usr1(int s) { sig_seen += s == SIGUSR1; }
static int op_signal(void) {
    static int installed;
    if (!installed) {
        struct ksigaction a = {(unsigned long)on_usr1, 0, 0};
        if (sigact(SIGUSR1, &a, 0) != 0) return -1;
        installed = 1;
    }
    int before = sig_seen;
    if (sigsend(getpid(), SIGUSR1) != 0) return -1;
    return sig_seen == before + 1 ? 0 : -1;
}
#endif

struct bench {
    char* name;
    int (*op)(void);
    int setup; /* 1 pipe, 2 append file, 3 read 512, 4 read 4096, 5/6 1/16 MiB heap written, 7/8 cow64(r) */
};

static struct bench benches[] = {
    {"null", op_null, 0},     {"fork", op_fork, 0},         {"exec", op_exec, 0},     {"pipe", op_pipe, 1},
    {"create", op_create, 0}, {"append", op_append, 2},     {"read512", op_read, 3},  {"read4k", op_read, 4},
    {"mkdir", op_mkdir, 0},   {"sbrk", op_sbrk, 0},         {"pages64", op_pages, 0}, {"fork1m", op_fork, 5},
    {"fork16m", op_fork, 6},  {"exectext", op_exectext, 0}, {"cow64", op_cow, 7},     {"cow64r", op_cow, 8},
#ifndef BENCHOS_XV6
    {"mmap64", op_mmap64, 0}, {"mmapfile", op_mmapfile, 4}, {"signal", op_signal, 0},
#endif
};
#define NBENCH (int)(sizeof(benches) / sizeof(benches[0]))

static void run(struct bench* b) {
    if (b->setup == 1) setup_pipe();
    if (b->setup == 2) {
        unlink("bo.app");
        append_fd = open("bo.app", O_CREATE | O_RDWR);
        if (append_fd < 0) die("create bo.app");
        appended = 0;
    }
    if (b->setup == 3) setup_read(512);
    if (b->setup == 4) setup_read(4096);
    /* fork1m, fork16m: fork + exit + wait of a process with 1 or 16 MiB of
     * heap written (copy-on-write fork, docs/memory.md). */
    char* grown = 0;
    int grown_bytes = b->setup == 5 ? 1 << 20 : b->setup == 6 ? 16 << 20 : b->setup >= 7 ? 64 * 4096 : 0;
    if (grown_bytes) {
        grown = sbrk(grown_bytes);
        if (grown == (char*)-1) die("sbrk");
        for (int i = 0; i < grown_bytes; i += 4096) grown[i] = (char)i;
        cow_pages = grown;
        cow_child_writes = b->setup == 7;
    }
    /* An untimed tick warms caches, checks the operation works and counts
     * how many fit in a tick, so the timed loop reads the clock only every
     * `batch` operations (about 100 times a tick: the clock read is itself
     * a system call, as costly as the null one). */
    unsigned long per_tick = 0;
    int end = edge() + 1;
    while (uptime() < end) {
        if (b->op() < 0) die(b->name);
        per_tick++;
    }
    unsigned long batch = per_tick / 100 ? per_tick / 100 : 1;
    int start = edge();
    end = start + ticks;
    unsigned long ops = 0;
    while (uptime() < end) {
        for (unsigned long k = 0; k < batch; k++) {
            if (b->op() < 0) die(b->name);
        }
        ops += batch;
    }
    unsigned long ns = (unsigned long)(uptime() - start) * tick_ns;
    if (ops == 0) ops = 1;
    printf("%s ops %lu ns/op %lu ops/s %lu\n", b->name, ops, ns / ops, ops * 1000000000UL / ns);
    if (grown_bytes) sbrk(-grown_bytes);
    if (b->setup == 1) teardown_pipe();
    if (b->setup == 2) {
        close(append_fd);
        unlink("bo.app");
    }
    if (b->setup >= 3) teardown_read();
}

static void usage(void) {
    printf("usage: benchos [-q] [-t TICK_MS] [NAME...]\n");
    exit(1);
}

static int number(char* s) {
    int n = 0;
    if (!*s) return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || n > 100000) return -1;
        n = n * 10 + (*s - '0');
    }
    return n;
}

int main(int argc, char* argv[]) {
    int i = 1, chosen = 0;
    self = argv[0];
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "-x") == 0) exit(0);             /* the exec benchmark's child */
        if (strcmp(argv[i], "-X") == 0) exit(touch_image()); /* exectext's */
        if (strcmp(argv[i], "-h") == 0) {
            printf("usage: benchos [-q] [-t TICK_MS] [NAME...]\n");
            exit(0);
        }
        if (strcmp(argv[i], "-q") == 0) {
            ticks = 1;
        } else if (strcmp(argv[i], "-t") == 0 && i + 1 < argc && number(argv[i + 1]) > 0) {
            tick_ns = (unsigned long)number(argv[++i]) * 1000000UL;
        } else {
            usage();
        }
    }
    for (int j = i; j < argc; j++) {
        int found = 0;
        for (int k = 0; k < NBENCH; k++) found |= strcmp(argv[j], benches[k].name) == 0;
        if (!found) usage();
    }
    for (int k = 0; k < NBENCH; k++) {
        int want = i == argc;
        for (int j = i; j < argc; j++) want |= strcmp(argv[j], benches[k].name) == 0;
        if (!want) continue;
        run(&benches[k]);
        chosen++;
    }
    printf("benchos: done %d\n", chosen);
    exit(0);
}
