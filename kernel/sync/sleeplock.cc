// kernel/sync/sleeplock.cc - sleeping locks (see sleeplock.h).
#include "kernel/sync/sleeplock.h"

#include "kernel/proc/proc.h"

namespace q {

void SleepLock::acquire() {
    LockGuard g(guard_);
    while (locked_) sleep(this, guard_);
    locked_ = true;
    pid_ = myproc()->pid;
}

void SleepLock::release() {
    LockGuard g(guard_);
    locked_ = false;
    pid_ = 0;
    wakeup(this);
}

bool SleepLock::holding() {
    LockGuard g(guard_);
    return locked_ && pid_ == myproc()->pid;
}

}  // namespace q
