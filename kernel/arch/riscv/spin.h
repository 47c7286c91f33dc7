// kernel/arch/riscv/spin.h - what a hart does while it spins on a taken lock.
//
// SpinLock::acquire (kernel/sync/spinlock.cc) calls spin_begin() when it
// finds the lock taken, spin_relax() after every failed attempt, and
// spin_end() once it holds the lock; spin_end() returns the timer cycles
// spent waiting (at least 1: the lock was contended). A spinner marks the
// lock word 2, and releasing a lock marked so calls spin_handoff(): the
// holder otherwise kept the host thread until its own next deadline (up to
// a slice), and at rq=single two harts fell into a convoy on the run-queue
// lock, meeting there at every slice end (2,350 contentions and 0.97 s of
// spinning in a 4 s sharetest, against 56 and 0.05 s with the hand-off).
//
// Why not just spin: under QEMU -icount all harts share one host thread,
// taken in turns; a hart runs until its share of the time to the next
// virtual-clock deadline is used up, and is switched out wherever it is,
// even inside a critical section. A hart spinning on the lock of a
// switched-out hart can never see it released while it runs, and used to
// spin out its whole share: up to half the time to the next deadline, about
// a 4 ms slice with slice=4000 (issue 6: a process woken towards an idle
// hart waited 3.7 ms because the waker spun on the run-queue lock held by
// the hart it had just sent the IPI to).
//
// So a spinning hart arms its timer just ahead: QEMU stops a hart that moves
// the earliest virtual deadline and lets the next one run, so the holder
// gets the host thread at once. It re-arms whenever that deadline has passed
// (the timer is pending), which is on its next turn under -icount and every
// microsecond on hardware or multi-threaded QEMU (where each write also
// wakes QEMU's main loop, so not every attempt). `pause` does not do it:
// QEMU 7.2 only ends the translation block. Interrupts are off while
// spinning, so the early timer is only pending; the saved deadline is put
// back once the lock is held, and one that passed meanwhile is taken at
// pop_off(). Re-arming also keeps a deadline in place when the hart's own
// timer has already fired (masked), which without it left none at all.
#pragma once

#include "kernel/arch/riscv/csr.h"

namespace q::arch {

struct SpinWait {
    u64 start;           // time the wait began
    u64 saved_deadline;  // this hart's timer deadline, restored at the end
};

constexpr u64 kSpinTimerCycles = 10;  // 1 us at the 10 MHz timebase

inline SpinWait spin_begin() {
    const SpinWait w{riscv::r_time(), riscv::r_stimecmp()};
    riscv::w_stimecmp(riscv::r_time() + kSpinTimerCycles);
    return w;
}

inline void spin_relax(SpinWait&) {
    if (riscv::r_sip() & riscv::kSieStie) riscv::w_stimecmp(riscv::r_time() + kSpinTimerCycles);
}

// A lock that another hart spun for was just released: end this hart's
// turn now (a timer 1 us ahead) so the spinner runs, instead of at this
// hart's next deadline, up to a slice away. The early interrupt finds no
// slice over and re-arms the real deadline (kernel/trap.cc:clock_intr).
inline void spin_handoff() { riscv::w_stimecmp(riscv::r_time() + kSpinTimerCycles); }
inline u64 spin_end(const SpinWait& w) {
    riscv::w_stimecmp(w.saved_deadline);
    return riscv::r_time() - w.start + 1;
}

}  // namespace q::arch
