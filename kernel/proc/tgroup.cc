// kernel/proc/tgroup.cc - what the threads of a process share: the table of
// ThreadGroups, the file-descriptor table and the current directory.
//
// The descriptor table and the cwd are read and changed under the group's
// lock whenever the process has more than one thread. A File looked up by
// descriptor in a multi-threaded process is also referenced for the rest of
// the system call (fd_get; syscall_dispatch drops it with fd_put_held), so a
// sibling's close() cannot free it under a read or write in progress
// (Linux's fdget/fdput). A single-threaded process skips both: only its
// one thread can change its table, and only that thread can make another.
// Needs only proc.h and the file system, so the host's file-system tests
// (tests/host/kfs_env.cc) run this very code.
//
// The table is built at boot (tgroup_init), not in the image: a group's
// defaults (its locks' names, mm_lock's fault_path) are not zero, so a
// constinit table of built groups put 654 KiB (64 groups of 10 KiB) of
// .data in kernel.elf. It is a BootBuilt (lib/in_place.h): zeros in .bss
// until tgroup_init builds it, as proc_init does for the process slots.
#include "kernel/fs/file.h"
#include "kernel/fs/fs.h"
#include "kernel/lib/kprintf.h"
#include "kernel/proc/proc.h"
#include "lib/in_place.h"

namespace q {

namespace {
struct TgroupTable {
    ThreadGroup at[param::kMaxProcs];
};
constinit BootBuilt<TgroupTable> g_table;
constinit SpinLock g_tgroup_lock("tgroups");
}  // namespace

constinit ThreadGroup (&g_tgroups)[param::kMaxProcs] = g_table->at;

// Before anything allocates a group (kernel/main.cc, at boot; hart 0 alone).
void tgroup_init() {
    for (const ThreadGroup& tg : g_table.build().at)
        if (!tg.lock.name() || !tg.mm_lock.name() || !tg.pt_lock.name()) panic("tgroup_init: a group kept no defaults");
}

// There are as many groups as slots and every group holds a slot (its
// leader) until it is freed, so a free group exists whenever a slot does.
ThreadGroup* tgroup_alloc() {
    if (!g_table.built()) panic("tgroup_alloc: the table was never built (tgroup_init)");
    LockGuard g(g_tgroup_lock);
    for (ThreadGroup& tg : g_tgroups) {
        if (tg.used) continue;
        tg.used = true;
        tg.live = tg.creating = 0;
        tg.exiting = false;
        tg.status = 0;
        tg.execer = nullptr;
        tg.leader = nullptr;
        tg.cwd = nullptr;
        tg.pagetable = nullptr;
        tg.sz = tg.top = 0;
        tg.map.clear();
        tg.reserved = tg.minflt = tg.majflt = 0;
        tg.table_reserved = tg.table_top = tg.map_top = 0;
        for (File*& f : tg.ofile) f = nullptr;
        tg.sig_pending = 0;
        tg.sig_set = 0;
        tg.pgid = tg.sid = 0;
        tg.stopped = false;
        tg.wait_report = 0;
        tg.stop_sig = tg.term_sig = 0;
        tg.killed_exit = false;
        tg.cont_gen = 0;
        tg.alarm_at = tg.alarm_every = 0;
        tg.ended_cpu = tg.ended_user = tg.child_cpu = tg.child_user = 0;
        for (SigAction& a : tg.sig_act) a = SigAction{};
        return &tg;
    }
    return nullptr;
}

void tgroup_free(ThreadGroup* tg) {
    LockGuard g(g_tgroup_lock);
    tg->used = false;
}

Result<int> fd_install(File* f) {
    ThreadGroup* tg = myproc()->tg;
    LockGuard g(tg->lock);
    for (int fd = 0; fd < param::kMaxOpenPerProc; fd++) {
        if (tg->ofile[fd] == nullptr) {
            tg->ofile[fd] = f;
            return fd;
        }
    }
    return Error::NoFile;
}

Result<File*> fd_get(int fd) {
    if (fd < 0 || fd >= param::kMaxOpenPerProc) return Error::BadFd;
    Proc* p = myproc();
    ThreadGroup* tg = p->tg;
    if (!tg->shared()) {
        File* f = tg->ofile[fd];
        if (f == nullptr) return Error::BadFd;
        return f;
    }
    File** slot = p->held[0] == nullptr ? &p->held[0] : p->held[1] == nullptr ? &p->held[1] : nullptr;
    if (slot == nullptr) return Error::BadFd;  // no system call looks up more than two
    LockGuard g(tg->lock);
    File* f = tg->ofile[fd];
    if (f == nullptr) return Error::BadFd;
    *slot = filedup(f);
    return f;
}

Result<File*> fd_ref(int fd) {
    if (fd < 0 || fd >= param::kMaxOpenPerProc) return Error::BadFd;
    ThreadGroup* tg = myproc()->tg;
    LockGuard g(tg->lock);
    File* f = tg->ofile[fd];
    if (f == nullptr) return Error::BadFd;
    return filedup(f);
}

void fd_put_held(Proc* p) {
    for (File*& f : p->held) {
        if (f != nullptr) {
            fileclose(f);
            f = nullptr;
        }
    }
}

Result<File*> fd_take(int fd) {
    if (fd < 0 || fd >= param::kMaxOpenPerProc) return Error::BadFd;
    ThreadGroup* tg = myproc()->tg;
    LockGuard g(tg->lock);
    File* f = tg->ofile[fd];
    if (f == nullptr) return Error::BadFd;
    tg->ofile[fd] = nullptr;
    return f;
}

Inode* cwd_get() {
    Proc* p = myproc();
    if (p == nullptr || p->tg == nullptr) return nullptr;
    ThreadGroup* tg = p->tg;
    if (!tg->shared()) return tg->cwd ? idup(tg->cwd) : nullptr;
    LockGuard g(tg->lock);
    return tg->cwd ? idup(tg->cwd) : nullptr;
}

Inode* cwd_set(Inode* ip) {
    ThreadGroup* tg = myproc()->tg;
    LockGuard g(tg->lock);
    Inode* old = tg->cwd;
    tg->cwd = ip;
    return old;
}

}  // namespace q
