// kernel/proc/oom.cc - what the kernel does when memory runs out.
//
// User memory is promised eagerly (sbrk, fork, exec and mmap reserve every
// page they may need, even those a lazy heap or copy-on-write maps later:
// kalloc_reserve), so running out shows up as a failed call, not as a
// fault on a promised page. The decisions are lib/oom.h's; the kernel
// applies them (docs/memory.md has the whole rule):
//   - every request is admitted first (oom_admit): one the machine could
//     never satisfy (an image or sbrk larger than RAM) fails with -1, and
//     so does one larger than what is free now, before a page is taken.
//     Pages promised rather than taken (a lazy heap, a mapping, exec's
//     lazy stack and text, a fork's child) are admitted and promised in
//     one step under the allocator's lock (oom_reserve), so two processes
//     asking at once are never both admitted to the same free pages.
//     So a refused request never empties memory for a moment, under other
//     processes whose forks would then fail and blame somebody. An
//     admitted one (oom_grow) is mapped a MiB at a time and abandoned when
//     its process is killed: kill does not wait for 100 MiB of zeroing.
//   - sbrk failing is the caller's own business: -1 and nothing else.
//   - fork or exec failing for want of memory (oom_kill) kills somebody
//     only when memory is really exhausted (below lib/oom.h's low
//     watermark), and only a process the caller could kill itself that
//     holds more than the caller: the caller's own user's processes, or
//     anybody's when the caller is root (root's shell and init keep the
//     system usable). The biggest such process is killed and the console
//     says `oom: killed pid N (name) holding K pages; F pages free`. The
//     failed call still returns -1: init retries with back-off, the shell
//     reports the failure and the user runs the command again.
//   - With swap (kernel/mm/swap.h) memory means RAM plus the swap area:
//     admission counts free frames and free slots against promises out of
//     both, a failure first pages out some of the caller's own pages (and
//     the call is retried, or fails once with -1), and nobody is killed
//     until both are exhausted (the free count of both below the low
//     watermark). The kill line then says how much swap was free.
//   - One victim at a time: while the last victim has not finished exiting,
//     nobody else is killed. A dying process frees its user pages in exit(),
//     before its parent reaps it, so the memory comes back at once.
#include "kernel/proc/oom.h"

#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kalloc.h"
#include "kernel/mm/swap.h"
#include "kernel/proc/internal.h"
#include "lib/oom.h"

namespace q {
namespace {

constinit SpinLock g_oom_lock("oom");
constinit int g_last_victim = 0;  // pid of the last process killed here (g_oom_lock)

// True while the process with this pid exists and has not exited yet.
bool still_dying(int pid) {
    for (Proc& p : g_procs) {
        LockGuard g(p.lock);
        if (p.pid == pid && p.state != ProcState::Unused && p.state != ProcState::Zombie) return true;
    }
    return false;
}

u64 pages_of(u64 sz) { return page_round_up(sz) / kPageSize; }

struct Victim {
    int pid = 0;
    u64 pages = 0;
    char name[sizeof(Proc::name)] = {};
};

// The process lib/oom.h's rule picks for caller, or pid 0 for nobody.
Victim pick(const Proc* caller) {
    Victim v;
    const perm::Cred& as = caller->cred;
    const u64 own = pages_of(caller->tg->sz) + caller->tg->map.pages_of(vm::Kind::Mmap);
    for (Proc& p : g_procs) {
        if (&p == g_init_proc || &p == caller) continue;
        LockGuard g(p.lock);
        const bool live =
            p.state == ProcState::Runnable || p.state == ProcState::Running || p.state == ProcState::Sleeping;
        // A live thread's group is its process's (threads of one process
        // all show its size; the first one found is the victim: kill() ends
        // them all). None of the caller's own threads is a victim either.
        if (!live || p.killed || p.pid == caller->pid) continue;
        const u64 pages = pages_of(p.tg->sz) + p.tg->map.pages_of(vm::Kind::Mmap);  // mappings count too
        if (!oom::beats(as, own, oom::Candidate{p.cred.uid, pages}, v.pages)) continue;
        v.pid = p.pid;
        v.pages = pages;
        safe_strcpy(v.name, p.name, sizeof(v.name));
    }
    return v;
}

}  // namespace

// With swap, what may be promised is free frames plus free slots, out of
// RAM plus the swap area (kalloc_commit_free; without swap both are the
// old figures).
namespace {
Status status_of(oom::Verdict v) {
    switch (v) {
        case oom::Verdict::Impossible:
            return Error::TooBig;
        case oom::Verdict::Short:
            return Error::NoMemory;
        case oom::Verdict::Admit:
            break;
    }
    return {};
}
}  // namespace

Status oom_admit(u64 want, u64 total_after) {
    return status_of(oom::admit(want, total_after, kalloc_commit_free(), kalloc_total_pages() + swap_total_slots()));
}

Status oom_reserve(u64 want, u64 total_after) { return status_of(kalloc_admit_reserve(want, total_after)); }

Result<u64> oom_grow(PageTable pt, u64 oldsz, u64 newsz, u64 perm, u64* top) {
    if (newsz <= oldsz) return oldsz;
    const u64 total = page_round_up(newsz) / kPageSize;
    TRY(oom_admit(total - page_round_up(oldsz) / kPageSize, total));
    constexpr u64 kStep = 1 << 20;  // about 1 ms of zeroing between kill checks
    u64 kept = 0;
    u64* t = top ? top : &kept;
    u64 sz = oldsz;
    while (sz < newsz) {
        const u64 next = newsz - sz > kStep ? sz + kStep : newsz;
        Result<u64> r = Error::Killed;
        if (!dying(myproc())) r = uvm_grow(pt, sz, next, t, perm);  // keeps its part on failure
        if (!r.ok()) {
            uvm_revoke(pt, oldsz, sz);  // the earlier steps: kept like uvm_grow's
            if (sz > *t) *t = sz;
            if (!top && kept > oldsz) uvm_dealloc(pt, kept, oldsz);
            return r.error();
        }
        sz = next;
    }
    return newsz;
}

bool oom_kill(const Proc* caller) {
    // Paging some of the caller's own pages out may be all it takes.
    if (swap_reclaim(caller->tg, oom::low_water(kalloc_total_pages()) / 4) > 0) return true;
    if (!oom::exhausted(kalloc_commit_free(), kalloc_total_pages())) return false;
    LockGuard oom(g_oom_lock);
    if (g_last_victim != 0 && still_dying(g_last_victim)) return true;
    const Victim v = pick(caller);
    if (v.pid == 0 || !kill(v.pid).ok()) return false;
    g_last_victim = v.pid;
    kprintf("oom: killed pid %d (%s) holding %lu pages; %lu pages free, %lu of %lu swap pages free\n", v.pid, v.name,
            static_cast<unsigned long>(v.pages), static_cast<unsigned long>(kalloc_free_pages()),
            static_cast<unsigned long>(swap_free_slots()), static_cast<unsigned long>(swap_total_slots()));
    return true;
}

}  // namespace q
