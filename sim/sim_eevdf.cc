// sim/sim_eevdf.cc - the simulation loop (simulator.h) instantiated for
// eevdf (its tree: the largest instantiation); one of three files so that the loops build in parallel.
#include "sim/simulator.h"

namespace schedsim {

SCHEDSIM_INSTANTIATE(Eevdf);

}  // namespace schedsim
