// tests/host/fs_util.h - helpers shared by the file-system host tests.
//
// Small editors for poking at images (find a directory entry, change an
// inode), a temporary directory that cleans up after itself, and a runner
// for the mkfs/fsck binaries that returns their exit status and output.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tools/fsbuild.h"
#include "tools/fscheck.h"

namespace q::tools::test {

// Where in the image a directory entry lives.
struct EntryLoc {
    u32 block = 0;
    u32 offset = 0;
    bool found = false;
};

inline EntryLoc find_entry(const Image& img, u32 dir, const std::string& name) {
    const fs::SuperBlock sb = img.superblock();
    const fs::DiskInode di = img.inode(sb, dir);
    for (u32 off = 0; off + sizeof(fs::DirEntry) <= di.size; off += sizeof(fs::DirEntry)) {
        const u32 b = img.file_block(di, off / fs::kBlockSize);
        const fs::DirEntry de = img.get<fs::DirEntry>(b, off % fs::kBlockSize);
        if (de.inum != 0 && entry_name(de) == name) return {b, off % fs::kBlockSize, true};
    }
    return {};
}

inline u32 lookup(const Image& img, u32 dir, const std::string& name) {
    const EntryLoc loc = find_entry(img, dir, name);
    return loc.found ? img.get<fs::DirEntry>(loc.block, loc.offset).inum : 0;
}

// Apply f to inode inum of img, in place.
template <typename F>
void edit_inode(Image& img, u32 inum, F f) {
    const fs::SuperBlock sb = img.superblock();
    fs::DiskInode di = img.inode(sb, inum);
    f(di);
    img.set_inode(sb, inum, di);
}

template <typename F>
void edit_entry(Image& img, u32 dir, const std::string& name, F f) {
    const EntryLoc loc = find_entry(img, dir, name);
    if (!loc.found) return;
    fs::DirEntry de = img.get<fs::DirEntry>(loc.block, loc.offset);
    f(de);
    img.put(loc.block, loc.offset, de);
}

inline std::vector<u8> pattern(size_t n, u32 seed) {
    std::vector<u8> v(n);
    for (size_t i = 0; i < n; i++) v[i] = static_cast<u8>((i * 31 + seed * 7 + (i >> 8)) & 0xff);
    return v;
}

// A fresh directory under /tmp, removed with its contents at scope exit.
class TempDir {
  public:
    TempDir() {
        char tmpl[] = "/tmp/quanta-fs-test-XXXXXX";
        path_ = mkdtemp(tmpl) ? tmpl : "";
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    const std::string& path() const { return path_; }
    std::string file(const std::string& name, const std::vector<u8>& data) const {
        const std::string p = path_ + "/" + name;
        std::ofstream(p, std::ios::binary)
            .write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
        return p;
    }

  private:
    std::string path_;
};

struct RunResult {
    int status = -1;
    std::string output;  // stdout and stderr
};

inline RunResult run(const std::string& cmd) {
    RunResult r;
    FILE* p = popen((cmd + " 2>&1").c_str(), "r");
    if (!p) return r;
    char buf[512];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), p)) > 0) r.output.append(buf, n);
    const int st = pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

inline bool exists(const std::string& path) { return std::filesystem::exists(path); }

}  // namespace q::tools::test
