// kernel/stats.cc - the statistics system calls, in one place.
//
// Each asks the subsystems for their figures, in plain structs of their
// own (the disk driver's DiskStats, the log's LogStats, the buffer cache's
// BcacheStats, a run queue's RqStat), and
// converts them to the user ABI's struct (lib/abi/abi.h) here, at the
// boundary: the subsystems hold no system-call code and no ABI layout. A
// reader sees each figure exact but not all of them at one instant.
// Elsewhere still: vmstat (kernel/mm/vmstat.cc), trace_stat (the tracer's
// control calls, kernel/obs/trace.cc) and freepages (a one-line count that
// docs/exercises/01 builds on, kernel/proc/sysproc.cc).
#include "kernel/dev/disk.h"
#include "kernel/fs/fs.h"
#include "kernel/mm/uaccess.h"
#include "kernel/proc/proc.h"
#include "kernel/proc/runqueue.h"
#include "kernel/syscall.h"
#include "lib/abi/abi.h"

namespace q {

namespace {

template <typename T>
SysResult copy_to_arg(int n, const T& st) {
    return sys_result(copy_out(myproc()->pagetable, arg_addr(n), &st, sizeof st));
}

}  // namespace

// rqstat(queue, struct rqstat*) -> 0, or -1 past the last queue or for a
// bad pointer.
SysResult sys_rqstat() {
    RqStat st;
    if (!rq_stat(arg_int(0), st)) return Error::BadArgument;
    rqstat out{};
    out.acquisitions = st.acquisitions;
    out.contentions = st.contentions;
    out.spin_cycles = st.spin_cycles;
    out.load = st.load;
    out.nr = st.nr;
    out.queues = st.queues;
    out.handoffs = st.handoffs;
    return copy_to_arg(1, out);
}

// diskstat(struct diskstat*) -> 0, or -1 for a bad pointer: the disk's
// requests since boot and the log's commits and occupancy.
SysResult sys_diskstat() {
    const DiskStats d = disk_stats();
    const LogStats l = log_stats();
    diskstat out{};
    out.read_requests = d.read_requests;
    out.write_requests = d.write_requests;
    out.blocks_read = d.blocks_read;
    out.blocks_written = d.blocks_written;
    out.round_trips = d.round_trips;
    out.log_commits = l.commits;
    out.log_installs = l.installs;
    out.log_slots = l.slots;
    out.log_pinned = l.pinned;
    return copy_to_arg(0, out);
}

// bcstat(struct bcachestat*) -> 0, or -1 for a bad pointer. Disk traffic
// is the driver's count: the log writes its blocks in batches of its own,
// not through the cache.
SysResult sys_bcstat() {
    const BcacheStats b = bcache_stats();
    const DiskStats d = disk_stats();
    bcachestat out{};
    out.bufs = b.bufs;
    out.fixed = b.fixed;
    out.pages = b.pages;
    out.hits = b.hits;
    out.misses = b.misses;
    out.disk_reads = d.blocks_read;
    out.disk_writes = d.blocks_written;
    out.grows = b.grows;
    out.shrinks = b.shrinks;
    return copy_to_arg(0, out);
}

}  // namespace q
