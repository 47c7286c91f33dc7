// kernel/mm/pcache.h - the page cache: one frame per cached page of a file,
// shared by every process that maps that page (docs/memory.md "The page
// cache").
//
// Demand-paged text and file mappings (kernel/mm/fault.cc) map the cache's
// frame instead of a private copy: processes running one program share
// its text, and MAP_SHARED mappings of one file share its pages, so they
// see each other's stores and write() at once. A frame's users (mappings
// and pins) are counted in lib/page_refs.h (kFile); a frame nobody uses
// stays cached, idle, and is the first memory given back when kalloc runs
// dry (it registers as a Lender, ahead of the buffer cache). The file
// system keeps it coherent: write() copies into a cached page what it
// writes (pcache_wrote), read() takes a page from the cache while a
// shared writable mapping of the file may have changed it (pcache_read),
// and truncation drops the file's pages (pcache_truncate).
// Lock order: an inode's sleep lock, a page-table lock, then the cache's
// spinlock (it may kfree under it).
#pragma once

#include "lib/result.h"
#include "lib/types.h"

namespace q {

struct Inode;

// Boot (kalloc_init): bytes of index for `frames` frames, carved before the
// pool; then the index over them, from physical address first_pa.
u64 pcache_bytes(u64 frames);
void pcache_init(void* mem, u64 first_pa, u64 frames);

// The frame holding page `page` of regular file ip, read from the file if
// it was not cached (*hit says which), with one user taken for the caller.
// BadAddress if no byte of the file is in that page (it is past the end:
// SIGBUS for a mapping), NoMemory if no free frame can be had, IoError if
// the read failed. The free count does not move until a mapping settles
// it (pcache_mapped): an idle frame taken stays counted as free, and so
// does a new frame read in for a caller that holds a promise for the page
// (`promised`: it may use promised pages). Sleeps; takes ip's lock (the
// caller holds none).
Result<void*> pcache_get(Inode* ip, u32 page, bool* hit, bool promised = false);
// A fault mapped frame (from pcache_get): the promise its page held goes
// if `promise` (a text or MAP_SHARED page's), and a frame still counted as
// free stops being so, in one hold of kalloc's lock: the free count moves
// once, where the page is really mapped; a thread that lost the race to
// map it never moved it (hostile filecount).
void pcache_mapped(void* frame, bool promise);
// frame is still the cache's page of its file: truncation has not taken it
// out (its mappers keep it, but it is no longer any page of the file). With
// the file's inode locked, which truncation holds.
bool pcache_holds(const void* frame);
// One user of a cache frame gone (kalloc.cc:page_put). The last user of a
// cached frame leaves it idle; of one truncation took out, frees it (a
// frame never mapped since it was taken: still counted as free, in the
// same hold of kalloc's lock).
void pcache_put(void* frame);

// File-system hooks (kernel/fs/inode.cc), with ip locked:
// writei wrote n bytes (src, kernel memory) at off, within one page.
void pcache_wrote(const Inode* ip, u32 off, const void* src, u32 n);
// readi: if off's page is cached, copy n bytes of it (within the page) to
// dst and say true (*st: the copy's result); false: read the file.
bool pcache_read(const Inode* ip, u32 off, bool user_dst, u64 dst, u32 n, Status* st);
// itrunc, before the size goes to 0: the pages of [0, size) leave the
// cache (frames still mapped stay with their mappers until unmapped).
void pcache_truncate(const Inode* ip, u32 size);

// Counts (vmstat): frames cached, and of those the idle ones.
u64 pcache_pages();
u64 pcache_idle_pages();

}  // namespace q
