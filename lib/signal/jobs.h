// lib/signal/jobs.h - the pure rules of process groups, sessions and the
// console's foreground group (docs/signals.md "Process groups and job
// control"), shared by the kernel (kernel/proc/jobctl.cc,
// kernel/dev/console.cc) and a host test (tests/host/signal_jobs_test.cc).
//
// Every process has a process group (pgid) and a session (sid), inherited
// at fork; init's are its pid, so a process that never calls setpgid or
// setsid is in init's group and session, as every xv6 program is. The
// console belongs to init's session and has one foreground group: ^C,
// ^\ and ^Z signal that group only. These functions decide from facts the
// kernel gathers under its locks; they hold no state.
#pragma once

#include "lib/signal/rules.h"
#include "lib/types.h"

namespace q::jobs {

enum class Verdict : u8 { Ok, NoProcess, Permission, BadArgument };

// What the kernel found about a setpgid(pid, pgid) call (pid and pgid
// already resolved: 0 means the caller / the target's own pid).
struct SetpgidFacts {
    bool target_found = false;  // pid is the caller or one of its children
    bool same_session = false;  // the target is in the caller's session
    bool target_leads_session = false;
    bool own_group = false;         // pgid == the target's pid (make a new group)
    bool group_in_session = false;  // some process of the caller's session has that pgid
    // quanta's rule beyond POSIX: the caller may signal every member of
    // the group it moves into (root, or the members' user), so a student
    // cannot join root's group and receive or steal its console signals.
    bool may_join = false;
};

constexpr Verdict setpgid_rule(int pgid, const SetpgidFacts& f) {
    if (pgid < 0) return Verdict::BadArgument;
    if (!f.target_found) return Verdict::NoProcess;
    if (!f.same_session || f.target_leads_session) return Verdict::Permission;
    if (f.own_group) return Verdict::Ok;
    if (!f.group_in_session || !f.may_join) return Verdict::Permission;
    return Verdict::Ok;
}

// setsid: refused to a process that leads a group (its pid is some
// process's pgid), so that group cannot end up split across sessions.
constexpr Verdict setsid_rule(bool caller_pid_is_a_pgid) {
    return caller_pid_is_a_pgid ? Verdict::Permission : Verdict::Ok;
}

// A console access by a process (read, or tcsetpgrp):
//   Allow: go ahead;
//   Signal: post the signal (SIGTTIN for a read, SIGTTOU for tcsetpgrp)
//           to the caller's group and fail the call with EINTR (restarted
//           after a stop, as Linux's ERESTARTSYS);
//   Refuse: fail (EIO for a read: a background reader that ignores or
//           blocks SIGTTIN; ENOTTY for tcsetpgrp outside the session).
enum class Access : u8 { Allow, Signal, Refuse };

struct TtyFacts {
    bool in_session = false;   // the caller is in the console's session
    bool foreground = false;   // the caller's group is the foreground group
    bool sig_dropped = false;  // the caller ignores or blocks the signal (or
                               // its default discards it)
    bool orphaned = false;     // the caller's group is orphaned (below)
};

// A read of the console: only the foreground group reads; a process of
// another session (it called setsid: no controlling terminal) reads as
// any xv6 program does. A background reader of an orphaned group is
// refused (EIO) rather than stopped: nobody could continue it (POSIX).
constexpr Access read_access(const TtyFacts& f) {
    if (!f.in_session || f.foreground) return Access::Allow;
    return f.sig_dropped || f.orphaned ? Access::Refuse : Access::Signal;
}

// POSIX's orphaned process group: no member has its parent in another
// group of the same session, so no job-control shell can continue it. A
// member whose parent is init does not count (init does no job control;
// Linux's rule too): in quanta every process is in init's session. Does
// this member keep its group from being orphaned?
struct MemberFacts {
    int pgid = 0, sid = 0;
    bool parent_is_init = false;  // or the parent is the process now ending
    int parent_pgid = 0, parent_sid = 0;
};
constexpr bool links_group(const MemberFacts& m) {
    return !m.parent_is_init && m.parent_pgid != m.pgid && m.parent_sid == m.sid;
}

// The stop signals that come from the terminal, which a process of an
// orphaned group takes no default stop for (POSIX: they are discarded).
constexpr bool tty_stop(int s) { return s == sig::kTstp || s == sig::kTtin || s == sig::kTtou; }

// tcsetpgrp: only from the console's session; a background caller is
// stopped by SIGTTOU unless it ignores or blocks it (a shell taking the
// console back after its job ignores SIGTTOU).
constexpr Access tcsetpgrp_access(const TtyFacts& f) {
    if (!f.in_session) return Access::Refuse;
    if (f.foreground || f.sig_dropped) return Access::Allow;
    return Access::Signal;
}

// The console's group-directed signal for a control character (0: none).
constexpr int console_signal(char c) {
    switch (c) {
        case 0x03:  // ^C
            return sig::kInt;
        case 0x1c:  // ^\ (the ASCII file separator)
            return sig::kQuit;
        case 0x1a:  // ^Z
            return sig::kTstp;
        default:
            return 0;
    }
}

}  // namespace q::jobs
