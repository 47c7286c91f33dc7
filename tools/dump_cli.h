// tools/dump_cli.h - the command-line plumbing qprof and qtrace share.
//
// Both tools read one dump, either a file on the host (--dump FILE) or a
// file inside a disk image (IMAGE, path -p), and write reports to files or
// stdout ('-'). Every failure is one line "TOOL: what" on stderr and exit
// status 1 (a bad command line is the tool's own usage, exit 2). Header
// only: each tool is one translation unit.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tools/image.h"

namespace q::tools {

class DumpCli {
  public:
    constexpr explicit DumpCli(const char* tool) : tool_(tool) {}

    [[noreturn]] void fail(const std::string& msg) const {
        std::fprintf(stderr, "%s: %s\n", tool_, msg.c_str());
        std::exit(1);
    }

    // The value of `flag` as an integer in [lo, hi], or fail() naming it.
    u64 number(const std::string& flag, const std::string& v, u64 lo, u64 hi) const {
        const std::string range = std::to_string(lo) + ".." + std::to_string(hi);
        if (v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos ||
            std::stoull(v) < lo || std::stoull(v) > hi)
            fail(flag + " must be an integer " + range + ", got '" + v + "'");
        return std::stoull(v);
    }

    // The dump's bytes: the host file `dump` if named, else the file at
    // `path` in the disk image `image`, read with from_image.
    template <typename FromImage>
    std::vector<u8> load(const std::string& dump, const std::string& image, const std::string& path,
                         FromImage from_image) const {
        if (!dump.empty()) {
            std::ifstream in(dump, std::ios::binary);
            if (!in) fail("cannot open " + dump);
            return std::vector<u8>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        }
        Image img;
        std::string err;
        if (!img.load(image, &err)) fail(err);
        std::vector<u8> bytes;
        if (!from_image(img, path, &bytes, &err)) fail(image + ": " + err);
        return bytes;
    }

    // Calls write(FILE*) on the file `name` ('-': stdout; "": nothing).
    template <typename F>
    void to_file(const std::string& name, F write) const {
        if (name.empty()) return;
        if (name == "-") {
            write(stdout);
            return;
        }
        std::FILE* f = std::fopen(name.c_str(), "w");
        if (!f) fail("cannot create " + name);
        write(f);
        if (std::fclose(f) != 0) fail("cannot write " + name);
    }

  private:
    const char* tool_;
};

}  // namespace q::tools
