// lib/vm/page_cache.h - the page cache's index: which frame holds which page
// of which file, and which cached frames nobody uses (docs/memory.md "The
// page cache").
//
// Pure, freestanding and allocation-free (the caller supplies the arrays,
// one record per frame of RAM and a power-of-two table of hash buckets):
// the kernel (kernel/mm/pcache.cc) and host tests
// (tests/host/page_cache_test.cc) run the same code. A frame is named by
// its number (its index in RAM); a page by PageKey (device, inode number,
// page index in the file). Invariants: a key is in the index at most once;
// a frame is in it at most once; a cached frame is either busy (somebody
// maps or pins it: the caller counts the users) or idle, and the idle ones
// form one list, least recently used first, which eviction takes from the
// front. Records of frames not in the index are garbage. No locking here:
// the kernel calls every method under its page-cache lock.
#pragma once

#include "lib/types.h"

namespace q::vm {

struct PageKey {
    u32 dev = 0;
    u32 inum = 0;
    u32 page = 0;  // file offset / page size
    constexpr bool operator==(const PageKey& o) const { return dev == o.dev && inum == o.inum && page == o.page; }
};

class PageIndex {
  public:
    static constexpr u32 kNone = ~0u;

    struct Rec {
        PageKey key;
        u32 hnext;  // next frame in the key's hash chain
        u32 prev;   // idle list links (kNone at the ends)
        u32 next;
        u8 state;      // kOut, kBusy or kIdle
        u8 unsettled;  // the caller's mark (mark_unsettled)
    };

    constexpr PageIndex() = default;

    static u64 bytes_for(u32 frames) { return u64(frames) * sizeof(Rec) + u64(buckets_for(frames)) * sizeof(u32); }
    // One bucket per 8 frames, a power of two (at least 16).
    static u32 buckets_for(u32 frames) {
        u32 n = 16;
        while (n < frames / 8) n *= 2;
        return n;
    }

    // recs: frames records; buckets: buckets_for(frames) words. mem holds
    // both (bytes_for(frames) bytes).
    void init(u32 frames, void* mem) {
        frames_ = frames;
        recs_ = static_cast<Rec*>(mem);
        nbuckets_ = buckets_for(frames);
        buckets_ = reinterpret_cast<u32*>(recs_ + frames);
        for (u32 i = 0; i < nbuckets_; i++) buckets_[i] = kNone;
        for (u32 f = 0; f < frames; f++) recs_[f] = Rec{{}, kNone, kNone, kNone, kOut, 0};
        head_ = tail_ = kNone;
        size_ = idle_ = 0;
    }

    u32 frames() const { return frames_; }
    u32 size() const { return size_; }  // frames cached
    u32 idle() const { return idle_; }  // of those, used by nobody

    // The frame caching key, or kNone.
    u32 find(const PageKey& key) const {
        for (u32 f = buckets_[hash(key)]; f != kNone; f = recs_[f].hnext)
            if (recs_[f].key == key) return f;
        return kNone;
    }

    bool cached(u32 f) const { return f < frames_ && recs_[f].state != kOut; }
    bool is_idle(u32 f) const { return f < frames_ && recs_[f].state == kIdle; }
    const PageKey& key_of(u32 f) const { return recs_[f].key; }

    // Cache frame f as key, busy; false (nothing changed) if the key or
    // the frame is cached already, or f is out of range.
    bool insert(u32 f, const PageKey& key) {
        if (f >= frames_ || recs_[f].state != kOut || find(key) != kNone) return false;
        Rec& r = recs_[f];
        r.key = key;
        const u32 b = hash(key);
        r.hnext = buckets_[b];
        buckets_[b] = f;
        r.state = kBusy;
        r.unsettled = 0;
        r.prev = r.next = kNone;
        size_++;
        return true;
    }

    // Take f out of the index (eviction, or its file changed size).
    void remove(u32 f) {
        if (!cached(f)) return;
        if (recs_[f].state == kIdle) unlink(f);
        u32* at = &buckets_[hash(recs_[f].key)];
        while (*at != f) at = &recs_[*at].hnext;
        *at = recs_[f].hnext;
        recs_[f].state = kOut;
        size_--;
    }

    // Its last user went: f joins the end of the idle list (most recent).
    void make_idle(u32 f) {
        if (!cached(f) || recs_[f].state == kIdle) return;
        Rec& r = recs_[f];
        r.state = kIdle;
        r.unsettled = 0;
        r.next = kNone;
        r.prev = tail_;
        if (tail_ != kNone) recs_[tail_].next = f;
        tail_ = f;
        if (head_ == kNone) head_ = f;
        idle_++;
    }

    // A user took it again.
    void make_busy(u32 f) {
        if (!is_idle(f)) return;
        unlink(f);
        recs_[f].state = kBusy;
    }

    // A busy frame's mark for its user (the kernel: counted as free memory
    // until a mapping settles it). insert() clears it; remove() keeps it,
    // for the frame's last user; an idle frame is never marked.
    void mark_unsettled(u32 f, bool on) {
        if (f < frames_) recs_[f].unsettled = on && recs_[f].state != kIdle;
    }
    bool unsettled(u32 f) const { return f < frames_ && recs_[f].unsettled != 0; }

    // The idle frame used least recently, or kNone.
    u32 oldest_idle() const { return head_; }

  private:
    static constexpr u8 kOut = 0, kBusy = 1, kIdle = 2;

    u32 hash(const PageKey& k) const {
        const u32 h = k.inum * 0x9e3779b1u ^ k.page * 0x85ebca6bu ^ k.dev * 0xc2b2ae35u;
        return (h ^ (h >> 15)) & (nbuckets_ - 1);
    }

    void unlink(u32 f) {
        Rec& r = recs_[f];
        if (r.prev != kNone) recs_[r.prev].next = r.next;
        else head_ = r.next;
        if (r.next != kNone) recs_[r.next].prev = r.prev;
        else tail_ = r.prev;
        r.prev = r.next = kNone;
        idle_--;
    }

    u32 frames_ = 0;
    Rec* recs_ = nullptr;
    u32* buckets_ = nullptr;
    u32 nbuckets_ = 0;
    u32 head_ = kNone;
    u32 tail_ = kNone;
    u32 size_ = 0;
    u32 idle_ = 0;
};

}  // namespace q::vm
