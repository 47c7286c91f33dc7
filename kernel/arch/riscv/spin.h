// kernel/arch/riscv/spin.h - the turn hand-off and the turn quantum: the
// platform workarounds for QEMU -icount. Off unless the boot option turn_handoff=1
// turns it on (kernel/main.cc sets g_turn_handoff before the other harts
// start); tests/guest/qemu.py passes it to every guest it runs under
// -icount, and `make qemu` (multi-threaded QEMU) runs without it.
//
// The problem: under QEMU -icount all harts share one host thread, taken in
// turns; a hart runs until its share of the time to the next virtual-clock
// deadline is used up, and is switched out wherever it is, even inside a
// critical section. A hart spinning on the lock of a switched-out hart can
// never see it released while it runs, and spins out its whole share: up to
// half the time to the next deadline, about a 4 ms slice with slice=4000
// (issue 6: a process woken towards an idle hart waited 3.7 ms because the
// waker spun on the run-queue lock held by the hart it had sent the IPI
// to). Worse, a hart switched out just after its MMIO write to the disk's
// QueueNotify (kernel/dev/virtio_disk.cc, which holds the disk lock there,
// as xv6 does) did not run again while the other hart spun for that lock
// in the completion interrupt: a 2-hart -icount guest without the hand-off
// had no shell prompt after 240 s (2.8 s with it). Letting go of the disk
// lock for that write is not enough: without the hand-off, 2 of the sched
// suite's 2-hart -icount guests still hung (a sharetest, a lockstat storm;
// its whole run took 1,323 s and 168 CPU s against 376-596 s and 63-67 with
// the hand-off). Multi-threaded QEMU and hardware run every hart at once: a
// holder runs on while others spin, and none of this is needed.
//
// The hand-off, in two halves:
//   - SpinWait::relax(), between two failed attempts, arms this hart's
//     timer 1 us ahead: QEMU stops a hart that moves the earliest virtual
//     deadline and lets the next one run, so the holder gets the host
//     thread at once. It re-arms whenever that deadline has passed (the
//     timer is pending): on its next turn under -icount. Interrupts are off
//     while spinning, so the early timer is only pending; the saved
//     deadline is put back once the lock is held (~SpinWait), and one that
//     passed meanwhile is taken at pop_off(). `pause` does not do it: QEMU
//     7.2 only ends the translation block. relax() also marks the lock
//     (SpinLock's spun_ word) as spun for.
//   - spin_released(), after a release, ends the releasing hart's turn (a
//     timer 1 us ahead) if somebody spun for the lock, so the spinner runs
//     now instead of at this hart's next deadline, up to a slice away. The
//     early interrupt finds no slice over and re-arms the real deadline
//     (kernel/trap.cc:clock_intr). Without it, at rq=single two harts fell
//     into a convoy on the run-queue lock, meeting there at every slice end
//     (2,350 contentions and 0.97 s of spinning in a 4 s sharetest, against
//     56 and 0.05 s with it).
// Off, relax() and spin_released() test one flag and return: acquire() is
// xv6's plain amoswap loop.
//
// The turn quantum (turn_deadline(), used by kernel/trap.cc:arm_timer),
// the same platform's other half: a hart's turn lasts until the next
// virtual-clock deadline, and a running hart's timer is often a whole
// slice ahead (4 ms in make bench), so the other harts stood still for
// that long wherever they were: an IPI asking a hart to preempt for a
// woken process (issue 23), a hart half-way through its scheduler, a
// remote wake list. Hardware acts on an IPI within microseconds. With
// turn_handoff=1 on 2 or more harts, a running hart's timer is armed at
// most turn_us=N (default 100 us) ahead, so no hart waits longer than
// that for its turn. The early interrupt finds nothing due and only
// re-arms (clock_intr: the scheduler is not told, its decisions do not
// depend on the quantum); a hart about to idle arms its real deadline
// (timer_idle: a halted hart holds no turn). Cost: 3.2% of a 2-hart
// guest's null system call at 100 us (3,581 -> 3,696 ns), 6.8% at 50 us.
// Measured effect: docs/benchmarks.md, "The turn quantum".
#pragma once

#include "kernel/arch/riscv/csr.h"

namespace q::arch {

// On: harts take turns on one host thread (QEMU -icount). Written once at
// boot, before any other hart runs.
inline constinit bool g_turn_handoff = false;

constexpr u64 kSpinTimerCycles = 10;  // 1 us at the 10 MHz timebase

inline void arm_early_timer() { riscv::w_stimecmp(riscv::r_time() + kSpinTimerCycles); }

// The longest a hart's timer is armed ahead while harts take turns (0: no
// limit): see turn_deadline(). Set at boot (turn_us=, lib/boot_args.h).
inline constinit u64 g_turn_cycles = 0;

// The deadline to arm for `when`: at most g_turn_cycles from now (the turn
// quantum, see the file comment).
inline u64 turn_deadline(u64 when) {
    if (g_turn_cycles == 0) return when;
    const u64 cap = riscv::r_time() + g_turn_cycles;
    return when < cap ? when : cap;
}

// One acquire()'s wait for a taken lock (see the file comment).
class SpinWait {
  public:
    SpinWait() = default;
    SpinWait(const SpinWait&) = delete;
    SpinWait& operator=(const SpinWait&) = delete;
    ~SpinWait() {
        if (armed_) riscv::w_stimecmp(saved_deadline_);
    }

    // After a failed attempt at the lock whose spun_ word is `spun`.
    void relax(u32& spun) {
        if (!g_turn_handoff) return;
        __atomic_store_n(&spun, 1u, __ATOMIC_RELAXED);
        if (!armed_) {
            armed_ = true;
            saved_deadline_ = riscv::r_stimecmp();
            arm_early_timer();
        } else if (riscv::r_sip() & riscv::kSieStie) {
            arm_early_timer();
        }
    }

  private:
    bool armed_ = false;
    u64 saved_deadline_ = 0;  // this hart's deadline, put back at the end
};

// A lock whose spun_ word is `spun` was just released.
inline void spin_released(u32& spun) {
    if (g_turn_handoff && __atomic_exchange_n(&spun, 0u, __ATOMIC_RELAXED)) arm_early_timer();
}

}  // namespace q::arch
