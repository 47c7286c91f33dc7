/* user/usertests.h - what the parts of usertests share, and the test
 * driver (user/testkit.c) the other in-guest test programs use too.
 *
 * usertests.c has the driver, the helpers, and the memory, isolation,
 * pipe and process tests; usertests_fs.c has the file-system tests. Every
 * test is a void function run in its own child process (see usertests.c).
 */
#ifndef QUANTA_USERTESTS_H
#define QUANTA_USERTESTS_H

extern const char* cur;    /* name of the running test, for FAIL */
enum { kFailStatus = 99 }; /* a test that printed its own FAIL line */

#define FAIL(...)                         \
    do {                                  \
        printf("FAIL %s: ", cur);         \
        printf(__VA_ARGS__);              \
        printf(" (line %d)\n", __LINE__); \
        exit(kFailStatus);                \
    } while (0)
#define CHECK(cond, ...)                \
    do {                                \
        if (!(cond)) FAIL(__VA_ARGS__); \
    } while (0)

extern char buf[8192];
extern volatile unsigned long g_addr;
extern const unsigned long bad_ptrs[7];
#define NBAD (int)(sizeof(bad_ptrs) / sizeof(bad_ptrs[0]))

/* user/testkit.c: the driver usertests, threadtest, vmtest, mmaptest and
 * ipctest share. */
struct utest {
    const char* name;
    void (*fn)(void);
};
struct test_suite {
    const char* name;          /* program name, for the summary line */
    const struct utest* tests; /* run in table order */
    int count;
    void (*warmup)(void);  /* run once first, not counted (or 0) */
    void (*cleanup)(void); /* run after each test's child (or 0) */
};
int child_status(void (*fn)(void));
int test_selected(const char* name, int argc, char** argv, int first);
/* Runs the selected tests and prints "NAME: P passed, F failed"; returns F. */
int test_run_all(const struct test_suite* s, int argc, char** argv, int first);
int make_file(const char* name, int n);
int file_size(const char* name);
void expect_killed(void (*fn)(void), unsigned long addr, const char* what);

/* usertests_fs.c */
void t_file_rw(void);
void t_bad_fds(void);
void t_truncate(void);
void t_offsets(void);
void t_max_file(void);
void t_short_write(void);
void t_nested_dirs(void);
void t_unlink_open(void);
void t_names(void);
void t_dirs(void);
void t_links(void);
void t_mknod(void);
void t_concurrent_dir(void);
void t_fd_limit(void);
void t_disk_full(void);
void t_inodes_full(void);

#endif
