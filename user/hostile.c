/* hostile - what a hostile user program tries, run in the guest.
 *
 *   hostile TEST...     tests: elf oom oomhuge oomuser oomrace admitrace traceuser
 *                       conskill consshare forkuser sbrkkill sbrkshared sbrkrace
 *                       rmcwd dirrace inoreuse console
 *                       conswrite pipeatomic badsys renice protlink bigdir
 *                       (the foreground ones), forkbomb, memhog, inodehog
 *                       and filehog (run in the background by
 *                       tests/guest/hostile.py), orphans and orphanroot (the
 *                       same, then the machine stops), and the thread
 *                       attacks, mappings and signals (below)
 *
 * Design: each test attacks the kernel through ordinary system calls the way
 * one of the bugs of the hardening pass was found, checks that the attack
 * ends in -1 or a killed process, and prints `PASS name (detail)` or
 * `FAIL name: why`. The host side (tests/guest/hostile.py) adds what the
 * guest cannot see: no panic, the shell still answers, and fsck of the disk
 * image is clean afterwards.
 *
 * Tests, by theme (each file says what its tests do):
 *   user/hostile_proc.c  elf traceuser forkuser badsys renice forkbomb
 *   user/hostile_mem.c   oom oomhuge oomuser oomrace admitrace sbrkkill
 *                        sbrkshared sbrkrace memhog
 *   user/hostile_io.c    conskill consshare conswrite pipeatomic console
 *   user/hostile_fs.c    rmcwd dirrace inoreuse protlink bigdir orphans
 *                        orphanroot inodehog filehog
 *   user/hostile_threads.c tbomb tfutex texitrace texecrace tkill tjoin tstack
 *   user/hostile_vm.c    mmapgarbage mprotrace mmapoom copyrace cowbomb
 *                        touchall mmaptrunc lockorder
 *   user/hostile_count.c cowcount filecount
 *   user/hostile_sig.c   sigforge sigstorm sigstoplock sigstoppipe
 *                        sigkillstopped sigperm
 * This file holds what they share (the result lines, the reapers, the
 * page readings, the student's identity) and the table of tests.
 * No argument or -h prints the usage line with the list of tests (exit 2,
 * or 0 for -h); an unknown test is reported as `hostile: no test NAME`.
 */
#include "user/hostile.h"

#include "user/user.h"

static int failures;

void pass(const char* name, const char* detail) { printf("PASS %s (%s)\n", name, detail); }
void fail(const char* name, const char* why, long v) {
    printf("FAIL %s: %s (%ld)\n", name, why, v);
    failures++;
}

/* Exit status of child pid, -1 when it was killed; other children reaped
 * meanwhile are dropped, and -100 means pid was one of them (or no child). */
int reap(int pid) {
    int status = 0;
    for (;;) {
        int w = wait(&status);
        if (w == pid) return status;
        if (w < 0) return -100;
    }
}

void pages_snap(struct pagesnap* s) {
    struct vmstat st;
    struct procinfo pi;
    s->free = freepages();
    s->cached = s->idle = 0;
    if (vmstat(&st) == 0) {
        s->cached = st.cached;
        s->idle = st.cache_idle;
    }
    s->n = 0;
    for (int i = 0; procinfo(i, &pi) >= 0 && s->n < 64; i++) {
        if (pi.state == 0) continue;
        s->tid[s->n] = pi.tid;
        s->ppid[s->n] = pi.ppid;
        s->state[s->n] = pi.state;
        s->n++;
    }
}

static void print_snap(const char* when, const struct pagesnap* s) {
    printf("  %s: free %d cached %lu idle %lu threads", when, s->free, s->cached, s->idle);
    for (int i = 0; i < s->n; i++) printf(" %d/%d/%d", s->tid[i], s->ppid[i], s->state[i]);
    printf("\n");
}

int pages_diff(const char* name, const struct pagesnap* before) {
    static struct pagesnap after; /* (off the stack: a reading must not grow it) */
    pages_snap(&after);
    if (after.free == before->free) return 0;
    printf("%s: free pages %d then %d (tid/ppid/state)\n", name, before->free, after.free);
    print_snap("before", before);
    print_snap("after", &after);
    return before->free - after.free;
}

volatile int image_marker = 12345;

/* Become the student of /etc/passwd (the group first: after setuid a
 * non-root process could no longer change it). */
int become_student(void) { return setgid(kStudentId) == 0 && setuid(kStudentId) == 0 ? 0 : -1; }

static struct { int pid, status; } kept[16];
static int nkept;

/* Exit status of child pid, keeping the statuses of others reaped meanwhile. */
int reap_kept(int pid) {
    for (;;) {
        for (int i = 0; i < nkept; i++)
            if (kept[i].pid == pid) {
                kept[i].pid = 0;
                return kept[i].status;
            }
        int status = 0;
        int w = wait(&status);
        if (w < 0) return -100;
        if (w == pid) return status;
        if (nkept < 16) {
            kept[nkept].pid = w;
            kept[nkept++].status = status;
        }
    }
}

struct test {
    const char* name;
    void (*fn)(void);
};
static struct test tests[] = {
    {"elf", t_elf},
    {"oom", t_oom},
    {"oomhuge", t_oomhuge},
    {"oomuser", t_oomuser},
    {"oomrace", t_oomrace},
    {"admitrace", t_admitrace},
    {"traceuser", t_traceuser},
    {"conskill", t_conskill},
    {"consshare", t_consshare},
    {"forkuser", t_forkuser},
    {"sbrkkill", t_sbrkkill},
    {"sbrkshared", t_sbrkshared},
    {"sbrkrace", t_sbrkrace},
    {"rmcwd", t_rmcwd},
    {"dirrace", t_dirrace},
    {"inoreuse", t_inoreuse},
    {"console", t_console},
    {"conswrite", t_conswrite},
    {"pipeatomic", t_pipeatomic},
    {"badsys", t_badsys},
    {"renice", t_renice},
    {"forkbomb", t_forkbomb},
    {"memhog", t_memhog},
    {"orphans", t_orphans},
    {"orphanroot", t_orphanroot},
    {"inodehog", t_inodehog},
    {"filehog", t_filehog},
    {"bigdir", t_bigdir},
    {"protlink", t_protlink},
    /* threads and futexes (user/hostile_threads.c) */
    {"tbomb", t_tbomb},
    {"tfutex", t_tfutex},
    {"texitrace", t_texitrace},
    {"texecrace", t_texecrace},
    {"tkill", t_tkill},
    {"tjoin", t_tjoin},
    {"tstack", t_tstack},
    /* memory mappings (user/hostile_vm.c) */
    {"mmapgarbage", t_mmapgarbage},
    {"mprotrace", t_mprotrace},
    {"mmapoom", t_mmapoom},
    {"copyrace", t_copyrace},
    {"cowbomb", t_cowbomb},
    {"cowcount", t_cowcount},
    {"filecount", t_filecount},
    {"touchall", t_touchall},
    {"mmaptrunc", t_mmaptrunc},
    {"lockorder", t_lockorder},
    /* signals (user/hostile_sig.c) */
    {"sigforge", t_sigforge},
    {"sigstorm", t_sigstorm},
    {"sigstoplock", t_sigstoplock},
    {"sigstoppipe", t_sigstoppipe},
    {"sigkillstopped", t_sigkillstopped},
    {"sigperm", t_sigperm},
};

int main(int argc, char* argv[]) {
    int ntests = sizeof tests / sizeof tests[0];
    if (argc < 2 || strcmp(argv[1], "-h") == 0) {
        char line[800] = "hostile TEST...  (tests:";
        for (int i = 0; i < ntests; i++) {
            int n = strlen(line);
            line[n] = ' ';
            strcpy(line + n + 1, tests[i].name);
        }
        strcpy(line + strlen(line), ")");
        usage_exit(line, argc < 2 ? 2 : 0);
    }
    for (int a = 1; a < argc; a++) {
        int found = 0;
        for (int i = 0; i < ntests; i++) {
            if (strcmp(argv[a], tests[i].name) == 0) {
                tests[i].fn();
                found = 1;
            }
        }
        if (!found) {
            fprintf(2, "hostile: no test %s\n", argv[a]);
            exit(2);
        }
    }
    printf("hostile: done, %d failed\n", failures);
    exit(failures ? 1 : 0);
}
