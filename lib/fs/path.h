// lib/fs/path.h - splitting a path into its elements (pure, host-testable).
//
// A path is a sequence of elements separated by one or more '/'. Leading and
// trailing slashes carry no element; "" and "/" have none. An element is at
// most fs::kNameLen (14) bytes on disk: a longer one is truncated to its
// first 14 bytes, as xv6 does, so lookup and creation agree on the name.
//
// Invariants: next_elem() always leaves `name` NUL-terminated (the buffer is
// kNameLen + 1 bytes), never reads past the path's NUL, and returns a suffix
// of its input with no leading '/'. Names in directory entries are compared
// over at most kNameLen bytes (they need not be terminated there).
#pragma once

#include "lib/fs/layout.h"
#include "lib/types.h"

namespace q::fs {

// Buffer size for one element: the name plus a terminator.
constexpr usize kNameBuf = kNameLen + 1;

// Copy the first element of `path` into name and return the rest of the path
// with its leading slashes removed, or nullptr when there is no element.
//   next_elem("a/bb/c", n) == "bb/c", n == "a"
//   next_elem("///a//bb", n) == "bb", n == "a"
//   next_elem("a", n) == "", n == "a"
//   next_elem("", n) == next_elem("//", n) == nullptr
constexpr const char* next_elem(const char* path, char (&name)[kNameBuf]) {
    while (*path == '/') path++;
    if (*path == '\0') return nullptr;
    const char* start = path;
    while (*path != '/' && *path != '\0') path++;
    const usize len = static_cast<usize>(path - start);
    const usize keep = len < kNameLen ? len : kNameLen;
    for (usize i = 0; i < keep; i++) name[i] = start[i];
    for (usize i = keep; i < kNameBuf; i++) name[i] = '\0';
    while (*path == '/') path++;
    return path;
}

// Are two directory names equal? Each ends at its NUL or after kNameLen bytes.
constexpr bool name_equal(const char* a, const char* b) {
    for (usize i = 0; i < kNameLen; i++) {
        if (a[i] != b[i]) return false;
        if (a[i] == '\0') return true;
    }
    return true;
}

// Fill a directory entry's name field: copy up to kNameLen bytes, NUL-pad.
constexpr void name_store(char (&dst)[kNameLen], const char* src) {
    usize i = 0;
    for (; i < kNameLen && src[i] != '\0'; i++) dst[i] = src[i];
    for (; i < kNameLen; i++) dst[i] = '\0';
}

constexpr bool is_dot_or_dotdot(const char* name) { return name_equal(name, ".") || name_equal(name, ".."); }

// Is the path empty or made only of slashes ("", "/", "///")?
constexpr bool path_has_no_elem(const char* path) {
    while (*path == '/') path++;
    return *path == '\0';
}

}  // namespace q::fs
