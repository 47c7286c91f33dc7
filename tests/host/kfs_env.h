// tests/host/kfs_env.h - a host stand-in for the kernel around kernel/fs.
//
// kfs_env.cc implements, single-threaded, what kernel/fs needs from the rest
// of the kernel: locks (which check misuse), a current process, checked user
// copies (user addresses are host pointers; anything below 4096 is "bad"),
// system-call arguments, and a RAM disk (counting requests, blocks and round
// trips as the real driver does) that can be frozen after N block writes to
// model a crash, or fail every write from the Nth on (IoError) to model a
// dying disk. A test may run code after any sleep-lock release
// (after_sleep_release), to interleave a second process's call at a point
// where the kernel could be preempted. kfs_mkfs() builds an empty file
// system image. Pages for the buffer cache's slabs come from a stand-in kalloc with a pool of
// pool_pages pages (reset by kfs_boot), which asks the registered Lender
// for pages back when it runs dry, as the kernel's does, and counts a
// slab's pages in flight as free, as the kernel's does (kalloc_for_lender);
// with watch_free it notes the lowest and highest free count any of its
// steps left, what a reader on another hart could see.
#pragma once

#include <cstdint>
#include <vector>

#include "kernel/dev/disk.h"
#include "lib/result.h"
#include "lib/types.h"

struct KfsEnv {
    std::vector<q::u8> disk;         // the live image
    std::vector<q::u8> crash_image;  // the image as of the crash point
    long writes = 0;                 // block writes since kfs_boot()
    long crash_after = -1;           // freeze crash_image after this many writes
    long fail_writes_from = -1;      // a dead disk: write attempts from this one on fail (IoError)
    long write_attempts = 0;         // counted only while fail_writes_from >= 0
    q::u64 args[6] = {};             // system-call arguments
    q::u64 pool_pages = 4096;        // the stand-in kalloc's pool
    q::u64 pages_out = 0;            // pages kalloc handed out and not freed
    q::u64 copying = 0;              // of those, in flight to or from the Lender (counted free)
    bool watch_free = false;         // after each allocator step, kalloc_free_pages() widens:
    q::u64 free_low = 0, free_high = 0;
    q::DiskStats stats = {};       // requests, blocks, round trips since kfs_boot
    bool reverse_batches = false;  // run a batch's requests last first (a device may complete them in any order)
    // Called after every sleep-lock release with the lock's name: where a
    // real kernel may switch to another process (the lock's release
    // re-enables interrupts, and a pending tick preempts), a test can run
    // "another process's" system call. Reset by kfs_boot.
    void (*after_sleep_release)(const char* name) = nullptr;
};

extern KfsEnv g_env;

// A fresh image of `blocks` blocks and `inodes` inodes holding only "/".
std::vector<q::u8> kfs_mkfs(q::u32 blocks, q::u32 inodes);
// The file system an image holds: its committed log replayed (slots in
// order) and the log area zeroed, so images that differ only in what is
// still logged compare equal.
std::vector<q::u8> kfs_settled(const std::vector<q::u8>& image);
// Mount an image: (re)initialise the cache, inode and file tables, run
// fs_init (log recovery) and give the test process "/" as its cwd.
void kfs_boot(const std::vector<q::u8>& image);
// A handler's result as a0, as kernel/syscall.cc's dispatch makes it: the
// value, or -1 for an error.
inline q::i64 kfs_a0(q::SysResult r) { return r.ok() ? r.value() : -1; }
// Set syscall arguments (pointers or integers).
void kfs_args(q::u64 a0 = 0, q::u64 a1 = 0, q::u64 a2 = 0);
q::u64 kfs_ptr(const void* p);
// Ask the registered Lender (the buffer cache) for `pages` pages back, as
// the kernel's kalloc does when it runs dry; the pages it freed.
q::u64 kfs_give_back(q::u64 pages);
