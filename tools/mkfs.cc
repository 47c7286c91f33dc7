// tools/mkfs.cc - build a quanta file-system image from host files.
//
//   mkfs IMAGE FILE...
//
// The image has param::kFsBlocks blocks and param::kFsInodes inodes, laid
// out by lib/fs/layout.h (the kernel's own definition). Each FILE is added
// to the root directory under its base name with one leading '_' removed
// (build/user/_ls becomes /ls); ELF files (programs) get mode 0755, the
// rest 0644, all owned by root. A FILE that is a symbolic link to another
// FILE given becomes a hard link to that file in the image (one inode, one
// copy of the data: build/user/_trace -> _obs makes /trace a second name
// of /obs). mkfs then adds the accounts (lib/abi/users.h
// format, docs/users-and-protection.md):
//   /etc/passwd     root (uid 0) and student (uid 1000, gid 1000)
//   /home/student   student's home, owned by student, 0755
//   /tmp            world-writable and sticky (01777)
// The image is built in memory (tools/
// fsbuild.h) and written only when every file fitted, so a failed run never
// leaves a half-made image behind. Exit status: 0 on success, 1 when a file
// is missing or unreadable, a name is too long or duplicated, or the image
// is full; 2 for a usage error or when the image cannot be written.
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "lib/fs/perm.h"
#include "tools/fsbuild.h"

namespace {

using q::u32;
using q::u8;

// "dir/_name" -> "name".
std::string image_name(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
    if (!base.empty() && base[0] == '_') base.erase(0, 1);
    return base;
}

bool read_host_file(const std::string& path, std::vector<u8>* data, std::string* err) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        *err = "cannot open (missing or unreadable)";
        return false;
    }
    data->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (in.bad()) {
        *err = "read error (is it a directory?)";
        return false;
    }
    return true;
}

bool is_elf(const std::vector<u8>& data) {
    return data.size() >= 4 && data[0] == 0x7f && data[1] == 'E' && data[2] == 'L' && data[3] == 'F';
}

bool add_host_file(q::tools::Builder& b, const std::string& path, u32* inum) {
    std::vector<u8> data;
    std::string err;
    if (!read_host_file(path, &data, &err) ||
        !b.add_file(b.root(), image_name(path), data.data(), data.size(), inum, &err) ||
        !b.set_owner(*inum, 0, 0, is_elf(data) ? 0755 : q::perm::kFileMode, &err)) {
        std::fprintf(stderr, "mkfs: %s: %s\n", path.c_str(), err.c_str());
        return false;
    }
    return true;
}

// The host file a path names, links followed ("" if there is none).
// POSIX's realpath and lstat, not <filesystem>: that header alone cost
// mkfs.cc a second of its two seconds of compile time, on make qemu's path.
std::string real_path(const std::string& path) {
    char* real = realpath(path.c_str(), nullptr);
    std::string s = real ? real : "";
    std::free(real);
    return s;
}

bool is_symlink(const std::string& path) {
    struct stat st;
    return lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

// Adds every file: the symbolic links to another file on the list last,
// as hard links to it.
bool add_host_files(q::tools::Builder& b, const std::vector<std::string>& paths) {
    std::vector<std::pair<std::string, u32>> added;  // real path, inode
    std::vector<std::string> links;
    for (const std::string& path : paths) {
        if (is_symlink(path)) {
            links.push_back(path);
            continue;
        }
        u32 inum = 0;
        if (!add_host_file(b, path, &inum)) return false;
        added.push_back({real_path(path), inum});
    }
    for (const std::string& path : links) {
        const std::string target = real_path(path);
        u32 inum = 0;
        for (const auto& [real, i] : added)
            if (!target.empty() && real == target) inum = i;
        if (inum == 0) {  // a link to a file not on the list: a copy
            if (!add_host_file(b, path, &inum)) return false;
            continue;
        }
        std::string err;
        if (!b.add_link(b.root(), image_name(path), inum, &err)) {
            std::fprintf(stderr, "mkfs: %s: %s\n", path.c_str(), err.c_str());
            return false;
        }
    }
    return true;
}

constexpr char kPasswd[] =
    "root:0:0:/:/sh\n"
    "student:1000:1000:/home/student:/sh\n";

// /etc/passwd, /home/student and /tmp (see the top of the file).
bool add_accounts(q::tools::Builder& b) {
    std::string err;
    u32 etc = 0, passwd = 0, home = 0, student = 0, tmp = 0;
    const bool ok = b.add_dir(b.root(), "etc", &etc, &err) &&
                    b.add_file(etc, "passwd", kPasswd, sizeof kPasswd - 1, &passwd, &err) &&
                    b.add_dir(b.root(), "home", &home, &err) && b.add_dir(home, "student", &student, &err) &&
                    b.set_owner(student, 1000, 1000, q::perm::kDirMode, &err) &&
                    b.add_dir(b.root(), "tmp", &tmp, &err) && b.set_owner(tmp, 0, 0, q::perm::kSticky | 0777, &err);
    if (!ok) std::fprintf(stderr, "mkfs: accounts: %s\n", err.c_str());
    return ok;
}

}  // namespace

int main(int argc, char* argv[]) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: mkfs IMAGE [FILE...]\n");
        return 2;
    }
    const std::string image_path = argv[1];
    q::tools::Builder b;
    if (!add_host_files(b, std::vector<std::string>(argv + 2, argv + argc))) return 1;
    if (!add_accounts(b)) return 1;
    const q::tools::Image img = b.finish();
    std::string err;
    if (!img.save(image_path, &err)) {
        std::fprintf(stderr, "mkfs: %s\n", err.c_str());
        std::remove(image_path.c_str());
        return 2;
    }
    const q::fs::SuperBlock& sb = b.superblock();
    std::printf("mkfs: %s: %d files, %u/%u data blocks, %u/%u inodes used\n", image_path.c_str(), argc - 2,
                b.data_blocks_used(), sb.nblocks, b.inodes_used(), sb.ninodes - 1);
    return 0;
}
