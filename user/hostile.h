/* user/hostile.h - what the parts of user/hostile share: the result lines
 * and the reaper (user/hostile.c), the file-system tests
 * (user/hostile_fs.c), the thread attacks (user/hostile_threads.c) and the
 * mapping attacks (user/hostile_vm.c) and the signal attacks
 * (user/hostile_sig.c). */
#ifndef QUANTA_HOSTILE_H
#define QUANTA_HOSTILE_H

void pass(const char* name, const char* detail);      /* PASS name (detail) */
void fail(const char* name, const char* why, long v); /* counts a failure */
/* Exit status of child pid, -1 when it was killed; -100 when not a child. */
int reap(int pid);

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

/* the file system (user/hostile_fs.c) */
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
