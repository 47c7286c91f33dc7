/* user/hostile.h - what the parts of user/hostile share: the result lines,
 * the reapers, the page readings and the student's identity
 * (user/hostile.c, which also holds the table of tests), and each themed
 * file's tests (user/hostile.c's opening comment lists them). */
#ifndef QUANTA_HOSTILE_H
#define QUANTA_HOSTILE_H

void pass(const char* name, const char* detail);      /* PASS name (detail) */
void fail(const char* name, const char* why, long v); /* counts a failure */
/* Exit status of child pid, -1 when it was killed; -100 when not a child. */
int reap(int pid);
/* Exit status of child pid, keeping the statuses of others reaped
 * meanwhile for a later call; -100 when there is no such child. */
int reap_kept(int pid);

/* /etc/passwd's student; become_student sets its gid, then its uid (0 or -1). */
enum { kStudentId = 1000 };
int become_student(void);
/* 12345 while the program's image is intact (a failed exec must keep it). */
extern volatile int image_marker;

/* A free-page reading (freepages()) with what may explain a change: the
 * page cache's frames and idle frames, and every thread alive. */
struct pagesnap {
    int free;
    unsigned long cached, idle;
    int n;
    int tid[64], ppid[64], state[64];
};
void pages_snap(struct pagesnap* s);
/* before.free - freepages() now; on a difference prints both readings. */
int pages_diff(const char* name, const struct pagesnap* before);

/* processes and entry points (user/hostile_proc.c) */
void t_elf(void);
void t_traceuser(void);
void t_forkuser(void);
void t_badsys(void);
void t_renice(void);
void t_forkbomb(void);

/* memory (user/hostile_mem.c) */
void t_oom(void);
void t_oomhuge(void);
void t_oomuser(void);
void t_oomrace(void);
void t_admitrace(void);
void t_sbrkkill(void);
void t_sbrkshared(void);
void t_sbrkrace(void);
void t_memhog(void);

/* the console and pipes (user/hostile_io.c) */
void t_conskill(void);
void t_consshare(void);
void t_conswrite(void);
void t_pipeatomic(void);
void t_console(void);

/* the file system (user/hostile_fs.c) */
void t_rmcwd(void);
void t_dirrace(void);
void t_inoreuse(void);
void t_orphans(void);
void t_orphanroot(void);
void t_inodehog(void);
void t_filehog(void);
void t_protlink(void);
void t_bigdir(void);

/* threads and futexes (user/hostile_threads.c) */
void t_tbomb(void);
void t_tfutex(void);
void t_texitrace(void);
void t_texecrace(void);
void t_tkill(void);
void t_tjoin(void);
void t_tstack(void);

/* memory mappings (user/hostile_vm.c) */
void t_mmapgarbage(void);
void t_mprotrace(void);
void t_mmapoom(void);
void t_copyrace(void);
void t_cowbomb(void);
void t_cowcount(void); /* user/hostile_count.c */
void t_filecount(void);
void t_touchall(void);
void t_mmaptrunc(void);
void t_lockorder(void);

/* signals (user/hostile_sig.c) */
void t_sigforge(void);
void t_sigstorm(void);
void t_sigstoplock(void);
void t_sigstoppipe(void);
void t_sigkillstopped(void);
void t_sigperm(void);

#endif
