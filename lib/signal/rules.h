// lib/signal/rules.h - the pure rules of signals (docs/signals.md), shared
// by the kernel (kernel/proc/signal.cc) and a host test
// (tests/host/signal_rules_test.cc).
//
// Numbers are Linux's (1..31; 0 is "no signal"). A set of signals is a u64
// with bit n for signal n, so bit 0 is never set. Invariants the kernel
// keeps through these functions: a blocked mask never holds SIGKILL or
// SIGSTOP (sanitize_mask), their action is never changed (may_set_action),
// a signal whose action is to ignore it is dropped when sent (so a pending
// bit always means "run a handler" or "take the default action"), and the
// next signal taken is SIGKILL if pending, else the lowest-numbered one.
#pragma once

#include "lib/types.h"

namespace q::sig {

enum : int {
    kHup = 1,
    kInt = 2,
    kQuit = 3,
    kIll = 4,
    kTrap = 5,
    kAbrt = 6,
    kBus = 7,
    kFpe = 8,
    kKill = 9,
    kUsr1 = 10,
    kSegv = 11,
    kUsr2 = 12,
    kPipe = 13,
    kAlrm = 14,
    kTerm = 15,
    kChld = 17,
    kCont = 18,
    kStop = 19,
    kTstp = 20,
    kTtin = 21,
    kTtou = 22,
};
constexpr int kMax = 31;  // signals are 1..kMax

// Handler values of a sigaction (SIG_DFL, SIG_IGN); anything else is an address.
constexpr u64 kDfl = 0;
constexpr u64 kIgn = 1;
// sigaction flags (Linux's values).
constexpr u64 kSaNocldstop = 1;  // on SIGCHLD: none for a child's stop or continue
constexpr u64 kSaSiginfo = 4;
constexpr u64 kSaRestart = 0x10000000;
constexpr u64 kSaNodefer = 0x40000000;
constexpr u64 kSaResethand = 0x80000000;  // back to SIG_DFL as the handler starts
constexpr u64 kSaOnstack = 0x08000000;    // run on the alternate signal stack
// sigaltstack (Linux's values).
constexpr int kSsOnstack = 1;
constexpr int kSsDisable = 2;
constexpr u64 kMinSigStack = 2048;

// Where a handler's frame goes below: the alternate stack's top if the
// action asks for it (SA_ONSTACK), there is one (size > 0) and the thread
// is not on it already (sp inside it: nested handlers stay there);
// otherwise the thread's own sp.
constexpr bool on_alt_stack(u64 sp, u64 alt_sp, u64 alt_size) {
    return alt_size != 0 && sp > alt_sp && sp - alt_sp <= alt_size;
}
constexpr u64 frame_base(u64 sp, u64 flags, u64 alt_sp, u64 alt_size) {
    if (!(flags & kSaOnstack) || alt_size == 0 || on_alt_stack(sp, alt_sp, alt_size)) return sp;
    return alt_sp + alt_size;
}
// sigprocmask's how.
enum : int { kBlock = 0, kUnblock = 1, kSetMask = 2 };

enum class Default : u8 { Terminate, Ignore, Stop, Continue };

constexpr bool valid(int s) { return s >= 1 && s <= kMax; }
constexpr u64 bit(int s) { return valid(s) ? 1ull << s : 0; }
constexpr bool catchable(int s) { return valid(s) && s != kKill && s != kStop; }

// Every valid signal that may be blocked.
constexpr u64 kAll = ((1ull << (kMax + 1)) - 2);
constexpr u64 sanitize_mask(u64 m) { return m & kAll & ~bit(kKill) & ~bit(kStop); }

constexpr Default default_action(int s) {
    switch (s) {
        case kChld:
            return Default::Ignore;
        case 23:  // SIGURG
        case 28:  // SIGWINCH
            return Default::Ignore;
        case kCont:
            return Default::Continue;
        case kStop:
        case kTstp:
        case kTtin:
        case kTtou:
            return Default::Stop;
        default:
            return Default::Terminate;
    }
}

// May sigaction change signal s's action? (sig 0 and out-of-range: no.)
constexpr bool may_set_action(int s) { return catchable(s); }

// The signals whose default action stops the process.
constexpr u64 kStopSet = (1ull << kStop) | (1ull << kTstp) | (1ull << kTtin) | (1ull << kTtou);
constexpr bool stops(int s) { return (bit(s) & kStopSet) != 0; }

// Is a signal with this handler dropped when sent? Ignored ones are; so
// is SIGCONT with its default action, whose effect (the process continues)
// happens at the send, whatever the handler (docs/signals.md "Stop and
// continue"). SIGSTOP's action is always the default: it stays pending
// until the process takes it and stops.
constexpr bool discard_on_send(int s, u64 handler) {
    if (s == kKill || s == kStop) return false;
    if (handler == kIgn) return true;
    if (handler != kDfl) return false;
    return default_action(s) == Default::Ignore || default_action(s) == Default::Continue;
}

// Sending a stop signal cancels a pending SIGCONT and SIGCONT cancels
// pending stop signals (POSIX): the bits a send of s clears.
constexpr u64 cancels(int s) {
    if (s == kCont) return kStopSet;
    return stops(s) ? bit(kCont) : 0;
}

// waitpid's status words (Linux's encoding, which the W* macros of
// user.h and libc's sys/wait.h decode).
constexpr int status_exited(int code) { return (code & 0xff) << 8; }
constexpr int status_signaled(int s) { return s & 0x7f; }
constexpr int status_stopped(int s) { return ((s & 0xff) << 8) | 0x7f; }
constexpr int kStatusContinued = 0xffff;

// waitpid's options (Linux's values) and which children a pid argument
// names: pid > 0 that one, -1 any, 0 those in the caller's group, < -1
// those in group -pid.
enum : int { kWnohang = 1, kWuntraced = 2, kWcontinued = 8 };
constexpr bool valid_wait_options(int o) { return (o & ~(kWnohang | kWuntraced | kWcontinued)) == 0; }
constexpr bool wait_matches(int pid, int child_pid, int child_pgid, int my_pgid) {
    if (pid > 0) return child_pid == pid;
    if (pid == -1) return true;
    if (pid == 0) return child_pgid == my_pgid;
    return child_pgid == -pid;
}

// The next signal to take out of pending given blocked, or 0 for none.
constexpr int next(u64 pending, u64 blocked) {
    const u64 ready = pending & kAll & ~sanitize_mask(blocked);
    if (ready == 0) return 0;
    if (ready & bit(kKill)) return kKill;
    for (int s = 1; s <= kMax; s++)
        if (ready & bit(s)) return s;
    return 0;
}

// sigprocmask: the new blocked mask, or false for a bad how.
constexpr bool apply_how(int how, u64 old, u64 set, u64* out) {
    u64 m;
    if (how == kBlock) {
        m = old | set;
    } else if (how == kUnblock) {
        m = old & ~set;
    } else if (how == kSetMask) {
        m = set;
    } else {
        return false;
    }
    *out = sanitize_mask(m);
    return true;
}

}  // namespace q::sig
