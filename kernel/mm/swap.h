// kernel/mm/swap.h - the swap area (docs/memory.md "Swap").
#pragma once

#include "lib/types.h"

namespace q {

// Pages the swap area holds, and how many of them are free (0 and 0 with
// no swap area).
u64 swap_total_slots();
u64 swap_free_slots();

}  // namespace q
