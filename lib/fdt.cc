// lib/fdt.cc - see fdt.h. The structure block is a stream of big-endian
// tokens: BEGIN_NODE name, PROP (len, name offset, value), END_NODE, NOP,
// END. We track the path depth to recognise /memory*, /cpus/cpu* and
// /chosen; #address-cells and #size-cells of the root decide how wide the
// memory node's reg values are (QEMU virt: 2 and 2).
#include "lib/fdt.h"

namespace q::fdt {

namespace {

constexpr u32 kMagic = 0xd00dfeed;
enum Token : u32 { BeginNode = 1, EndNode = 2, Prop = 3, Nop = 4, End = 9 };

u32 be32(const u8* p) { return (u32(p[0]) << 24) | (u32(p[1]) << 16) | (u32(p[2]) << 8) | u32(p[3]); }

bool starts_with(const char* s, const char* prefix) {
    for (; *prefix; s++, prefix++) {
        if (*s != *prefix) return false;
    }
    return true;
}

bool equals(const char* a, const char* b) {
    for (; *a && *a == *b; a++, b++) {}
    return *a == *b;
}

// Bounded strlen: length of the string at p, or -1 if it runs past end.
i64 str_len(const u8* p, const u8* end) {
    for (const u8* s = p; s < end; s++) {
        if (*s == 0) return s - p;
    }
    return -1;
}

u64 read_cells(const u8* p, u32 cells) {
    u64 v = 0;
    for (u32 i = 0; i < cells; i++) v = (v << 32) | be32(p + 4 * i);
    return v;
}

enum class Node { Other, Root, Memory, Cpus, Cpu, Chosen };

}  // namespace

bool parse(const void* blob, u64 max_size, BootInfo* out) {
    const auto* base = static_cast<const u8*>(blob);
    if (max_size < 40 || be32(base) != kMagic) return false;
    const u64 total = be32(base + 4);
    if (total > max_size) return false;
    const u64 off_struct = be32(base + 8);
    const u64 off_strings = be32(base + 12);
    const u64 size_strings = be32(base + 32);
    const u64 size_struct = be32(base + 36);
    if (off_struct + size_struct > total || off_strings + size_strings > total) return false;
    const u8* p = base + off_struct;
    const u8* end = p + size_struct;
    const u8* strings = base + off_strings;
    const u8* strings_end = strings + size_strings;

    *out = BootInfo{};
    constexpr int kMaxDepth = 16;
    Node stack[kMaxDepth];
    int depth = 0;
    u32 addr_cells = 2, size_cells = 1;
    bool memory_done = false;
    while (p + 4 <= end) {
        const u32 tok = be32(p);
        p += 4;
        if (tok == BeginNode) {
            const i64 n = str_len(p, end);
            if (n < 0 || depth >= kMaxDepth) return false;
            const char* name = reinterpret_cast<const char*>(p);
            Node kind = Node::Other;
            if (depth == 0) kind = Node::Root;
            else if (depth == 1 && starts_with(name, "memory")) kind = Node::Memory;
            else if (depth == 1 && equals(name, "cpus")) kind = Node::Cpus;
            else if (depth == 1 && equals(name, "chosen")) kind = Node::Chosen;
            else if (depth == 2 && stack[1] == Node::Cpus && starts_with(name, "cpu@")) kind = Node::Cpu;
            if (kind == Node::Cpu) out->ncpus++;
            stack[depth++] = kind;
            p += (n + 1 + 3) & ~3;
        } else if (tok == EndNode) {
            if (depth == 0) return false;
            depth--;
        } else if (tok == Prop) {
            if (p + 8 > end || depth == 0) return false;
            const u32 len = be32(p);
            const u32 nameoff = be32(p + 4);
            p += 8;
            if (p + len > end || strings + nameoff >= strings_end) return false;
            const char* pname = reinterpret_cast<const char*>(strings + nameoff);
            if (str_len(strings + nameoff, strings_end) < 0) return false;
            const Node node = stack[depth - 1];
            if (node == Node::Root && equals(pname, "#address-cells") && len == 4) addr_cells = be32(p);
            if (node == Node::Root && equals(pname, "#size-cells") && len == 4) size_cells = be32(p);
            if (node == Node::Memory && !memory_done && equals(pname, "reg") && addr_cells <= 2 && size_cells <= 2 &&
                len >= 4 * (addr_cells + size_cells)) {
                out->mem_base = read_cells(p, addr_cells);
                out->mem_size = read_cells(p + 4 * addr_cells, size_cells);
                memory_done = true;
            }
            if (node == Node::Chosen && equals(pname, "bootargs")) {
                u32 i = 0;
                for (; i + 1 < sizeof(out->bootargs) && i < len && p[i]; i++)
                    out->bootargs[i] = static_cast<char>(p[i]);
                out->bootargs[i] = 0;
            }
            p += (len + 3) & ~3u;
        } else if (tok == Nop) {
            continue;
        } else if (tok == End) {
            return depth == 0;
        } else {
            return false;
        }
    }
    return false;
}

}  // namespace q::fdt
