// lib/fs/bcache_policy.h - the buffer cache's sizing rules and lookup hash.
//
// Pure arithmetic shared by the kernel's buffer cache (kernel/fs/bio.cc) and
// its host tests. The cache has a floor of param::kBufs fixed buffers and
// grows by slabs borrowed from the page allocator:
//   - a slab is one page of buffer headers plus kSlabDataPages pages of
//     block data (kBlocksPerPage blocks each), kSlabPages pages in all;
//   - it grows only while the allocator keeps more than a reserve free
//     (reserve_pages: an eighth of the pool, at least kMinReservePages), so
//     the cache never takes the last memory; under pressure the allocator
//     asks for whole slabs back (see bio.cc);
//   - lookup hashes (dev, blockno) into kHashBuckets chains; consecutive
//     blocks of a device land in consecutive buckets.
#pragma once

#include "lib/fs/layout.h"
#include "lib/types.h"

namespace q::bcache {

constexpr u64 kPageBytes = 4096;
constexpr u32 kBlocksPerPage = kPageBytes / fs::kBlockSize;
constexpr u32 kSlabDataPages = 8;
constexpr u32 kSlabBufs = kSlabDataPages * kBlocksPerPage;
constexpr u32 kSlabPages = kSlabDataPages + 1;  // + the header page
constexpr u64 kMinReservePages = 256;           // 1 MiB
constexpr u32 kHashBuckets = 1024;              // a power of two

static_assert(kPageBytes % fs::kBlockSize == 0, "blocks tile a page");
static_assert((kHashBuckets & (kHashBuckets - 1)) == 0, "bucket count is a power of two");

// Pages the allocator keeps for everything else before the cache may grow.
constexpr u64 reserve_pages(u64 pool_pages) {
    const u64 eighth = pool_pages / 8;
    return eighth > kMinReservePages ? eighth : kMinReservePages;
}

// May the cache borrow another slab, with `free_pages` of `pool_pages` free?
// (After the slab, the reserve must still be free.)
constexpr bool may_grow(u64 free_pages, u64 pool_pages) { return free_pages >= reserve_pages(pool_pages) + kSlabPages; }

constexpr u32 bucket(u32 dev, u32 blockno) { return (blockno + dev * 0x9e3779b1u) & (kHashBuckets - 1); }

}  // namespace q::bcache
