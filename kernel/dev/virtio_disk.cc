// kernel/dev/virtio_disk.cc - virtio-blk driver (modern virtio-mmio, slot 0).
//
// One virtqueue of kQueueSize descriptors. A request uses three chained
// descriptors: header (device reads), data block (device reads or writes),
// status byte (device writes). disk_rw() queues it, notifies the device and
// sleeps on the Buf until disk_intr() sees it in the used ring. A request the
// device fails (status byte not 0) is an IoError for the caller, not a panic:
// the log decides what a failed write means (kernel/fs/log.cc).
// Invariants (under g_lock): g_disk.free[i] says whether descriptor i is
// free; g_disk.info[head].b names the Buf of the request whose chain starts
// at head (its status byte is info[head].status), and b->disk stays true
// until disk_intr() sees the request completed.
#include "kernel/dev/disk.h"

#include "kernel/arch/riscv/memlayout.h"
#include "kernel/arch/riscv/virtio_mmio.h"
#include "kernel/dev/virtio.h"
#include "kernel/fs/buf.h"
#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/proc/proc.h"

namespace q {

using namespace virtio;

namespace {

struct Disk {
    Desc* desc;
    Avail* avail;
    Used* used;
    bool free[kQueueSize];
    u16 used_seen;
    struct {
        Buf* b;
        u8 status;
    } info[kQueueSize];
    BlkReq req[kQueueSize];
};

constinit Disk g_disk;
constinit SpinLock g_lock("virtio_disk");

volatile u32& reg(Reg r) { return virtio_reg(layout::kVirtio0, r); }

int alloc_desc() {
    for (u32 i = 0; i < kQueueSize; i++) {
        if (g_disk.free[i]) {
            g_disk.free[i] = false;
            return static_cast<int>(i);
        }
    }
    return -1;
}

void free_desc(int i) {
    if (i < 0 || i >= static_cast<int>(kQueueSize) || g_disk.free[i]) panic("virtio: bad free of desc %d", i);
    g_disk.desc[i] = Desc{};
    g_disk.free[i] = true;
    wakeup(&g_disk.free[0]);
}

void free_chain(int i) {
    for (;;) {
        const bool more = g_disk.desc[i].flags & kDescNext;
        const int next = g_disk.desc[i].next;
        free_desc(i);
        if (!more) break;
        i = next;
    }
}

bool alloc3(int idx[3]) {
    for (int i = 0; i < 3; i++) {
        idx[i] = alloc_desc();
        if (idx[i] < 0) {
            for (int j = 0; j < i; j++) free_desc(idx[j]);
            return false;
        }
    }
    return true;
}

}  // namespace

void disk_init() {
    if (!virtio_probe(layout::kVirtio0, kDeviceBlock))
        panic("virtio disk: no modern virtio-blk device at %p (run QEMU with -global virtio-mmio.force-legacy=false)",
              reinterpret_cast<void*>(layout::kVirtio0));
    constexpr u32 kRefused =
        kBlkReadOnly | kBlkScsi | kBlkConfigWce | kBlkMultiQueue | kAnyLayout | kRingEventIdx | kRingIndirect;
    VirtQueue vq;
    const char* why = "";
    if (!virtio_start(layout::kVirtio0, ~kRefused, 0, &vq, &why)) panic("virtio disk: %s", why);
    g_disk.desc = vq.desc;
    g_disk.avail = vq.avail;
    g_disk.used = vq.used;
    for (bool& f : g_disk.free) f = true;
}

Status disk_rw(Buf* b, bool write) {
    const u64 sector = static_cast<u64>(b->blockno) * (fs::kBlockSize / 512);
    int idx[3];
    {
        LockGuard g(g_lock);
        while (!alloc3(idx)) sleep(&g_disk.free[0], g_lock);

        BlkReq* req = &g_disk.req[idx[0]];
        req->type = write ? kBlkOut : kBlkIn;
        req->reserved = 0;
        req->sector = sector;
        g_disk.desc[idx[0]] = Desc{reinterpret_cast<u64>(req), sizeof(BlkReq), kDescNext, static_cast<u16>(idx[1])};
        g_disk.desc[idx[1]] = Desc{reinterpret_cast<u64>(b->data), fs::kBlockSize,
                                   static_cast<u16>(kDescNext | (write ? 0 : kDescWrite)), static_cast<u16>(idx[2])};
        g_disk.info[idx[0]].status = 0xff;  // device writes 0 on success
        g_disk.desc[idx[2]] = Desc{reinterpret_cast<u64>(&g_disk.info[idx[0]].status), 1, kDescWrite, 0};

        b->disk = true;
        g_disk.info[idx[0]].b = b;
        g_disk.avail->ring[g_disk.avail->idx % kQueueSize] = static_cast<u16>(idx[0]);
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        g_disk.avail->idx++;
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    }
    // Notify outside the lock: the completion may be handled on another hart
    // at once, and (under single-threaded QEMU) this hart may not run again
    // for a while after the MMIO write; it must not hold the lock meanwhile.
    // No wakeup is lost: b->disk is tested under the lock before sleeping.
    reg(Reg::QueueNotify) = 0;

    LockGuard g(g_lock);
    while (b->disk) sleep(b, g_lock);
    const u8 status = g_disk.info[idx[0]].status;
    g_disk.info[idx[0]].b = nullptr;
    free_chain(idx[0]);
    if (status == 0) return {};
    kprintf("virtio disk: I/O error (status %d) %s block %u\n", status, write ? "writing" : "reading", b->blockno);
    return Error::IoError;
}

void disk_intr() {
    LockGuard g(g_lock);
    reg(Reg::InterruptAck) = reg(Reg::InterruptStatus) & 0x3;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    while (g_disk.used_seen != g_disk.used->idx) {
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        const u32 id = g_disk.used->ring[g_disk.used_seen % kQueueSize].id;
        if (id >= kQueueSize || !g_disk.info[id].b) panic("virtio disk: bogus completion %d", id);
        Buf* b = g_disk.info[id].b;
        b->disk = false;
        wakeup(b);
        g_disk.used_seen++;
    }
}

}  // namespace q
