// kernel/fs/log.cc - the write-ahead log that makes FS system calls atomic.
//
// Each system call brackets its writes with begin_op()/end_op(); inside,
// modified buffers are passed to log_write(), which gives the block a slot
// in the in-memory header (lib/fs/log_logic.h) and pins the buffer in the
// cache (the block must not reach its home location before it is
// committed). When the last outstanding operation ends, the group commits
// (write_commit), in one disk round trip:
//   1. copy the group's blocks into a staging area and write them to their
//      log slots, after the slots of earlier committed transactions, in one
//      multi-block request, and at the same time
//   2. write the header listing every slot, with a checksum of the group's
//      slots: the commit point.
// The device may complete the two requests in any order, and a crash may
// cut the data write short; the checksum tells recovery whether the group's
// slots are whole (then the group counts) or not (then it never returned,
// and only the slots before it are replayed).
// Installing is deferred: committed blocks stay pinned in the cache, where
// readers find them, and on disk in the log, where recovery finds them. Only
// when the log (or the cache's pin budget) could not take two more
// operations does the commit go on to
//   3. write the newest copy of each logged block to its home, all at once
//      in flight (install), then
//   4. write the header with n = 0: the log is empty again.
// So an operation that returns costs one disk round trip plus its share of
// an occasional install, instead of one write waited for per block, and a
// block written by many transactions between installs (an inode, a bitmap,
// a directory) goes home once.
// A crash before steps 1-2 complete loses the open group whole (earlier
// committed transactions stay in the log); after, recovery at boot
// (log_init) replays every slot in order (later slots win; the last group's
// only if its checksum matches) and empties the log. The header fits one
// 512-byte sector, so its write is atomic. The log never writes through the
// cache: staging and the header image are the log's own memory.
//
// A disk write error anywhere in a commit ends writing for good: the group
// is abandoned where it stands. Before step 2 the disk keeps the earlier
// committed transactions; after it, the committed log is replayed at the
// next boot. In memory every logged block is kept (bkeep), so the running
// system goes on seeing its own changes, and from then on fs_writable() is
// false: every system call that would change the file system fails with
// IoError before it changes anything, so no later group ever forms. Reads
// keep working. The calls of the abandoned group have returned already;
// their effects are lost at the next boot, exactly as if the machine had
// crashed before the commit point (or survive it, after). The console says
// so once.
//
// Invariants (under log lock): outstanding counts running operations;
// while committing is true no operation is running and none may begin;
// admission (log_admits) keeps n and pinned within their bounds, so
// log_write never finds the log full; between operations the cache's copy
// of every logged block equals its newest committed slot.
#include "kernel/dev/disk.h"
#include "kernel/fs/fs.h"
#include "kernel/fs/testing.h"
#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/mm/uaccess.h"
#include "kernel/proc/proc.h"
#include "kernel/sync/spinlock.h"
#include "kernel/syscall.h"
#include "lib/fs/log_logic.h"

namespace q {
namespace {

struct Log {
    SpinLock lock{"log"};
    u32 start = 0;        // block number of the header
    u32 capacity = 0;     // data blocks (slots) in the log area
    u32 outstanding = 0;  // operations between begin_op and end_op
    bool committing = false;
    bool failed = false;  // a disk write failed: read-only until reboot
    u32 dev = 0;
    fs::LogHeader header = {};  // every slot: [0, committed) committed, [committed, n) the open group
    u32 committed = 0;
    u32 pinned = 0;  // distinct blocks with a slot, pinned in the cache
    u64 commits = 0;
    u64 installs = 0;
};

constinit Log g_log;
static_assert(sizeof(fs::LogHeader) <= 512, "the header must fit one sector: its write is the commit point");

// The log's own memory for disk requests (used only while committing, or
// at boot): the group's or the install's blocks, and the header block.
alignas(8) constinit u8 g_stage[param::kLogBlocks][fs::kBlockSize];
alignas(8) constinit u8 g_head_block[fs::kBlockSize];
constinit DiskIo g_ios[param::kLogBlocks]{};

void fill_head() {
    memset(g_head_block, 0, sizeof g_head_block);
    memmove(g_head_block, &g_log.header, sizeof g_log.header);
}

// Write the header of an empty log (after an install).
Status clear_head() {
    g_log.header.n = g_log.header.prev = 0;
    g_log.header.sum = fs::kLogSumSeed;
    g_log.header.magic = fs::kLogMagic;
    fill_head();
    const DiskIo io{g_log.start, 1, g_head_block, true};
    return disk_batch(&io, 1);
}

// Steps 1 and 2 at once: copy the open group's blocks from the cache into
// the staging area, and write them to their slots and the header (with the
// group's checksum) to its block, both requests in flight together.
Status write_commit() {
    const u32 first = g_log.committed, n = g_log.header.n;
    u64 sum = fs::kLogSumSeed;
    for (u32 i = first; i < n; i++) {
        {
            BufRef b(g_log.dev, g_log.header.block[i]);
            memmove(g_stage[i - first], b.data(), fs::kBlockSize);
        }
        sum = fs::log_sum_slot(sum, g_log.header.block[i], g_stage[i - first]);
    }
    g_log.header.magic = fs::kLogMagic;
    g_log.header.prev = first;
    g_log.header.sum = sum;
    fill_head();
    const DiskIo ios[2] = {{g_log.start + 1 + first, n - first, g_stage[0], true},
                           {g_log.start, 1, g_head_block, true}};
    return disk_batch(ios, 2);
}

// Call f(i) for the last slot of every logged block (each block once).
template <typename F>
void for_each_block(F f) {
    for (u32 i = 0; i < g_log.header.n; i++)
        if (fs::log_last_slot(g_log.header, i)) f(i);
}

// Write the newest copy of every logged block (the cache's) to its home,
// then unpin them all and empty the log in memory (the caller writes the
// header). Leaves everything as it was if a write failed.
Status install() {
    u32 k = 0;
    for_each_block([&](u32 i) {
        BufRef b(g_log.dev, g_log.header.block[i]);
        memmove(g_stage[k], b.data(), fs::kBlockSize);
        g_ios[k] = DiskIo{g_log.header.block[i], 1, g_stage[k], true};
        k++;
    });
    TRY(disk_batch(g_ios, k));
    for_each_block([](u32 i) {
        BufRef b(g_log.dev, g_log.header.block[i]);
        bunpin(b.get());
    });
    g_log.header.n = g_log.committed = g_log.pinned = 0;
    g_log.installs++;
    return {};
}

// A write failed: keep every logged block in memory for good and stop
// writing (see the top of the file).
void abandon(const char* where) {
    u32 kept = 0;
    for_each_block([&](u32 i) {
        BufRef b(g_log.dev, g_log.header.block[i]);
        bkeep(b.get());
        bunpin(b.get());
        kept++;
    });
    g_log.header.n = g_log.committed = g_log.pinned = 0;
    kprintf(
        "fs: disk write failed %s; the file system is read-only until reboot (%u changed blocks kept in "
        "memory only)\n",
        where, kept);
}

// Commit the open group, then install the log if it is too full for two
// more operations, if memory is short (a pinned block keeps its whole slab
// from going back to kalloc: bio.cc), or if `install_now`; returns false
// when a write failed.
bool commit(bool install_now) {
    if (g_log.failed) {
        if (g_log.header.n == g_log.committed) return true;
        panic("commit: a group formed after the file system went read-only");
    }
    const char* where = nullptr;
    if (g_log.header.n != g_log.committed && !write_commit().ok()) {
        where = "committing (the disk keeps the earlier transactions)";
    } else {
        if (g_log.header.n != g_log.committed) {
            g_log.committed = g_log.header.n;
            g_log.commits++;
        }
        if (g_log.header.n == 0) return true;
        if (!install_now && !fs::log_must_install(g_log.header.n, g_log.pinned, g_log.capacity) &&
            !bcache_memory_short())
            return true;
        if (!install().ok()) {
            where = "installing the log (the next boot replays it)";
        } else {
            if (clear_head().ok()) return true;
            where = "clearing the log (the next boot replays it again, harmlessly)";
        }
    }
    abandon(where);
    return false;
}

// The end of a commit (end_op, log_flush): record a failure, let
// operations in again.
void commit_done(bool ok) {
    LockGuard guard(g_log.lock);
    if (!ok) __atomic_store_n(&g_log.failed, true, __ATOMIC_RELEASE);
    g_log.committing = false;
    wakeup(&g_log);
}

// Boot: replay a committed log (every slot in order; for a block logged
// more than once, only its last slot matters) and empty it.
void recover() {
    const DiskIo head{g_log.start, 1, g_head_block, false};
    must(disk_batch(&head, 1), "fs: cannot read the log header at boot (disk I/O error)");
    fs::LogHeader disk_header;
    memmove(&disk_header, g_head_block, sizeof disk_header);
    if (!fs::log_header_valid(disk_header, g_log.capacity))
        panic("fs: log header claims %u blocks, log holds %u: corrupt file system", disk_header.n, g_log.capacity);
    g_log.header = disk_header;
    if (g_log.header.n == 0) return;
    const DiskIo slots{g_log.start + 1, g_log.header.n, g_stage[0], false};
    must(disk_batch(&slots, 1), "fs: cannot read the log at boot (disk I/O error)");
    u64 sum = fs::kLogSumSeed;
    for (u32 i = g_log.header.prev; i < g_log.header.n; i++)
        sum = fs::log_sum_slot(sum, g_log.header.block[i], g_stage[i]);
    const u32 count = fs::log_replay_count(g_log.header, sum);
    if (count < g_log.header.n)
        kprintf("fs: log: the last transaction (slots %u-%u) was cut short by a crash; replaying %u slots\n",
                g_log.header.prev, g_log.header.n - 1, count);
    g_log.header.n = count;
    u32 k = 0;
    for_each_block([&](u32 i) { g_ios[k++] = DiskIo{g_log.header.block[i], 1, g_stage[i], true}; });
    must(disk_batch(g_ios, k), "fs: cannot replay the log at boot (disk write error)");
    for_each_block([](u32 i) { bforget(g_log.dev, g_log.header.block[i]); });  // written behind the cache
    must(clear_head(), "fs: cannot clear the log at boot (disk write error)");
}

}  // namespace

void log_init(u32 dev, const fs::SuperBlock& sb) {
    g_log.start = sb.logstart;
    g_log.capacity = fs::log_capacity(sb.nlog);
    g_log.dev = dev;
    g_log.failed = false;  // (re-init for host tests)
    g_log.outstanding = 0;
    g_log.committed = g_log.pinned = 0;
    g_log.commits = g_log.installs = 0;
    g_log.header = {};
    if (g_log.capacity < static_cast<u32>(param::kMaxOpBlocks))
        panic("fs: log of %u blocks cannot hold one operation (%d blocks)", sb.nlog, param::kMaxOpBlocks);
    recover();
}

void begin_op() {
    if (Proc* p = myproc()) p->fault_locks++;  // a fault that sleeps may wait for the log (docs/memory.md "Lock order")
    LockGuard guard(g_log.lock);
    for (;;) {
        if (g_log.committing || !fs::log_admits(g_log.header.n, g_log.pinned, g_log.outstanding, g_log.capacity)) {
            sleep(&g_log, g_log.lock);
        } else {
            g_log.outstanding++;
            return;
        }
    }
}

void end_op() {
    if (Proc* p = myproc()) p->fault_locks--;
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
    commit_done(commit(false));
}

void log_flush() {
    {
        LockGuard guard(g_log.lock);
        while (g_log.committing || g_log.outstanding > 0) sleep(&g_log, g_log.lock);
        g_log.committing = true;
    }
    commit_done(commit(true));
}

bool fs_writable() { return !__atomic_load_n(&g_log.failed, __ATOMIC_ACQUIRE); }

void log_write(Buf* b) {
    LockGuard guard(g_log.lock);
    if (g_log.outstanding == 0) panic("log_write: block %u written outside a transaction", b->blockno);
    switch (fs::log_absorb(g_log.header, g_log.committed, g_log.capacity, b->blockno)) {
        case fs::Absorb::Already:
        case fs::Absorb::Relogged:
            break;
        case fs::Absorb::Added:
            bpin(b);
            g_log.pinned++;
            break;
        case fs::Absorb::Full:
            panic("log_write: transaction too big (%u blocks)", g_log.header.n);
    }
}

LogStats log_stats() {
    LockGuard guard(g_log.lock);
    return LogStats{g_log.commits, g_log.installs, g_log.header.n, g_log.pinned};
}

}  // namespace q
