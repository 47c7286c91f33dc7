// tools/symbols.h - symbolise program counters with an ELF file's own
// symbol table (qprof's kernel and user PCs).
//
// Symbols reads an ELF64 little-endian file's .symtab itself (no binutils
// needed): functions, and untyped labels inside executable sections (the
// assembly entry points), sorted by address; lookup(pc) names the nearest
// symbol at or below pc inside an executable section, C++ names demangled
// without their parameter lists. Every offset in the file is range-checked
// and every failure is one line.
#pragma once

#include <string>
#include <vector>

#include "lib/types.h"

namespace q::tools {

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
