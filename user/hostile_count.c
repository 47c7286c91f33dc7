/* user/hostile_count.c - the free-page count read while other processes
 * work (part of user/hostile; kernel/mm/kalloc.h).
 *
 * cowcount: freepages() read in a tight loop while two processes that
 *   share 4,096 pages copy-on-write give them up at once: one writes every
 *   page (a copy each, paid for by the promise its mapping held), the other
 *   drops its share of each, last page first (which frees the page or
 *   gives its promise back). Each step of either gives pages back or
 *   leaves the count as it was, so the readings may only rise: a reading
 *   below an earlier one is a step seen half done. Before the fix the copy
 *   took its frame in one hold of kalloc's lock and gave the promise back
 *   in another, and a copy crossing the other's drop counted the old frame
 *   as taken until it was put: a reading in between was one page low (the
 *   intermittent "pages not back (-1)" of mprotrace, texecrace and cowbomb,
 *   whose first reading fell inside the shell's copy of a page it still
 *   shared with the just-exec'd hostile).
 * filecount: the same reading while a process touches every page of a
 *   file it mapped shared (64 pages, the file's limit; 17 rounds, with two
 *   threads at once in every other one; the first reads the pages in
 *   with both caches squeezed first, so the buffer cache grows meanwhile:
 *   kernel/fs/bio.cc counts a slab's pages as free until it has linked the
 *   slab, in one step with the slab count; the pages are idle in the
 *   page cache in the next rounds, but every fourth round writes the file
 *   anew first, so its two threads read each page in, one waiting for the
 *   other's read), and then while a child removes the file: a page's
 *   promise goes, and the cache's frame stops counting as free, in one step
 *   as the page is mapped; a thread that loses the race to map it moves
 *   nothing; the removal moves idle frames to the free list. So the count
 *   stays as it was. Before the fixes the frame left the idle frames
 *   (counted as free) before the promise went, a dropped frame left them
 *   before it reached the free list, a thread that lost the race gave its
 *   promise back and made it again, and a threaded process's read() pinned
 *   its buffer's page with a promise of its own: each in two holds, one off
 *   in between.
 * Both race only on two harts or more: on one, no reading falls inside
 * another process's fault. */
#include "kernel/fcntl.h"
#include "kernel/riscv.h"
#include "user/hostile.h"
#include "user/user.h"

#define CC_PAGES 4096
#define CC_ROUNDS 6

/* A sharer: says it is ready, waits for the go, then copies (writer) or
 * drops (dropper) every page of heap [p, p + CC_PAGES pages). */
static void sharer(char* p, int writer, int ready, int go) {
    char c = 0;
    write(ready, &c, 1);
    read(go, &c, 1);
    if (writer) {
        for (int i = 0; i < CC_PAGES; i++) p[i * PGSIZE] = 2;
    } else {
        for (int i = 0; i < CC_PAGES; i++) sbrk(-PGSIZE);
    }
    exit(0);
}

/* 1,024 readings of the free count: *low counts those below *peak (the
 * highest so far, raised as it rises), *fell is the most one fell. */
static long read_batch(int* peak, int* fell, long* low) {
    for (int i = 0; i < 1024; i++) {
        int now = freepages();
        if (now < *peak) ++*low;
        if (*peak - now > *fell) *fell = *peak - now;
        if (now > *peak) *peak = now;
    }
    return 1024;
}

/* Batches of readings from peak until child pid has exited; how many. */
static long read_until_exit(int pid, int peak, int* fell, long* low) {
    long readings = 0;
    for (;;) {
        readings += read_batch(&peak, fell, low);
        int st;
        if (waitpid(pid, &st, WNOHANG) == pid) return readings;
    }
}

/* One round; the number of readings, with *fell the most a reading fell
 * below the highest before it (0: none fell) and *low how many did, or -1
 * on a setup failure. */
static long one_round(int* fell, long* low) {
    int ready[2], go[2];
    if (pipe(ready) < 0 || pipe(go) < 0) return -1;
    char* p = sbrk(CC_PAGES * PGSIZE);
    if (p == (char*)-1) return -1;
    for (int i = 0; i < CC_PAGES; i++) p[i * PGSIZE] = 1;
    int pids[2];
    for (int k = 0; k < 2; k++) {
        pids[k] = fork();
        if (pids[k] == 0) sharer(p, k == 0, ready[1], go[0]);
    }
    sbrk(-CC_PAGES * PGSIZE); /* only the two sharers hold the pages now */
    char c;
    for (int k = 0; k < 2; k++)
        if (pids[k] < 0 || read(ready[0], &c, 1) != 1) return -1;
    int peak = freepages();
    long readings = 0;
    write(go[1], "gg", 2);
    int left = 2;
    while (left > 0) {
        readings += read_batch(&peak, fell, low);
        for (int k = 0; k < 2; k++) {
            int st;
            if (pids[k] > 0 && waitpid(pids[k], &st, WNOHANG) == pids[k]) {
                pids[k] = 0;
                left--;
            }
        }
    }
    close(ready[0]);
    close(ready[1]);
    close(go[0]);
    close(go[1]);
    return readings;
}

/* The rounds, in a child (its heap's page tables stay with it): sends the
 * readings, how many fell and the most one fell down `out`. */
static void rounds(int out) {
    struct {
        long readings, low, fell;
    } sum = {0, 0, 0};
    int fell = 0;
    for (int r = 0; r < CC_ROUNDS; r++) {
        long n = one_round(&fell, &sum.low);
        if (n < 0) exit(3);
        sum.readings += n;
    }
    sum.fell = fell;
    write(out, &sum, sizeof sum);
    exit(0);
}

void t_cowcount(void) {
    struct pagesnap before;
    pages_snap(&before);
    int out[2];
    if (pipe(out) < 0) return fail("cowcount", "pipe", -1);
    int pid = fork();
    if (pid == 0) rounds(out[1]);
    close(out[1]);
    struct {
        long readings, low, fell;
    } sum;
    int got = read(out[0], &sum, sizeof sum);
    close(out[0]);
    int st = reap(pid);
    if (st != 0 || got != sizeof sum) return fail("cowcount", "the reader did not end cleanly: status", st);
    printf("hostile: cowcount %ld readings, %ld below an earlier one\n", sum.readings, sum.low);
    if (sum.fell != 0) return fail("cowcount", "a free-page reading fell below an earlier one by", sum.fell);
    int lost = pages_diff("cowcount", &before);
    if (lost != 0) return fail("cowcount", "pages not back", lost);
    pass("cowcount", "free-page readings while 6 x 4096 shared pages were copied and dropped: none fell");
}

/* ---- filecount ---- */

#define FC_PAGES 64
#define FC_ROUNDS 17 /* the first reads the file in */

static char* volatile fc_map;
static volatile int fc_state; /* 1: the second thread waits; 2: go */

static void touch_all(void) {
    volatile char sum = 0;
    for (int i = 0; i < FC_PAGES; i++) sum += fc_map[i * PGSIZE];
}

static void second_toucher(void* arg) {
    (void)arg;
    fc_state = 1;
    while (fc_state != 2) {}
    touch_all();
    for (;;) sleep(10);
}

/* A mapper: maps the file shared (its pages promised), says it is ready,
 * waits for the go, then touches every page (the page cache's frame each,
 * whose promise goes), with two threads at once if `two` (the thread that
 * loses the race for a page keeps its promise), and exits. */
static void mapper(const char* path, int two, int ready, int go) {
    int fd = open(path, O_RDONLY);
    fc_map = mmap(0, FC_PAGES * PGSIZE, PROT_READ, MAP_SHARED, fd, 0);
    if (fd < 0 || fc_map == MAP_FAILED) exit(3);
    if (two && thread_create(second_toucher, 0) < 0) exit(4);
    while (two && fc_state != 1) {}
    char c = 0;
    write(ready, &c, 1);
    read(go, &c, 1);
    fc_state = 2;
    touch_all();
    exit(0);
}

static long file_round(const char* path, int two, int* fell, long* low) {
    int ready[2], go[2];
    if (pipe(ready) < 0 || pipe(go) < 0) return -1;
    int pid = fork();
    if (pid == 0) mapper(path, two, ready[1], go[0]);
    char c;
    if (pid < 0 || read(ready[0], &c, 1) != 1) return -1;
    int peak = freepages();
    write(go[1], "g", 1);
    long readings = read_until_exit(pid, peak, fell, low);
    close(ready[0]);
    close(ready[1]);
    close(go[0]);
    close(go[1]);
    return readings;
}

/* The file removed by a child while we read: its idle frames go from the
 * cache to the free list, both counted free. */
static long drop_round(const char* path, int* fell, long* low) {
    int pid = fork();
    if (pid == 0) {
        unlink(path);
        exit(0);
    }
    if (pid < 0) return -1;
    return read_until_exit(pid, freepages(), fell, low);
}

/* The file written anew: its pages leave the page cache. */
static void write_file(const char* path) {
    static char page[PGSIZE];
    int fd = open(path, O_CREATE | O_RDWR | O_TRUNC);
    for (int i = 0; i < FC_PAGES; i++) {
        memset(page, 'a' + i % 26, sizeof page);
        write(fd, page, sizeof page);
    }
    close(fd);
}

/* The caches made small: a promise of nearly every free page makes the
 * page cache and the buffer cache give their pages back (kalloc asks its
 * lenders), and the promise goes again. */
static void squeeze(void) {
    int n = freepages() - 64;
    if (n > 0 && sbrk(n * PGSIZE) != (char*)-1) sbrk(-n * PGSIZE);
}

void t_filecount(void) {
    write_file("hc.file");
    squeeze(); /* round 0 reads the file in while the buffer cache grows */
    int fell = 0;
    long low = 0, readings = 0;
    for (int r = 0; r < FC_ROUNDS; r++) {
        if (r % 4 == 3) write_file("hc.file"); /* two threads read each page in: one waits for the other's read */
        long n = file_round("hc.file", r % 2, &fell, &low);
        if (n < 0) return fail("filecount", "setup failed in round", r);
        readings += n;
    }
    long mapped_low = low;
    long n = drop_round("hc.file", &fell, &low);
    if (n < 0) return fail("filecount", "fork", -1);
    readings += n;
    printf("hostile: filecount %ld readings, %ld below an earlier one (%ld while mapping, %ld while removing)\n",
           readings, low, mapped_low, low - mapped_low);
    if (fell != 0) return fail("filecount", "a free-page reading fell below an earlier one by", fell);
    pass("filecount", "free-page readings while a file's cached pages were mapped, then removed: none fell");
}
