// kernel/sync/sleeplock.h - a lock held across disk I/O.
//
// A process that finds the lock taken sleeps (yielding the hart) instead of
// spinning, so it is safe to hold while waiting for the disk. Must not be
// taken in interrupt handlers. The internal spinlock protects `locked_`,
// `pid_` and `waiters_` only.
// A lock the page-fault path may take (`fault_path`: an inode's, a
// buffer's, an address space's mm_lock) is counted in its holder's
// Proc::fault_locks: while a thread holds one, a kernel copy of its takes
// no fault that sleeps (kernel/mm/fault.h: vm_fault_later; docs/memory.md
// "Lock order").
#pragma once

#include "kernel/sync/spinlock.h"

namespace q {

class SleepLock {
  public:
    explicit constexpr SleepLock(const char* name, bool fault_path = false)
        : guard_("sleeplock"), fault_path_(fault_path), name_(name) {}
    SleepLock(const SleepLock&) = delete;
    SleepLock& operator=(const SleepLock&) = delete;

    void acquire();
    void release();
    bool holding();  // held by the calling process?
    const char* name() const { return name_; }

  private:
    SpinLock guard_;
    bool locked_ = false;
    bool fault_path_;  // (beside locked_: no padding added to a buffer's header)
    int pid_ = 0;      // holder's tid
    u32 waiters_ = 0;  // processes sleeping in acquire()
    const char* name_;
};

class SleepGuard {
  public:
    explicit SleepGuard(SleepLock& l) : lock_(l) { lock_.acquire(); }
    ~SleepGuard() { lock_.release(); }
    SleepGuard(const SleepGuard&) = delete;
    SleepGuard& operator=(const SleepGuard&) = delete;

  private:
    SleepLock& lock_;
};

}  // namespace q
