// kernel/proc/jobctl.cc - process groups, sessions and the console's
// foreground group: setpgid/getpgid/setsid/getsid/tcsetpgrp/tcgetpgrp and
// the background-read check (docs/signals.md "Process groups and job
// control"; the decisions are lib/signal/jobs.h's pure rules).
//
// A process's pgid and sid live in its ThreadGroup (shared by its
// threads), inherited at fork under g_wait_lock; init's are its pid, so
// every process that never calls these is in init's group and session.
// Invariants: pgid and sid change only under g_wait_lock (a group or
// session cannot appear or vanish while a call here looks at them), and a
// process's group is always in its own session. The console has one
// session (init's) and one foreground group, g_fg: written under
// g_wait_lock, read with atomic loads (console_intr reads it in the UART
// interrupt). A group "exists" while any slot of it is in use, zombies
// included (a zombie keeps its pgid until it is reaped, as in POSIX).
#include "kernel/proc/jobctl.h"

#include "kernel/fs/file.h"
#include "kernel/proc/internal.h"
#include "kernel/proc/jobstop.h"
#include "kernel/proc/signal.h"
#include "kernel/syscall.h"
#include "lib/abi/abi.h"
#include "lib/abi/errno.h"
#include "lib/signal/jobs.h"

namespace q {

namespace {

constinit int g_fg = 0;           // the console's foreground group
constinit int g_console_sid = 0;  // the console's session

int load(const int* v) { return __atomic_load_n(v, __ATOMIC_ACQUIRE); }
void store(int* v, int x) { __atomic_store_n(v, x, __ATOMIC_RELEASE); }

Status from(jobs::Verdict v) {
    switch (v) {
        case jobs::Verdict::Ok:
            return {};
        case jobs::Verdict::NoProcess:
            return Error::NoProcess;
        case jobs::Verdict::Permission:
            return Error::Permission;
        case jobs::Verdict::BadArgument:
            return Error::BadArgument;
    }
    return Error::BadArgument;
}

// A process with this pid (its leader slot, which lives until it is
// reaped), or null. Caller holds g_wait_lock.
ThreadGroup* group_of_pid(int pid) {
    for (Proc& p : g_procs) {
        if (__atomic_load_n(&p.pid, __ATOMIC_RELAXED) != pid) continue;
        LockGuard g(p.lock);
        if (p.pid == pid && p.state != ProcState::Unused && p.tg && p.tg->leader == &p) return p.tg;
    }
    return nullptr;
}

struct GroupScan {
    bool exists = false;   // some process of session sid has pgid
    bool all_mine = true;  // `as` may signal every one of them
};

// Look at every process of group pgid in session sid. Caller holds g_wait_lock.
GroupScan scan_group(int pgid, int sid, const perm::Cred& as) {
    GroupScan r;
    for (Proc& p : g_procs) {
        LockGuard g(p.lock);
        if (p.state == ProcState::Unused || p.tg == nullptr) continue;
        if (load(&p.tg->pgid) != pgid || load(&p.tg->sid) != sid) continue;
        r.exists = true;
        if (!perm::may_touch_process(as, p.cred.uid)) r.all_mine = false;
    }
    return r;
}

// Is pid some process's pgid? Caller holds g_wait_lock.
bool is_a_pgid(int pid) {
    for (Proc& p : g_procs) {
        LockGuard g(p.lock);
        if (p.state != ProcState::Unused && p.tg && load(&p.tg->pgid) == pid) return true;
    }
    return false;
}

// Does p drop s (ignores or blocks it, or its default discards it)?
bool drops(const Proc* p, int s) {
    if (__atomic_load_n(&p->sig_blocked, __ATOMIC_RELAXED) & sig::bit(s)) return true;
    return sig::discard_on_send(s, __atomic_load_n(&p->tg->sig_act[s].handler, __ATOMIC_ACQUIRE));
}

jobs::TtyFacts tty_facts(const Proc* p, int s) {
    jobs::TtyFacts f;
    f.in_session = load(&p->tg->sid) == load(&g_console_sid);
    f.foreground = load(&p->tg->pgid) == load(&g_fg);
    f.sig_dropped = drops(p, s);
    return f;
}

// A background caller's group gets s; the call fails with EINTR.
Status signal_own_group(const Proc* p, int s) {
    (void)sig_send_group(load(&p->tg->pgid), s, nullptr);
    return Error::Killed;
}

bool is_console(int fd) {
    auto f = fd_get(fd);
    return f.ok() && f.value()->type == FileType::Device && f.value()->major == CONSOLE;
}

// Is pgid orphaned once `leaving` has gone (null: nobody)? A member's
// parent that is init or `leaving` (whose children go to init) links
// nothing. Caller holds g_wait_lock (parents and groups stay put).
bool orphaned_locked(int pgid, const Proc* leaving) {
    for (Proc& p : g_procs) {
        jobs::MemberFacts m;
        {
            LockGuard g(p.lock);
            if (p.state == ProcState::Unused || p.state == ProcState::Zombie || p.tg == nullptr) continue;
            if (p.tg->leader != &p || &p == leaving || load(&p.tg->pgid) != pgid) continue;
            m.pgid = pgid;
            m.sid = load(&p.tg->sid);
        }
        const Proc* parent = p.parent;  // under g_wait_lock
        m.parent_is_init = parent == nullptr || parent == g_init_proc || parent == leaving || parent->tg == nullptr;
        if (!m.parent_is_init) {
            m.parent_pgid = load(&parent->tg->pgid);
            m.parent_sid = load(&parent->tg->sid);
        }
        if (jobs::links_group(m)) return false;
    }
    return true;
}

// Does group pgid have a stopped member? Caller holds g_wait_lock.
bool has_stopped_locked(int pgid) {
    for (Proc& p : g_procs) {
        LockGuard g(p.lock);
        if (p.state == ProcState::Unused || p.tg == nullptr || p.tg->leader != &p) continue;
        if (load(&p.tg->pgid) == pgid && __atomic_load_n(&p.tg->stopped, __ATOMIC_ACQUIRE)) return true;
    }
    return false;
}

}  // namespace

bool job_group_orphaned(int pgid) {
    LockGuard w(g_wait_lock);
    return orphaned_locked(pgid, nullptr);
}

bool job_group_orphaned_locked(int pgid) { return orphaned_locked(pgid, nullptr); }

void job_orphans_locked(Proc* leader) {
    constexpr int kMax = 8;  // groups looked at per exit (its own and its children's)
    int hup[kMax];
    int n = 0;
    const int mine = load(&leader->tg->pgid);
    const int sid = load(&leader->tg->sid);
    const auto consider = [&](int g) {
        for (int i = 0; i < n; i++)
            if (hup[i] == g) return;
        if (n < kMax && orphaned_locked(g, leader) && has_stopped_locked(g)) hup[n++] = g;
    };
    const Proc* par = leader->parent;
    if (par != nullptr && par != g_init_proc && par->tg != nullptr && load(&par->tg->pgid) != mine &&
        load(&par->tg->sid) == sid) {
        consider(mine);  // it linked its own group to the session
    }
    for (Proc& c : g_procs) {
        if (c.parent != leader || c.tg == nullptr || c.tg->leader != &c) continue;
        const int g = load(&c.tg->pgid);
        if (g != mine && load(&c.tg->sid) == sid) consider(g);  // it linked its child's group
    }
    for (int i = 0; i < n; i++) job_hangup_locked(hup[i]);
}

namespace {

Status setpgid(int pid, int pgid) {
    Proc* me = myproc();
    ThreadGroup* mine = me->tg;
    LockGuard g(g_wait_lock);
    ThreadGroup* tg = pid == 0 ? mine : group_of_pid(pid);
    if (pid == 0) pid = me->pid;
    if (pgid == 0) pgid = pid;
    jobs::SetpgidFacts f;
    f.target_found = tg != nullptr && (tg == mine || tg->leader->parent == mine->leader);
    if (f.target_found) {
        f.same_session = tg->sid == mine->sid;
        f.target_leads_session = tg->sid == pid;
        f.own_group = pgid == pid;
        if (!f.own_group) {
            const GroupScan s = scan_group(pgid, mine->sid, me->cred);
            f.group_in_session = s.exists;
            f.may_join = s.all_mine;
        }
    }
    TRY(from(jobs::setpgid_rule(pgid, f)));
    store(&tg->pgid, pgid);
    return {};
}

Result<int> setsid() {
    Proc* me = myproc();
    LockGuard g(g_wait_lock);
    TRY(from(jobs::setsid_rule(is_a_pgid(me->pid))));
    store(&me->tg->sid, me->pid);
    store(&me->tg->pgid, me->pid);
    return me->pid;
}

Status tcsetpgrp(int fd, int pgid) {
    Proc* me = myproc();
    if (!is_console(fd)) return Error::NotSupported;  // ENOTTY (sys_tcsetpgrp)
    if (pgid <= 0) return Error::BadArgument;
    switch (jobs::tcsetpgrp_access(tty_facts(me, sig::kTtou))) {
        case jobs::Access::Refuse:
            return Error::NotSupported;
        case jobs::Access::Signal:
            return signal_own_group(me, sig::kTtou);
        case jobs::Access::Allow:
            break;
    }
    LockGuard g(g_wait_lock);
    if (!scan_group(pgid, me->tg->sid, perm::Cred{}).exists) return Error::Permission;
    store(&g_fg, pgid);
    return {};
}

SysResult job_result(Status s) { return s.ok() ? SysResult(0) : job_error(s.error()); }
SysResult job_result(Result<int> r) { return r.ok() ? SysResult(r.value()) : job_error(r.error()); }

// pid 0: the caller; else any process's field, or NoProcess.
Result<int> field_of(int pid, bool session) {
    Proc* me = myproc();
    if (pid == 0) return load(session ? &me->tg->sid : &me->tg->pgid);
    if (pid < 0) return Error::NoProcess;
    LockGuard g(g_wait_lock);
    ThreadGroup* tg = group_of_pid(pid);
    if (tg == nullptr) return Error::NoProcess;
    return load(session ? &tg->sid : &tg->pgid);
}

}  // namespace

Error job_error(Error e) {
    if (e == Error::Permission) return Error::NotPermitted;
    if (e == Error::NotSupported) return Error::NotTty;
    return e;
}

void tty_init(int sid) {
    store(&g_console_sid, sid);
    store(&g_fg, sid);
}

int tty_foreground() { return load(&g_fg); }

Status tty_read_check() {
    Proc* me = myproc();
    if (me->tg == nullptr) return {};
    jobs::TtyFacts f = tty_facts(me, sig::kTtin);
    if (f.in_session && !f.foreground && !f.sig_dropped) f.orphaned = job_group_orphaned(load(&me->tg->pgid));
    switch (jobs::read_access(f)) {
        case jobs::Access::Allow:
            return {};
        case jobs::Access::Refuse:
            return Error::IoError;
        case jobs::Access::Signal:
            return signal_own_group(me, sig::kTtin);
    }
    return {};
}

// setpgid(pid, pgid) -> 0 or -1 (lib/signal/jobs.h: setpgid_rule).
SysResult sys_setpgid() { return job_result(setpgid(arg_int(0), arg_int(1))); }
// getpgid(pid) -> its group, or -1 (no such process).
SysResult sys_getpgid() { return job_result(field_of(arg_int(0), false)); }
// setsid() -> the caller's pid, now its session and group, or -1.
SysResult sys_setsid() { return job_result(setsid()); }
// getsid(pid) -> its session, or -1.
SysResult sys_getsid() { return job_result(field_of(arg_int(0), true)); }
// tcsetpgrp(fd, pgid) -> 0, or -1 (ENOTTY: fd is not the console or the
// caller is not in its session; EPERM: no such group in the session;
// EINTR: SIGTTOU was sent to a background caller's group).
SysResult sys_tcsetpgrp() { return job_result(tcsetpgrp(arg_int(0), arg_int(1))); }
// tcgetpgrp(fd) -> the foreground group, or -1 ENOTTY (not the console).
SysResult sys_tcgetpgrp() {
    if (!is_console(arg_int(0))) return Error::NotTty;
    return tty_foreground();
}

}  // namespace q
