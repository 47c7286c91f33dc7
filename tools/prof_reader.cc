// tools/prof_reader.cc - profile dump parsing and ELF symbol lookup.
//
// See tools/prof_reader.h. All bytes are copied with memcpy into the
// format's structs (no casts of the input buffer), sizes are compared
// before any multiplication can overflow, and the error texts name the
// first problem found.
#include "tools/prof_reader.h"

#include <cxxabi.h>
#include <elf.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "tools/dump_sections.h"
#include "tools/image_files.h"

namespace q::tools {

using prof::DumpHeader;
using prof::Sample;

namespace {

// Sections larger than this are refused outright (the kernel's limit is
// 4 MiB per hart: 131072 samples).
constexpr u64 kMaxSamplesPerHart = u64{1} << 24;

bool fail(std::string* err, const std::string& msg) {
    *err = msg;
    return false;
}

constexpr DumpKind kProfile{"profile",      "sample",           "qprof",        prof::kMagic,
                            prof::kVersion, sizeof(DumpHeader), sizeof(Sample), kMaxSamplesPerHart};

// The shared checks, and the profile's own: a sampling period.
bool check_header(const DumpHeader& h, u64 size, std::string* err) {
    if (!check_sections(h, size, kProfile, err)) return false;
    if (h.period_cycles == 0 || h.timer_hz == 0) return fail(err, "corrupt profile dump: zero period or timer rate");
    return true;
}

bool check_sample(const Sample& s, u32 hart, u64 index, std::string* err) {
    const std::string where = "corrupt profile dump: hart " + std::to_string(hart) + " sample " + std::to_string(index);
    if (s.cpu != hart) return fail(err, where + ": taken by hart " + std::to_string(s.cpu) + " in another's section");
    if (s.mode > static_cast<u8>(prof::Mode::User))
        return fail(err, where + ": unknown mode " + std::to_string(s.mode));
    if (s.pid < 0) return fail(err, where + ": negative pid");
    if (s.reserved != 0) return fail(err, where + ": reserved bits set");
    if (s.depth > prof::kMaxCallers) return fail(err, where + ": call stack deeper than the format allows");
    return true;
}

}  // namespace

bool parse_prof_dump(const std::vector<u8>& bytes, ProfDump* out, std::string* err) {
    DumpHeader h{};
    if (!copy_header(bytes, kProfile, &h, err) || !check_header(h, bytes.size(), err)) return false;
    std::vector<Sample> all;
    u64 off = sizeof(h);
    for (u32 hart = 0; hart < h.harts; hart++) {
        for (u64 i = 0; i < h.counts[hart]; i++, off += sizeof(Sample)) {
            Sample s{};
            std::memcpy(&s, bytes.data() + off, sizeof(s));
            if (!check_sample(s, hart, i, err)) return false;
            all.push_back(s);
        }
    }
    out->header = h;
    out->samples = std::move(all);
    return true;
}

bool read_prof_from_image(const Image& img, const std::string& path, std::vector<u8>* out, std::string* err) {
    auto size = [](const std::vector<u8>& first) { return split_dump_size(first, kProfile); };
    return read_split_dump(img, path, "prof", size, out, err);
}

std::string sample_name(const Sample& s) {
    size_t n = 0;
    while (n < prof::kNameLen && s.name[n] != 0) n++;
    return std::string(s.name, n);
}

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
