/* user/sigtest.h - what the parts of sigtest share: the handler that
 * counts (got, got_sig), setting an action, waiting for a child
 * (user/sigtest.c), and the blocking-call tests (user/sigtest_block.c). */
#ifndef QUANTA_SIGTEST_H
#define QUANTA_SIGTEST_H

extern volatile int got;     /* handler runs */
extern volatile int got_sig; /* the last one's signal */
void on_sig(int s);
void set_handler(int s, void (*h)(int), unsigned long flags); /* FAILs if sigact does */
int wait_status(int pid);                                     /* xv6's wait: pid's status */

/* user/sigtest_block.c */
void pipe_write_eintr(void);
void pipe_write_restart(void);
void eintr_wait(void);
void restart_wait(void);
void eintr_sleep(void);
void restart_sleep(void);
void eintr_futex(void);
void restart_futex(void);
void timed_futex_not_restarted(void);
void eintr_poll(void);
void poll_not_restarted(void);
void eintr_fifo_open(void);
void restart_fifo_open(void);
void eintr_console_read(void);
void sibling_no_eintr(void);

#endif
