/* user/hostile.h - what the parts of hostile share.
 *
 * hostile.c has the driver, its helpers and the process, memory, console
 * and system-call tests; hostile_fs.c has the file-system tests.
 */
#ifndef QUANTA_HOSTILE_H
#define QUANTA_HOSTILE_H

void pass(const char* name, const char* detail);
void fail(const char* name, const char* why, long v); /* counts a failure */
/* Exit status of child pid, -1 when it was killed; -100 if not reaped. */
int reap(int pid);

void t_orphans(void);
void t_orphanroot(void);
void t_inodehog(void);
void t_filehog(void);
void t_protlink(void);
void t_bigdir(void);

#endif
