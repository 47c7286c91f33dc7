// lib/sched/knobs.h - the policies' boot-time knobs, listed once.
//
// A policy that can be tuned at boot names its knobs in kKnobs (name,
// accepted range, unit). The kernel's boot-argument parser
// (lib/boot_args.cc) accepts each as a `name=value` word and keeps the
// values in a Knobs; the kernel scales the microsecond ones to its time
// units (Knobs::scaled) and hands the set to every policy it builds
// (PolicyConfig::knobs). Only the policy reads what a knob means: the
// kernel, the boot code and the run-queue core pass the set through
// untouched, so a new knob is one line here plus its use in its policy.
// A knob not given leaves the policy's own default.
#pragma once

#include "lib/types.h"

namespace q::sched {

enum class Knob : u8 {
    MlfqBoost,        // MLFQ boost period (0: never; default 10 slices), lib/sched/mlfq.h
    MlfqReset,        // MLFQ: a sleep resets the allotment (mlfq.py -S)
    EevdfSleepDecay,  // EEVDF: a sleeper's debt decays (default 1; 0: the paper's lag), lib/sched/eevdf.h
};

enum class KnobUnit : u8 {
    Us,    // a time in microseconds, scaled to the caller's units
    Flag,  // "0" or "1"
};

struct KnobSpec {
    const char* name;   // the boot argument's key
    const char* range;  // what it accepts, for a rejection message
    u64 max;            // largest value (the least is 0)
    KnobUnit unit;
};

// In Knob order.
inline constexpr KnobSpec kKnobs[] = {
    {"mlfq_boost", "0..100000000 us", 100'000'000, KnobUnit::Us},
    {"mlfq_reset", "1 or 0", 1, KnobUnit::Flag},
    {"sleep_decay", "1 or 0", 1, KnobUnit::Flag},
};
inline constexpr unsigned kKnobCount = sizeof(kKnobs) / sizeof(kKnobs[0]);
static_assert(kKnobCount <= 32, "Knobs::given is a 32-bit mask");

// The knobs given, with their values.
struct Knobs {
    u64 value[kKnobCount] = {};
    u32 given = 0;  // bit i: knob i was given

    constexpr void set(Knob k, u64 v) {
        value[index(k)] = v;
        given |= u32{1} << index(k);
    }
    constexpr bool has(Knob k) const { return given & (u32{1} << index(k)); }
    // The value if given, else `fallback`.
    constexpr u64 get(Knob k, u64 fallback) const { return has(k) ? value[index(k)] : fallback; }
    // A copy with every microsecond knob multiplied by per_us.
    constexpr Knobs scaled(u64 per_us) const {
        Knobs out = *this;
        for (unsigned i = 0; i < kKnobCount; i++) {
            if (kKnobs[i].unit == KnobUnit::Us) out.value[i] *= per_us;
        }
        return out;
    }

  private:
    static constexpr unsigned index(Knob k) { return static_cast<unsigned>(k); }
};

}  // namespace q::sched
