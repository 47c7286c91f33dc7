// lib/elf.h - the parts of the ELF64 format exec needs.
//
// Layouts pinned by static_assert; shared with host tests so exec's header
// checks can be exercised on real binaries.
#pragma once

#include "lib/types.h"

namespace q::elf {

constexpr u32 kMagic = 0x464C457FU;  // "\x7FELF" little endian
constexpr u32 kProgLoad = 1;
constexpr u32 kFlagExec = 1;
constexpr u32 kFlagWrite = 2;
constexpr u32 kFlagRead = 4;

struct Header {
    u32 magic;
    u8 elf[12];
    u16 type;
    u16 machine;
    u32 version;
    u64 entry;
    u64 phoff;
    u64 shoff;
    u32 flags;
    u16 ehsize;
    u16 phentsize;
    u16 phnum;
    u16 shentsize;
    u16 shnum;
    u16 shstrndx;
};
static_assert(sizeof(Header) == 64);

struct ProgHeader {
    u32 type;
    u32 flags;
    u64 off;
    u64 vaddr;
    u64 paddr;
    u64 filesz;
    u64 memsz;
    u64 align;
};
static_assert(sizeof(ProgHeader) == 56);

}  // namespace q::elf
