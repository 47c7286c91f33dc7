// kernel/mm/kalloc.h - the physical page allocator.
//
// All free physical memory between the end of the kernel image and the end
// of RAM sits on one free list of 4096-byte pages. There is no other
// allocator in the kernel. A cache may borrow free pages (the buffer cache
// does): it registers a Lender, kalloc asks it for pages back before it
// fails (without holding the allocator's lock), and kalloc_free_pages()
// counts borrowed pages as free, since they come back on demand.
// Reservations: pages promised to lazily allocated user memory (an sbrk'd
// heap its process has not touched yet) are counted as taken: by
// kalloc_free_pages(), by the pool count a Lender checks, and by kalloc(),
// which leaves them on the list. kalloc_reserved() hands one out.
#pragma once

#include "lib/page_refs.h"
#include "lib/types.h"

namespace q {

void kalloc_init(u64 ram_end);
// A zero-filled page, or null when memory is exhausted.
void* kalloc();
// A page still holding the free-page junk, for a caller that overwrites all
// of it before anyone reads it (fork's page copies): saves kalloc's zeroing.
void* kalloc_unzeroed();
void kfree(void* page);
// Free a page whose every byte is 0 (a page table, its entries cleared):
// not junk-filled, and handed out again by kalloc without zeroing.
void kfree_zeroed(void* page);
// Free pages, counting those a Lender has borrowed (what programs see).
u64 kalloc_free_pages();
// Pages on the free list only (what a Lender checks before borrowing).
u64 kalloc_pool_pages();
u64 kalloc_total_pages();
// Frames on the free list or borrowed, promised or not (what page-out
// keeps above the low watermark: kernel/mm/swap.h).
u64 kalloc_frames_free();
// Pages that may still be promised: free frames and free swap slots, less
// what is promised (the out-of-memory rule's figure with swap).
u64 kalloc_commit_free();
// Promise n more pages / take back n promises (admission is the caller's:
// kernel/proc/oom.cc:oom_admit before reserving).
void kalloc_reserve(u64 n);
void kalloc_unreserve(u64 n);
u64 kalloc_reserved_pages();
// A zero-filled page that a reservation promised (the reservation is used
// up), or null when even those are gone (a race overcommitted).
void* kalloc_reserved();

// Copy-on-write sharing (lib/page_refs.h). Each extra mapping of a page
// holds a promise (kalloc_reserve): the copy it may need. page_dup: one
// more mapping of a user page (the caller promises its page). page_put:
// one mapping fewer; the last one frees the page (false), any other returns
// true and the caller gives its promise back (kalloc_unreserve). A
// page-cache frame (kernel/mm/pcache.h) is put by the cache; its mapping
// held a promise only if it may be copied on write, which its entry `pte`
// says (not kPteShared: page_put returns true then).
void page_dup(void* page);
bool page_put(void* page, u64 pte = 0);
bool page_shared(void* page);
bool page_is_file(void* page);  // a page-cache frame
// A kernel copy's hold on a mapped user page (kernel/mm/fault.h:vm_pin):
// counted as one more mapping (with its promise, as page_dup), so neither
// munmap nor page-out frees the frame under the copy; page_unpin drops it.
void page_pin(void* page);
void page_unpin(void* page);
void* kalloc_for_promise();
// The counts themselves (the page cache's frames are counted there too).
PageRefs& page_refs();

// A cache that borrows free pages; two may register (the page cache, then
// the buffer cache: the page cache is asked first).
struct Lender {
    u64 (*give_back)(u64 pages);  // kfree up to `pages` pages or more; returns how many
    u64 (*borrowed)();            // pages held now (called under kalloc's lock: takes none)
};
void kalloc_set_lender(const Lender* lender);
u64 ram_end();

}  // namespace q
