// kernel/proc/procdump.h - the process list (^P, and ps's rows).
#pragma once

#include "lib/abi/abi.h"

namespace q {

struct Proc;

// p's row of the process list, all but ppid (the caller holds p.lock, or
// accepts a torn row as ^P does).
void proc_info(const Proc& p, procinfo* info);
// Print the process list on the console (^P).
void procdump();

}  // namespace q
