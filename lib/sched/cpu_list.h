// lib/sched/cpu_list.h - a CpuMask as the list a user writes for it
// ("0,2-3": cores ascending, a run of two or more as LO-HI), the form of
// schedsim's cpus=LIST and `at TICK cpus LIST` (sim/workload.cc:parse_cpus
// reads it) and of the affinity qtrace writes into a replay file
// (tools/trace_output.cc). One writer for both, so what qtrace writes is
// what schedsim reads and what its errors print; cpus_below gives the mask
// of the cores (harts) both clip to. Freestanding: no allocation, the
// text is returned in a fixed buffer.
#pragma once

#include "lib/types.h"

namespace q::sched {

struct CpuListText {
    // The longest list of 64 cores is 121 characters (pairs with a gap:
    // "0-1,3-4,...,63" style).
    char s[128];
};

// Cores 0..n-1 as a mask (every bit for n >= 64).
constexpr u64 cpus_below(u32 n) { return n >= 64 ? ~u64{0} : (u64{1} << n) - 1; }

// mask's cores as a list; "" for an empty mask.
constexpr CpuListText cpu_list(u64 mask) {
    CpuListText t{};
    u32 n = 0;
    const auto put_num = [&](u32 v) {
        if (v >= 10) t.s[n++] = static_cast<char>('0' + v / 10);
        t.s[n++] = static_cast<char>('0' + v % 10);
    };
    for (u32 c = 0; c < 64;) {
        if (!((mask >> c) & 1)) {
            c++;
            continue;
        }
        u32 hi = c;
        while (hi + 1 < 64 && ((mask >> (hi + 1)) & 1)) hi++;
        if (n) t.s[n++] = ',';
        put_num(c);
        if (hi > c) {
            t.s[n++] = '-';
            put_num(hi);
        }
        c = hi + 1;
    }
    t.s[n] = 0;
    return t;
}

}  // namespace q::sched
