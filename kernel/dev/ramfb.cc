// kernel/dev/ramfb.cc - QEMU's ramfb display, configured through fw_cfg.
//
// ramfb_setup checks the fw_cfg signature and its DMA feature, reads the
// file directory (selector kFileDir) entry by entry with DMA until it finds
// "etc/ramfb", then DMA-writes one RamfbCfg naming the frame. From then on
// QEMU scans the frame out on every display refresh; the kernel never talks
// to the device again. Runs once on hart 0 before any process exists, so the
// static DMA descriptor and buffers (static: identity-mapped, so their
// kernel addresses are physical) need no lock.
#include "kernel/dev/ramfb.h"

#include "kernel/arch/riscv/fw_cfg.h"
#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"

namespace q {

namespace {

// DMA descriptor and buffers: static so their addresses are physical.
alignas(16) constinit fw_cfg::DmaAccess g_dma{};
constinit fw_cfg::FileEntry g_entry{};
constinit u32 g_count;
constinit fw_cfg::RamfbCfg g_cfg{};

volatile u8& data8() { return *reinterpret_cast<volatile u8*>(fw_cfg::kBase + static_cast<u32>(fw_cfg::Reg::Data)); }
volatile u32& reg32(fw_cfg::Reg r) { return *reinterpret_cast<volatile u32*>(fw_cfg::kBase + static_cast<u32>(r)); }

void select(u16 key) {
    *reinterpret_cast<volatile u16*>(fw_cfg::kBase + static_cast<u32>(fw_cfg::Reg::Selector)) = fw_cfg::be16(key);
}

// The first four bytes of item key through the data register, as a
// little-endian u32 (the byte stream in order).
u32 read_le32(u16 key) {
    select(key);
    u32 v = 0;
    for (int i = 0; i < 4; i++) v |= static_cast<u32>(data8()) << (8 * i);
    return v;
}

// One DMA transfer: control (kDma* bits, the selector in bits 31..16 with
// kDmaSelect) over len bytes at buf. QEMU finishes it during the triggering
// store; the bounded poll only guards against a device that does not.
bool dma(u32 control, void* buf, u32 len) {
    g_dma.control = fw_cfg::be32(control);
    g_dma.length = fw_cfg::be32(len);
    g_dma.address = fw_cfg::be64(reinterpret_cast<u64>(buf));
    __sync_synchronize();  // descriptor and buffer in memory before the device looks
    const u64 a = reinterpret_cast<u64>(&g_dma);
    reg32(fw_cfg::Reg::DmaHigh) = fw_cfg::be32(static_cast<u32>(a >> 32));
    reg32(fw_cfg::Reg::DmaLow) = fw_cfg::be32(static_cast<u32>(a));
    for (int spin = 0; spin < 1'000'000; spin++) {
        const u32 c = fw_cfg::be32(__atomic_load_n(&g_dma.control, __ATOMIC_ACQUIRE));
        if ((c & ~fw_cfg::kDmaError) == 0) return (c & fw_cfg::kDmaError) == 0;
    }
    return false;
}

u32 select_bits(u16 key) { return static_cast<u32>(key) << 16 | fw_cfg::kDmaSelect; }

// The selector of fw_cfg file `name`, or 0 when there is no such file.
u16 find_file(const char* name) {
    if (!dma(select_bits(fw_cfg::kFileDir) | fw_cfg::kDmaRead, &g_count, sizeof g_count)) return 0;
    const u32 n = fw_cfg::be32(g_count);
    for (u32 i = 0; i < n && i < 4096; i++) {
        if (!dma(fw_cfg::kDmaRead, &g_entry, sizeof g_entry)) return 0;
        g_entry.name[fw_cfg::kFileNameSize - 1] = 0;
        if (strncmp(g_entry.name, name, fw_cfg::kFileNameSize) == 0) return fw_cfg::be16(g_entry.select);
    }
    return 0;
}

}  // namespace

bool ramfb_setup(const void* frame, u32 width, u32 height, u32 stride) {
    if (read_le32(fw_cfg::kSignature) != fw_cfg::fourcc('Q', 'E', 'M', 'U') ||
        (read_le32(fw_cfg::kId) & fw_cfg::kIdDma) == 0) {
        kprintf("ramfb: no fw_cfg DMA interface\n");
        return false;
    }
    const u16 key = find_file(fw_cfg::kRamfbFile);
    if (key == 0) return false;  // no -device ramfb: quietly, the common case
    g_cfg.addr = fw_cfg::be64(reinterpret_cast<u64>(frame));
    g_cfg.fourcc = fw_cfg::be32(fw_cfg::kFormatXrgb8888);
    g_cfg.flags = 0;
    g_cfg.width = fw_cfg::be32(width);
    g_cfg.height = fw_cfg::be32(height);
    g_cfg.stride = fw_cfg::be32(stride);
    if (!dma(select_bits(key) | fw_cfg::kDmaWrite, &g_cfg, sizeof g_cfg)) {
        kprintf("ramfb: configuration rejected\n");
        return false;
    }
    return true;
}

}  // namespace q
