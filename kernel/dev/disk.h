// kernel/dev/disk.h - the block device used by the buffer cache and the log.
//
// disk_rw() reads or writes one file-system block (1024 bytes) of a cached
// buffer and sleeps until the device completes it; the caller holds the
// buffer's sleep lock. disk_batch() runs several requests, each of one or
// more consecutive blocks to or from contiguous memory that the caller owns
// for the duration, with as many in flight at once as the queue allows, and
// returns when all are done. Both return IoError when the device reports a
// failure (for a batch: if any request failed; every request is still run).
#pragma once

#include "lib/result.h"
#include "lib/types.h"

namespace q {

struct Buf;

struct DiskIo {
    u32 blockno;  // first block
    u32 nblocks;  // consecutive blocks at data
    u8* data;     // nblocks * fs::kBlockSize bytes
    bool write;
};

// Since boot. A round trip is one wait for the device: one per disk_rw(),
// one per group of requests disk_batch() puts in flight together.
struct DiskStats {
    u64 read_requests;
    u64 write_requests;
    u64 blocks_read;
    u64 blocks_written;
    u64 round_trips;
};

void disk_init();
Status disk_rw(Buf* b, bool write);
Status disk_batch(const DiskIo* ios, u32 n);
DiskStats disk_stats();
void disk_intr();

}  // namespace q
