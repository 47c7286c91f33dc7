// kernel/sync/sleeplock.cc - sleeping locks (see sleeplock.h).
//
// release() wakes sleepers only when acquire() counted one (waiters_, under
// guard_): wakeup() scans the whole process table, and an uncontended
// lock - a buffer or inode on a cached read - has none to wake.
#include "kernel/sync/sleeplock.h"

#include "kernel/lib/kprintf.h"
#include "kernel/proc/proc.h"

namespace q {

void SleepLock::acquire() {
    LockGuard g(guard_);
    while (locked_) {
        waiters_++;
        sleep(this, guard_);
        waiters_--;
    }
    locked_ = true;
    Proc* p = myproc();
    pid_ = p->tid;  // a thread holds it, not its process
    if (fault_path_) p->fault_locks++;
}

void SleepLock::release() {
    if (fault_path_ && myproc()->fault_locks-- == 0) panic("release %s: not counted as held", name_);
    LockGuard g(guard_);
    locked_ = false;
    pid_ = 0;
    if (waiters_ > 0) wakeup(this);
}

bool SleepLock::holding() {
    LockGuard g(guard_);
    return locked_ && pid_ == myproc()->tid;
}

}  // namespace q
