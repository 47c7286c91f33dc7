// tests/host/schedsim_ostep_util.h - run `schedsim ostep ...` in-process
// for the OSTEP simulator tests: status, stdout and stderr of one run.
#pragma once

#include <string>
#include <vector>

#include "sim/ostep.h"

namespace schedsim::test {

struct Ran {
    int status;
    std::string out, err;
};

// `schedsim ostep SIM ARGS...` (args holds SIM first).
inline Ran run_ostep(const std::vector<std::string>& args) {
    Ran r;
    r.status = schedsim::ostep::run(args, r.out, r.err);
    return r;
}

// The same with SIM put in front of args.
inline Ran run_ostep(const char* sim, std::vector<std::string> args) {
    args.insert(args.begin(), sim);
    return run_ostep(args);
}

}  // namespace schedsim::test
