/* user/testkit.c - the driver the in-guest test programs share.
 *
 * usertests, threadtest, vmtest, mmaptest and ipctest each hold a table of
 * tests, every test a void function run in its own child process: a test
 * fails by printing its own FAIL line and exiting kFailStatus (CHECK and
 * FAIL in user/usertests.h), or by any other exit status; it passes by
 * returning. test_run_all() also requires every free page back after each
 * test (freepages before and after the child: a leak in the kernel shows
 * up as the test that caused it). Selection is by name prefix, as xv6's
 * usertests does: `vmtest cow` runs every test whose name starts "cow".
 */
#include "user/user.h"
#include "user/usertests.h"

/* Run fn in a child; return its exit status. */
int child_status(void (*fn)(void)) {
    int pid = fork();
    CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        fn();
        exit(0);
    }
    int st = -12345;
    CHECK(wait(&st) == pid, "wait did not return the child");
    return st;
}

/* Whether name starts with one of argv[first..argc-1] (all when none). */
int test_selected(const char* name, int argc, char** argv, int first) {
    if (first >= argc) return 1;
    for (int i = first; i < argc; i++) {
        int n = strlen(argv[i]);
        if (n <= (int)strlen(name) && memcmp(argv[i], name, n) == 0) return 1;
    }
    return 0;
}

/* Run t in a child, then cleanup (if any); PASS needs status 0 and every
 * page back. */
static int run_one(const struct utest* t, void (*cleanup)(void)) {
    cur = t->name;
    int before = freepages();
    int st = child_status(t->fn);
    if (cleanup) cleanup();
    int after = freepages();
    if (st == kFailStatus) return 0;
    if (st != 0) {
        printf("FAIL %s: exit status %d\n", t->name, st);
        return 0;
    }
    if (after != before) {
        printf("FAIL %s: %d pages not back after the test\n", t->name, before - after);
        return 0;
    }
    printf("PASS %s\n", t->name);
    return 1;
}

int test_run_all(const struct test_suite* s, int argc, char** argv, int first) {
    if (s->warmup) child_status(s->warmup); /* first-use allocations (buffer cache) */
    int passed = 0, failed = 0;
    for (int i = 0; i < s->count; i++) {
        if (!test_selected(s->tests[i].name, argc, argv, first)) continue;
        if (run_one(&s->tests[i], s->cleanup)) passed++;
        else failed++;
    }
    printf("%s: %d passed, %d failed\n", s->name, passed, failed);
    return failed;
}
