// lib/fs/perm.h - who may do what: Unix credentials and permission rules
// (pure, host-testable).
//
// One place for every access decision the kernel makes, so the rules can
// be read (and tested) without a kernel around them:
//   - a process has a real and an effective user and group (Cred); the
//     effective ids decide access, the real ids say who started it.
//   - a file has an owner uid, a group gid and a mode: nine rwx bits
//     (owner, group, others) plus the sticky bit for directories.
//   - access picks exactly one class: the owner's bits if the caller's
//     euid owns the file, else the group's bits if egid matches, else the
//     others' bits (so an owner with 0077 is refused even where others are
//     not, as in Unix).
//   - root (euid 0) passes every read and write check, and an execute
//     check on a directory or on a file with at least one x bit.
//   - changing uid: root may take any uid (real and effective); anyone else
//     only back to their real or effective uid. Same for gids.
//   - chmod: the owner or root. chown: root to any owner; the owner may only
//     set the group to their own egid (there are no supplementary groups).
//   - unlinking from a sticky directory: the file's owner, the directory's
//     owner or root (besides the w+x on the directory every unlink needs).
//   - scheduling (Linux's rules): anyone may raise the nice value of their
//     own processes; lowering it, touching another user's process,
//     switching the policy and halting are root's.
// Invariant: every function is total (any ids, any mode bits) and has no
// side effects; callers apply the result.
#pragma once

#include "lib/types.h"

namespace q::perm {

constexpr u32 kRootUid = 0;

// Mode bits (the low 12 of a Unix mode; quanta stores rwx x3 plus sticky).
constexpr u16 kSticky = 01000;
constexpr u16 kModeMask = 01777;  // every bit a mode may have
constexpr u16 kFileMode = 0644;   // new files (there is no umask)
constexpr u16 kDirMode = 0755;    // new directories
constexpr u16 kDevMode = 0666;    // new device files

// What a check asks for (combinable).
enum Access : u16 { kRead = 4, kWrite = 2, kExec = 1 };

struct Cred {
    u32 uid = 0;  // real
    u32 euid = 0;
    u32 gid = 0;
    u32 egid = 0;
    constexpr bool root() const { return euid == kRootUid; }
};

// What the permission checks need to know about an inode.
struct Owner {
    u32 uid = 0;
    u32 gid = 0;
    u16 mode = 0;
    bool dir = false;
};

// The rwx bits (0..7) of mode that apply to cred.
constexpr u16 class_bits(const Cred& c, const Owner& o) {
    if (c.euid == o.uid) return (o.mode >> 6) & 7;
    if (c.egid == o.gid) return (o.mode >> 3) & 7;
    return o.mode & 7;
}

// May c access o as `want` (a combination of Access bits)?
constexpr bool may_access(const Cred& c, const Owner& o, u16 want) {
    if (c.root()) {
        if ((want & kExec) == 0 || o.dir) return true;
        return (o.mode & 0111) != 0;  // root runs only what someone may run
    }
    return (class_bits(c, o) & want) == want;
}

// Add or remove an entry in directory d (create, mkdir, link, unlink).
constexpr bool may_modify_dir(const Cred& c, const Owner& d) { return may_access(c, d, kWrite | kExec); }

// Remove an entry naming `victim` from directory d (beyond may_modify_dir).
constexpr bool may_unlink_from(const Cred& c, const Owner& d, const Owner& victim) {
    if (!may_modify_dir(c, d)) return false;
    if ((d.mode & kSticky) == 0 || c.root()) return true;
    return c.euid == victim.uid || c.euid == d.uid;
}

// May c make a new hard link to o (Linux's fs.protected_hardlinks = 1)?
// Root and the owner may; anyone else only to a regular file they may
// read and write. Otherwise a user could pin someone else's file (say
// /etc/passwd) under a name in sticky /tmp that only they could remove,
// and keep its blocks and its old contents alive after its owner deletes
// it.
constexpr bool may_hardlink(const Cred& c, const Owner& o, bool regular) {
    if (c.root() || c.euid == o.uid) return true;
    return regular && may_access(c, o, kRead | kWrite);
}

constexpr bool may_chmod(const Cred& c, const Owner& o, u32 mode) {
    if (mode > kModeMask) return false;
    return c.root() || c.euid == o.uid;
}

// chown(uid, gid) with kKeep meaning "leave this one as it is".
constexpr u32 kKeep = 0xffffffffu;
constexpr bool may_chown(const Cred& c, const Owner& o, u32 uid, u32 gid) {
    if (c.root()) return true;
    if (c.euid != o.uid) return false;
    const bool uid_ok = uid == kKeep || uid == o.uid;
    const bool gid_ok = gid == kKeep || gid == o.gid || gid == c.egid;
    return uid_ok && gid_ok;
}

// setuid(uid): the new credentials, or false when refused.
constexpr bool apply_setuid(Cred& c, u32 uid) {
    if (uid == kKeep) return false;
    if (c.root()) {
        c.uid = c.euid = uid;
        return true;
    }
    if (uid != c.uid && uid != c.euid) return false;
    c.euid = uid;
    return true;
}

// setgid(gid): root may take any group; others only their real or effective one.
constexpr bool apply_setgid(Cred& c, u32 gid) {
    if (gid == kKeep) return false;
    if (c.root()) {
        c.gid = c.egid = gid;
        return true;
    }
    if (gid != c.gid && gid != c.egid) return false;
    c.egid = gid;
    return true;
}

// May c signal (kill) or re-schedule a process whose real uid is target_uid?
// Linux: the caller's real or effective uid matches the target's.
constexpr bool may_touch_process(const Cred& c, u32 target_uid) {
    return c.root() || c.euid == target_uid || c.uid == target_uid;
}

// setpriority: raising nice is anyone's (for their own processes); lowering
// it, even back to where it was, is root's (Linux without RLIMIT_NICE).
constexpr bool may_renice(const Cred& c, u32 target_uid, int old_nice, int new_nice) {
    if (c.root()) return true;
    return may_touch_process(c, target_uid) && new_nice >= old_nice;
}

// Machine-wide switches: the scheduling policy, power off.
constexpr bool may_admin(const Cred& c) { return c.root(); }

}  // namespace q::perm
