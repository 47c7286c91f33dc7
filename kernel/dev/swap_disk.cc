// kernel/dev/swap_disk.cc - the swap disk: virtio-blk in slot 2, polled.
//
// A disk of its own keeps the file system's disk (slot 0) exactly what
// mkfs and fsck know: swap traffic never touches it, so a crash during a
// page-out leaves it as clean as any other crash would. The driver is the
// smallest one that works: one request at a time (the SleepLock g_io), three
// descriptors (header, one 4096-byte page, status byte), the device's
// interrupt left off at the PLIC (avail flag NO_INTERRUPT), and the caller
// polls the used ring, yielding its hart between looks so other processes
// run while QEMU does the transfer. Swap traffic is a page at a time, and
// under -icount guest time is virtual, so its cost shows in vmstat's
// counts, not in a timing. Capacity is the device's config word (512-byte
// sectors, virtio 1.x 5.2.4), read once at boot.
#include "kernel/dev/swap_disk.h"

#include "kernel/arch/riscv/memlayout.h"
#include "kernel/arch/riscv/virtio_mmio.h"
#include "kernel/dev/virtio.h"
#include "kernel/lib/kprintf.h"
#include "kernel/proc/proc.h"
#include "kernel/sync/sleeplock.h"

namespace q {

using namespace virtio;

namespace {

constexpr u64 kPage = 4096;
constexpr u64 kSectorsPerPage = kPage / 512;
constexpr u64 kConfigCapacity = 0x100;  // u64: sectors

struct SwapDisk {
    Desc* desc;
    Avail* avail;
    Used* used;
    u16 used_seen;
    BlkReq req;
    u8 status;
    u64 pages;
};

constinit SwapDisk g_sd = {};
constinit SleepLock g_io("swapdisk");

volatile u32& reg(Reg r) { return virtio_reg(layout::kVirtio2, r); }

u64 capacity_sectors() {
    const volatile u32* cfg = reinterpret_cast<volatile u32*>(layout::kVirtio2 + kConfigCapacity);
    return static_cast<u64>(cfg[0]) | static_cast<u64>(cfg[1]) << 32;
}

}  // namespace

u64 swap_disk_init() {
    if (!virtio_probe(layout::kVirtio2, kDeviceBlock)) return 0;
    constexpr u32 kRefused =
        kBlkReadOnly | kBlkScsi | kBlkConfigWce | kBlkMultiQueue | kAnyLayout | kRingEventIdx | kRingIndirect;
    VirtQueue vq;
    const char* why = "";
    if (!virtio_start(layout::kVirtio2, ~kRefused, 0, &vq, &why)) {
        kprintf("swap disk: %s: no swap\n", why);
        return 0;
    }
    g_sd.desc = vq.desc;
    g_sd.avail = vq.avail;
    g_sd.used = vq.used;
    g_sd.avail->flags = 1;  // VIRTQ_AVAIL_F_NO_INTERRUPT: we poll
    g_sd.pages = capacity_sectors() / kSectorsPerPage;
    return g_sd.pages;
}

Status swap_disk_rw(u64 slot, void* mem, bool write) {
    if (slot >= g_sd.pages) return Error::IoError;
    g_io.acquire();
    g_sd.req = BlkReq{write ? kBlkOut : kBlkIn, 0, slot * kSectorsPerPage};
    g_sd.status = 0xff;  // the device writes 0 on success
    g_sd.desc[0] = Desc{reinterpret_cast<u64>(&g_sd.req), sizeof(BlkReq), kDescNext, 1};
    g_sd.desc[1] = Desc{reinterpret_cast<u64>(mem), static_cast<u32>(kPage),
                        static_cast<u16>(kDescNext | (write ? 0 : kDescWrite)), 2};
    g_sd.desc[2] = Desc{reinterpret_cast<u64>(&g_sd.status), 1, kDescWrite, 0};
    g_sd.avail->ring[g_sd.avail->idx % kQueueSize] = 0;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    g_sd.avail->idx++;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    reg(Reg::QueueNotify) = 0;
    while (__atomic_load_n(&g_sd.used->idx, __ATOMIC_ACQUIRE) == g_sd.used_seen) yield_turn();
    g_sd.used_seen++;
    reg(Reg::InterruptAck) = reg(Reg::InterruptStatus) & 0x3;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    const u8 st = g_sd.status;
    g_io.release();
    if (st == 0) return {};
    kprintf("swap disk: I/O error (status %d) %s page %lu\n", st, write ? "writing" : "reading",
            static_cast<unsigned long>(slot));
    return Error::IoError;
}

}  // namespace q
