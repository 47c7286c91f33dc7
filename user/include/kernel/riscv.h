/* kernel/riscv.h (user compatibility) - the few page constants user programs use. */
#ifndef QUANTA_COMPAT_RISCV_H
#define QUANTA_COMPAT_RISCV_H

#define PGSIZE 4096
#define PGSHIFT 12
#define PGROUNDUP(sz) (((sz) + PGSIZE - 1) & ~(PGSIZE - 1))
#define PGROUNDDOWN(a) (((a)) & ~(PGSIZE - 1))
/* One bit less than Sv39's maximum, as in xv6 (avoids sign extension). */
#define MAXVA (1L << (9 + 9 + 9 + 12 - 1))

#endif
