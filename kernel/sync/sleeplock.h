// kernel/sync/sleeplock.h - a lock held across disk I/O.
//
// A process that finds the lock taken sleeps (yielding the hart) instead of
// spinning, so it is safe to hold while waiting for the disk. Must not be
// taken in interrupt handlers. The internal spinlock protects `locked_`,
// `pid_` and `waiters_` only.
#pragma once

#include "kernel/sync/spinlock.h"

namespace q {

class SleepLock {
  public:
    explicit constexpr SleepLock(const char* name) : guard_("sleeplock"), name_(name) {}
    SleepLock(const SleepLock&) = delete;
    SleepLock& operator=(const SleepLock&) = delete;

    void acquire();
    void release();
    bool holding();  // held by the calling process?
    const char* name() const { return name_; }

  private:
    SpinLock guard_;
    bool locked_ = false;
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
