// kernel/dev/virtio_disk.cc - virtio-blk driver (modern virtio-mmio, slot 0).
//
// One virtqueue of kQueueSize descriptors. A request uses three chained
// descriptors: header (device reads), data (device reads or writes; one or
// more consecutive blocks from contiguous memory), status byte (device
// writes). submit() queues a request; the caller notifies the device and
// sleeps on the request's info slot until disk_intr() sees it in the used
// ring. disk_rw() does that for one cached block; disk_batch() puts several
// requests in flight at once (as many as free descriptors allow) and waits
// for them all, so a group of writes costs one round trip, not one each. A
// request the device fails (status byte not 0) is an IoError for the caller,
// not a panic: the log decides what a failed write means (kernel/fs/log.cc).
// Counters (disk_stats) record requests, blocks and round trips since boot:
// deterministic measures of the file system's disk traffic. A round trip is
// a wait with nothing else of the caller's in flight: one per disk_rw(),
// one per disk_batch() (more only if other callers hold every descriptor).
// Invariants (under g_lock): g_disk.free[i] says whether descriptor i is
// free; info[head].busy is true from submit() until disk_intr() sees the
// request whose chain starts at head completed (its status byte is
// info[head].status); info[head].b names the Buf of a disk_rw() request,
// whose b->disk stays true as long.
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
        Buf* b;  // disk_rw's buffer, or null for a disk_batch request
        bool busy;
        u8 status;
    } info[kQueueSize];
    BlkReq req[kQueueSize];
    DiskStats stats;
};

constinit Disk g_disk{};
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

// Queue one request (g_lock held); returns its head descriptor, or -1 when
// the descriptors are all in use. The caller notifies the device.
int submit(const DiskIo& io, Buf* b) {
    int idx[3];
    if (!alloc3(idx)) return -1;
    BlkReq* req = &g_disk.req[idx[0]];
    req->type = io.write ? kBlkOut : kBlkIn;
    req->reserved = 0;
    req->sector = static_cast<u64>(io.blockno) * (fs::kBlockSize / 512);
    g_disk.desc[idx[0]] = Desc{reinterpret_cast<u64>(req), sizeof(BlkReq), kDescNext, static_cast<u16>(idx[1])};
    g_disk.desc[idx[1]] = Desc{reinterpret_cast<u64>(io.data), io.nblocks * fs::kBlockSize,
                               static_cast<u16>(kDescNext | (io.write ? 0 : kDescWrite)), static_cast<u16>(idx[2])};
    g_disk.info[idx[0]].status = 0xff;  // device writes 0 on success
    g_disk.desc[idx[2]] = Desc{reinterpret_cast<u64>(&g_disk.info[idx[0]].status), 1, kDescWrite, 0};

    g_disk.info[idx[0]].b = b;
    g_disk.info[idx[0]].busy = true;
    if (b) b->disk = true;
    g_disk.avail->ring[g_disk.avail->idx % kQueueSize] = static_cast<u16>(idx[0]);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    g_disk.avail->idx++;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    DiskStats& s = g_disk.stats;
    (io.write ? s.write_requests : s.read_requests)++;
    (io.write ? s.blocks_written : s.blocks_read) += io.nblocks;
    return idx[0];
}

// Tell the device the available ring has new requests (g_lock held, as
// xv6 does: the completion interrupt, on any hart, waits for the lock).
// Under QEMU -icount this hart's turn may end at the MMIO write with the
// lock held; the spinlock's turn hand-off (kernel/arch/riscv/spin.h), on
// for -icount guests, gives it back the host thread.
void notify() { reg(Reg::QueueNotify) = 0; }

// Wait for the request at head to complete, free it (g_lock held).
Status finish(int head, const DiskIo& io) {
    while (g_disk.info[head].busy) sleep(&g_disk.info[head], g_lock);
    const u8 status = g_disk.info[head].status;
    g_disk.info[head].b = nullptr;
    free_chain(head);
    if (status == 0) return {};
    kprintf("virtio disk: I/O error (status %d) %s block %u (+%u)\n", status, io.write ? "writing" : "reading",
            io.blockno, io.nblocks - 1);
    return Error::IoError;
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
    const DiskIo io{b->blockno, 1, b->data, write};
    LockGuard g(g_lock);
    int head;
    while ((head = submit(io, b)) < 0) sleep(&g_disk.free[0], g_lock);
    g_disk.stats.round_trips++;
    notify();
    return finish(head, io);
}

Status disk_batch(const DiskIo* ios, u32 n) {
    constexpr u32 kMaxInFlight = kQueueSize / 3;
    int heads[kMaxInFlight];
    u32 first = 0, next = 0;  // ios[first, next) are in flight, heads[i % kMaxInFlight]
    Status result;
    LockGuard g(g_lock);
    while (first < n) {
        const u32 before = next;
        while (next < n && next - first < kMaxInFlight) {
            const int head = submit(ios[next], nullptr);
            if (head < 0) break;
            heads[next++ % kMaxInFlight] = head;
        }
        if (next != before) {
            if (before == first) g_disk.stats.round_trips++;  // (not when refilling behind requests in flight)
            notify();
        }
        if (first == next) {  // nothing of ours in flight: other callers hold every descriptor
            sleep(&g_disk.free[0], g_lock);
            continue;
        }
        // Wait for the oldest; the others go on in the device meanwhile.
        const Status s = finish(heads[first % kMaxInFlight], ios[first]);
        if (!s.ok() && result.ok()) result = s;
        first++;
    }
    return result;
}

DiskStats disk_stats() {
    LockGuard g(g_lock);
    return g_disk.stats;
}

void disk_intr() {
    LockGuard g(g_lock);
    reg(Reg::InterruptAck) = reg(Reg::InterruptStatus) & 0x3;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    while (g_disk.used_seen != g_disk.used->idx) {
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        const u32 id = g_disk.used->ring[g_disk.used_seen % kQueueSize].id;
        if (id >= kQueueSize || !g_disk.info[id].busy) panic("virtio disk: bogus completion %d", id);
        g_disk.info[id].busy = false;
        if (Buf* b = g_disk.info[id].b) b->disk = false;
        wakeup(&g_disk.info[id]);
        g_disk.used_seen++;
    }
}

}  // namespace q
