// kernel/fs/log.cc - the write-ahead log that makes FS system calls atomic.
//
// Each system call brackets its writes with begin_op()/end_op(); inside,
// modified buffers are passed to log_write(), which records the block number
// in the in-memory header and pins the buffer in the cache (the block must not
// reach its home location before the commit). When the last outstanding
// operation ends, the whole group commits:
//   1. copy every recorded block to the log area          (write_log)
//   2. write the header with n > 0: the commit point       (write_head)
//   3. copy the logged blocks to their homes                (install)
//   4. write the header with n = 0: the log is empty again
// A crash before step 2 loses the transaction whole; after it, recovery at
// boot (log_init) replays steps 3-4. Blocks written twice in one group are
// logged once ("absorbed", lib/fs/log_logic.h).
//
// A disk write error anywhere in a commit ends writing for good: the group
// is abandoned where it stands. Before step 2 the disk keeps the previous
// transaction; after it, the committed log is replayed at the next boot. In
// memory the group's blocks are kept (bkeep), so the running system goes on
// seeing its own changes, and from then on fs_writable() is false: every
// system call that would change the file system fails with IoError before
// it changes anything, so no later group ever forms. Reads keep working.
// The calls of the abandoned group have returned already; their effects are
// lost at the next boot, exactly as if the machine had crashed before the
// commit point (or survive it, after). The console says so once.
//
// Invariants (under log lock): outstanding counts running operations;
// while committing is true no operation is running and none may begin;
// header.n + outstanding * kMaxOpBlocks <= capacity (admission control), so
// log_write never finds the log full.
#include "kernel/fs/fs.h"
#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/proc/proc.h"
#include "kernel/sync/spinlock.h"
#include "lib/fs/log_logic.h"

namespace q {
namespace {

struct Log {
    SpinLock lock{"log"};
    u32 start = 0;        // block number of the header
    u32 capacity = 0;     // data blocks in the log area
    u32 outstanding = 0;  // operations between begin_op and end_op
    bool committing = false;
    bool failed = false;  // a disk write failed: read-only until reboot
    u32 dev = 0;
    fs::LogHeader header = {};  // in memory: the open transaction's blocks
};

constinit Log g_log;
static_assert(sizeof(fs::LogHeader) <= fs::kBlockSize, "the log header must fit its block");

void read_head() {
    fs::LogHeader disk_header;
    memmove(&disk_header, BufRef(g_log.dev, g_log.start).data(), sizeof disk_header);
    if (!fs::log_header_valid(disk_header, g_log.capacity))
        panic("fs: log header claims %u blocks, log holds %u: corrupt file system", disk_header.n, g_log.capacity);
    g_log.header = disk_header;
}

// Write the in-memory header to disk. With n > 0 this is the commit point.
Status write_head() {
    BufRef b(g_log.dev, g_log.start);
    memmove(b.data(), &g_log.header, sizeof g_log.header);
    return bwrite(b.get());
}

// Copy the transaction's blocks from the cache into the log area.
Status write_log() {
    for (u32 i = 0; i < g_log.header.n; i++) {
        BufRef to(g_log.dev, g_log.start + 1 + i);
        BufRef from(g_log.dev, g_log.header.block[i]);
        memmove(to.data(), from.data(), fs::kBlockSize);
        Q_CHECK(bwrite(to.get()));
    }
    return {};
}

// Copy committed blocks from the log to their home locations. Unpins each
// block once it is home (not while recovering: nothing was pinned).
Status install(bool recovering) {
    for (u32 i = 0; i < g_log.header.n; i++) {
        BufRef from(g_log.dev, g_log.start + 1 + i);
        BufRef to(g_log.dev, g_log.header.block[i]);
        memmove(to.data(), from.data(), fs::kBlockSize);
        from.reset();  // the log copy first: the home block stays the more recently used
        Q_CHECK(bwrite(to.get()));
        if (!recovering) {
            bunpin(to.get());
            g_log.header.block[i] = 0;  // home: nothing left to keep
        }
    }
    return {};
}

// A write failed: keep the group's blocks that are not home yet in memory
// for good and stop writing (see the top of the file).
void abandon(const char* where) {
    u32 kept = 0;
    for (u32 i = 0; i < g_log.header.n; i++) {
        if (g_log.header.block[i] == 0) continue;
        BufRef b(g_log.dev, g_log.header.block[i]);
        bkeep(b.get());
        bunpin(b.get());
        kept++;
    }
    g_log.header.n = 0;
    kprintf(
        "fs: disk write failed %s; the file system is read-only until reboot (%u changed blocks kept in "
        "memory only)\n",
        where, kept);
}

// Commit the group; returns false when a write failed.
bool commit() {
    if (g_log.header.n == 0) return true;
    if (g_log.failed) panic("commit: a group formed after the file system went read-only");
    const char* where = nullptr;
    if (!write_log().ok() || !write_head().ok()) {
        where = "before the commit point (the disk keeps the previous state)";
    } else if (!install(false).ok()) {
        where = "after the commit point (the next boot replays the log)";
    } else {
        g_log.header.n = 0;
        if (write_head().ok()) return true;
        where = "clearing the log (the next boot replays it again, harmlessly)";
    }
    abandon(where);
    return false;
}

void recover() {
    read_head();
    if (!install(true).ok()) panic("fs: cannot replay the log at boot (disk write error)");
    g_log.header.n = 0;
    if (!write_head().ok()) panic("fs: cannot clear the log at boot (disk write error)");
}

}  // namespace

void log_init(u32 dev, const fs::SuperBlock& sb) {
    g_log.start = sb.logstart;
    g_log.capacity = fs::log_capacity(sb.nlog);
    g_log.dev = dev;
    g_log.failed = false;  // (re-init for host tests)
    if (g_log.capacity < static_cast<u32>(param::kMaxOpBlocks))
        panic("fs: log of %u blocks cannot hold one operation (%d blocks)", sb.nlog, param::kMaxOpBlocks);
    recover();
}

void begin_op() {
    LockGuard guard(g_log.lock);
    for (;;) {
        if (g_log.committing || !fs::log_admits(g_log.header.n, g_log.outstanding, g_log.capacity)) {
            sleep(&g_log, g_log.lock);
        } else {
            g_log.outstanding++;
            return;
        }
    }
}

void end_op() {
    bool do_commit = false;
    {
        LockGuard guard(g_log.lock);
        if (g_log.outstanding == 0) panic("end_op: no operation in progress");
        if (g_log.committing) panic("end_op: log is committing");
        if (--g_log.outstanding == 0) {
            do_commit = true;
            g_log.committing = true;
        } else {
            // begin_op may be waiting for log space this operation reserved.
            wakeup(&g_log);
        }
    }
    if (!do_commit) return;
    // Commit without the lock: it sleeps on disk I/O. committing keeps
    // new operations out meanwhile.
    const bool ok = commit();
    LockGuard guard(g_log.lock);
    if (!ok) __atomic_store_n(&g_log.failed, true, __ATOMIC_RELEASE);
    g_log.committing = false;
    wakeup(&g_log);
}

bool fs_writable() { return !__atomic_load_n(&g_log.failed, __ATOMIC_ACQUIRE); }

void log_write(Buf* b) {
    LockGuard guard(g_log.lock);
    if (g_log.outstanding == 0) panic("log_write: block %u written outside a transaction", b->blockno);
    switch (fs::log_absorb(g_log.header, g_log.capacity, b->blockno)) {
        case fs::Absorb::Already:
            break;
        case fs::Absorb::Added:
            bpin(b);
            break;
        case fs::Absorb::Full:
            panic("log_write: transaction too big (%u blocks)", g_log.header.n);
    }
}

}  // namespace q
