// kernel/fs/pipe.h - the pipe object behind anonymous pipes and FIFOs.
//
// A Pipe is a 512-byte ring (lib/fs/pipe_ring.h) with counts of the Files
// open on each side. An anonymous pipe (pipe()) starts with one reader and
// one writer; a FIFO's pipe (kernel/fs/fifo.cc) is found by its inode's
// (dev, inum) key and starts with none: each open attaches to one side or
// both (O_RDWR), each close detaches. The pipe goes back to the pool when
// both counts reach zero (a FIFO's unread bytes go with it, as in POSIX).
// reader_opens / writer_opens count attaches for ever (free-running): the
// blocking FIFO open's rule (lib/fs/fifo_rule.h) needs them.
//
// Locks: the pool lock guards in_use and the key, and is held around every
// attach and every detach (so an opener never attaches to a pipe that a
// closer is freeing); the pipe's own lock guards the ring, the counts and
// the sleeper counts, and is taken after the pool lock when both are held.
#pragma once

#include "kernel/sync/spinlock.h"
#include "lib/fs/fifo_rule.h"
#include "lib/fs/pipe_ring.h"
#include "lib/result.h"
#include "lib/types.h"

namespace q {

constexpr u32 kPipeSize = 512;

// A sleep channel: only its address matters (sleep/wakeup key on it).
struct SleepChannel {};

struct Pipe {
    SpinLock lock{"pipe"};
    fs::PipeRing<kPipeSize> ring;
    u32 readers = 0;       // Files open for reading
    u32 writers = 0;       // Files open for writing
    u32 reader_opens = 0;  // attaches for reading, ever (wraps)
    u32 writer_opens = 0;  // attaches for writing, ever (wraps)
    bool in_use = false;   // guarded by the pool lock
    u32 dev = 0;           // a FIFO's inode (pool lock); inum 0: anonymous
    u32 inum = 0;
    SleepChannel can_read;   // readers wait here for bytes or the last writer's close
    SleepChannel can_write;  // writers wait here for room or the last reader's close
    SleepChannel can_open;   // FIFO openers wait here for a peer
    u32 nread_waiting = 0;   // processes asleep on can_read
    u32 nwrite_waiting = 0;  // processes asleep on can_write
    u32 nopen_waiting = 0;   // processes asleep on can_open
};

// The FIFO inode's pipe with one more reader and/or writer (a fresh one if
// none is attached); null when the pool is empty. *peer: the other side
// (writers for a reader, readers for a writer) as the attach saw it.
Pipe* pipe_attach(u32 dev, u32 inum, bool reader, bool writer, fs::FifoPeerSnapshot* peer);
// poll(2) bits (lib/abi/abi.h POLL*) for a File on the pipe's given sides.
u16 pipe_poll(Pipe* pi, bool reader, bool writer);

}  // namespace q
