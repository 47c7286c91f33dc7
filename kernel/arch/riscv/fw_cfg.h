// kernel/arch/riscv/fw_cfg.h - QEMU's firmware configuration device (fw_cfg)
// as the virt machine exposes it over MMIO, and the ramfb configuration blob.
//
// Registers (QEMU docs/specs/fw_cfg.rst), at kBase:
//   +0x00 data      8 bytes, a byte stream ("string preserving")
//   +0x08 selector  16 bits, big-endian: which item the data register reads
//   +0x10 DMA       64-bit physical address of a DmaAccess, big-endian;
//                   writing the low half (+0x14) starts the transfer
// Every multi-byte field of a DmaAccess, of the file directory (item
// kFileDir) and of the ramfb configuration is big-endian; the helpers below
// convert. Layouts are pinned with static_asserts.
#pragma once

#include "lib/types.h"

namespace q::fw_cfg {

constexpr u64 kBase = 0x1010'0000;  // VIRT_FW_CFG on QEMU's riscv virt
constexpr u64 kSize = 0x18;

enum class Reg : u32 {
    Data = 0x00,
    Selector = 0x08,
    DmaHigh = 0x10,  // high 32 bits of the DmaAccess address
    DmaLow = 0x14,   // low 32 bits; the write that starts the transfer
};

// Well-known selectors.
constexpr u16 kSignature = 0x0000;  // "QEMU"
constexpr u16 kId = 0x0001;         // feature bitmap, little-endian u32
constexpr u16 kFileDir = 0x0019;    // be32 count, then count FileEntry
constexpr u32 kIdTraditional = 1u << 0;
constexpr u32 kIdDma = 1u << 1;

// DmaAccess.control bits; with kDmaSelect the selector is in bits 31..16.
constexpr u32 kDmaError = 1u << 0;
constexpr u32 kDmaRead = 1u << 1;
constexpr u32 kDmaSkip = 1u << 2;
constexpr u32 kDmaSelect = 1u << 3;
constexpr u32 kDmaWrite = 1u << 4;

struct DmaAccess {
    u32 control;  // be32; the device clears it (or leaves kDmaError) when done
    u32 length;   // be32
    u64 address;  // be64 guest-physical address of the buffer
};
static_assert(sizeof(DmaAccess) == 16, "FWCfgDmaAccess is 16 bytes");
static_assert(offsetof(DmaAccess, length) == 4 && offsetof(DmaAccess, address) == 8, "FWCfgDmaAccess layout");

constexpr usize kFileNameSize = 56;
struct FileEntry {
    u32 size;      // be32
    u16 select;    // be16
    u16 reserved;  // be16
    char name[kFileNameSize];
};
static_assert(sizeof(FileEntry) == 64, "FWCfgFile is 64 bytes");
static_assert(offsetof(FileEntry, select) == 4 && offsetof(FileEntry, name) == 8, "FWCfgFile layout");

// "etc/ramfb" (QEMU hw/display/ramfb.c): the guest writes one RamfbCfg to
// configure the scan-out of guest memory; every field big-endian.
constexpr char kRamfbFile[] = "etc/ramfb";
struct [[gnu::packed]] RamfbCfg {
    u64 addr;    // guest-physical address of the first pixel
    u32 fourcc;  // DRM fourcc
    u32 flags;   // 0
    u32 width;
    u32 height;
    u32 stride;  // bytes per row
};
static_assert(sizeof(RamfbCfg) == 28, "RAMFBCfg is 28 bytes");
static_assert(offsetof(RamfbCfg, fourcc) == 8 && offsetof(RamfbCfg, width) == 16 && offsetof(RamfbCfg, stride) == 24,
              "RAMFBCfg layout");

// DRM_FORMAT_XRGB8888: fourcc 'X','R','2','4' as a little-endian u32; each
// pixel a little-endian u32 0x00RRGGBB.
constexpr u32 fourcc(char a, char b, char c, char d) {
    return static_cast<u32>(static_cast<u8>(a)) | static_cast<u32>(static_cast<u8>(b)) << 8 |
           static_cast<u32>(static_cast<u8>(c)) << 16 | static_cast<u32>(static_cast<u8>(d)) << 24;
}
constexpr u32 kFormatXrgb8888 = fourcc('X', 'R', '2', '4');
static_assert(kFormatXrgb8888 == 0x34325258, "DRM_FORMAT_XRGB8888");

// Big-endian conversions (RISC-V is little-endian). Shifts, not
// __builtin_bswap*: rv64imac has no byte-swap instruction and the kernel
// links no libgcc for __bswapsi2/__bswapdi2.
constexpr u16 be16(u16 v) { return static_cast<u16>(v << 8 | v >> 8); }
constexpr u32 be32(u32 v) {
    return static_cast<u32>(be16(static_cast<u16>(v))) << 16 | be16(static_cast<u16>(v >> 16));
}
constexpr u64 be64(u64 v) {
    return static_cast<u64>(be32(static_cast<u32>(v))) << 32 | be32(static_cast<u32>(v >> 32));
}
static_assert(be32(0x11223344) == 0x44332211 && be64(0x0102030405060708) == 0x0807060504030201, "byte swap");

}  // namespace q::fw_cfg
