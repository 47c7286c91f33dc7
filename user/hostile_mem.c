/* user/hostile_mem.c - hostile's memory attacks (part of user/hostile;
 * docs/memory.md): exhaustion, impossible requests, whom the
 * out-of-memory rule may kill, admission races and killable growth.
 *
 *   oom      exec a program with a 1 MiB bss while another process leaves
 *            under 64 pages free: -1, nothing leaked;
 *   oomhuge  as the student, with root holding 20 MiB: impossible execs
 *            and sbrks fail with -1 and kill nobody;
 *   oomuser  whom the out-of-memory rule may kill for a student and for
 *            root (docs/memory.md);
 *   oomrace  refused student requests beside root's forks: no fork fails;
 *   admitrace two students asking at once for 60% of memory each (sbrk),
 *            or forking with 30% each: never both granted;
 *   sbrkkill refused sbrks take no time; a process growing and shrinking
 *            its memory again and again dies when killed;
 *   sbrkshared the same with a second thread (a shared page table): every
 *            page comes back;
 *   memhog   take every page, then keep grabbing single pages for 30 s
 *            (in the background: the host expects the out-of-memory kill).
 * Children of the oom cases are started and ended through one pipe pair
 * each (kid_start, kid_end); statuses come through hostile.c's reap_kept.
 */
#include "user/hostile.h"
#include "user/user.h"

/* ---- oom ------------------------------------------------------------ */

/* Grow until at most `keep` pages are free (or sbrk fails). */
static void eat_memory(int keep) {
    while (freepages() > keep + 300)
        if (sbrk(1 << 20) == (char*)-1) break;
    while (freepages() > keep)
        if (sbrk(4096) == (char*)-1) break;
}

void t_oom(void) {
    int before = freepages();
    int go[2], ready[2];
    if (pipe(go) < 0 || pipe(ready) < 0) return fail("oom", "pipe failed", -1);
    int execer = fork();
    if (execer == 0) {
        char c;
        read(go[0], &c, 1);
        char* argv[] = {"bigbss", 0};
        exec("/bigbss", argv);
        exit(image_marker == 12345 ? 0 : 3); /* exec returned -1: good */
    }
    int hog = fork();
    if (hog == 0) {
        eat_memory(64);
        write(ready[1], "r", 1);
        sleep(200); /* until killed (by the oom rule or by us) */
        exit(0);
    }
    char c;
    read(ready[0], &c, 1);
    int low = freepages();
    write(go[1], "g", 1);
    int st = reap(execer);
    kill(hog);
    reap(hog);
    close(go[0]);
    close(go[1]);
    close(ready[0]);
    close(ready[1]);
    int after = freepages();
    if (low > 64) return fail("oom", "could not bring free pages down to 64", low);
    if (st != 0) return fail("oom", "exec of a 1 MiB bss with 64 pages free did not return -1 cleanly", st);
    if (after != before) return fail("oom", "free pages changed", after - before);
    /* With memory back, the same program runs. */
    int pid = fork();
    if (pid == 0) {
        char* argv[] = {"bigbss", 0};
        exec("/bigbss", argv);
        exit(9);
    }
    st = reap(pid);
    if (st != 0) return fail("oom", "bigbss does not run with memory free", st);
    pass("oom", "exec -1 at 64 free pages, runs afterwards");
}

/* Children of the oom tests: a holder of n pages, a hog that leaves n
 * pages free, an exec of /bigbss (256 pages) or of /be_hugemem (252 GiB),
 * and a forker. Each says it is ready on one pipe and waits for "go" on
 * the other; holders and hogs then exit 42, so a status of -1 means the
 * out-of-memory rule (or somebody) killed them. */
enum { kHold, kHog, kExecBig };
struct kid {
    int pid, to, from;
};

static void kid_body(int student, int what, int n, int to, int from) {
    if (student && become_student() < 0) exit(100);
    if (what == kHold)
        for (int i = 0; i < n; i += 256)
            if (sbrk(256 * 4096) == (char*)-1) exit(101);
    if (what == kHog) eat_memory(n);
    char c = 'r';
    write(from, &c, 1);
    read(to, &c, 1);
    if (what != kExecBig) exit(42);
    char* argv[] = {"bigbss", 0};
    exec("/bigbss", argv);
    exit(image_marker == 12345 ? 0 : 3); /* exec returned -1: good */
}

/* Start a kid and wait until it is ready; 0, or -1 if it could not start. */
static int kid_start(struct kid* k, int student, int what, int n) {
    int a[2], b[2];
    if (pipe(a) < 0) return -1;
    if (pipe(b) < 0) {
        close(a[0]);
        close(a[1]);
        return -1;
    }
    k->pid = fork();
    if (k->pid == 0) {
        close(a[1]);
        close(b[0]);
        kid_body(student, what, n, a[0], b[1]);
    }
    close(a[0]);
    close(b[1]);
    k->to = a[1];
    k->from = b[0];
    char c;
    if (k->pid < 0 || read(k->from, &c, 1) != 1) return -1;
    return 0;
}

/* Tell the kid to go on; its exit status (42: a holder that survived). */
static int kid_end(struct kid* k) {
    write(k->to, "g", 1); /* -1 if it is dead already: no reader */
    int st = reap_kept(k->pid);
    close(k->to);
    close(k->from);
    return st;
}

/* As the student, with root holding 20 MiB: an exec of a 252 GiB image,
 * sbrk(2^31 - 1) and sbrk of 64 pages more than are free all fail with
 * -1 and kill nobody (before the fix the exec killed root's holder). */
void t_oomhuge(void) {
    struct kid root;
    if (kid_start(&root, 0, kHold, 5120) < 0) return fail("oomhuge", "root holder did not start", -1);
    int before = freepages();
    int pid = fork();
    if (pid == 0) {
        if (become_student() < 0) exit(100);
        int bad = 0;
        for (int i = 0; i < 10; i++) {
            char* argv[] = {"be_hugemem", 0};
            if (exec("/be_hugemem", argv) != -1) bad |= 1;
            if (sbrk(0x7fffffff) != (char*)-1) bad |= 2;
            if (sbrk((freepages() + 64) * 4096) != (char*)-1) bad |= 4;
        }
        exit(bad);
    }
    int st = reap_kept(pid);
    int after = freepages();
    int rs = kid_end(&root);
    if (st != 0) return fail("oomhuge", "impossible requests not refused (bit mask; 100 = setup)", st);
    if (rs != 42) return fail("oomhuge", "the student's impossible requests killed root's holder", rs);
    if (after < before - 4) return fail("oomhuge", "pages lost", before - after);
    pass("oomhuge", "252 GiB exec, 2 GiB sbrk, free+64 pages sbrk: -1, nobody killed");
}

/* Who the rule may kill when memory is really exhausted (a hog leaves 64
 * pages free and somebody's exec of /bigbss fails):
 *   A: root's hog, a student's exec: nobody (not another user's process);
 *   B: a student's hog and root's 20 MiB holder, a student's exec: the
 *      student's own hog, not root's holder;
 *   C: a student's hog, root's exec: the hog (root can always get memory
 *      back). Every exec returns -1 and no page is lost. */
static int oom_case(int hog_student, int asker_student, int with_holder, int* hog_st, int* holder_st) {
    struct kid holder, asker, hog;
    *holder_st = 42;
    if (with_holder && kid_start(&holder, 0, kHold, 5120) < 0) return 200;
    if (kid_start(&asker, asker_student, kExecBig, 0) < 0) return 201;
    if (kid_start(&hog, hog_student, kHog, 64) < 0) return 202;
    int st = kid_end(&asker);
    *hog_st = kid_end(&hog);
    if (with_holder) *holder_st = kid_end(&holder);
    return st;
}

void t_oomuser(void) {
    int before = freepages();
    int hog, holder;
    int st = oom_case(0, 1, 0, &hog, &holder);
    if (st != 0) return fail("oomuser", "A: the student's exec did not return -1 cleanly (200+ = setup)", st);
    if (hog != 42) return fail("oomuser", "A: a student's failed exec killed root's hog", hog);
    st = oom_case(1, 1, 1, &hog, &holder);
    if (st != 0) return fail("oomuser", "B: the student's exec did not return -1 cleanly (200+ = setup)", st);
    if (holder != 42) return fail("oomuser", "B: a student's failed exec killed root's holder", holder);
    if (hog != -1) return fail("oomuser", "B: the student's own hog was not killed", hog);
    st = oom_case(1, 0, 0, &hog, &holder);
    if (st != 0) return fail("oomuser", "C: root's exec did not return -1 cleanly (200+ = setup)", st);
    if (hog != -1) return fail("oomuser", "C: root's failed exec did not kill the student's hog", hog);
    int after = freepages();
    if (after < before - 4) return fail("oomuser", "pages lost", before - after);
    pass("oomuser", "A: nobody killed, B: the student's own hog, C: root kills the student's hog");
}

/* While the student asks again and again for 16 MiB more than is free,
 * a root process of 8 MiB forks: every fork succeeds (a refused request
 * takes no page, so memory is never empty for a moment) and root's 20 MiB
 * holder survives. Before the fix sbrk took every free page and gave them
 * back, and a fork landing in between failed and killed the holder.
 * The student's margin of 4,096 pages covers what one of the forker's
 * children gives back between the student's two reads (its 2,087 promised
 * pages and tables), not the forker's own end as well: so the forker
 * outlives the student (it waits on `done` until the student is reaped).
 * When it ended at the same deadline, a student round that read
 * freepages() just before it and asked just after saw 4,209 pages come
 * free (the last child's and the forker's) and was rightly granted
 * (1 in 20 runs with the host loaded). The last round is stale on
 * purpose: it keeps the least count it reads for two ticks of the
 * forker's forks (one child alive) and asks only after the deadline,
 * once the forker has stopped forking; with the forker ending meanwhile
 * it was granted 6 times of 6. */
void t_oomrace(void) {
    struct kid root;
    int done[2];
    if (kid_start(&root, 0, kHold, 5120) < 0) return fail("oomrace", "root holder did not start", -1);
    if (pipe(done) < 0) return fail("oomrace", "pipe", -1);
    int stop = uptime() + 30; /* 3 s */
    int student = fork();
    if (student == 0) {
        close(done[0]);
        close(done[1]);
        if (become_student() < 0) exit(100);
        while (uptime() < stop) {
            /* 16 MiB more than free: more than a child of the forker gives back */
            int before = freepages();
            if (uptime() >= stop - 1) { /* the last round: stale on purpose */
                for (int t = uptime(); uptime() < t + 2;) {
                    int now = freepages(); /* the least seen: while a child of the forker lived */
                    if (now < before) before = now;
                }
                sleep(stop + 2 - uptime()); /* past the forker's last fork */
            }
            if (sbrk((before + 4096) * 4096) != (char*)-1) {
                /* say how: memory that came free between the two reads, or an admission bug */
                printf("oomrace: sbrk of %d pages granted with %d free before, %d after\n", before + 4096, before,
                       freepages());
                exit(1);
            }
            char* argv[] = {"be_hugemem", 0};
            exec("/be_hugemem", argv);
        }
        exit(0);
    }
    int forker = fork();
    if (forker == 0) {
        close(done[1]);
        if (sbrk(8 << 20) == (char*)-1) exit(100);
        int failed = 0;
        while (uptime() < stop) {
            int pid = fork();
            if (pid == 0) exit(0);
            if (pid < 0) failed++;
            else wait(0);
        }
        char c;
        read(done[0], &c, 1); /* 0 once the student is reaped */
        exit(failed > 99 ? 99 : failed);
    }
    close(done[0]);
    int ss = reap_kept(student);
    close(done[1]);
    int fs = reap_kept(forker);
    int rs = kid_end(&root);
    if (ss != 0 || fs != 0 || rs != 42) /* all three, for an intermittent failure's one sighting */
        printf("oomrace: student %d, root's failed forks %d, root's holder %d (42 = alive), %d pages free now\n", ss,
               fs, rs, freepages());
    if (ss != 0) return fail("oomrace", "the student's request was not refused (100 = setup)", ss);
    if (fs != 0) return fail("oomrace", "root's forks that failed (100 = setup)", fs);
    if (rs != 42) return fail("oomrace", "root's holder was killed", rs);
    pass("oomrace", "3 s of refused student requests beside root's forks: none failed, nobody killed");
}

/* One round of two students asking at the same moment: for 60% of the
 * free pages each with sbrk, or (forks) each holding a lazy heap of 30%
 * and then forking (each child is promised its 30% too). Returns how many
 * of the two requests were granted. A granted heap or child is held until
 * both have answered. */
static int admit_round(int forks) {
    int go[2], res[2], done[2];
    if (pipe(go) < 0 || pipe(res) < 0 || pipe(done) < 0) return -1;
    int want = freepages() * (forks ? 3 : 6) / 10;
    for (int k = 0; k < 2; k++) {
        if (fork() == 0) {
            close(go[1]);
            close(res[0]);
            close(done[1]);
            if (become_student() < 0) exit(100);
            char c = 'n';
            if (forks && sbrk(want * 4096) == (char*)-1) want = 0; /* then never 'y' */
            write(res[1], "r", 1);
            read(go[0], &c, 1);
            int pid = -1;
            if (!forks) c = sbrk(want * 4096) != (char*)-1 ? 'y' : 'n';
            else if (want > 0 && (pid = fork()) == 0) {
                read(done[0], &c, 1);
                exit(0);
            } else c = pid > 0 ? 'y' : 'n';
            write(res[1], &c, 1);
            read(done[0], &c, 1);
            if (pid > 0) wait(0);
            exit(0);
        }
    }
    close(go[0]);
    close(res[1]);
    close(done[0]);
    char c;
    for (int k = 0; k < 2; k++) read(res[0], &c, 1); /* ready */
    write(go[1], "gg", 2);
    int yes = 0;
    for (int k = 0; k < 2; k++)
        if (read(res[0], &c, 1) == 1 && c == 'y') yes++;
    close(done[1]);
    close(go[1]);
    close(res[0]);
    wait(0);
    wait(0);
    return yes;
}

/* At most one of two simultaneous requests for the same free pages is
 * granted. Before admission and promise were one step under kalloc's
 * lock, both could read the same free count (the first one's promise came
 * only after its lazy heap was laid out, or after fork had shared the
 * parent's pages) and both were granted: 120% of memory promised, a page
 * fault later finding none. 30 rounds of sbrks, 30 of forks. */
void t_admitrace(void) {
    int start = freepages();
    for (int forks = 0; forks < 2; forks++) {
        for (int round = 0; round < 30; round++) {
            int before = freepages();
            int yes = admit_round(forks);
            if (yes < 0) return fail("admitrace", "pipe", -1);
            if (yes == 2) {
                printf("admitrace: %s round %d: both granted with %d pages free before, %d now\n",
                       forks ? "fork" : "sbrk", round, before, freepages());
                return fail("admitrace",
                            forks ? "two forks were promised the same free pages"
                                  : "two sbrks were granted the same free pages",
                            round + 1);
            }
        }
    }
    int end = freepages();
    if (end != start) {
        printf("admitrace: %d pages free before, %d after\n", start, end);
        return fail("admitrace", "a refused request's promises were not given back exactly", end - start);
    }
    pass("admitrace", "30 rounds each of two students' sbrks of 60% of memory and forks of 30% at once: never both");
}

/* ---- memory requests are killable ---------------------------------- */

/* A refused request takes no page, so it takes no time: 100 sbrks of more
 * than RAM and 100 of 16 MiB more than is free finish within 20 ticks
 * (before the fix each one took every free page and gave them back: tens
 * of thousands of pages zeroed and junk-filled; the 200 took 731 ticks).
 * Then, as the student, a child asks for 32 MiB again and again (given
 * back each time) and for more than RAM: killed 0.3 s in, it is gone
 * within 10 s (a growth is mapped a MiB at a time and abandoned when its
 * process is killed; the bounds are loose so a loaded host passes). */
void t_sbrkkill(void) {
    int t0 = uptime();
    for (int i = 0; i < 100; i++) {
        if (sbrk(0x7fffffff) != (char*)-1) return fail("sbrkkill", "sbrk of 2 GiB succeeded", i);
        if (sbrk((freepages() + 4096) * 4096) != (char*)-1) return fail("sbrkkill", "sbrk past free memory", i);
    }
    int refused = uptime() - t0;
    printf("sbrkkill: 200 refused sbrks took %d ticks\n", refused);
    if (refused > 20) return fail("sbrkkill", "ticks for 200 refused sbrks", refused);
    int pid = fork();
    if (pid == 0) {
        if (become_student() < 0) exit(100);
        for (;;) {
            sbrk(0x7fffffff);
            if (sbrk(32 << 20) != (char*)-1) sbrk(-(32 << 20));
        }
    }
    if (pid < 0) return fail("sbrkkill", "fork", pid);
    sleep(3);
    t0 = uptime();
    kill(pid);
    int st = reap_kept(pid);
    int ticks = uptime() - t0;
    printf("sbrkkill: the child was gone %d ticks after its kill\n", ticks);
    if (st != -1) return fail("sbrkkill", "the child was not killed", st);
    if (ticks > 100) return fail("sbrkkill", "ticks from kill to exit of a process growing its memory", ticks);
    pass("sbrkkill", "refused sbrks take no time; a process growing its memory dies when killed");
}

static void spin_forever(void* arg) {
    (void)arg;
    for (;;) __asm__ volatile("" ::: "memory");
}

/* `rounds` students' children with two threads each: the second runs
 * `second`, the first `first`, until the parent kills the child after
 * base + round % spread ticks. Each must die of the kill, and every free
 * page must come back. Returns 0, or fails `name` and returns -1. */
static int killed_pairs(const char* name, int rounds, void (*first)(void), void (*second)(void*), int base,
                        int spread) {
    int before = freepages();
    for (int round = 0; round < rounds; round++) {
        int pid = fork();
        if (pid == 0) {
            if (become_student() < 0) exit(100);
            if (thread_create(second, 0) < 0) exit(101);
            first();
            exit(102);
        }
        if (pid < 0) {
            fail(name, "fork", pid);
            return -1;
        }
        sleep(base + round % spread);
        kill(pid);
        int st = reap_kept(pid);
        if (st != -1) {
            fail(name, "status of a killed two-thread process", st);
            return -1;
        }
    }
    int after = freepages();
    printf("%s: %d pages free before, %d after\n", name, before, after);
    if (after != before) {
        fail(name, "pages not back", before - after);
        return -1;
    }
    return 0;
}

/* sbrkkill with a second thread spinning, so the page table is shared: a
 * shrink keeps its pages mapped without PTE_U for the group to reuse
 * (kernel/mm/vm.h:uvm_revoke) and a growth killed between its MiBs leaves
 * its part so too (kernel/proc/oom.cc:oom_grow). Ten students' children
 * grow 32 MiB, touch it and give it back until killed, at 0.1 to 0.3 s:
 * each one dies, and every page comes back. */
static void grow_touch_shrink(void) {
    for (;;) {
        char* m = sbrk(32 << 20);
        if (m == (char*)-1) continue;
        for (int off = 0; off < (32 << 20); off += 4096) m[off] = 1;
        sbrk(-(32 << 20));
    }
}

void t_sbrkshared(void) {
    if (killed_pairs("sbrkshared", 10, grow_touch_shrink, spin_forever, 1, 3) == 0)
        pass("sbrkshared", "ten two-thread processes growing 32 MiB killed; every page back");
}

/* One thread's faults take their pages' promises from the process's count
 * under the page-table lock while another thread's sbrk shrink gives its
 * untouched pages' promises back. The shrink updated the count outside
 * that lock, so under true parallelism (QEMU without -icount) one update
 * could undo the other and the process gave back more promises at exit
 * than it held (the fuzzer, 4 harts: "panic: kalloc_unreserve: 2048 of
 * 1702 promised"). Six rounds of a student's child: a second thread maps 1
 * MiB, touches every page and unmaps it, over and over, while the first
 * grows the heap 2 MiB and shrinks it back untouched, over and over;
 * killed after 1-1.5 s. No panic, and every page comes back. */
static void touch_maps(void* arg) {
    (void)arg;
    for (;;) {
        char* m = mmap(0, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) continue;
        for (int off = 0; off < (1 << 20); off += 4096) m[off] = 1;
        munmap(m, 1 << 20);
    }
}

static void grow_shrink_untouched(void) {
    for (;;) {
        if (sbrk(2 << 20) != (char*)-1) sbrk(-(2 << 20));
    }
}

void t_sbrkrace(void) {
    if (killed_pairs("sbrkrace", 6, grow_shrink_untouched, touch_maps, 10, 6) == 0)
        pass("sbrkrace", "six processes faulting in one thread and shrinking the heap in another; every page back");
}

void t_memhog(void) {
    eat_memory(0);
    printf("memhog: full, %d pages free\n", freepages());
    int stop = uptime() + 300; /* 30 s, unless killed */
    while (uptime() < stop) sbrk(4096);
    printf("memhog: not killed\n");
}
