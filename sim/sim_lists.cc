// sim/sim_lists.cc - the simulation loop (simulator.h) instantiated for
// rr, dwrr, idwrr and mlfq (FIFO lists and level queues); one of three files so that the loops build in parallel.
#include "sim/simulator.h"

namespace schedsim {

SCHEDSIM_INSTANTIATE(RoundRobin);
SCHEDSIM_INSTANTIATE(Dwrr);
SCHEDSIM_INSTANTIATE(InterleavedDwrr);
SCHEDSIM_INSTANTIATE(Mlfq);

}  // namespace schedsim
