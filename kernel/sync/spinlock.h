// kernel/sync/spinlock.h - mutual exclusion between harts, with interrupts off.
//
// acquire() disables interrupts on this hart (push_off) before spinning on an
// atomic swap, so an interrupt handler on the same hart can never deadlock on
// a lock its interrupted code holds. push_off/pop_off nest: each hart keeps a
// depth counter and the interrupt-enable state saved at depth 0, so releasing
// an inner lock never re-enables interrupts early, and locks need not be
// released in LIFO order.
//
// Misuse is a kernel bug and panics with the lock's name: acquiring a lock
// this hart already holds, or releasing one it does not hold.
//
// The one platform workaround, the turn hand-off for QEMU -icount (off
// unless the boot option turn_handoff=1 turns it on), is the architecture's
// (kernel/arch/riscv/spin.h): acquire() calls it between failed attempts
// and release() after each release (it acts only if somebody spun for the
// lock). Lock statistics are CountedLock's (kernel/sync/counted_lock.h),
// the run queues' lock.
#pragma once

#include "lib/types.h"

namespace q {

struct Cpu;

class SpinLock {
  public:
    explicit constexpr SpinLock(const char* name) : name_(name) {}
    SpinLock(const SpinLock&) = delete;
    SpinLock& operator=(const SpinLock&) = delete;

    void acquire();
    // One attempt: acquire() if the lock is free, else false (and nothing
    // held, interrupts as they were).
    bool try_acquire();
    void release();
    bool holding() const;  // held by this hart? (interrupts must be off)
    const char* name() const { return name_; }

  private:
    u32 locked_ = 0;  // 1 while held
    u32 spun_ = 0;    // the turn hand-off's: a hart spun for it (spin.h)
    const char* name_;
    Cpu* cpu_ = nullptr;  // holder, for holding() and debugging
};

// RAII guard: holds the lock for the guard's scope, unless the scope lets
// go of it for a while with unlock() (a call that must not hold it: an
// allocation that may sleep, a device kick) and takes it back with lock().
// The destructor releases only what the guard holds, so a scope may also
// end unlocked. Like SerenityOS's SpinlockLocker.
class LockGuard {
  public:
    explicit LockGuard(SpinLock& l) : lock_(l) { lock_.acquire(); }
    ~LockGuard() {
        if (held_) lock_.release();
    }
    LockGuard(const LockGuard&) = delete;
    LockGuard& operator=(const LockGuard&) = delete;

    void unlock() {
        lock_.release();
        held_ = false;
    }
    void lock() {
        lock_.acquire();
        held_ = true;
    }
    bool held() const { return held_; }

  private:
    SpinLock& lock_;
    bool held_ = true;
};

// Nested interrupt disabling (see the file comment).
void push_off();
void pop_off();

}  // namespace q
