// lib/oom.h - the out-of-memory rule's decisions (pure, host-tested; the
// kernel applies them in kernel/proc/oom.cc, docs/memory.md explains them).
//
// User memory is promised eagerly: sbrk, fork, exec and mmap admit and
// reserve every page a request may need before it returns, even the pages
// mapped later (a lazy heap, copy-on-write, a mapping's first touch take
// theirs from the promise: kernel/mm/fault.cc), so every request has a
// known size in pages before a page is taken or promised. Three questions,
// three functions:
//   - admit: may a request for `want` more pages (leaving the process with
//     `total_after`) go ahead? Impossible when no amount of freeing could
//     satisfy it (more pages than the machine has); Short when fewer pages
//     are free right now; else Admit. A refused request allocates nothing,
//     so it never empties memory for a moment under everybody else.
//     admit_promise is the same question asked by the allocator under its
//     lock for pages it promises in the same step (kernel/mm/kalloc.h:
//     kalloc_admit_reserve): `have` pages back promises, `promised` are
//     promised already; while more are promised than backed (a
//     copy-on-write fork promised its shared pages as it went) nothing
//     more is admitted, not even 0 pages.
//   - exhausted: is memory really gone? Fewer free pages than the low
//     watermark (1/128 of the pages, at least 64: 1 MiB of 128 MiB), which
//     is about what a shell needs to fork and exec a small command. Only
//     then does a failed fork or exec kill anybody.
//   - beats: does a candidate process make a better victim than the best
//     one so far, for this caller? It must be one the caller could kill
//     itself (its own user's, or anybody's when the caller is root: root's
//     shell and init are what keeps the system usable, so on their behalf
//     any process may go), and hold more user pages than both the caller
//     (a caller that is itself the biggest is the hog: its -1 is the
//     remedy) and the best so far (badness is pages held, as Linux's
//     oom_badness counts resident pages).
// With swap (kernel/mm/swap.h) the kernel passes frames plus free swap
// slots as free_pages and RAM plus the swap area as ram_pages to admit, and
// frames plus free slots to exhausted: the same rule over a bigger memory.
// Invariant: total functions of their arguments, no side effects.
#pragma once

#include "lib/fs/perm.h"
#include "lib/types.h"

namespace q::oom {

enum class Verdict : u8 { Admit, Impossible, Short };

constexpr u64 low_water(u64 ram_pages) {
    const u64 w = ram_pages / 128;
    return w < 64 ? 64 : w;
}

constexpr Verdict admit(u64 want, u64 total_after, u64 free_pages, u64 ram_pages) {
    if (total_after > ram_pages || want > ram_pages) return Verdict::Impossible;
    if (want > free_pages) return Verdict::Short;
    return Verdict::Admit;
}

constexpr Verdict admit_promise(u64 want, u64 total_after, u64 have, u64 promised, u64 ram_pages) {
    if (total_after > ram_pages || want > ram_pages) return Verdict::Impossible;
    if (promised > have) return Verdict::Short;
    return admit(want, total_after, have - promised, ram_pages);
}

constexpr bool exhausted(u64 free_pages, u64 ram_pages) { return free_pages < low_water(ram_pages); }

// A process the rule may consider: not init, not the caller, alive and not
// already killed (the kernel filters those; this is what is left to weigh).
struct Candidate {
    u32 uid = 0;    // real uid of the process
    u64 pages = 0;  // user pages it holds
};

constexpr bool beats(const perm::Cred& caller, u64 caller_pages, const Candidate& c, u64 best_pages) {
    if (!perm::may_touch_process(caller, c.uid)) return false;
    return c.pages > caller_pages && c.pages > best_pages;
}

}  // namespace q::oom
