// tools/prof_output.h - what a profile says (tools/obs_reader.h's
// ProfDump), symbolised, and its writers.
//
// Symboliser names each sample's PCs: a kernel PC against the kernel ELF,
// a user PC against USER_DIR/_NAME for the program name the sample carries
// ("NAME:0x..." if that file is missing or has no symbol there); each
// table is loaded once. A kernel return address names the call
// instruction's function (looked up at ra - 2, the smallest call being
// 2 bytes), so a call that ends a function is not charged to the next one.
//
// build_profile() walks the samples once: per (where, function) the self
// samples (the function was the innermost) and total samples (anywhere on
// the stack, recursion counted once), where being "kernel", "user" or
// "idle" (pid 0); and the folded stacks for flame graphs,
// "PROCESS[PID];kernel|user;OUTERMOST;...;FUNCTION COUNT" (idle harts are
// the process "idle").
#pragma once

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "tools/obs_reader.h"
#include "tools/symbols.h"

namespace q::tools {

class Symboliser {
  public:
    // false with the reason when the kernel's symbols cannot be read.
    bool load(const std::string& kernel_elf, const std::string& user_dir, std::string* err);
    // A sample's stack, innermost first: its PC's function, then each
    // caller's.
    std::vector<std::string> stack(const prof::Sample& s);

  private:
    std::string function(const prof::Sample& s, u64 pc);
    std::string caller(u64 ra) const;

    std::string user_dir_;
    Symbols kernel_;
    std::map<std::string, Symbols> users_;
};

struct ProfileRow {
    std::string where, function;
    u64 self = 0, total = 0;
};

struct Profile {
    std::vector<ProfileRow> rows;       // most self samples first (or most total)
    std::map<std::string, u64> folded;  // folded stack -> samples
};

// With `samples` set, also prints every sample and its stack there.
Profile build_profile(const ProfDump& d, Symboliser& sym, bool by_total, std::FILE* samples);

// The flat profile: a summary line, then the first `top` rows (0: all).
void write_flat(const ProfDump& d, const Profile& p, size_t top, std::FILE* f);
void write_folded(const Profile& p, std::FILE* f);

}  // namespace q::tools
