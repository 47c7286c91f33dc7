// tests/host/prof_reader_test.cc - the host side of the sampling profiler.
//
// Builds dumps in memory in the kernel's format (lib/obs/format.h) and a
// small ELF file with a symbol table, and checks: a valid dump parses; each
// kind of bad dump (truncated, trailing bytes, bad magic, other version,
// impossible counts, bad samples) is refused with its own message; random
// truncations and byte flips of dumps and of the ELF never crash the reader
// or the symboliser (the -san binary runs this under ASan/UBSan); symbols
// resolve to the nearest function below, nothing outside text, C++ names
// demangled without parameters; a dump is found in a disk image, parts
// joined; qprof's flat profile, folded stacks and one-line errors.
#include <elf.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <random>
#include <string>

#include "tests/host/obs_test_util.h"
#include "tools/obs_reader.h"
#include "tools/symbols.h"

namespace {

using namespace q;
using namespace q::tools;
using prof::DumpHeader;
using prof::Sample;

constexpr u64 kText = 0x80000000;

Sample smp(u8 cpu, int pid, const char* name, prof::Mode mode, u64 pc, u64 caller = 0) {
    Sample s{};
    if (caller) {
        s.callers[0] = caller;
        s.depth = 1;
    }
    s.pc = pc;
    s.pid = pid;
    s.cpu = cpu;
    s.mode = static_cast<u8>(mode);
    std::strncpy(s.name, name, sizeof(s.name));
    return s;
}

std::vector<std::vector<Sample>> sample_set() {
    return {
        {smp(0, 3, "hog", prof::Mode::User, 0x1010), smp(0, 3, "hog", prof::Mode::Kernel, kText + 0x104),
         smp(0, 0, "", prof::Mode::Kernel, kText + 0x208)},
        {smp(1, 4, "benchos", prof::Mode::Kernel, kText + 0x104, kText + 0x100),
         smp(1, 4, "benchos", prof::Mode::Kernel, kText + 0x110, kText + 0x100)},
    };
}

std::vector<u8> dump(const std::vector<std::vector<Sample>>& harts) {
    return test::obs_dump(DumpHeader{}, obs::Kind::Profile, prof::kVersion, harts, 1000, 2000);
}

// A minimal ELF64: .text at kText (0x400 bytes), three function symbols,
// an untyped assembly label, a data object, and a mangled C++ name.
std::vector<u8> mini_elf() {
    const char strtab[] = "\0q_start\0_ZN1q5breadEjj\0kernelvec\0g_data\0$x\0";
    const char shstr[] = "\0.text\0.symtab\0.strtab\0.shstrtab\0.data\0";
    std::vector<Elf64_Sym> syms(1);
    auto sym = [&](u32 name, int type, u16 shndx, u64 value, u64 size) {
        Elf64_Sym s{};
        s.st_name = name;
        s.st_info = static_cast<unsigned char>(ELF64_ST_INFO(STB_GLOBAL, type));
        s.st_shndx = shndx;
        s.st_value = value;
        s.st_size = size;
        syms.push_back(s);
    };
    sym(1, STT_FUNC, 1, kText, 0x100);          // q_start
    sym(9, STT_FUNC, 1, kText + 0x100, 0x100);  // q::bread(unsigned, unsigned)
    sym(24, STT_NOTYPE, 1, kText + 0x200, 0);   // kernelvec
    sym(34, STT_OBJECT, 5, kText + 0x1000, 8);  // g_data (not code)
    sym(41, STT_NOTYPE, 1, kText + 0x300, 0);   // $x mapping symbol (skipped)
    std::vector<u8> out(sizeof(Elf64_Ehdr));
    auto append = [&](const void* p, size_t n) {
        const u64 off = out.size();
        out.insert(out.end(), static_cast<const u8*>(p), static_cast<const u8*>(p) + n);
        return off;
    };
    const u64 sym_off = append(syms.data(), syms.size() * sizeof(Elf64_Sym));
    const u64 str_off = append(strtab, sizeof(strtab));
    const u64 shstr_off = append(shstr, sizeof(shstr));
    std::vector<Elf64_Shdr> sh(6);
    sh[1] = {1, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, kText, 0, 0x400, 0, 0, 4, 0};  // .text (NOBITS-like)
    sh[2] = {7, SHT_SYMTAB, 0, 0, sym_off, syms.size() * sizeof(Elf64_Sym), 3, 1, 8, sizeof(Elf64_Sym)};
    sh[3] = {15, SHT_STRTAB, 0, 0, str_off, sizeof(strtab), 0, 0, 1, 0};
    sh[4] = {23, SHT_STRTAB, 0, 0, shstr_off, sizeof(shstr), 0, 0, 1, 0};
    sh[5] = {33, SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, kText + 0x1000, 0, 8, 0, 0, 8, 0};
    while (out.size() % 8) out.push_back(0);
    const u64 sh_off = append(sh.data(), sh.size() * sizeof(Elf64_Shdr));
    Elf64_Ehdr eh{};
    std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
    eh.e_ident[EI_CLASS] = ELFCLASS64;
    eh.e_ident[EI_DATA] = ELFDATA2LSB;
    eh.e_ident[EI_VERSION] = EV_CURRENT;
    eh.e_type = ET_EXEC;
    eh.e_machine = EM_RISCV;
    eh.e_version = EV_CURRENT;
    eh.e_shoff = sh_off;
    eh.e_ehsize = sizeof(Elf64_Ehdr);
    eh.e_shentsize = sizeof(Elf64_Shdr);
    eh.e_shnum = static_cast<u16>(sh.size());
    eh.e_shstrndx = 4;
    std::memcpy(out.data(), &eh, sizeof(eh));
    return out;
}

std::string parse_error(const std::vector<u8>& bytes) {
    ProfDump d;
    std::string err;
    return parse_prof_dump(bytes, &d, &err) ? "" : err;
}

TEST(ProfReader, ParsesAValidDump) {
    ProfDump d;
    std::string err;
    ASSERT_TRUE(parse_prof_dump(dump(sample_set()), &d, &err)) << err;
    ASSERT_EQ(d.samples.size(), 5u);
    EXPECT_EQ(d.header.harts, 2u);
    EXPECT_EQ(d.samples[0].pc, 0x1010u);
    EXPECT_EQ(sample_name(d.samples[3]), "benchos");
    EXPECT_EQ(d.samples[4].cpu, 1);
}

TEST(ProfReader, RefusesBadDumpsWithOneReason) {
    const std::vector<u8> good = dump(sample_set());
    auto with_header = [&](auto edit) {
        std::vector<u8> b = good;
        DumpHeader h{};
        std::memcpy(&h, b.data(), sizeof(h));
        edit(h);
        std::memcpy(b.data(), &h, sizeof(h));
        return parse_error(b);
    };
    EXPECT_EQ(parse_error(std::vector<u8>(good.begin(), good.begin() + 100)),
              "truncated profile dump: 100 bytes, a header needs 256");
    EXPECT_EQ(parse_error(std::vector<u8>(good.begin(), good.end() - 1)),
              "truncated profile dump: 895 bytes, the header says 896");
    std::vector<u8> longer = good;
    longer.push_back(0);
    EXPECT_EQ(parse_error(longer), "corrupt profile dump: 897 bytes, the header says 896");
    EXPECT_EQ(with_header([](DumpHeader& h) { h.magic ^= 1; }), "not a quanta profile dump (bad magic)");
    EXPECT_NE(with_header([](DumpHeader& h) { h.version = 9; }).find("profile dump version 9"), std::string::npos);
    EXPECT_NE(with_header([](DumpHeader& h) { h.record_size = 40; }).find("sample size"), std::string::npos);
    EXPECT_NE(with_header([](DumpHeader& h) { h.harts = 9; }).find("9 harts"), std::string::npos);
    EXPECT_NE(with_header([](DumpHeader& h) { h.period_cycles = 0; }).find("zero period"), std::string::npos);
    EXPECT_NE(with_header([](DumpHeader& h) { h.counts[1] = 5000; }).find("hart 1 sample count"), std::string::npos);
    EXPECT_NE(with_header([](DumpHeader& h) { h.dropped[5] = 1; }).find("hart 5 sample count"), std::string::npos);
    EXPECT_NE(with_header([](DumpHeader& h) { h.stop_time = 1; }).find("stops before"), std::string::npos);
    auto with_sample = [&](size_t i, auto edit) {
        std::vector<u8> b = good;
        Sample s{};
        std::memcpy(&s, b.data() + sizeof(DumpHeader) + i * sizeof(Sample), sizeof(s));
        edit(s);
        std::memcpy(b.data() + sizeof(DumpHeader) + i * sizeof(Sample), &s, sizeof(s));
        return parse_error(b);
    };
    EXPECT_EQ(with_sample(3, [](Sample& s) { s.cpu = 0; }),
              "corrupt profile dump: hart 1 sample 0: taken by hart 0 in another's section");
    EXPECT_EQ(with_sample(0, [](Sample& s) { s.mode = 2; }), "corrupt profile dump: hart 0 sample 0: unknown mode 2");
    EXPECT_EQ(with_sample(1, [](Sample& s) { s.pid = -1; }), "corrupt profile dump: hart 0 sample 1: negative pid");
    EXPECT_EQ(with_sample(2, [](Sample& s) { s.reserved = 1; }),
              "corrupt profile dump: hart 0 sample 2: reserved bits set");
    EXPECT_EQ(with_sample(4, [](Sample& s) { s.depth = prof::kMaxCallers + 1; }),
              "corrupt profile dump: hart 1 sample 1: call stack deeper than the format allows");
}

TEST(ProfSymbols, NearestFunctionBelowInsideText) {
    Symbols s;
    std::string err;
    ASSERT_TRUE(s.parse(mini_elf(), &err)) << err;
    EXPECT_EQ(s.size(), 3u);  // q_start, bread, kernelvec (no object, no $x)
    EXPECT_EQ(s.lookup(kText), "q_start");
    EXPECT_EQ(s.lookup(kText + 0xff), "q_start");
    EXPECT_EQ(s.lookup(kText + 0x104), "q::bread");
    EXPECT_EQ(s.lookup(kText + 0x208), "kernelvec");
    EXPECT_EQ(s.lookup(kText + 0x308), "kernelvec");  // $x is not a function
    EXPECT_EQ(s.lookup(kText - 4), "");               // below text
    EXPECT_EQ(s.lookup(kText + 0x400), "");           // past text
    EXPECT_EQ(s.lookup(kText + 0x1000), "");          // data
    EXPECT_EQ(demangle("_ZN1q12_GLOBAL__N_14stepEPKc"), "q::(anonymous namespace)::step");
    EXPECT_EQ(demangle("main"), "main");
}

TEST(ProfSymbols, RefusesBadElfWithOneReason) {
    Symbols s;
    std::string err;
    EXPECT_FALSE(s.parse({1, 2, 3}, &err));
    EXPECT_EQ(err, "not an ELF file (too short)");
    std::vector<u8> e = mini_elf();
    e[0] = 0;
    EXPECT_FALSE(s.parse(e, &err));
    EXPECT_EQ(err, "not an ELF file (bad magic)");
    e = mini_elf();
    e.resize(e.size() - 8);
    EXPECT_FALSE(s.parse(e, &err));
    EXPECT_EQ(err, "ELF section headers out of range");
}

void exercise(const std::vector<u8>& bytes, const Symbols& syms) {
    ProfDump d;
    std::string err;
    if (!parse_prof_dump(bytes, &d, &err)) {
        EXPECT_FALSE(err.empty());
        EXPECT_EQ(err.find('\n'), std::string::npos);
        return;
    }
    for (const Sample& s : d.samples) {
        (void)syms.lookup(s.pc);
        (void)sample_name(s);
    }
}

TEST(ProfReader, FuzzTruncatedAndRandomDumpsAndElves) {
    Symbols syms;
    std::string err;
    ASSERT_TRUE(syms.parse(mini_elf(), &err)) << err;
    const std::vector<u8> good = dump(sample_set());
    std::mt19937_64 rng(18);
    for (size_t n = 0; n <= good.size(); n++) exercise(std::vector<u8>(good.begin(), good.begin() + n), syms);
    for (int i = 0; i < 20000; i++) {
        std::vector<u8> b = good;
        const int flips = 1 + static_cast<int>(rng() % 8);
        for (int k = 0; k < flips; k++) b[rng() % b.size()] ^= static_cast<u8>(1u << (rng() % 8));
        if (i % 2) std::memcpy(b.data(), good.data(), sizeof(DumpHeader));  // fuzz the samples
        exercise(b, syms);
    }
    for (int i = 0; i < 2000; i++) {
        std::vector<u8> b(rng() % 2048);
        for (u8& c : b) c = static_cast<u8>(rng());
        if (b.size() >= sizeof(DumpHeader) && i % 2) std::memcpy(b.data(), good.data(), 64);
        exercise(b, syms);
    }
    const std::vector<u8> elf = mini_elf();
    for (size_t n = 0; n <= elf.size(); n++) {
        Symbols s;
        if (s.parse(std::vector<u8>(elf.begin(), elf.begin() + n), &err)) (void)s.lookup(kText + 0x104);
    }
    for (int i = 0; i < 20000; i++) {
        std::vector<u8> b = elf;
        const int flips = 1 + static_cast<int>(rng() % 8);
        for (int k = 0; k < flips; k++) b[rng() % b.size()] ^= static_cast<u8>(1u << (rng() % 8));
        Symbols s;
        if (s.parse(b, &err))
            for (u64 pc = kText; pc < kText + 0x400; pc += 0x40) (void)s.lookup(pc);
    }
}

TEST(ProfImage, FindsAndJoinsParts) {
    std::vector<std::vector<Sample>> harts = sample_set();
    for (int i = 0; i < 300; i++) harts[1].push_back(smp(1, 4, "benchos", prof::Mode::User, 0x2000 + i));
    const std::vector<u8> bytes = dump(harts);
    ASSERT_GT(bytes.size(), 4096u);
    const Image img = test::image_with_parts("p.dat", bytes);
    std::string err;
    std::vector<u8> got;
    ASSERT_TRUE(read_prof_from_image(img, "/p.dat", &got, &err)) << err;
    EXPECT_EQ(got, bytes);
    EXPECT_FALSE(read_prof_from_image(img, "/half.dat", &got, &err));
    EXPECT_NE(err.find("truncated prof dump: part /half.dat.1 is missing"), std::string::npos) << err;
    EXPECT_FALSE(read_prof_from_image(img, "/prof.dat", &got, &err));
    EXPECT_EQ(err, "no prof dump /prof.dat in the image (run `prof dump /prof.dat`)");
}

using test::run;
using test::temp_file;

TEST(Qprof, FlatProfileFoldedStacksAndErrors) {
    const std::string elf = temp_file(mini_elf());
    const std::string good = temp_file(dump(sample_set()));
    std::vector<u8> cut = dump(sample_set());
    cut.resize(cut.size() - 1);
    const std::string bad = temp_file(cut);
    const std::string qprof = std::string(Q_QPROF_PATH) + " -k " + elf + " -u /nonexistent";
    std::string out;
    ASSERT_EQ(run(qprof + " --dump " + good, &out), 0) << out;
    EXPECT_NE(out.find("# 5 samples on 2 harts every 1000 us (3 kernel, 1 user, 1 idle; 0 dropped)"), std::string::npos)
        << out;
    EXPECT_NE(out.find("       3  60.00%  60.00%  kernel  q::bread\n"), std::string::npos) << out;
    EXPECT_NE(out.find("       1  20.00%  20.00%  user    hog:0x1010\n"), std::string::npos) << out;
    EXPECT_NE(out.find("       1  20.00%  20.00%  idle    kernelvec\n"), std::string::npos) << out;
    // A caller's return address at the next function's first byte is
    // still the caller's (a call as its last instruction): looked up at ra - 2.
    EXPECT_NE(out.find("       0   0.00%  40.00%  kernel  q_start\n"), std::string::npos) << out;
    EXPECT_EQ(run(qprof + " --dump " + good + " --folded -", &out), 0) << out;
    EXPECT_EQ(out,
              "benchos[4];kernel;q_start;q::bread 2\n"
              "hog[3];kernel;q::bread 1\nhog[3];user;hog:0x1010 1\nidle;kernel;kernelvec 1\n");
    EXPECT_EQ(run(qprof + " --dump " + bad, &out), 1);
    EXPECT_EQ(out, "qprof: " + bad + ": truncated profile dump: 895 bytes, the header says 896\n");
    EXPECT_EQ(run(qprof + " /nonexistent.img", &out), 1);
    EXPECT_EQ(out, "qprof: cannot open /nonexistent.img\n");
    EXPECT_EQ(run(std::string(Q_QPROF_PATH) + " -k /nonexistent.elf --dump " + good, &out), 1);
    EXPECT_EQ(out, "qprof: kernel symbols: cannot open /nonexistent.elf\n");
    EXPECT_EQ(run(qprof + " --bogus x", &out), 2);
    EXPECT_EQ(run(qprof + " --dump " + good + " --top x", &out), 1);
    std::remove(elf.c_str());
    std::remove(good.c_str());
    std::remove(bad.c_str());
}

}  // namespace
