// kernel/proc/exec.cc - replace a process's memory with a program from disk.
//
// Build a whole new address space first (segments with the permissions the
// ELF asks for: text R+X, data R+W; then an unmapped-for-user guard page and
// the stack, with argv strings and the argv array on it), and only when all
// of it succeeded swap it in and free the old one. Any failure leaves the
// calling process untouched and returns an error.
// User stack at entry: sp -> argv[0..argc] pointers (NULL-terminated), the
// strings above them; a0 = argc, a1 = argv.
#include "kernel/arch/riscv/memlayout.h"
#include "kernel/arch/riscv/trapframe.h"
#include "kernel/fs/fs.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kalloc.h"
#include "kernel/proc/internal.h"
#include "kernel/syscall.h"
#include "lib/elf.h"

extern "C" char trampoline[];

namespace q {

using namespace riscv;

namespace {

u64 seg_perm(u32 flags) {
    u64 perm = 0;
    if (flags & elf::kFlagExec) perm |= kPteX;
    if (flags & elf::kFlagWrite) perm |= kPteW;
    if (flags & elf::kFlagRead) perm |= kPteR;
    return perm;
}

// Copy [off, off+sz) of ip into user memory at page-aligned va.
Status load_segment(PageTable pt, u64 va, Inode* ip, u32 off, u32 sz) {
    for (u32 i = 0; i < sz; i += kPageSize) {
        const u64 pa = walk_user(pt, va + i);
        if (pa == 0) return Error::BadExec;
        const u32 n = sz - i < kPageSize ? sz - i : static_cast<u32>(kPageSize);
        auto r = readi(ip, false, pa, off + i, n);
        if (!r.ok() || r.value() != n) return Error::BadExec;
    }
    return {};
}

// Load every PT_LOAD segment; returns the end of the highest one.
Result<u64> load_program(PageTable pt, Inode* ip, const elf::Header& eh) {
    u64 sz = 0;
    for (u32 i = 0; i < eh.phnum; i++) {
        elf::ProgHeader ph;
        const u64 off = eh.phoff + static_cast<u64>(i) * sizeof(ph);
        if (off > 0xffffffffull) return Error::BadExec;
        auto r = readi(ip, false, reinterpret_cast<u64>(&ph), static_cast<u32>(off), sizeof(ph));
        if (!r.ok() || r.value() != sizeof(ph)) return Error::BadExec;
        if (ph.type != elf::kProgLoad) continue;
        if (ph.memsz < ph.filesz || ph.vaddr + ph.memsz < ph.vaddr) return Error::BadExec;
        if (ph.vaddr % kPageSize != 0 || ph.vaddr < sz) return Error::BadExec;
        if (ph.off > 0xffffffffull || ph.filesz > 0xffffffffull) return Error::BadExec;
        auto grown = uvm_alloc(pt, sz, ph.vaddr + ph.memsz, seg_perm(ph.flags));
        if (!grown.ok()) return grown.error();
        sz = grown.value();
        Q_CHECK(load_segment(pt, ph.vaddr, ip, static_cast<u32>(ph.off), static_cast<u32>(ph.filesz)));
    }
    return sz;
}

// Push argv onto the new stack; returns the new sp. argc is set through *argc.
Result<u64> push_args(PageTable pt, u64 sp, u64 stack_base, char* const argv[], u64* argc) {
    u64 ustack[param::kMaxExecArgs + 1];
    u64 n = 0;
    for (; argv[n]; n++) {
        if (n >= param::kMaxExecArgs) return Error::TooBig;
        const u64 len = strlen(argv[n]) + 1;
        sp = (sp - len) & ~15ull;
        if (sp < stack_base) return Error::TooBig;
        Q_CHECK(copy_out(pt, UserAddr(sp), argv[n], len));
        ustack[n] = sp;
    }
    ustack[n] = 0;
    sp = (sp - (n + 1) * sizeof(u64)) & ~15ull;
    if (sp < stack_base) return Error::TooBig;
    Q_CHECK(copy_out(pt, UserAddr(sp), ustack, (n + 1) * sizeof(u64)));
    *argc = n;
    return sp;
}

}  // namespace

Result<int> exec(const char* path, char* const argv[]) {
    Proc* p = myproc();
    PageTable pt = nullptr;
    u64 sz = 0;
    elf::Header eh;

    begin_op();
    auto ipr = namei(path);
    if (!ipr.ok()) {
        end_op();
        return ipr.error();
    }
    Inode* ip = ipr.value();
    ilock(ip);
    Error err = Error::BadExec;
    auto hr = readi(ip, false, reinterpret_cast<u64>(&eh), 0, sizeof(eh));
    if (hr.ok() && hr.value() == sizeof(eh) && eh.magic == elf::kMagic && (pt = uvm_create()) != nullptr) {
        // Map trampoline and trapframe like every user table.
        if (map_pages(pt, layout::kTrampoline, kPageSize, reinterpret_cast<u64>(trampoline), kPteR | kPteX).ok() &&
            map_pages(pt, layout::kTrapFrame, kPageSize, reinterpret_cast<u64>(p->trapframe), kPteR | kPteW).ok()) {
            auto r = load_program(pt, ip, eh);
            if (r.ok()) {
                sz = r.value();
                err = Error::Ok;
            } else {
                err = r.error();
            }
        } else {
            err = Error::NoMemory;
        }
    }
    iunlockput(ip);
    end_op();

    if (err == Error::Ok) {
        // Guard page, then the stack.
        sz = page_round_up(sz);
        const u64 pages = 1 + param::kUserStackPages;
        auto r = uvm_alloc(pt, sz, sz + pages * kPageSize, kPteR | kPteW);
        if (r.ok()) {
            sz = r.value();
            uvm_clear_user(pt, sz - pages * kPageSize);
            u64 argc = 0;
            auto spr = push_args(pt, sz, sz - param::kUserStackPages * kPageSize, argv, &argc);
            if (spr.ok()) {
                // Commit: from here exec cannot fail.
                const char* last = path;
                for (const char* s = path; *s; s++) if (*s == '/') last = s + 1;
                safe_strcpy(p->name, last, sizeof(p->name));
                PageTable old = p->pagetable;
                const u64 oldsz = p->sz;
                p->pagetable = pt;
                p->sz = sz;
                p->trapframe->epc = eh.entry;
                p->trapframe->x(TrapFrame::sp) = spr.value();
                p->trapframe->x(TrapFrame::a1) = spr.value();
                proc_free_pagetable(old, oldsz);
                return static_cast<int>(argc);  // becomes a0 = argc
            }
            err = spr.error();
        } else {
            err = r.error();
        }
    }
    if (pt) proc_free_pagetable(pt, sz);
    return err;
}

// exec(path, argv) -> does not return on success; -1 on failure.
i64 sys_exec() {
    char path[param::kMaxPath];
    if (!arg_str(0, path, sizeof(path)).ok()) return -1;
    const UserAddr uargv = arg_addr(1);
    // Argument strings live in kernel pages for the duration of the call.
    char* argv[param::kMaxExecArgs + 1] = {};
    i64 ret = -1;
    int i = 0;
    for (;; i++) {
        if (i >= param::kMaxExecArgs) goto out;
        {
            auto a = fetch_addr(uargv + static_cast<u64>(i) * sizeof(u64));
            if (!a.ok()) goto out;
            if (a.value() == 0) break;
            argv[i] = static_cast<char*>(kalloc());
            if (!argv[i]) goto out;
            if (!fetch_str(UserAddr(a.value()), argv[i], static_cast<int>(kPageSize)).ok()) goto out;
        }
    }
    argv[i] = nullptr;
    ret = to_user(exec(path, argv));
out:
    for (int j = 0; j < param::kMaxExecArgs && argv[j]; j++) kfree(argv[j]);
    return ret;
}

}  // namespace q
