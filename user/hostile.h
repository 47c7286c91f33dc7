/* user/hostile.h - what the parts of user/hostile share: the result lines
 * and the reaper (user/hostile.c), and the thread attacks
 * (user/hostile_threads.c). */
#ifndef QUANTA_HOSTILE_H
#define QUANTA_HOSTILE_H

void pass(const char* name, const char* detail); /* PASS name (detail) */
void fail(const char* name, const char* why, long v);
/* Exit status of child pid, -1 when it was killed; -100 when not a child. */
int reap(int pid);

void t_tbomb(void);
void t_tfutex(void);
void t_texitrace(void);
void t_texecrace(void);
void t_tkill(void);
void t_tjoin(void);
void t_tstack(void);

#endif
