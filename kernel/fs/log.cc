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
    u32 dev = 0;
    fs::LogHeader header = {};  // in memory: the open transaction's blocks
};

constinit Log g_log;
static_assert(sizeof(fs::LogHeader) <= fs::kBlockSize, "the log header must fit its block");

void read_head() {
    Buf* b = bread(g_log.dev, g_log.start);
    fs::LogHeader disk_header;
    memmove(&disk_header, b->data, sizeof disk_header);
    brelse(b);
    if (!fs::log_header_valid(disk_header, g_log.capacity))
        panic("fs: log header claims %u blocks, log holds %u: corrupt file system", disk_header.n,
              g_log.capacity);
    g_log.header = disk_header;
}

// Write the in-memory header to disk. With n > 0 this is the commit point.
void write_head() {
    Buf* b = bread(g_log.dev, g_log.start);
    memmove(b->data, &g_log.header, sizeof g_log.header);
    bwrite(b);
    brelse(b);
}

// Copy the transaction's blocks from the cache into the log area.
void write_log() {
    for (u32 i = 0; i < g_log.header.n; i++) {
        Buf* to = bread(g_log.dev, g_log.start + 1 + i);
        Buf* from = bread(g_log.dev, g_log.header.block[i]);
        memmove(to->data, from->data, fs::kBlockSize);
        bwrite(to);
        brelse(from);
        brelse(to);
    }
}

// Copy committed blocks from the log to their home locations.
void install(bool recovering) {
    for (u32 i = 0; i < g_log.header.n; i++) {
        Buf* from = bread(g_log.dev, g_log.start + 1 + i);
        Buf* to = bread(g_log.dev, g_log.header.block[i]);
        memmove(to->data, from->data, fs::kBlockSize);
        bwrite(to);
        if (!recovering) bunpin(to);
        brelse(from);
        brelse(to);
    }
}

void commit() {
    if (g_log.header.n == 0) return;
    write_log();
    write_head();
    install(false);
    g_log.header.n = 0;
    write_head();
}

void recover() {
    read_head();
    install(true);
    g_log.header.n = 0;
    write_head();
}

}  // namespace

void log_init(u32 dev, const fs::SuperBlock& sb) {
    g_log.start = sb.logstart;
    g_log.capacity = fs::log_capacity(sb.nlog);
    g_log.dev = dev;
    if (g_log.capacity < static_cast<u32>(param::kMaxOpBlocks))
        panic("fs: log of %u blocks cannot hold one operation (%d blocks)", sb.nlog,
              param::kMaxOpBlocks);
    recover();
}

void begin_op() {
    LockGuard guard(g_log.lock);
    for (;;) {
        if (g_log.committing ||
            !fs::log_admits(g_log.header.n, g_log.outstanding, g_log.capacity)) {
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
    commit();
    LockGuard guard(g_log.lock);
    g_log.committing = false;
    wakeup(&g_log);
}

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
