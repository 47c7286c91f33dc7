// kernel/proc/oom.h - the out-of-memory rule (see oom.cc and lib/oom.h).
#pragma once

#include "lib/result.h"
#include "lib/types.h"

namespace q {

struct Proc;

// Before eagerly allocating `want` pages of user memory for a process that
// will then hold `total_after` pages (exec's segments and stack, fork's
// copy, sbrk): TooBig when the machine could never give them, NoMemory
// when fewer are free now, else ok. Allocates and kills nothing.
Status oom_admit(u64 want, u64 total_after);

// caller's fork or exec failed with NoMemory: when memory is really
// exhausted, kill the process lib/oom.h's rule picks for this caller,
// unless the last one killed here is still exiting.
void oom_kill(const Proc* caller);

}  // namespace q
