// sim/ostep_flags.h - the homework scripts' flag syntax and number output,
// for sim/ostep_*.cc.
//
// Flags follow Python's optparse/argparse conventions as the scripts use
// them: "-p RR", "-pRR", "--policy RR", "--policy=RR", a long name may be
// abbreviated to any unique prefix, boolean flags take no value and may be
// clustered ("-tc", "-cq5"), "-h" or
// "--help" asks for the usage. A flag's integer is optparse's ("0x1f",
// "0b101", "017" octal, else decimal: parse_opt_int); integers inside a
// list (-l 1,2) are Python's int(), decimal with an optional sign. py_float() prints a double the way Python's str()
// does (shortest digits that read back exactly: "10.0", "2.5", "1e-05").
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace schedsim::ostep {

struct OstepError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct FlagSpec {
    char short_name;
    const char* long_name;
    bool takes_value;
};

// Parsed flags: key = the long name; value "" for a boolean flag given.
struct Flags {
    std::map<std::string, std::string> values;
    bool help = false;
    bool has(const std::string& name) const { return values.count(name) != 0; }
    std::string str(const std::string& name, const std::string& dflt) const;
    int64_t integer(const std::string& name, int64_t dflt) const;
};

Flags parse_flags(const std::vector<std::string>& args, const std::vector<FlagSpec>& spec);

int64_t parse_int(const std::string& text, const std::string& what);
// An optparse type='int' value: "0x1f" hex, "0b101" binary, "017" octal,
// else decimal (what the scripts' flags accept; list items use parse_int).
int64_t parse_opt_int(const std::string& text, const std::string& what);
double parse_float(const std::string& text, const std::string& what);
std::vector<std::string> split(const std::string& s, char sep);
std::string py_float(double v);
std::string fmt(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace schedsim::ostep
