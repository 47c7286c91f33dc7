// sim/sim_draw.cc - the simulation loop (simulator.h) instantiated for
// stride and lottery; one of three files so that the loops build in parallel.
#include "sim/simulator.h"

namespace schedsim {

SCHEDSIM_INSTANTIATE(Stride);
SCHEDSIM_INSTANTIATE(Lottery);

}  // namespace schedsim
