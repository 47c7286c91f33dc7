// kernel/proc/exec.cc - replace a process's memory with a program from disk.
//
// exec builds a whole new address space in an Image (segments with the
// permissions the ELF asks for: text R+X, data R+W; then an unmapped-for-user
// guard page and the stack, with argv strings and the argv array on it), and
// its map (lib/vm/regions.h: a region per segment, the guard, the stack and
// an empty lazy heap above it), and only when all of it succeeded swaps it
// in and frees the old one.
// Read-only executable segments are demand-paged: named lazy in the map,
// backed by the program file (an inode reference per region), read on
// first touch (kernel/mm/fault.cc); writable ones have the pages holding
// file bytes loaded now and their whole bss pages named lazy (zero-filled
// on first touch, as the heap), so a big bss costs what is touched.
// Invariant: an Image's size always covers what it has mapped (pages it
// left lazy are holes), so its destructor frees every page (and drops
// every file reference) of a half-built image whatever step failed (a bad
// program header after a loaded segment, memory running out in the middle
// of a segment). A failed exec leaves the caller untouched.
// User stack at entry: sp -> argv[0..argc] pointers (NULL-terminated), the
// strings above them; a0 = argc, a1 = argv. The strings are read from the
// caller first, straight into the page that becomes the stack's top one
// (ExecArgs). An exec in a process with several threads ends the others
// once the new image is complete, and only then commits
// (kernel/proc/thread.cc:end_other_threads), so a failed exec leaves every
// thread running.
#include "kernel/arch/riscv/memlayout.h"
#include "kernel/arch/riscv/trapframe.h"
#include "kernel/fs/fs.h"
#include "kernel/lib/string.h"
#include "kernel/mm/fault.h"
#include "kernel/mm/kalloc.h"
#include "kernel/mm/mmap.h"
#include "kernel/obs/trace.h"
#include "kernel/proc/internal.h"
#include "kernel/proc/oom.h"
#include "kernel/proc/signal.h"
#include "kernel/syscall.h"
#include "lib/elf.h"

namespace q {

using namespace riscv;

namespace {

// A user address space under construction. Owns its page table until
// release(); the destructor frees whatever was mapped.
class Image {
  public:
    // The map lives in a page of its own, not on the kernel stack (a Map
    // is 1.3 KiB): a zeroed one (an empty map), zeroed again when it goes
    // back (kalloc.h: kfree_zeroed), so it is neither zeroed nor junk-filled
    // page-wide on its way (~870 instructions an exec).
    explicit Image(Proc* p) : pt_(proc_pagetable(p)), map_(static_cast<vm::Map*>(kalloc())) {}
    ~Image() {
        if (pt_) proc_free_pagetable(pt_, sz_);
        if (promised_) kalloc_unreserve(promised_);  // a failed exec's lazy pages
        if (map_ && refs_) {
            FsOp op;  // a failed exec drops its text's file references
            for (int i = 0; i < map_->size(); i++) {
                if (map_->at(i).obj == 0) continue;
                allow_write(reinterpret_cast<Inode*>(map_->at(i).obj));
                iput(reinterpret_cast<Inode*>(map_->at(i).obj));
            }
        }
        if (map_) {
            memset(static_cast<void*>(map_), 0, sizeof(*map_));  // kfree_zeroed takes zeroed pages
            kfree_zeroed(map_);
        }
    }
    Image(const Image&) = delete;
    Image& operator=(const Image&) = delete;

    bool ok() const { return pt_ != nullptr && map_ != nullptr; }
    PageTable pt() const { return pt_; }
    u64 size() const { return sz_; }
    const vm::Map& map() const { return *map_; }
    // Name [page_round_up(size), page_round_up(end)) in the map (what grow
    // maps); BadExec if the table of regions is full.
    Status name(u64 end, vm::Kind kind, u8 perm, bool lazy = false) {
        if (!map_->add(page_round_up(sz_), page_round_up(end), kind, perm, lazy)) return Error::BadExec;
        return {};
    }
    // Map fresh pages up to newsz (kernel/proc/oom.cc:oom_grow: admitted
    // first, so an image larger than RAM is TooBig and one larger than free
    // memory NoMemory with nothing allocated; a partial grow is undone).
    Status grow(u64 newsz, u64 perm) {
        auto sz = TRY(oom_grow(pt_, sz_, newsz, perm));
        sz_ = sz;
        return {};
    }
    // Map page (zeroed but for what the caller wrote in it) at size, as
    // grow would a fresh one, admitted the same way; the image frees it
    // from then on.
    Status map_page(void* page, u64 perm) {
        TRY(oom_admit(1, sz_ / kPageSize + 1));
        TRY(map_pages(pt_, sz_, kPageSize, reinterpret_cast<u64>(page), perm | kPteU));
        sz_ += kPageSize;
        return {};
    }
    // Name-free growth: [size, newsz) stays unmapped (the stack's lazy
    // pages below its first one, promised first).
    void skip(u64 newsz) { sz_ = newsz; }
    // Lazy pages for an image of total_after pages, admitted and promised
    // at once (kernel/proc/oom.h:oom_reserve); the image holds the promise
    // until commit hands it to the process (take_promised).
    Status promise(u64 pages, u64 total_after) {
        TRY(oom_reserve(pages, total_after));
        promised_ += pages;
        return {};
    }
    u64 take_promised() {
        const u64 n = promised_;
        promised_ = 0;
        return n;
    }
    // A demand-paged segment: [vaddr, end) named lazy and backed by filesz
    // bytes of ip from off, its pages promised now (any gap below vaddr is
    // a lazy zero region of the same kind).
    Status name_file(u64 vaddr, u64 end, vm::Kind kind, u8 perm, Inode* ip, u64 off, u64 filesz) {
        const u64 from = page_round_up(sz_), to = page_round_up(end);
        const u64 pages = (to - from) / kPageSize;
        TRY(promise(pages, to / kPageSize));  // an image larger than memory fails here, as before
        if (from < vaddr) TRY(name(vaddr, kind, perm, true));
        sz_ = vaddr;
        TRY(name(end, kind, perm, true));
        if (!map_->back(vaddr, reinterpret_cast<u64>(ip), static_cast<u32>(off), static_cast<u32>(filesz)))
            return Error::BadExec;
        if (Status st = deny_write(ip); !st.ok()) {  // open for writing somewhere: ETXTBSY
            (void)map_->back(vaddr, 0, 0, 0);
            return st;
        }
        idup(ip);
        refs_ = true;
        sz_ = to;
        return {};
    }
    // A lazy zero-filled stretch [size, end) (a segment's whole bss pages),
    // its pages promised now, as the heap's.
    Status name_zero(u64 end, vm::Kind kind, u8 perm) {
        const u64 from = page_round_up(sz_), to = page_round_up(end);
        if (to <= from) return {};
        TRY(promise((to - from) / kPageSize, to / kPageSize));
        TRY(name(end, kind, perm, true));
        sz_ = to;
        return {};
    }
    PageTable release() {
        PageTable pt = pt_;
        pt_ = nullptr;
        refs_ = false;  // the map's references go with it
        return pt;
    }

  private:
    PageTable pt_;
    u64 sz_ = 0;
    vm::Map* map_;
    bool refs_ = false;  // map_ holds file references (demand-paged text)
    u64 promised_ = 0;   // lazy pages promised (the guard, the stack's, gaps, demand-paged text, bss)
};

u8 region_perm(u64 pte_perm) {
    return static_cast<u8>(((pte_perm & kPteR) ? vm::kRead : 0) | ((pte_perm & kPteW) ? vm::kWrite : 0) |
                           ((pte_perm & kPteX) ? vm::kExec : 0));
}

u64 seg_perm(u32 flags) {
    u64 perm = 0;
    if (flags & elf::kFlagExec) perm |= kPteX;
    if (flags & elf::kFlagWrite) perm |= kPteW;
    if (flags & elf::kFlagRead) perm |= kPteR;
    return perm;
}

// Read exactly n bytes at file offset off into kernel memory dst.
Status read_exact(Inode* ip, void* dst, u64 off, u32 n) {
    if (off > 0xffffffffull) return Error::BadExec;
    auto r = readi(ip, false, reinterpret_cast<u64>(dst), static_cast<u32>(off), n);
    if (!r.ok() || r.value() != n) return Error::BadExec;
    return {};
}

// A PT_LOAD header the loader accepts: page-aligned, above what is already
// loaded, within user memory, file data no larger than its memory image.
Status check_segment(const elf::ProgHeader& ph, u64 loaded_end) {
    if (ph.memsz < ph.filesz || ph.vaddr + ph.memsz < ph.vaddr) return Error::BadExec;
    if (ph.vaddr % kPageSize != 0 || ph.vaddr < loaded_end) return Error::BadExec;
    if (ph.vaddr + ph.memsz > layout::kUserTop) return Error::BadExec;
    if (ph.off > 0xffffffffull || ph.filesz > 0xffffffffull || ph.off + ph.filesz > 0xffffffffull)
        return Error::BadExec;
    return {};
}

// Copy [off, off+sz) of ip into the image at page-aligned va.
Status load_segment(const Image& img, u64 va, Inode* ip, u32 off, u32 sz) {
    for (u32 i = 0; i < sz; i += kPageSize) {
        const u64 pa = walk_user(img.pt(), va + i);
        if (pa == 0) return Error::BadExec;
        const u32 n = sz - i < kPageSize ? sz - i : static_cast<u32>(kPageSize);
        TRY(read_exact(ip, reinterpret_cast<void*>(pa), static_cast<u64>(off) + i, n));
    }
    return {};
}

// Map and fill every PT_LOAD segment of the (locked) program file.
Status load_program(Image& img, Inode* ip, elf::Header* eh) {
    TRY(read_exact(ip, eh, 0, sizeof(*eh)));
    if (eh->magic != elf::kMagic) return Error::BadExec;
    for (u32 i = 0; i < eh->phnum; i++) {
        elf::ProgHeader ph;
        TRY(read_exact(ip, &ph, eh->phoff + static_cast<u64>(i) * sizeof(ph), sizeof(ph)));
        if (ph.type != elf::kProgLoad) continue;
        TRY(check_segment(ph, img.size()));
        if (ph.memsz == 0) continue;
        const u64 perm = seg_perm(ph.flags);
        if ((perm & kPteX) && !(perm & kPteW)) {  // text: demand-paged, each page read on its first touch
            TRY(img.name_file(ph.vaddr, ph.vaddr + ph.memsz, vm::Kind::Text, region_perm(perm), ip, ph.off, ph.filesz));
            continue;
        }
        // Data: the pages holding file bytes are loaded now, the whole
        // pages of bss above them are lazy (zero-filled on first touch).
        // A writable text segment (W+X) is loaded whole, as before.
        const vm::Kind kind = (perm & kPteX) ? vm::Kind::Text : vm::Kind::Data;
        const u64 filled = kind == vm::Kind::Data ? page_round_up(ph.vaddr + ph.filesz) : ph.vaddr + ph.memsz;
        if (filled > ph.vaddr) {
            TRY(img.name(filled, kind, region_perm(perm)));
            TRY(img.grow(filled, perm));
            TRY(load_segment(img, ph.vaddr, ip, static_cast<u32>(ph.off), static_cast<u32>(ph.filesz)));
        }
        if (kind == vm::Kind::Data) TRY(img.name_zero(ph.vaddr + ph.memsz, kind, region_perm(perm)));
    }
    return {};
}

static_assert(sizeof(vm::Map) <= kPageSize, "an exec image's map fits its page");

constexpr u64 kStackLazyPages = param::kUserStackMaxPages - param::kUserStackPages;
constexpr u64 kLazyPages = 1 + kStackLazyPages;  // the guard page, and the stack's below its first

// exec's argument strings, fetched from the caller before anything else
// (bad arguments fail the call first, as they always did) straight into
// the page that becomes the new stack's top page, where build_stack maps
// it: each string below the one before it (argv[0] highest), 16-aligned,
// and the argv array below them once the page has an address. A string is
// read into the page's bottom, below every string placed so far, then
// moved up to its place: what does not fit the page is TooBig, the limit
// the stack always set (copying them into a page each first, and then
// onto the stack, cost ~1,800 instructions an exec).
class ExecArgs {
  public:
    ExecArgs() = default;
    ~ExecArgs() {
        if (page_ && !mapped_) kfree(page_);
    }
    ExecArgs(const ExecArgs&) = delete;
    ExecArgs& operator=(const ExecArgs&) = delete;

    Status fetch(UserAddr uargv) {
        page_ = kalloc();  // zeroed: below sp the new stack reads 0
        if (!page_) return Error::NoMemory;
        char* pg = static_cast<char*>(page_);
        u64 dirty = 0;  // [0, dirty): where strings were read
        for (argc_ = 0;; argc_++) {
            if (argc_ == param::kMaxExecArgs) return Error::TooBig;  // (a NULL in its place or not)
            auto uarg = TRY(fetch_addr(uargv + argc_ * sizeof(u64)));
            if (uarg == 0) break;
            auto len = TRY(fetch_str(UserAddr(uarg), pg, static_cast<int>(low_)));  // with its NUL: <= low_
            const u64 n = static_cast<u64>(len) + 1;
            if (n > dirty) dirty = n;
            low_ = (low_ - n) & ~15ull;
            memmove(pg + low_, pg, n);
            at_[argc_] = low_;
        }
        const u64 array = (argc_ + 1) * sizeof(u64);
        if (low_ < array) return Error::TooBig;
        memset(pg, 0, dirty < low_ ? dirty : low_);
        return {};
    }
    u64 argc() const { return argc_; }
    void* page() const { return page_; }
    // The page is mapped at va (the image frees it from now on): write the
    // argv array into it; returns sp.
    u64 mapped(u64 va) {
        mapped_ = true;
        const u64 sp = (low_ - (argc_ + 1) * sizeof(u64)) & ~15ull;
        u64* argv = reinterpret_cast<u64*>(static_cast<char*>(page_) + sp);
        for (u64 i = 0; i < argc_; i++) argv[i] = va + at_[i];
        argv[argc_] = 0;
        return va + sp;
    }

  private:
    void* page_ = nullptr;
    bool mapped_ = false;
    u64 argc_ = 0;
    u64 low_ = kPageSize;  // the lowest string's offset in the page
    u64 at_[param::kMaxExecArgs] = {};
};

// Add the guard page and the stack, with args' page at its top; returns
// the new sp.
// The stack region is kUserStackMaxPages long; its top kUserStackPages are
// mapped now, the ones below fault in as the stack grows down over them
// (kernel/mm/fault.cc: only at or above sp), promised here. The guard
// page below it is never mapped (the map says what it is: a touch is the
// fault path's "stack guard page"), but promised with them, as every page
// of [0, sz) is mapped or promised (a page allocated, zeroed and then
// junk-filled at the next exec or exit cost every exec ~1,700
// instructions).
Result<u64> build_stack(Image& img, ExecArgs& args) {
    const u64 base = page_round_up(img.size());
    const u64 grow_base = base + kPageSize;
    const u64 stack_base = grow_base + kStackLazyPages * kPageSize;
    const u64 stack_top = stack_base + param::kUserStackPages * kPageSize;
    TRY(img.name(grow_base, vm::Kind::Guard, 0));
    TRY(img.promise(kLazyPages, stack_top / kPageSize));
    img.skip(grow_base);
    TRY(img.name(stack_top, vm::Kind::Stack, vm::kRead | vm::kWrite, true));
    img.skip(stack_base);
    TRY(img.grow(stack_top - kPageSize, kPteR | kPteW));
    TRY(img.map_page(args.page(), kPteR | kPteW));
    const u64 sp = args.mapped(stack_top - kPageSize);
    TRY(img.name(stack_top, vm::Kind::Heap, vm::kRead | vm::kWrite, true));
    return sp;
}

const char* base_name(const char* path) {
    const char* last = path;
    for (const char* s = path; *s; s++)
        if (*s == '/') last = s + 1;
    return last;
}

Result<int> exec(const char* path, ExecArgs& args) {
    Proc* p = myproc();
    Image img(p);
    if (!img.ok()) return Error::NoMemory;
    elf::Header eh;
    {
        FsOp op;  // declared first: the inode is unlocked and dropped inside it
        auto ip = TRY(namei(path));
        InodeLock lock(ip.get());
        if (ip->type != fs::InodeType::File) return Error::BadExec;
        TRY(check_access(ip.get(), perm::kExec));  // lib/fs/perm.h: x for the caller's class
        TRY(load_program(img, ip.get(), &eh));
    }
    auto sp = TRY(build_stack(img, args));
    // The new image is complete: end the process's other threads (they are
    // gone when this returns; it fails only if the process is being killed).
    TRY(end_other_threads(p));

    // Commit: from here exec cannot fail. p is the process's only thread.
    safe_strcpy(p->name, base_name(path), sizeof(p->name));
    trace_exec(p->tid, p->name);
    ThreadGroup* tg = p->tg;
    vm_mmap_release(tg);  // the old image's mappings (shared file pages written back)
    PageTable old = tg->pagetable;
    u64 oldsz = 0, old_tables = 0;
    {
        MmGuard mm(tg);  // p is alone now: a formality
        oldsz = tg->sz > tg->top ? tg->sz : tg->top;
        old_tables = tg->table_top > tg->map_top ? tg->table_top : tg->map_top;
        vm_unreserve_all(tg);                 // the old heap's untouched pages
        tg->reserved = img.take_promised();   // the guard, the stack's pages below its first, the text, the bss
        tg->sz = tg->table_top = img.size();  // the stack's tables cover its page
        tg->map_top = 0;
        tg->top = 0;
        tg->map = img.map();
        tg->pagetable = p->pagetable = img.release();
    }
    p->clear_tid = 0;  // a word of the old image
    p->trapframe->epc = eh.entry;
    p->trapframe->x(TrapFrame::sp) = sp;
    p->trapframe->x(TrapFrame::a1) = sp;
    p->fp.reset();  // the new image starts with FP off
    sig_exec(p);    // handlers were addresses in the old image
    proc_free_pagetable(old, oldsz, old_tables);
    return static_cast<int>(args.argc());  // becomes a0 = argc
}

}  // namespace

// exec(path, argv) -> does not return on success; -1 on failure.
SysResult sys_exec() {
    char path[param::kMaxPath];
    TRY(arg_str(0, path, sizeof(path)));
    ExecArgs args;
    Status st = args.fetch(arg_addr(1));
    if (st.ok()) {
        auto r = exec(path, args);
        if (r.ok()) return r.value();
        st = r.error();
    }
    // Memory short (not an impossible image, TooBig): kernel/proc/oom.cc decides.
    if (st.error() == Error::NoMemory) oom_kill(myproc());
    return st.error();
}

}  // namespace q
