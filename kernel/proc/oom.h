// kernel/proc/oom.h - the out-of-memory rule (see oom.cc).
#pragma once

namespace q {

struct Proc;

// caller's fork or exec could not get memory: kill the process holding the
// most user memory, at least an eighth of RAM (never init or the caller),
// unless the last one killed here is still exiting.
void oom_kill(const Proc* caller);

}  // namespace q
