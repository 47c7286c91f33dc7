// tools/prof_reader.h - read a sampling profiler dump (lib/prof/format.h)
// and symbolise its program counters.
//
// parse_prof_dump() trusts nothing: it checks the header (magic, version,
// sizes, hart count, per-hart counts against the buffer capacity, the
// period), the exact length, and every sample (the hart of its section, a
// known mode, pid >= 0, reserved bytes 0, call-stack depth in range), and on any failure returns false
// with one line saying what is wrong. read_prof_from_image() finds the dump
// in a disk image and joins its parts (tools/image_files.h).
//
// Symbols reads an ELF64 little-endian file's .symtab itself (no binutils
// needed): functions, and untyped labels inside executable sections (the
// assembly entry points), sorted by address; lookup(pc) names the nearest
// symbol at or below pc inside an executable section, C++ names demangled
// without their parameter lists. Every offset in the file is range-checked.
#pragma once

#include <string>
#include <vector>

#include "lib/prof/format.h"
#include "tools/image.h"

namespace q::tools {

struct ProfDump {
    prof::DumpHeader header{};
    std::vector<prof::Sample> samples;  // hart 0's, then hart 1's, ...
};

bool parse_prof_dump(const std::vector<u8>& bytes, ProfDump* out, std::string* err);

// The bytes of the dump at `path` (absolute, from the root) in img.
bool read_prof_from_image(const Image& img, const std::string& path, std::vector<u8>* out, std::string* err);

// A sample's process name, NUL-terminated.
std::string sample_name(const prof::Sample& s);

class Symbols {
  public:
    bool parse(const std::vector<u8>& elf, std::string* err);
    bool load(const std::string& path, std::string* err);
    // The function containing pc, "" when pc is in no executable section
    // or below the first symbol.
    std::string lookup(u64 pc) const;
    size_t size() const { return syms_.size(); }

  private:
    struct Sym {
        u64 addr;
        std::string name;
    };
    struct Range {
        u64 lo, hi;
    };
    std::vector<Sym> syms_;
    std::vector<Range> text_;
};

// "q::bread(unsigned int, unsigned int)" -> "q::bread"; undecorated names
// are returned unchanged.
std::string demangle(const std::string& mangled);

}  // namespace q::tools
