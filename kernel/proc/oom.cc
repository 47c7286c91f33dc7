// kernel/proc/oom.cc - what the kernel does when memory runs out.
//
// User memory is allocated eagerly (sbrk, fork, exec), so running out shows
// up as a failed call, never as a fault. The rule:
//   - sbrk failing is the caller's own business: it gets -1 and nothing
//     else happens (programs probe memory that way).
//   - fork or exec failing for want of memory means some process may be
//     starving everybody (init could not restart the shell, the shell could
//     not run a command). Then the kernel kills the process holding the
//     most user memory, if it holds at least an eighth of RAM, is not init
//     and is not the caller (a process that filled memory itself gets -1
//     and can give it back), and prints
//     `oom: killed pid N (name) holding K pages` on the console. The failed
//     call still returns -1: init retries with back-off, the shell reports
//     the failure and the user runs the command again.
//   - One victim at a time: while the last victim has not finished exiting,
//     nobody else is killed. A dying process frees its user pages in exit(),
//     before its parent reaps it, so the memory comes back at once.
#include "kernel/proc/oom.h"

#include "kernel/arch/riscv/memlayout.h"
#include "kernel/lib/kprintf.h"
#include "kernel/lib/string.h"
#include "kernel/mm/kalloc.h"
#include "kernel/proc/internal.h"

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

}  // namespace

void oom_kill(const Proc* caller) {
    LockGuard oom(g_oom_lock);
    if (g_last_victim != 0 && still_dying(g_last_victim)) return;
    int victim = 0;
    u64 most = (ram_end() - layout::kKernBase) / 8 - 1;  // must hold more than this
    char name[sizeof(Proc::name)] = {};
    for (Proc& p : g_procs) {
        if (&p == g_init_proc || &p == caller) continue;
        LockGuard g(p.lock);
        const bool live =
            p.state == ProcState::Runnable || p.state == ProcState::Running || p.state == ProcState::Sleeping;
        // A live thread's group is its process's (threads of one process
        // all show its size; the first one found is the victim: kill() ends
        // them all). None of the caller's own threads is a victim either.
        if (!live || p.killed || p.pid == caller->pid || p.tg->sz <= most) continue;
        most = p.tg->sz;
        victim = p.pid;
        safe_strcpy(name, p.name, sizeof(name));
    }
    if (victim == 0 || !kill(victim).ok()) return;
    g_last_victim = victim;
    kprintf("oom: killed pid %d (%s) holding %lu pages; %lu pages free\n", victim, name,
            static_cast<unsigned long>(page_round_up(most) / kPageSize),
            static_cast<unsigned long>(kalloc_free_pages()));
}

}  // namespace q
