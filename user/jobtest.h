/* user/jobtest.h - what the parts of jobtest share: the handler that
 * counts (got, got_sig) and setting an action (user/jobtest.c), and the
 * stop, continue and orphan tests (user/jobtest_stop.c). */
#ifndef QUANTA_JOBTEST_H
#define QUANTA_JOBTEST_H

extern volatile int got;     /* handler runs */
extern volatile int got_sig; /* the last one's signal */
void on_sig(int s);
void set_action(int s, unsigned long h); /* FAILs if sigact does */

/* user/jobtest_stop.c */
void stop_mid_pipe_write(void);
void stopped_sleep_resumes(void);
void orphaned_group_not_stopped(void);
void orphan_stop_race(void);
void stop_cont_no_eintr(void);
void stopped_sigsuspend(void);

#endif
