// kernel/mm/kalloc.h - the physical page allocator.
//
// All free physical memory between the end of the kernel image (and the
// tables kalloc.cc carves right after it) and the end of RAM sits on one
// free list of 4096-byte pages. There is no other
// allocator in the kernel. A cache may borrow free pages (the buffer cache
// does): it registers a Lender, kalloc asks it for pages back before it
// fails (without holding the allocator's lock), and kalloc_free_pages()
// counts borrowed pages as free, since they come back on demand.
// Reservations: pages promised to lazily allocated user memory (an sbrk'd
// heap or a mapping its process has not touched yet, the copy a
// copy-on-write page may need) are counted as taken: by
// kalloc_free_pages(), by the pool count a Lender checks, and by kalloc(),
// which leaves them on the list. kalloc_reserved() hands one out.
// Every change of the free count is one hold of the allocator's lock: a
// copy already paid for (kalloc_for_copy) counts as free until settled,
// and a promised page given back unused keeps its promise in the same
// hold (kfree_keep_promise), so a reader on another hart never sees a
// step half done (hostile cowcount).
#pragma once

#include "lib/oom.h"
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
// Free a page a promise paid for (kalloc_reserved) that was not used: the
// promise stands again, in the same hold of the allocator's lock, so the
// free count does not move (kfree then kalloc_reserve showed it one high
// in between).
void kfree_keep_promise(void* page);
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
// Admission and promise in one step, under the allocator's lock: n pages
// are promised only if lib/oom.h's admit_promise admits them (for a
// process that will hold total_after pages) against what is free at that
// moment, so two callers are never both admitted to the same free pages
// (kernel/proc/oom.cc:oom_reserve). Nothing is promised unless Admit.
oom::Verdict kalloc_admit_reserve(u64 n, u64 total_after);
// Promise n more pages unadmitted (a copy-on-write fork's shared pages as
// it shares them, a failed page-in putting its promise back) / take back n
// promises.
void kalloc_reserve(u64 n);
void kalloc_unreserve(u64 n);
// n pages just promised for a call that may still fail: given back when it
// goes out of scope, unless kept (a process's group holds them then).
class PromiseHold {
  public:
    explicit PromiseHold(u64 n) : n_(n) {}
    ~PromiseHold() {
        if (n_) kalloc_unreserve(n_);
    }
    PromiseHold(const PromiseHold&) = delete;
    PromiseHold& operator=(const PromiseHold&) = delete;
    void keep() { n_ = 0; }

  private:
    u64 n_;
};
u64 kalloc_reserved_pages();
// A zero-filled page that a reservation promised (the reservation is used
// up), or null when even those are gone (a race overcommitted).
void* kalloc_reserved();
// kfree, with `publish` in the same hold: a lender's idle page freed.
void kfree_publishing(void* page, void (*publish)());

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
// The pin moves no memory, so its promise counts as free while it holds
// it, and neither the pin nor the unpin moves the free count (it moved
// once, one hold each: a reader saw it one low during every copy of a
// threaded process, hostile filecount's two-thread rounds).
void page_pin(void* page);
void page_unpin(void* page);
// Copies already paid for: a copy-on-write copy (by the promise its
// mapping holds, or by the old page if no other mapping is left) and a
// page read back from swap (by its slot's promise, or by its slot). The
// frame comes from the list (promised pages included) and counts as free
// until the copy is settled, so kalloc_free_pages() moves in one step, at
// the settling, never with a copy half made (hostile cowcount).
void* kalloc_for_copy();
// Settled: the copy is mapped; `promise`: the promise that paid for it goes.
void kalloc_copy_kept(bool promise);
// Settled: the copy was not needed (a read failed, another thread mapped
// the page first): its frame goes back.
void kalloc_copy_dropped(void* copy);
// Settled: break_cow's copy of `old` is mapped, and old loses this
// mapping: its promise goes, or old is freed if no other mapping is left
// (page_put's cases, with the copy settled in the same hold).
void page_put_copied(void* old, u64 pte);
// A lender's frames counted as copies not yet settled, so that the free
// count moves only where memory really changes hands. n of its frames
// leave its count (`publish` stores the new one, no lock, no sleep) and
// become unsettled copies, in one hold of the allocator's lock: the page
// cache's idle frame a fault takes (until the mapping settles it,
// kalloc_copy_kept, or it is freed, kalloc_copy_dropped), a buffer-cache
// slab going back (until each page is freed: kalloc_copy_dropped). And back: n unsettled copies join the
// lender's count (a fault's frame turning idle again, a new slab's pages
// linked into the buffer cache).
void kalloc_lender_to_copies(u64 n, void (*publish)());
void kalloc_copies_to_lender(u64 n, void (*publish)());
// A page for a lender's new frame (not zeroed), taken only if nobody was
// promised it, and counted free, as a copy, until kalloc_copies_to_lender
// (or kalloc_copy_dropped): a growing buffer cache moves the count once.
void* kalloc_for_lender();
// The counts themselves (the page cache's frames are counted there too).
PageRefs& page_refs();

// The shrinker hook. A cache that borrows free pages registers a Lender at
// boot, so the allocator gets memory back without knowing who holds it. Two
// register: the page cache (kernel/mm/pcache.cc), asked first, then the
// buffer cache (kernel/fs/bio.cc). Each lender:
//   - give_back(pages): kfree at least `pages` idle pages if it can (a
//     whole slab may be more); returns how many, 0 when nothing is idle.
//     kalloc calls it when its free list is empty, and kalloc_reserve when
//     the list no longer covers what is promised, without kalloc's lock
//     and with whatever locks the allocating caller holds (a process lock
//     in fork, a sleep lock): so give_back takes only the lender's own
//     lock, never a process lock, never sleeps and never allocates.
//   - borrowed(): the pages held now, read under kalloc's lock so that the
//     free count and the lent count are one snapshot: it takes no lock (an
//     atomic load).
// Lock order: the allocating caller's locks, then the lender's lock, then
// kalloc's (the lender kfrees, and asks kalloc_pool_pages, with or after
// its own lock; kalloc never calls the lender with its lock held except
// for borrowed()).
struct Lender {
    u64 (*give_back)(u64 pages);
    u64 (*borrowed)();
};
void kalloc_set_lender(const Lender* lender);
u64 ram_end();

}  // namespace q
