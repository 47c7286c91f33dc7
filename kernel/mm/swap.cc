// kernel/mm/swap.cc - the swap area (docs/memory.md "Swap").
#include "kernel/mm/swap.h"

namespace q {

u64 swap_total_slots() { return 0; }
u64 swap_free_slots() { return 0; }

}  // namespace q
