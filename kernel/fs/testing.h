// kernel/fs/testing.h - entry points only the host tests call
// (tests/host/kfs_*.cc): the kernel never does, so they are not part of
// fs.h's interface. Defined beside the code they reach into.
#pragma once

namespace q {

// Install every committed transaction now and empty the log, so no block
// stays pinned (waits for running operations to end). kernel/fs/log.cc.
void log_flush();

}  // namespace q
