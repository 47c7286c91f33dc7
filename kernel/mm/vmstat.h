// kernel/mm/vmstat.h - system-wide paging counters (SYS_vmstat, the
// vmstat program, docs/memory.md "Swap").
//
// Counts since boot, each bumped with one relaxed atomic add where the
// event happens (kernel/mm/fault.cc, kernel/mm/swap.cc); a reader sees
// each counter exact but not all of them at one instant.
#pragma once

#include "lib/result.h"
#include "lib/types.h"

namespace q {

enum class VmEvent : u8 { MinorFault, MajorFault, CowCopy, PageIn, PageOut, Count };

void vm_count(VmEvent e, u64 n = 1);
u64 vm_counted(VmEvent e);

// vmstat(struct vmstat*) -> 0 or -1.
SysResult sys_vmstat();

}  // namespace q
