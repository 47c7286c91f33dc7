// lib/sched/dwrr.cc - classic DWRR (see dwrr.h for the design; the code is
// there, a template on the cpu count): the simulator's instance, compiled once.
#include "lib/sched/dwrr.h"

namespace q::sched {

template class DwrrFor<kMaxCpus>;

}  // namespace q::sched
