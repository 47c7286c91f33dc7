// sim/ostep.h - `schedsim ostep SIMULATOR ARGS...`: OSTEP's homework
// simulators (remzi-arpacidusseau/ostep-homework) on quanta's side.
//
// Each simulator takes the homework script's own flags and prints what the
// script prints (the problem, and with -c the execution trace and the
// "Final statistics"), so a student can check a homework answer against
// quanta. Job lists given (-l/-L) and random ones (-s/-j/...) alike give
// exactly the script's figures and text: random draws come from CPython's
// generator, reimplemented in py_random.h (choice and shuffle as Python 3's).
//
// The entry point returns the exit status and writes to two strings (no
// process state), so the host tests can call it directly. Bad flags give one
// "schedsim ostep NAME: ..." line on err and status 2.
#pragma once

#include <string>
#include <vector>

namespace schedsim::ostep {

// args: the words after `ostep` (args[0] names the simulator).
int run(const std::vector<std::string>& args, std::string& out, std::string& err);

// The simulators (args without the simulator's name). May throw OstepError.
void scheduler(const std::vector<std::string>& args, std::string& out);
void mlfq(const std::vector<std::string>& args, std::string& out);
void multi(const std::vector<std::string>& args, std::string& out);
void batch(const std::vector<std::string>& args, std::string& out);
void lottery(const std::vector<std::string>& args, std::string& out);
void lottery_unfairness(const std::vector<std::string>& args, std::string& out);

}  // namespace schedsim::ostep
