// kernel/mm/mmap.cc - mmap, munmap, mprotect, msync, and what fork, exit and
// exec do with mappings (docs/memory.md "Mappings").
//
// A mapping is a Mmap region of the process's map (lib/vm/regions.h); its
// pages fault in lazily (kernel/mm/fault.cc): zeroed for anonymous memory,
// read from the file for a file mapping. Accounting is the lazy heap's:
// mmap admits the pages by the out-of-memory rule and promises them in one
// step (oom_reserve, ThreadGroup::reserved), so every page of every mapping
// is mapped or promised, and munmap gives back exactly the promises of the
// pages it finds unmapped. A file mapping holds a reference to its inode
// (Region::obj) for each region naming it; cuts and copies (munmap,
// mprotect, fork) adjust the count so each region holds one.
// MAP_SHARED: pages carry kPteShared; fork maps the same pages in the child
// writable (an anonymous shared mapping is first faulted in completely, so
// parent and child can never pick different pages). A shared file
// mapping's pages are the page cache's (kernel/mm/pcache.h: every process
// mapping the file shares them), written back through the log (an FsOp per
// chunk, as write() does) on msync, munmap and exit/exec; a frame that a
// truncation took out of the cache is not written back. A page with no
// byte of the file (past its end) is not mapped: SIGBUS (fault.cc).
// Locking: the map and table change under MmGuard (mm_lock, when the
// process has threads) and pt_lock; with threads, unmapped or narrowed
// entries are shot down (kernel/mm/tlb.h) before pages are freed.
#include "kernel/mm/mmap.h"

#include "kernel/arch/riscv/memlayout.h"
#include "kernel/fs/file.h"
#include "kernel/fs/fs.h"
#include "kernel/lib/kprintf.h"
#include "kernel/mm/fault.h"
#include "kernel/mm/kalloc.h"
#include "kernel/mm/pcache.h"
#include "kernel/mm/tlb.h"
#include "kernel/mm/vm.h"
#include "kernel/proc/internal.h"
#include "kernel/proc/oom.h"
#include "kernel/syscall.h"
#include "lib/abi/abi.h"

namespace q {

using namespace riscv;

namespace {

// One write-back transaction's bytes (kernel/fs/file.cc's kMaxWrite).
constexpr u32 kChunk = ((param::kMaxOpBlocks - 1 - 1 - 2) / 2) * fs::kBlockSize;
constexpr int kFlagsKnown = MAP_SHARED | MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS;
constexpr u64 kMaxLen = layout::kMmapTop - layout::kMmapBase;

u8 perm_of(int prot) {
    u8 perm = 0;
    if (prot & PROT_READ) perm |= vm::kRead;
    if (prot & PROT_WRITE) perm |= vm::kWrite;
    if (prot & PROT_EXEC) perm |= vm::kExec;
    return perm;
}

// [addr, addr+len) page-aligned, not empty, inside user memory.
bool range_ok(u64 addr, u64 len) {
    if (addr % kPageSize != 0 || len == 0 || len > layout::kUserTop) return false;
    return addr <= layout::kUserTop - page_round_up(len);
}

Inode* inode_of(const vm::Region& r) { return reinterpret_cast<Inode*>(r.obj); }

void drop_ref(Inode* ip) {
    if (ip == nullptr || iput_if_shared(ip)) return;
    FsOp op;  // the last reference to an unlinked file frees it on disk
    iput(ip);
}

// A demand-paged text region's reference: it also denies writes to the
// file while the region exists (ETXTBSY, kernel/fs/fs.h:deny_write).
void drop_text_ref(Inode* ip) {
    allow_write(ip);
    drop_ref(ip);
}

// Write the mapped pages of a shared file region r within [from, to) back
// to the file, never past its end (a mapping does not grow its file), and
// only frames that are still the file's pages: a truncation took the
// file's pages out of the page cache, and a frame mapped before it holds
// bytes the file no longer has (written back after the file grew again,
// they would land over its new bytes).
Status write_back(ThreadGroup* tg, const vm::Region& r, u64 from, u64 to) {
    Inode* ip = inode_of(r);
    for (u64 va = from; va < to; va += kPageSize) {
        u64 pa = 0;
        {
            LockGuard g(tg->pt_lock);
            Pte* pte = walk(tg->pagetable, va, false);
            if (pte && (*pte & kPteV)) pa = pte_to_pa(*pte);
        }
        if (pa == 0) continue;  // never touched: the file has it already
        const u64 fo = r.off + (va - r.start);
        for (u32 done = 0; done < kPageSize;) {
            FsOp op;
            if (!fs_writable()) return Error::IoError;
            InodeLock lock(ip);
            if (fo + done >= ip->size || !pcache_holds(reinterpret_cast<void*>(pa))) break;
            u32 n = static_cast<u32>(kPageSize) - done;
            if (n > kChunk) n = kChunk;
            if (fo + done + n > ip->size) n = static_cast<u32>(ip->size - fo - done);
            auto w = writei(ip, false, pa + done, static_cast<u32>(fo + done), n);
            if (!w.ok()) return w.error();
            done += n;
        }
    }
    return {};
}

// Write back every shared file page of [start, end).
Status sync_range(ThreadGroup* tg, u64 start, u64 end) {
    Status st;
    for (int i = 0; i < tg->map.size(); i++) {
        const vm::Region r = tg->map.at(i);
        if (r.kind != vm::Kind::Mmap || !r.shared || r.obj == 0) continue;
        const u64 from = r.start > start ? r.start : start;
        const u64 to = r.end < end ? r.end : end;
        if (from < to) {
            Status s = write_back(tg, r, from, to);
            if (!s.ok()) st = s;
        }
    }
    return st;
}

// Remove the mappings of [start, end): pages freed, untouched pages'
// promises returned, inode references dropped. One region at a time, so
// nothing but one Region is copied onto the kernel stack. Caller holds
// MmGuard.
Status unmap_range(ThreadGroup* tg, u64 start, u64 end) {
    (void)sync_range(tg, start, end);  // a failed write-back (disk full) still unmaps, as Linux
    for (;;) {
        vm::Region r;
        {
            LockGuard g(tg->pt_lock);
            const vm::Region* cur = tg->map.first_mapping(start, end);
            if (cur == nullptr) return {};
            const u64 from = cur->start > start ? cur->start : start;
            const u64 to = cur->end < end ? cur->end : end;
            u64 objs[2];
            tg->map.cut_objs(from, to, objs);
            if (!tg->map.split_at(from, to)) return Error::NoMemory;  // the table is full
            for (u64 o : objs) {  // the new piece of a cut file mapping: its own reference
                if (o) idup(reinterpret_cast<Inode*>(o));
            }
            r = *tg->map.find(from);
            (void)tg->map.remove_mappings(from, to);  // whole now: no cut
            uvm_revoke(tg->pagetable, from, to);      // nobody may use the pages now
        }
        tlb_shootdown(tg);
        {
            LockGuard g(tg->pt_lock);
            const u64 holes = uvm_unmap(tg->pagetable, r.start, (r.end - r.start) / kPageSize, true);
            kalloc_unreserve(holes);  // each page never touched was promised
            tg->reserved -= holes;
        }
        drop_ref(inode_of(r));
    }
}

// The file behind fd for a mapping with prot and flags, checked as Linux
// does: a regular file, open for reading; writable too for a shared
// writable mapping.
Result<Inode*> map_file(int fd, int prot, int flags, bool* writable) {
    auto f = TRY(fd_get(fd));
    *writable = f->writable;
    if (f->type != FileType::Inode || !f->readable) return Error::Permission;
    if ((flags & MAP_SHARED) && (prot & PROT_WRITE) && !f->writable) return Error::Permission;
    {
        InodeLock lock(f->inode);
        if (f->inode->type != fs::InodeType::File) return Error::Permission;
    }
    return f->inode;
}

// Where a new mapping of len bytes goes (0: nowhere).
u64 place(ThreadGroup* tg, u64 hint, u64 len, bool fixed) {
    if (fixed) return range_ok(hint, len) ? hint : 0;
    return tg->map.find_free(len, layout::kMmapBase, layout::kMmapTop);
}

Result<u64> do_mmap(u64 hint, u64 len, int prot, int flags, int fd, u64 off) {
    const int kind = flags & (MAP_SHARED | MAP_PRIVATE);
    if (len == 0 || len > kMaxLen || (prot & ~(PROT_READ | PROT_WRITE | PROT_EXEC)) != 0) return Error::BadArgument;
    if ((flags & ~kFlagsKnown) != 0 || (kind != MAP_SHARED && kind != MAP_PRIVATE)) return Error::BadArgument;
    if (off % kPageSize != 0 || ((flags & MAP_FIXED) && hint % kPageSize != 0)) return Error::BadArgument;
    len = page_round_up(len);
    Inode* ip = nullptr;
    bool writable = false;
    if (!(flags & MAP_ANONYMOUS)) {
        if (off > 0xffffffffull || off + len > 0x100000000ull) return Error::TooBig;  // file offsets are u32
        auto file = TRY(map_file(fd, prot, flags, &writable));
        ip = file;
    }
    ThreadGroup* tg = myproc()->tg;
    MmGuard mm(tg);
    const u64 pages = len / kPageSize;
    const u64 tables = 2 + pages / 512;  // leaf tables per 2 MiB (and one more), a middle one
    TRY(oom_reserve(pages + tables, page_round_up(tg->sz) / kPageSize + tg->map.pages_of(vm::Kind::Mmap) + pages));
    PromiseHold promise(pages + tables);  // admitted and promised at once; given back if the mapping fails
    u64 at = place(tg, hint, len, (flags & MAP_FIXED) != 0);
    if (at == 0) return Error::NoMemory;
    if (flags & MAP_FIXED) {
        if (tg->map.other_in(at, at + len)) return Error::BadArgument;  // the program, stack or heap
        TRY(unmap_range(tg, at, at + len));                             // MAP_FIXED replaces mappings there
    }
    vm::Region r;
    r.start = at;
    r.end = at + len;
    r.kind = vm::Kind::Mmap;
    r.perm = perm_of(prot);
    r.lazy = true;
    r.shared = kind == MAP_SHARED;
    r.obj = reinterpret_cast<u64>(ip);
    r.off = off;
    if (ip && kind == MAP_SHARED && !writable) r.max_perm = vm::kRead | vm::kExec;
    if (ip && kind == MAP_SHARED && writable) {
        InodeLock lock(ip);
        ip->pc_shared = true;  // read() now takes this file's pages from the page cache
    }
    {
        LockGuard g(tg->pt_lock);
        if (!tg->map.add_mapping(r)) return Error::NoMemory;  // 32 regions: the table is full
        if (r.end > tg->map_top) tg->map_top = r.end;         // its tables: proc_free_pagetable
        promise.keep();
        tg->reserved += pages;
        tg->table_reserved += tables;
    }
    if (ip) idup(ip);
    return at;
}

// New permissions for the mapped pages of [start, end) (pt_lock held):
// a copy-on-write page stays read-only (its write fault copies it).
void protect_pages(PageTable pt, u64 start, u64 end, u8 perm) {
    u64 bits = 0;
    if (perm & (vm::kRead | vm::kWrite)) bits |= kPteR;
    if (perm & vm::kWrite) bits |= kPteW;
    if (perm & vm::kExec) bits |= kPteX;
    for (u64 va = start; va < end; va += kPageSize) {
        Pte* pte = walk(pt, va, false);
        if (!pte || !(*pte & kPteV)) continue;
        u64 b = bits;
        u64 cow = *pte & kPteCow;
        // A private page fork shared while it was read-only: writable
        // means copy-on-write now, never a write into the other's page.
        if ((b & kPteW) && !(*pte & kPteShared) && page_shared(reinterpret_cast<void*>(pte_to_pa(*pte)))) cow = kPteCow;
        if (cow) b &= ~kPteW;
        *pte = (*pte & ~(kPteR | kPteW | kPteX | kPteCow)) | b | cow;
    }
}

}  // namespace

SysResult sys_mmap() {
    return sys_result(do_mmap(arg_raw(0), arg_raw(1), arg_int(2), arg_int(3), arg_int(4), arg_raw(5)));
}

SysResult sys_munmap() {
    const u64 addr = arg_raw(0), len = arg_raw(1);
    if (!range_ok(addr, len)) return Error::BadArgument;
    ThreadGroup* tg = myproc()->tg;
    MmGuard mm(tg);
    return sys_result(unmap_range(tg, addr, addr + page_round_up(len)));
}

SysResult sys_mprotect() {
    const u64 addr = arg_raw(0), len = arg_raw(1);
    const int prot = arg_int(2);
    if (!range_ok(addr, len) || (prot & ~(PROT_READ | PROT_WRITE | PROT_EXEC)) != 0) return Error::BadArgument;
    const u64 end = addr + page_round_up(len);
    ThreadGroup* tg = myproc()->tg;
    MmGuard mm(tg);
    {
        LockGuard g(tg->pt_lock);
        u64 objs[2];
        tg->map.cut_objs(addr, end, objs);
        if (!tg->map.protect(addr, end, perm_of(prot))) return Error::NoMemory;
        for (u64 o : objs) {  // the pieces of a cut file mapping: one reference each
            if (o) idup(reinterpret_cast<Inode*>(o));
        }
        protect_pages(tg->pagetable, addr, end, perm_of(prot));
    }
    tlb_shootdown(tg);
    return 0;
}

SysResult sys_msync() {
    const u64 addr = arg_raw(0), len = arg_raw(1);
    const int flags = arg_int(2);
    if (!range_ok(addr, len) || (flags & ~(MS_ASYNC | MS_INVALIDATE | MS_SYNC)) != 0) return Error::BadArgument;
    if ((flags & MS_ASYNC) && (flags & MS_SYNC)) return Error::BadArgument;
    const u64 end = addr + page_round_up(len);
    ThreadGroup* tg = myproc()->tg;
    MmGuard mm(tg);
    if (!tg->map.all_mapped(addr, end)) return Error::NoMemory;
    return sys_result(sync_range(tg, addr, end));
}

Result<u64> vm_mmap_fork(ThreadGroup* ptg, ThreadGroup* ctg, bool copy) {
    u64 holes = 0;
    int done = 0;
    Status st;
    for (; done < ptg->map.size(); done++) {
        const vm::Region& r = ptg->map.at(done);
        if (r.kind != vm::Kind::Mmap) continue;
        u64 h = 0;
        if (r.shared && r.obj == 0) st = vm_fill_range(ptg, r.start, r.end);
        if (!st.ok()) break;
        if (r.shared) {
            st = uvm_share_range(ptg->pagetable, ctg->pagetable, r.start, r.end, &h, false);
        } else if (copy) {
            st = uvm_copy_range(ptg->pagetable, ctg->pagetable, r.start, r.end, &h);
        } else {
            st = uvm_share_range(ptg->pagetable, ctg->pagetable, r.start, r.end, &h, true);
        }
        if (!st.ok()) break;
        holes += h;
    }
    if (st.ok() && holes > 0) st = oom_reserve(holes, holes);  // the child's untouched pages, admitted
    if (!st.ok()) {                                            // undo the regions already done in the child
        for (int i = 0; i < done; i++) {
            const vm::Region& r = ptg->map.at(i);
            if (r.kind == vm::Kind::Mmap) uvm_unshare(ctg->pagetable, r.start, r.end);
        }
        return Error::NoMemory;
    }
    for (int i = 0; i < ptg->map.size(); i++) {  // mappings' and demand-paged text's files
        const vm::Region& r = ptg->map.at(i);
        if (r.obj == 0) continue;
        idup(inode_of(r));
        if (r.kind != vm::Kind::Mmap) deny_write_again(inode_of(r));  // the parent's region denies writes already
    }
    return holes;
}

void vm_file_promises(ThreadGroup* ctg) {
    u64 n = 0;
    for (int i = 0; i < ctg->map.size(); i++) {
        const vm::Region& r = ctg->map.at(i);
        if (r.obj == 0 || (r.kind == vm::Kind::Mmap && !r.shared)) continue;  // private: copied on write
        // A text page mapped kPteShared is always the cache's (its private
        // last page is not kPteShared); so is a shared file mapping's
        // (fault.cc: cache_frame), which is asked all the same.
        n += uvm_file_shared(ctg->pagetable, r.start, r.end, r.kind == vm::Kind::Mmap);
    }
    if (n) kalloc_unreserve(n);
}

void vm_mmap_release(ThreadGroup* tg) {
    MmGuard mm(tg);
    if (tg->map.pages_of(vm::Kind::Mmap) != 0) (void)unmap_range(tg, 0, layout::kUserTop);  // whole regions: no cut
    // The program's demand-paged text: its file references (the pages go
    // with the rest of [0, sz)). No user code runs in this map any more.
    Inode* drop[vm::Map::kMaxRegions];
    bool text[vm::Map::kMaxRegions];
    int ndrop = 0;
    {
        LockGuard g(tg->pt_lock);
        for (int i = 0; i < tg->map.size(); i++) {
            if (tg->map.at(i).obj == 0) continue;
            text[ndrop] = tg->map.at(i).kind != vm::Kind::Mmap;
            drop[ndrop++] = inode_of(tg->map.at(i));
        }
        tg->map.clear_backing();
    }
    for (int i = 0; i < ndrop; i++) text[i] ? drop_text_ref(drop[i]) : drop_ref(drop[i]);
}

int vm_objs_from(const ThreadGroup* tg, u64 from, Inode** out) {
    int n = 0;
    for (int i = 0; i < tg->map.size(); i++) {
        const vm::Region& r = tg->map.at(i);
        if (r.obj && r.kind != vm::Kind::Mmap && r.start >= from) out[n++] = inode_of(r);
    }
    return n;
}

void vm_drop_objs(Inode** objs, int n) {
    for (int i = 0; i < n; i++) drop_text_ref(objs[i]);
}

}  // namespace q
