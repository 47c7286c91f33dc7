/* user/fuzz_call.c - one random system call (part of user/fuzz).
 *
 * one_call picks a number 1..SYS_MAX (skipping SKIPMASK's), and 1% of the
 * time an out-of-range one (the kernel logs each), then arguments chosen
 * for that number from user/fuzz_args.c's makers; a few numbers hand over
 * to a part of their own (signals in user/fuzz_sig.c, tcreate and futex in
 * user/fuzz_thread.c, poll here, half the mapping calls to the mapping
 * shape). About 2% of the steps are instead a shape (user/fuzz_shape.c);
 * shapes are off when a SKIPMASK is given, so a narrowed-down replay
 * issues plain calls only. Calls that would end the run are rewritten:
 * exit and halt become getpid, texit of the first thread gettid, a kill of
 * another process a kill of nobody; sbrk shrinks the heap back past 4 MiB.
 * Users and protection: setuid/setgid get root, student, other and junk
 * ids, so a worker (root at birth) often drops to an ordinary user for the
 * rest of its batch and then meets the permission checks; chmod and chown
 * get random paths with plausible and junk modes and ids (-1 included),
 * xstat/fxstat hostile paths, descriptors and pointers.
 * IPC (docs/ipc.md): mkfifo on random paths with plausible and junk modes
 * (so opens meet FIFOs, and may block until the supervisor's kill); poll
 * over scratch arrays of any descriptors, bad array pointers, junk counts,
 * short timeouts and, now and then, an endless one.
 * With `t` every plain call is traced on descriptor 2 before it is made.
 */
#include "user/fuzz.h"
#include "user/user.h"

/* poll over up to 8 entries in scratch naming any descriptors (closed,
 * negative, out of range), with junk events; or a bad array pointer, or a
 * junk count (negative, past 64, huge). The timeout is usually short; now
 * and then -1, a poll nobody ends: the supervisor's kill must end it. */
static void fuzz_poll(void) {
    struct pollfd* fds = (struct pollfd*)(scratch + below(SCRATCH / 2) / 8 * 8);
    long n = (long)below(9);
    for (long i = 0; i < n; i++) {
        fds[i].fd = (int)fd_any();
        fds[i].events = (short)(chance(80) ? (long)below(8) : (long)rnd());
        fds[i].revents = (short)rnd();
    }
    long addr = chance(75) ? (long)fds : bad_ptr();
    if (chance(10)) n = chance(50) ? -(long)below(3) - 1 : chance(50) ? 65 : (long)rnd();
    long timeout = chance(50) ? 0 : chance(90) ? (long)below(30) : chance(50) ? -1 : (long)rnd();
    sc(SYS_poll, addr, n, timeout, 0, 0, 0);
}

/* Issue one random system call. */
void one_call(void) {
    if (skipmask == 0 && chance(2)) {
        one_shape();
        return;
    }
    long num = 1 + (long)below(SYS_MAX);
    /* skipmask names calls 0-63 */
    while (num < 64 && (skipmask >> num & 1)) num = 1 + (long)below(SYS_MAX);
    if (chance(1)) num = chance(50) ? 30 + (long)below(100) : (long)rnd(); /* unknown numbers */
    long a0 = (long)rnd(), a1 = (long)rnd(), a2 = (long)rnd();
    switch (num) {
        case SYS_fork: {
            long pid = sc(SYS_fork, 0, 0, 0, 0, 0, 0);
            if (pid == 0) {
                if (chance(30)) sleep(1);
                exit((int)below(256));
            }
            if (pid > 0 && nkids < 16) kids[nkids++] = (int)pid;
            return;
        }
        case SYS_exit:
        case SYS_halt:
            num = SYS_getpid; /* never: the run must go on */
            break;
        case SYS_wait: {
            if (nkids == 0) a0 = chance(50) ? 0 : bad_ptr();
            else a0 = chance(70) ? (long)scratch : bad_ptr();
            if (nkids == 0 && chance(90)) return; /* would only return -1 anyway */
            long pid = sc(SYS_wait, a0, 0, 0, 0, 0, 0);
            for (int i = 0; i < nkids; i++)
                if (kids[i] == pid) kids[i] = kids[--nkids];
            return;
        }
        case SYS_pipe:
            a0 = ptr_any();
            break;
        case SYS_read:
        case SYS_write:
            a0 = fd_any();
            a1 = ptr_any();
            a2 = len_any();
            if (num == SYS_write && chance(30)) fill_scratch();
            break;
        case SYS_kill: {
            long pid = pid_any();
            int ip = (int)pid, self = getpid();
            if (ip == self && !chance(10)) pid = -1;
            if (ip > 0 && ip != self) {
                int mine = 0;
                for (int i = 0; i < nkids; i++) mine |= kids[i] == ip;
                if (!mine) pid = -5; /* never another process: init, the shell, the fuzzer */
            }
            a0 = pid;
            break;
        }
        case SYS_sigsend: /* user/fuzz_sig.c */
            fuzz_sigsend();
            return;
        case SYS_sigact:
            fuzz_sigact();
            return;
        case SYS_sigsusp: /* a good mask waits for a signal nobody sends: only bad pointers */
            a0 = bad_ptr();
            break;
        case SYS_sigreturn:
            fuzz_sigreturn();
            return;
        case SYS_exec: {
            /* only names that are not programs, garbage or bad pointers */
            a0 = chance(50) ? bad_ptr() : path_any();
            a1 = chance(40) ? ptr_any() : bad_ptr();
            if (a1 >= (long)scratch && a1 < (long)(scratch + SCRATCH)) fill_scratch();
            break;
        }
        case SYS_fstat:
            a0 = fd_any();
            a1 = ptr_any();
            break;
        case SYS_chdir:
        case SYS_unlink:
        case SYS_mkdir:
            a0 = path_any();
            break;
        case SYS_dup:
        case SYS_close:
            a0 = fd_any();
            break;
        case SYS_getpid:
        case SYS_uptime:
        case SYS_uptime_ns:
        case SYS_freepages:
            break;
        case SYS_sbrk: {
            unsigned long brk = (unsigned long)sc(SYS_sbrk, 0, 0, 0, 0, 0, 0);
            if (brk > heap_base + HEAP_CAP) {
                a0 = -(long)(brk - heap_base);
            } else {
                switch (below(8)) {
                    case 0:
                        a0 = (long)below(1 << 16);
                        break;
                    case 1:
                        a0 = -(long)below(brk - heap_base + 1);
                        break;
                    case 2:
                        a0 = 0x7fffffff;
                        break; /* far too much */
                    case 3:
                        a0 = (long)(1UL << 36);
                        break; /* 64-bit huge */
                    case 4:
                        a0 = chance(5) ? -(long)brk - 4096 : 0;
                        break; /* below zero: rare */
                    case 5:
                        a0 = (long)below(PGSIZE * 300);
                        break;
                    case 6:
                        a0 = -0x7fffffffL;
                        break;
                    default:
                        a0 = 1;
                        break;
                }
                if (a0 < 0 && a0 < -(long)(brk - heap_base) && !chance(5)) a0 = -(long)(brk - heap_base);
            }
            break;
        }
        case SYS_sleep:
            a0 = chance(80) ? (long)below(2) : -(long)below(10) - 1;
            if (chance(1)) a0 = (long)rnd() | (1L << 63); /* negative 64-bit */
            break;
        case SYS_open:
            a0 = path_any();
            a1 = flags_any();
            break;
        case SYS_mknod:
            a0 = path_any();
            do a1 = chance(70) ? (long)below(12) : (long)rnd();
            while ((short)a1 == CONSOLE);
            a2 = (long)rnd();
            break;
        case SYS_link:
            a0 = path_any();
            a1 = path_any();
            break;
        case SYS_getpriority:
            a0 = pid_any();
            break;
        case SYS_setpriority:
            a0 = pid_any();
            if (a0 > 0 && a0 < 3) a0 = getpid(); /* leave init and the shell alone */
            a1 = chance(70) ? (long)below(60) - 30 : (long)rnd();
            break;
        case SYS_sched_get:
            a0 = ptr_any();
            a1 = len_any();
            break;
        case SYS_sched_set:
            a0 = chance(70) ? path_any() : bad_ptr();
            break;
        case SYS_procinfo:
            a0 = chance(70) ? (long)below(80) - 8 : (long)rnd();
            a1 = ptr_any();
            break;
        case SYS_setuid:
        case SYS_setgid:
            a0 = id_any();
            break;
        case SYS_chmod:
            a0 = path_any();
            a1 = chance(70) ? (long)below(02001) : chance(50) ? -1 : (long)rnd();
            break;
        case SYS_chown:
            a0 = path_any();
            a1 = id_any();
            a2 = id_any();
            break;
        case SYS_xstat:
            a0 = chance(80) ? path_any() : bad_ptr();
            a1 = ptr_any();
            break;
        case SYS_fxstat:
            a0 = fd_any();
            a1 = ptr_any();
            break;
        case SYS_getrlimit:
        case SYS_setrlimit:
            a0 = chance(80) ? 6 : (long)rnd(); /* RLIMIT_NPROC, or junk */
            a1 = ptr_any();
            if (num == SYS_setrlimit && a1 >= (long)scratch && a1 < (long)(scratch + SCRATCH) && chance(50)) {
                unsigned long* r = (unsigned long*)((unsigned long)a1 & ~7UL);
                r[0] = below(300); /* a plausible limit: fork bombs meet it */
                r[1] = chance(50) ? r[0] : ~0UL;
                a1 = (long)r;
            }
            break;
        case SYS_tcreate:
            fuzz_tcreate();
            return;
        case SYS_futex:
            fuzz_futex();
            return;
        case SYS_mkfifo: /* FIFOs on random paths: a later open of one may block until the supervisor's kill */
            a0 = path_any();
            a1 = chance(70) ? (long)below(02001) : (long)rnd();
            break;
        case SYS_poll:
            fuzz_poll();
            return;
        case SYS_mmap:
        case SYS_munmap:
        case SYS_mprotect:
        case SYS_msync:
            if (chance(50)) {
                shape_mappings(); /* plausible arguments; otherwise random ones below */
                return;
            }
            break;
        case SYS_texit:
            if (gettid() == getpid()) num = SYS_gettid; /* the first thread never: the batch must go on */
            a0 = (long)below(256);
            break;
        case SYS_gettid:
        case SYS_getuid:
        case SYS_geteuid:
        case SYS_getgid:
        case SYS_getegid:
            break;
        default:
            break; /* unknown number: random arguments */
    }
    if (verbose > 1) {
        if ((num == SYS_read || num == SYS_write || num == SYS_close || num == SYS_dup || num == SYS_fstat) &&
            (int)a0 == 2)
            return;
        fprintf(2, "[%d] %d(%p, %p, %p)\n", getpid(), (int)num, (void*)a0, (void*)a1, (void*)a2);
    }
    sc(num, a0, a1, a2, (long)rnd(), (long)rnd(), (long)rnd());
}
