// lib/boot_args.h - the kernel's boot arguments (QEMU's -append string),
// parsed once, before anything is initialised (pure, host-tested in
// tests/host/boot_args_test.cc; the kernel calls it from kernel/main.cc).
//
// The arguments are space-separated `key=value` words; unknown keys are
// ignored, and the last word with a key wins. Every key the kernel reads is
// in one table with its accepted range: boot_args.cc's, or for a policy's
// knob lib/sched/knobs.h's. A value outside it
// (or not a number where one is wanted) is rejected: the field keeps its
// default and the word is listed in Parsed::rejected, which the kernel
// prints ("ignoring slice=5 (100..1000000 us)"), so a typo never changes
// the machine silently.
//
//   sched=NAME      scheduling policy (lib/sched/registry.h; empty: EEVDF)
//   rq=MODE         percpu (default) or single run queue
//   slice=US        preemption slice, 100..1000000 us (0: Linux's base
//                   slice rule for the hart count, lib/params.h)
//   mlfq_boost=US   MLFQ priority boost period, 0..100000000 us (0: never)
//   mlfq_reset=1    MLFQ: a sleep resets the allotment (mlfq.py -S)
//   sleep_decay=0   EEVDF keeps a sleeper's debt (the paper's lag; default
//                   1: it decays while the task sleeps, lib/sched/eevdf.h)
//                   (these three are policy knobs: lib/sched/knobs.h lists
//                   them and their ranges; Config keeps them as given, in
//                   microseconds, for the policies to read)
//   vm=NAME         page replacement with swap: fifo or clock (empty: clock;
//                   kernel/mm/swap.h)
//   sync_wake=0     per-hart queues: a pipe write's wake-up never queues
//                   the reader behind the writer (default 1: it may;
//                   lib/sched/balance.h select_cpu)
//   pick_forfeit=0  per-hart queues: a long runnable task picked beside a
//                   woken task it outserved keeps its pick (default 1: it
//                   forfeits its request; lib/sched/runqueues.h)
//   tick_us=US      scheduler tick, 0..100000 us (0: none; default
//                   lib/params.h kSchedTickCycles, 1000)
//   turn_handoff=1  the turn hand-off, for harts that take turns on one
//                   host thread (QEMU -icount; kernel/arch/riscv/spin.h)
//   turn_us=US      with turn_handoff=1 on 2 or more harts, the longest a
//                   hart's timer is armed ahead, 0..100000 us (0: no limit;
//                   default 100), which bounds each hart's turn
// Invariant: parse() is a total function of its argument; strings it keeps
// are NUL-terminated and cut to their field's size.
#pragma once

#include "lib/params.h"
#include "lib/sched/knobs.h"
#include "lib/types.h"

namespace q::boot {

struct Config {
    char sched[16] = {};           // policy name as given; empty: the kernel's default
    char rq[16] = {};              // run-queue mode as given; empty: percpu
    u64 slice_us = 0;              // 0: the default slice rule
    u64 tick_us = kDefaultTickUs;  // 0: no scheduler tick
    sched::Knobs knobs;            // the policies' knobs given (times in us)
    char vm[8] = {};               // "fifo" or "clock"; empty: clock
    bool turn_handoff = false;
    bool sync_wake = true;
    bool pick_forfeit = true;      // sched::RqConfig::pick_forfeit
    u64 turn_us = kDefaultTurnUs;  // used only with turn_handoff on 2+ harts

    static constexpr u64 kDefaultTurnUs = 100;
    static constexpr u64 kDefaultTickUs = param::kSchedTickCycles / param::kCyclesPerUs;
    static_assert(param::kSchedTickCycles % param::kCyclesPerUs == 0, "the tick is whole microseconds");

    // The preemption slice in timer cycles on `harts` harts: slice= if
    // given, else Linux's base slice rule (param::default_slice_cycles).
    constexpr u64 slice_cycles(int harts) const {
        return slice_us ? slice_us * param::kCyclesPerUs : param::default_slice_cycles(harts);
    }
};

struct Rejected {
    char word[32] = {};           // the key=value word, cut to fit
    const char* range = nullptr;  // what the key accepts, for the message
};

struct Parsed {
    static constexpr int kMaxRejected = 4;  // more are counted, not kept
    Config config;
    Rejected rejected[kMaxRejected];
    int nrejected = 0;  // may exceed kMaxRejected
};

Parsed parse(const char* args);

}  // namespace q::boot
