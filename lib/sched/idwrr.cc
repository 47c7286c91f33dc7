// lib/sched/idwrr.cc - the seed's interleaved DWRR (see idwrr.h for the
// design; the code is there, a template on the cpu count): the simulator's
// instance, compiled once.
#include "lib/sched/idwrr.h"

namespace q::sched {

template class InterleavedDwrrFor<kMaxCpus>;

}  // namespace q::sched
