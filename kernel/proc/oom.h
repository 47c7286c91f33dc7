// kernel/proc/oom.h - the out-of-memory rule (see oom.cc and lib/oom.h).
#pragma once

#include "kernel/mm/vm.h"
#include "lib/result.h"
#include "lib/types.h"

namespace q {

struct Proc;

// Before eagerly allocating `want` pages of user memory for a process that
// will then hold `total_after` pages (exec's segments and stack, fork's
// copy, sbrk): TooBig when the machine could never give them, NoMemory
// when fewer are free now, else ok. Allocates and kills nothing.
Status oom_admit(u64 want, u64 total_after);

// The same rule for pages promised instead (a lazy heap, a mapping, exec's
// lazy stack and text, a fork's child): admitted and promised in one step
// (kernel/mm/kalloc.h:kalloc_admit_reserve), nothing promised if refused.
// The caller gives the promise back with kalloc_unreserve if it fails
// later, or keeps it in ThreadGroup::reserved.
Status oom_reserve(u64 want, u64 total_after);

// Grow the user memory of page table pt from oldsz to newsz bytes (fresh
// pages with perm): admitted first (oom_admit, for a process that will
// hold newsz), then mapped 1 MiB at a time (uvm_grow), giving up with
// Killed when the calling process is killed in between. On any failure
// nothing of the growth stays user-accessible: with top (a table other
// threads use, kernel/mm/vm.h:uvm_grow) its pages stay mapped without
// PTE_U and *top covers them; without top they are freed. Returns newsz.
Result<u64> oom_grow(PageTable pt, u64 oldsz, u64 newsz, u64 perm, u64* top = nullptr);

// caller's fork or exec failed with NoMemory: when memory is really
// exhausted, kill the process lib/oom.h's rule picks for this caller,
// unless the last one killed here is still exiting. true if a victim was
// killed now or is still exiting (its pages are coming back: the page-fault
// path waits for them), false if nobody will free memory for the caller.
bool oom_kill(const Proc* caller);

}  // namespace q
