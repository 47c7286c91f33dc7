// lib/vm/regions.h - a process's address-space map: what each address
// should be.
//
// Pure, freestanding and allocation-free, so the kernel's page-fault path
// (kernel/mm/fault.cc) and host tests (tests/host/vm_regions_test.cc) run
// the same code. A Map is a small fixed table of regions (text, data, the
// stack guard, the stack, the heap; later mappings), each a page-aligned
// half-open range [start, end) with R/W/X permissions and a kind.
// Invariants: regions are sorted by start and never overlap; only the heap
// may be empty (start == end: a heap nothing has grown yet). The page
// table says what is mapped now; the map says what may be: classify()
// turns a faulting address and access into what the fault handler does.
#pragma once

#include "lib/types.h"

namespace q::vm {

enum class Kind : u8 { Text, Data, Guard, Stack, Heap, Mmap };
enum Perm : u8 { kRead = 1, kWrite = 2, kExec = 4 };
enum class Access : u8 { Read, Write, Exec };
constexpr u32 kWholeFile = ~0u;  // Region::file_len of a mapping: the file to its end

struct Region {
    u64 start = 0;
    u64 end = 0;
    Kind kind = Kind::Text;
    u8 perm = 0;
    // Pages are allocated zeroed on first touch (the heap), not when the
    // region is made.
    bool lazy = false;
    bool shared = false;                   // a Mmap region mapped MAP_SHARED
    u8 max_perm = kRead | kWrite | kExec;  // what mprotect may grant (a file opened read-only: no W if shared)
    u64 obj = 0;                           // what backs it (0: anonymous)
    u32 off = 0;                           // obj's offset at start (files are < 4 GiB)
    u32 file_len = kWholeFile;             // bytes of obj from off behind it (exec's text: the segment's); zeros past
    bool contains(u64 va) const { return va >= start && va < end; }
};
static_assert(sizeof(Region) == 40, "a Map is 32 of these, on kernel stacks: keep it small");

// What a fault at an address means.
enum class Verdict : u8 {
    ZeroFill,    // a lazy region's page never touched: allocate it, zeroed
    Present,     // allowed, and should already be mapped (a stale TLB entry, or a bug)
    Protection,  // inside a region that does not allow the access
    Guard,       // the stack's guard page
    Unmapped,    // in no region at all
};

constexpr const char* verdict_name(Verdict v) {
    switch (v) {
        case Verdict::ZeroFill:
            return "zero fill";
        case Verdict::Present:
            return "mapped";
        case Verdict::Protection:
            return "protection";
        case Verdict::Guard:
            return "stack guard page";
        case Verdict::Unmapped:
            return "unmapped address";
    }
    return "?";
}

constexpr const char* access_name(Access a) {
    return a == Access::Read ? "read" : a == Access::Write ? "write" : "exec";
}

// Page-table pages (Sv39: a leaf table per 2 MiB, a middle one per 1 GiB)
// that mapping [covered, end) may need beyond those of [0, covered): what
// sbrk promises besides the heap's pages, so a first touch finds its table.
constexpr u64 tables_to_cover(u64 covered, u64 end) {
    if (end <= covered) return 0;
    constexpr u64 kSpans[] = {512ull * 4096, 512ull * 512 * 4096};  // a leaf table's, a middle one's
    u64 n = 0;
    for (u64 span : kSpans) {
        const u64 first = covered == 0 ? 0 : (covered - 1) / span + 1;  // first span not yet covered
        const u64 last = (end - 1) / span;
        if (last >= first) n += last - first + 1;
    }
    return n;
}

class Map {
  public:
    static constexpr int kMaxRegions = 32;

    constexpr Map() = default;
    Map(const Map& o) { *this = o; }  // (1,288 bytes: not on a kernel stack)
    // Copies the regions in use only (fork, exec: a process has about 6 of
    // the 32, so this moves 240 bytes, not 1,288).
    Map& operator=(const Map& o) {
        if (this == &o) return *this;
        for (int i = 0; i < o.n_; i++) r_[i] = o.r_[i];
        n_ = o.n_;
        return *this;
    }

    int size() const { return n_; }
    const Region& at(int i) const { return r_[i]; }
    void clear() { n_ = 0; }

    // Add [start, end); false (nothing changed) if it is not page-aligned,
    // empty (unless a heap), overlaps another region, or the table is full.
    bool add(u64 start, u64 end, Kind kind, u8 perm, bool lazy = false, u64 page = 4096) {
        if (start % page != 0 || end % page != 0 || end < start) return false;
        if (end == start && kind != Kind::Heap) return false;
        if (n_ == kMaxRegions) return false;
        int i = 0;
        while (i < n_ && r_[i].start < start) i++;
        if (i > 0 && r_[i - 1].end > start) return false;
        if (i < n_ && end > r_[i].start) return false;
        for (int k = n_; k > i; k--) r_[k] = r_[k - 1];
        r_[i] = Region{start, end, kind, perm, lazy};
        n_++;
        return true;
    }

    // Add a mapping (add()'s rules).
    bool add_mapping(const Region& m, u64 page = 4096) {
        if (m.end == m.start || m.kind != Kind::Mmap) return false;
        if (!add(m.start, m.end, Kind::Mmap, m.perm, m.lazy, page)) return false;
        Region* r = find_mut(m.start);
        r->shared = m.shared;
        r->obj = m.obj;
        r->off = m.off;
        r->max_perm = m.max_perm;
        r->file_len = m.file_len;
        return true;
    }

    // Back the region that starts at start with file_len bytes of obj from
    // off (exec's demand-paged text); false if no region starts there.
    bool back(u64 start, u64 obj, u32 off, u32 file_len) {
        for (int i = 0; i < n_; i++) {
            if (r_[i].start != start) continue;
            r_[i].obj = obj;
            r_[i].off = off;
            r_[i].file_len = file_len;
            return true;
        }
        return false;
    }

    // True if every page of [start, end) is in a Mmap region.
    bool all_mapped(u64 start, u64 end) const {
        for (u64 a = start; a < end;) {
            const Region* r = find(a);
            if (r == nullptr || r->kind != Kind::Mmap) return false;
            a = r->end;
        }
        return true;
    }

    // Cut the Mmap regions at start and at end, so that [start, end) is a
    // union of whole regions; false (nothing changed) if the table is full.
    bool split_at(u64 start, u64 end) {
        int need = 0;
        const u64 cuts[2] = {start, end};
        for (u64 cut : cuts) {
            const Region* r = find(cut);
            if (r && r->kind == Kind::Mmap && r->start != cut) need++;
        }
        if (n_ + need > kMaxRegions) return false;
        split(start);
        split(end);
        return true;
    }

    // Remove the Mmap parts of [start, end) (munmap): false (nothing
    // changed) if a cut would overflow the table.
    bool remove_mappings(u64 start, u64 end) {
        if (!split_at(start, end)) return false;
        int k = 0;
        for (int i = 0; i < n_; i++) {
            const bool gone = r_[i].kind == Kind::Mmap && r_[i].start >= start && r_[i].end <= end;
            if (!gone) r_[k++] = r_[i];
        }
        n_ = k;
        return true;
    }

    // Give the mappings of [start, end) permissions perm (mprotect); false
    // (nothing changed) if a page is in no mapping, a mapping may not have
    // perm (its max_perm), or the table is full.
    bool protect(u64 start, u64 end, u8 perm) {
        if (!all_mapped(start, end)) return false;
        for (int i = 0; i < n_; i++) {
            if (r_[i].start < end && r_[i].end > start && (perm & ~r_[i].max_perm) != 0) return false;
        }
        if (!split_at(start, end)) return false;
        for (int i = 0; i < n_; i++) {
            if (r_[i].kind == Kind::Mmap && r_[i].start >= start && r_[i].end <= end) r_[i].perm = perm;
        }
        return true;
    }

    // The lowest address in [lo, hi) where len bytes fit between regions,
    // or 0 (len a multiple of the page size, lo page-aligned).
    u64 find_free(u64 len, u64 lo, u64 hi) const {
        if (len == 0 || hi < lo || len > hi - lo) return 0;
        u64 at = lo;
        for (int i = 0; i < n_; i++) {
            if (r_[i].end <= at) continue;
            if (r_[i].start >= at + len) break;
            at = r_[i].end;
            if (at > hi - len) return 0;
        }
        return at + len <= hi ? at : 0;
    }

    // The file objects of the regions cut at start and at end, which a
    // split_at(start, end) would give a second region each (0: no cut, or
    // anonymous); the caller takes a reference for each.
    void cut_objs(u64 start, u64 end, u64 out[2]) const {
        const u64 cuts[2] = {start, end};
        for (int k = 0; k < 2; k++) {
            const Region* r = find(cuts[k]);
            out[k] = r && r->kind == Kind::Mmap && r->start != cuts[k] ? r->obj : 0;
        }
    }

    // The first Mmap region overlapping [start, end), or null.
    const Region* first_mapping(u64 start, u64 end) const {
        for (int i = 0; i < n_; i++) {
            if (r_[i].kind == Kind::Mmap && r_[i].start < end && r_[i].end > start) return &r_[i];
        }
        return nullptr;
    }

    // True if a region other than a mapping overlaps [start, end).
    bool other_in(u64 start, u64 end) const {
        for (int i = 0; i < n_; i++) {
            if (r_[i].kind != Kind::Mmap && r_[i].start < end && r_[i].end > start) return true;
        }
        return false;
    }

    // Forget every region's backing object (the caller dropped them).
    void clear_backing() {
        for (int i = 0; i < n_; i++) r_[i].obj = 0;
    }

    // Pages in regions of this kind (mmap's: the out-of-memory badness).
    u64 pages_of(Kind kind, u64 page = 4096) const {
        u64 n = 0;
        for (int i = 0; i < n_; i++) {
            if (r_[i].kind == kind) n += (r_[i].end - r_[i].start) / page;
        }
        return n;
    }

    // The region holding va, or null.
    const Region* find(u64 va) const {
        for (int i = 0; i < n_; i++) {
            if (r_[i].contains(va)) return &r_[i];
        }
        return nullptr;
    }

    // The first region of this kind, or null.
    const Region* first(Kind kind) const {
        for (int i = 0; i < n_; i++) {
            if (r_[i].kind == kind) return &r_[i];
        }
        return nullptr;
    }

    // Move the heap's end (sbrk) to new_end, page-rounded up; false (nothing
    // changed) if there is no heap, or it would run into the next region or
    // past limit. Below the heap's start (xv6 lets sbrk give back any of a
    // program's memory) every region above the new end goes, the one
    // holding it is cut there, and the empty heap starts there.
    bool set_break(u64 new_end, u64 limit, u64 page = 4096) {
        const u64 end = (new_end + page - 1) / page * page;
        int h = 0;
        while (h < n_ && r_[h].kind != Kind::Heap) h++;
        if (h == n_ || end < new_end || end > limit) return false;
        if (end >= r_[h].start) {
            if (h + 1 < n_ && end > r_[h + 1].start) return false;
            r_[h].end = end;
            return true;
        }
        Region heap = r_[h];
        int k = 0;
        for (int i = 0; i < n_; i++) {
            if (i == h || r_[i].start >= end) continue;
            r_[k] = r_[i];
            if (r_[k].end > end) r_[k].end = end;
            k++;
        }
        n_ = k;
        heap.start = heap.end = end;
        r_[n_++] = heap;  // every region left ends at or below end
        return true;
    }

    // What a fault of this access at va should do.
    Verdict classify(u64 va, Access a) const {
        const Region* r = find(va);
        if (r == nullptr) return Verdict::Unmapped;
        if (r->kind == Kind::Guard) return Verdict::Guard;
        const u8 need = a == Access::Read ? kRead : a == Access::Write ? kWrite : kExec;
        if ((r->perm & need) == 0) return Verdict::Protection;
        return r->lazy ? Verdict::ZeroFill : Verdict::Present;
    }

  private:
    Region* find_mut(u64 va) {
        for (int i = 0; i < n_; i++) {
            if (r_[i].contains(va)) return &r_[i];
        }
        return nullptr;
    }

    // Cut the Mmap region holding va in two at va (room checked by caller).
    void split(u64 va) {
        int i = 0;
        while (i < n_ && !(r_[i].contains(va) && r_[i].start != va)) i++;
        if (i == n_ || r_[i].kind != Kind::Mmap) return;
        for (int k = n_; k > i + 1; k--) r_[k] = r_[k - 1];
        r_[i + 1] = r_[i];
        r_[i].end = va;
        r_[i + 1].start = va;
        const u64 cut = va - r_[i].start;  // below 4 GiB in a file mapping (mmap checks off + len)
        r_[i + 1].off += static_cast<u32>(cut);
        if (r_[i + 1].file_len != kWholeFile)
            r_[i + 1].file_len = r_[i + 1].file_len > cut ? r_[i + 1].file_len - static_cast<u32>(cut) : 0;
        n_++;
    }

    Region r_[kMaxRegions];
    int n_ = 0;
};

}  // namespace q::vm
