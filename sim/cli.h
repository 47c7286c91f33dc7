// sim/cli.h - schedsim's command line, parsed into Options without side
// effects (testable): every bad input throws UsageError with the one line
// main() prints before exiting with status 2.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "sim/report.h"
#include "sim/sim.h"

namespace schedsim {

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Options {
    Config cfg;
    std::vector<q::sched::PolicyKind> policies{q::sched::PolicyKind::RR};
    Format format = Format::Text;
    std::string plot;
    std::string tasks_out;
    bool help = false;           // --help: print help_text() and exit 0
    bool list_policies = false;  // --list-policies: print the names and exit 0
};

Options parse_options(int argc, const char* const* argv);
std::string help_text();

}  // namespace schedsim
