// tools/symbols.cc - ELF symbol lookup (see tools/symbols.h). All bytes
// are copied with memcpy into the ELF structs (no casts of the input).
#include "tools/symbols.h"

#include <cxxabi.h>
#include <elf.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

namespace q::tools {

namespace {

bool fail(std::string* err, const std::string& msg) {
    *err = msg;
    return false;
}

}  // namespace

std::string demangle(const std::string& mangled) {
    int status = 0;
    char* d = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
    if (status != 0 || !d) {
        std::free(d);
        return mangled;
    }
    std::string s = d;
    std::free(d);
    const std::string kConst = " const";
    if (s.size() > kConst.size() && s.compare(s.size() - kConst.size(), kConst.size(), kConst) == 0)
        s.resize(s.size() - kConst.size());
    if (!s.empty() && s.back() == ')') {  // cut the parameter list: the '(' matching the last ')'
        int depth = 0;
        for (size_t i = s.size(); i-- > 0;) {
            if (s[i] == ')') depth++;
            if (s[i] == '(' && --depth == 0) {
                if (i > 0) s.resize(i);
                break;
            }
        }
    }
    return s;
}

bool Symbols::load(const std::string& path, std::string* err) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return fail(err, "cannot open " + path);
    const std::vector<u8> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!parse(bytes, err)) {
        *err = path + ": " + *err;
        return false;
    }
    return true;
}

bool Symbols::parse(const std::vector<u8>& elf, std::string* err) {
    syms_.clear();
    text_.clear();
    Elf64_Ehdr eh{};
    if (elf.size() < sizeof(eh)) return fail(err, "not an ELF file (too short)");
    std::memcpy(&eh, elf.data(), sizeof(eh));
    if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) return fail(err, "not an ELF file (bad magic)");
    if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB)
        return fail(err, "not a 64-bit little-endian ELF file");
    if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0) return fail(err, "ELF file without section headers");
    const u64 size = elf.size();
    if (eh.e_shoff > size || u64{eh.e_shnum} * sizeof(Elf64_Shdr) > size - eh.e_shoff)
        return fail(err, "ELF section headers out of range");
    std::vector<Elf64_Shdr> sh(eh.e_shnum);
    std::memcpy(sh.data(), elf.data() + eh.e_shoff, sh.size() * sizeof(Elf64_Shdr));
    auto in_file = [&](const Elf64_Shdr& s) { return s.sh_offset <= size && s.sh_size <= size - s.sh_offset; };
    for (const Elf64_Shdr& s : sh)
        if ((s.sh_flags & SHF_EXECINSTR) && (s.sh_flags & SHF_ALLOC) && s.sh_size)
            text_.push_back({s.sh_addr, s.sh_addr + s.sh_size});
    const Elf64_Shdr* symtab = nullptr;
    for (const Elf64_Shdr& s : sh)
        if (s.sh_type == SHT_SYMTAB) symtab = &s;
    if (!symtab) return fail(err, "ELF file has no symbol table (stripped?)");
    if (symtab->sh_link >= sh.size() || !in_file(*symtab) || !in_file(sh[symtab->sh_link]))
        return fail(err, "ELF symbol table out of range");
    const Elf64_Shdr& strtab = sh[symtab->sh_link];
    const u8* str = elf.data() + strtab.sh_offset;
    for (u64 off = 0; off + sizeof(Elf64_Sym) <= symtab->sh_size; off += sizeof(Elf64_Sym)) {
        Elf64_Sym sym{};
        std::memcpy(&sym, elf.data() + symtab->sh_offset + off, sizeof(sym));
        const int type = ELF64_ST_TYPE(sym.st_info);
        if (sym.st_name == 0 || sym.st_name >= strtab.sh_size || sym.st_shndx == SHN_UNDEF || sym.st_shndx >= sh.size())
            continue;
        const bool exec = (sh[sym.st_shndx].sh_flags & SHF_EXECINSTR) != 0;
        if (!(type == STT_FUNC || (type == STT_NOTYPE && exec))) continue;
        const char* name = reinterpret_cast<const char*>(str + sym.st_name);
        const size_t len = strnlen(name, strtab.sh_size - sym.st_name);
        std::string n(name, len);
        if (n.empty() || n[0] == '$' || n.rfind(".L", 0) == 0) continue;  // mapping symbols, local labels
        syms_.push_back({sym.st_value, n});
    }
    std::stable_sort(syms_.begin(), syms_.end(), [](const Sym& a, const Sym& b) { return a.addr < b.addr; });
    return true;
}

std::string Symbols::lookup(u64 pc) const {
    const bool in_text =
        std::any_of(text_.begin(), text_.end(), [pc](const Range& r) { return pc >= r.lo && pc < r.hi; });
    if (!in_text) return "";
    auto it = std::upper_bound(syms_.begin(), syms_.end(), pc, [](u64 v, const Sym& s) { return v < s.addr; });
    if (it == syms_.begin()) return "";
    return demangle(std::prev(it)->name);
}

}  // namespace q::tools
