// tools/fscheck.cc - the checks behind fsck (see fscheck.h for the list).
//
// One Checker pass: superblock, log (replayed on the checker's own copy),
// inodes and their blocks (building a block -> owner map), directories
// (building per-inode reference counts and the directory tree), the tree
// from the root, link counts, and finally the bitmap against the owner map.
#include "tools/fscheck.h"

#include <cstdio>
#include <set>

#include "lib/fs/log_logic.h"
#include "lib/fs/perm.h"

namespace q::tools {

using fs::DiskInode;
using fs::InodeType;

namespace {

std::string fmt(const char* f, unsigned long a = 0, unsigned long b = 0, unsigned long c = 0) {
    char buf[256];
    std::snprintf(buf, sizeof(buf), f, a, b, c);
    return buf;
}

constexpr int kTypes = 5;  // Free, Dir, File, Device, Fifo

class Checker {
  public:
    Checker(const Image& img, Report& r) : img_(img), r_(r) {}
    void run();

  private:
    void error(Problem p, std::string m) { r_.add(p, Severity::Error, std::move(m)); }
    void warn(Problem p, std::string m) { r_.add(p, Severity::Warning, std::move(m)); }
    bool check_superblock();
    void check_log();
    void read_orphans();
    void check_orphans();
    bool dead(u32 inum) const { return inum < sb_.ninodes && listed_[inum]; }
    void scan_inode(u32 inum);
    void scan_blocks(u32 inum, const DiskInode& di);
    bool use_block(u32 b, u32 inum);
    void check_dir(u32 inum, const DiskInode& di);
    void check_tree();
    void check_links();
    void check_bitmap();
    bool allocated(u32 inum) const { return inum < sb_.ninodes && type_[inum] != 0; }
    bool is_dir(u32 inum) const { return allocated(inum) && type_[inum] == static_cast<int>(InodeType::Dir); }

    Image img_;  // a copy: replaying the log changes it
    Report& r_;
    fs::SuperBlock sb_{};
    u32 datastart_ = 0;
    std::vector<int> type_;                   // per inode: 0 free, else InodeType
    std::vector<u32> owner_;                  // per block: inode using it, 0 = none
    std::vector<int> refs_;                   // per inode: entries naming it, "." excluded
    std::vector<u32> dotdot_;                 // per directory: target of ".."
    std::vector<std::vector<u32>> parents_;   // per directory: directories naming it
    std::vector<std::vector<u32>> children_;  // per directory: inodes it names (no . ..)
    std::vector<bool> listed_;                // per inode: in the orphan table
};

bool Checker::check_superblock() {
    sb_ = img_.superblock();
    const u64 size = sb_.size, ipb = fs::kInodesPerBlock, bpb = fs::kBitsPerBlock;
    const char* bad = nullptr;
    if (sb_.magic == fs::kMagic && (sb_.version < fs::kOldestFormatVersion || sb_.version > fs::kFormatVersion)) {
        error(Problem::BadVersion,
              fmt("superblock: file-system format version %lu, this fsck reads only versions %lu-%lu ", sb_.version,
                  fs::kOldestFormatVersion, fs::kFormatVersion) +
                  "(inodes with owners and modes): rebuild the image with this tree's mkfs");
        return false;
    }
    if (sb_.magic != fs::kMagic) bad = "bad magic number";
    else if (size != img_.nblocks()) bad = "size does not match the image's length";
    else if (sb_.nlog < 2 || sb_.nlog - 1 > static_cast<u32>(param::kLogBlocks)) bad = "log size out of range";
    else if (sb_.ninodes < 2) bad = "too few inodes";
    else if (sb_.logstart < 2 || u64{sb_.inodestart} < u64{sb_.logstart} + sb_.nlog) bad = "log region misplaced";
    else if (u64{sb_.bmapstart} < u64{sb_.inodestart} + (sb_.ninodes + ipb - 1) / ipb)
        bad = "inode region overlaps the bitmap";
    else if (sb_.nblocks == 0 || sb_.nblocks > size || size - sb_.nblocks < u64{sb_.bmapstart} + (size + bpb - 1) / bpb)
        bad = "data region overlaps the metadata or the image's end";
    if (bad) {
        error(Problem::BadSuperblock,
              std::string("superblock: ") + bad + fmt(" (magic 0x%lx, size %lu, ", sb_.magic, sb_.size) +
                  fmt("nblocks %lu, ninodes %lu, nlog %lu, ", sb_.nblocks, sb_.ninodes, sb_.nlog) +
                  fmt("logstart %lu, inodestart %lu, bmapstart %lu)", sb_.logstart, sb_.inodestart, sb_.bmapstart));
        return false;
    }
    datastart_ = sb_.size - sb_.nblocks;
    return true;
}

void Checker::check_log() {
    const fs::LogHeader lh = img_.get<fs::LogHeader>(sb_.logstart, 0);
    if (lh.n == 0) return;
    if (lh.n > sb_.nlog - 1) {
        error(Problem::LogBadCount,
              fmt("log header: n = %lu, but the log holds at most %lu blocks", lh.n, sb_.nlog - 1));
        return;
    }
    if (!fs::log_header_valid(lh, sb_.nlog - 1)) {
        error(Problem::LogBadCount, fmt("log header: magic %lu, prev %lu for n = %lu: not a header this fsck knows",
                                        lh.magic, lh.prev, lh.n));
        return;
    }
    bool ok = true;
    for (u32 i = 0; i < lh.n; i++) {
        if ((lh.block[i] < sb_.inodestart && lh.block[i] != fs::kSuperBlockNo) || lh.block[i] >= sb_.size) {
            error(Problem::LogBadBlock, fmt("log header: entry %lu names block %lu, neither the superblock's nor in "
                                            "[%lu, size)",
                                            i, lh.block[i], sb_.inodestart));
            ok = false;
        }
    }
    if (!ok) return;
    // As the kernel's recovery: the last transaction counts only if its
    // slots match the header's checksum (lib/fs/log_logic.h).
    u64 sum = fs::kLogSumSeed;
    for (u32 i = lh.prev; i < lh.n && lh.magic == fs::kLogMagic; i++)
        sum = fs::log_sum_slot(sum, lh.block[i], img_.block(sb_.logstart + 1 + i));
    const u32 count = fs::log_replay_count(lh, sum);
    for (u32 i = 0; i < count; i++)
        std::memcpy(img_.block(lh.block[i]), img_.block(sb_.logstart + 1 + i), fs::kBlockSize);
    if (count < lh.n)
        r_.add(Problem::LogReplayed, Severity::Note,
               fmt("log: the last transaction (slots %lu-%lu) fails its checksum (a crash cut it short): ", lh.prev,
                   lh.n - 1) +
                   fmt("replaying the %lu slots before it", count));
    if (count > 0)
        r_.add(Problem::LogReplayed, Severity::Note,
               fmt("log: %lu committed blocks; checking the image as replayed", count));
}

// The orphan table (after the log's replay): slots in range, none twice.
void Checker::read_orphans() {
    const fs::OrphanTable t = img_.get<fs::OrphanTable>(fs::kSuperBlockNo, fs::kOrphanTableOffset);
    bool any = false;
    for (u16 inum : t.inum) any = any || inum != 0;
    if ((t.magic != fs::kOrphanMagic && (t.magic != 0 || any)) || t.pad != 0) {
        error(Problem::OrphanTableBad,
              fmt("orphan table: magic 0x%lx, pad %lu: not a table this fsck knows (its slots are ignored)", t.magic,
                  t.pad));
        return;
    }
    for (u32 i = 0; i < fs::kOrphanSlots; i++) {
        const u32 inum = t.inum[i];
        if (inum == 0) continue;
        if (inum >= sb_.ninodes)
            error(Problem::OrphanTableBad,
                  fmt("orphan table: slot %lu names inode %lu, beyond the last (%lu)", i, inum, sb_.ninodes - 1));
        else if (listed_[inum])
            error(Problem::OrphanTableBad, fmt("orphan table: inode %lu is listed twice (slot %lu)", inum, i));
        else listed_[inum] = true;
    }
}

// Every listed inode is allocated with nlink 0 (after the inode scan).
void Checker::check_orphans() {
    for (u32 inum = 1; inum < sb_.ninodes; inum++) {
        if (!listed_[inum]) continue;
        if (!allocated(inum)) {
            error(Problem::OrphanTableBad, fmt("orphan table: lists free inode %lu", inum));
            listed_[inum] = false;
        } else if (img_.inode(sb_, inum).nlink != 0) {
            error(Problem::OrphanTableBad,
                  fmt("orphan table: lists inode %lu, which has %lu links", inum, img_.inode(sb_, inum).nlink));
            listed_[inum] = false;
        }
    }
}

bool Checker::use_block(u32 b, u32 inum) {
    if (b < datastart_ || b >= sb_.size) {
        error(Problem::BlockOutOfRange,
              fmt("inode %lu: block %lu is outside the data region [%lu, size)", inum, b, datastart_));
        return false;
    }
    if (owner_[b] != 0) {
        error(Problem::BlockDuplicate, fmt("block %lu is used by inode %lu and by inode %lu", b, owner_[b], inum));
        return false;
    }
    owner_[b] = inum;
    r_.blocks_used++;
    return true;
}

void Checker::scan_blocks(u32 inum, const DiskInode& di) {
    std::vector<bool> mapped(fs::kMaxFileBlocks, false);
    for (u32 i = 0; i < fs::kDirect; i++)
        if (di.addrs[i] != 0) {
            use_block(di.addrs[i], inum);
            mapped[i] = true;
        }
    const u32 ind = di.addrs[fs::kDirect];
    if (ind != 0 && use_block(ind, inum))
        for (u32 j = 0; j < fs::kIndirect; j++) {
            const u32 a = img_.get<u32>(ind, j * sizeof(u32));
            if (a != 0) {
                use_block(a, inum);
                mapped[fs::kDirect + j] = true;
            }
        }
    const u64 max = u64{fs::kMaxFileBlocks} * fs::kBlockSize;
    if (di.size > max) {
        error(Problem::SizeMismatch,
              fmt("inode %lu: size %lu exceeds the largest file (%lu bytes)", inum, di.size, max));
        return;
    }
    const u32 needed = (di.size + fs::kBlockSize - 1) / fs::kBlockSize;
    u32 holes = 0, extra = 0;
    for (u32 i = 0; i < fs::kMaxFileBlocks; i++) {
        holes += i < needed && !mapped[i];
        extra += i >= needed && mapped[i];
    }
    if (holes > 0)
        error(Problem::SizeMismatch,
              fmt("inode %lu: size %lu needs %lu blocks, but some are missing", inum, di.size, needed) +
                  fmt(" (%lu holes)", holes));
    if (extra > 0 || (ind != 0 && needed <= fs::kDirect))
        warn(Problem::BlockPastSize,
             fmt("inode %lu: blocks mapped past its size %lu (%lu data blocks)", inum, di.size, extra));
}

void Checker::scan_inode(u32 inum) {
    const DiskInode di = img_.inode(sb_, inum);
    const int t = static_cast<int>(di.type);
    if (t == 0) return;
    if (t < 0 || t >= kTypes || inum == 0) {
        error(Problem::BadInodeType,
              inum == 0 ? fmt("inode 0 is reserved but has type %lu", t) : fmt("inode %lu: bad type %lu", inum, t));
        return;
    }
    type_[inum] = t;
    r_.inodes_used++;
    bool reserved_zero = true;
    for (u8 byte : di.reserved) reserved_zero = reserved_zero && byte == 0;
    if (di.mode > perm::kModeMask || di.pad != 0 || !reserved_zero)
        error(Problem::BadMode, fmt("inode %lu: mode 0%lo has bits beyond 0%lo, or reserved bytes are set", inum,
                                    di.mode, perm::kModeMask));
    if (t == static_cast<int>(InodeType::Fifo)) {
        bool blocks = false;
        for (u32 a : di.addrs) blocks = blocks || a != 0;
        if (di.size != 0 || blocks)
            error(Problem::FifoHasData, fmt("inode %lu: a FIFO with size %lu or data blocks", inum, di.size));
    }
    scan_blocks(inum, di);
}

void Checker::check_dir(u32 inum, const DiskInode& di) {
    if (di.size % sizeof(fs::DirEntry) != 0)
        error(Problem::DirBadSize,
              fmt("directory %lu: size %lu is not a multiple of %lu", inum, di.size, sizeof(fs::DirEntry)));
    bool dot = false, dotdot = false;
    std::set<std::string> seen;
    for (const fs::DirEntry& e : img_.read_dir(di)) {
        if (e.inum == 0) continue;
        const std::string name = entry_name(e);
        if (!seen.insert(name).second)
            error(Problem::DirDuplicateName, "directory " + std::to_string(inum) + ": duplicate name '" + name + "'");
        if (e.inum >= sb_.ninodes) {
            error(Problem::EntryOutOfRange,
                  fmt("directory %lu: entry '", inum) + name +
                      fmt("' names inode %lu, beyond the last (%lu)", e.inum, sb_.ninodes - 1));
            continue;
        }
        if (name == ".." && dead(inum)) {  // a removed directory's '..' is not a link (it may name a freed one)
            dotdot = true;
            continue;
        }
        if (!allocated(e.inum)) {
            error(Problem::EntryToFreeInode,
                  fmt("directory %lu: entry '", inum) + name + fmt("' names free inode %lu", e.inum));
            continue;
        }
        if (name == ".") {
            dot = true;
            if (e.inum != inum)
                error(Problem::DirMissingDot, fmt("directory %lu: '.' names inode %lu, not itself", inum, e.inum));
            continue;
        }
        refs_[e.inum]++;
        if (name == "..") {
            dotdot = true;
            dotdot_[inum] = e.inum;
            continue;
        }
        children_[inum].push_back(e.inum);
        if (is_dir(e.inum)) parents_[e.inum].push_back(inum);
    }
    if (!dot) error(Problem::DirMissingDot, fmt("directory %lu: no '.' entry", inum));
    if (!dotdot) error(Problem::DirMissingDotDot, fmt("directory %lu: no '..' entry", inum));
}

void Checker::check_tree() {
    const u32 root = fs::kRootInode;
    if (!is_dir(root)) {
        error(Problem::RootNotDir, fmt("root inode %lu is not a directory", root));
        return;
    }
    if (dotdot_[root] != root && dotdot_[root] != 0)
        error(Problem::DirBadParent, fmt("root: '..' names inode %lu, not the root", dotdot_[root]));
    std::vector<bool> reached(sb_.ninodes, false);
    std::vector<u32> todo{root};
    reached[root] = true;
    while (!todo.empty()) {
        const u32 d = todo.back();
        todo.pop_back();
        for (u32 c : children_[d])
            if (is_dir(c) && !reached[c]) {
                reached[c] = true;
                todo.push_back(c);
            }
    }
    for (u32 d = 2; d < sb_.ninodes; d++) {
        if (!is_dir(d) || (dead(d) && parents_[d].empty())) continue;
        if (!reached[d]) error(Problem::DirUnreachable, fmt("directory %lu cannot be reached from the root", d));
        else if (parents_[d].size() > 1)
            error(Problem::DirMultipleNames,
                  fmt("directory %lu has %lu names (directories may have only one)", d, parents_[d].size()));
        else if (parents_[d].size() == 1 && dotdot_[d] != 0 && dotdot_[d] != parents_[d][0])
            error(Problem::DirBadParent,
                  fmt("directory %lu: '..' names inode %lu, but its parent is %lu", d, dotdot_[d], parents_[d][0]));
    }
}

void Checker::check_links() {
    for (u32 inum = 1; inum < sb_.ninodes; inum++) {
        if (!allocated(inum)) continue;
        const int nlink = img_.inode(sb_, inum).nlink;
        if (nlink == 0 && refs_[inum] == 0 && dead(inum))
            r_.add(Problem::OrphanListed, Severity::Note,
                   fmt("inode %lu (", inum) + (is_dir(inum) ? "a directory" : "a file") +
                       ") was unlinked while in use; it is in the orphan table, and the next boot frees it");
        else if (nlink == 0 && refs_[inum] == 0)
            error(
                Problem::OrphanInode,
                fmt("inode %lu is allocated but has no links, no name, and is not in the orphan table (leaked)", inum));
        else if (nlink != refs_[inum])
            error(Problem::BadLinkCount, fmt("inode %lu: nlink is %lu, but %lu directory entries name it", inum,
                                             static_cast<unsigned long>(nlink), refs_[inum]));
    }
}

void Checker::check_bitmap() {
    for (u32 b = 0; b < sb_.size; b++) {
        const bool used = b < datastart_ || owner_[b] != 0;
        const bool marked = img_.bitmap_bit(sb_, b);
        if (used && !marked)
            error(Problem::BitmapUsedButFree,
                  b < datastart_ ? fmt("bitmap: metadata block %lu is marked free", b)
                                 : fmt("bitmap: block %lu is used by inode %lu but marked free", b, owner_[b]));
        else if (!used && marked)
            error(Problem::BitmapFreeButUsed, fmt("bitmap: block %lu is marked used, but nothing uses it", b));
    }
}

void Checker::run() {
    if (!check_superblock()) return;
    check_log();
    type_.assign(sb_.ninodes, 0);
    owner_.assign(sb_.size, 0);
    refs_.assign(sb_.ninodes, 0);
    dotdot_.assign(sb_.ninodes, 0);
    parents_.assign(sb_.ninodes, {});
    children_.assign(sb_.ninodes, {});
    listed_.assign(sb_.ninodes, false);
    read_orphans();
    for (u32 inum = 0; inum < sb_.ninodes; inum++) scan_inode(inum);
    check_orphans();
    for (u32 inum = 1; inum < sb_.ninodes; inum++)
        if (is_dir(inum)) check_dir(inum, img_.inode(sb_, inum));
    check_tree();
    check_links();
    check_bitmap();
}

}  // namespace

const char* problem_name(Problem p) {
    static const char* const names[] = {
        "bad-superblock",
        "bad-version",
        "log-bad-count",
        "log-bad-block",
        "log-replayed",
        "bad-inode-type",
        "bad-mode",
        "block-out-of-range",
        "block-duplicate",
        "size-mismatch",
        "block-past-size",
        "bitmap-used-but-free",
        "bitmap-free-but-used",
        "root-not-dir",
        "dir-bad-size",
        "dir-missing-dot",
        "dir-missing-dotdot",
        "dir-bad-parent",
        "dir-duplicate-name",
        "dir-unreachable",
        "dir-multiple-names",
        "entry-out-of-range",
        "entry-to-free-inode",
        "bad-link-count",
        "orphan-inode",
        "orphan-listed",
        "orphan-table-bad",
        "fifo-has-data",
    };
    static_assert(sizeof(names) / sizeof(names[0]) == kProblemKinds);
    return names[static_cast<int>(p)];
}

void Report::add(Problem p, Severity s, std::string message) {
    if (++counts[static_cast<int>(p)] <= kMaxPerKind) findings.push_back({p, s, std::move(message)});
    errors += s == Severity::Error;
    warnings += s == Severity::Warning;
}

Report check_image(const Image& img) {
    Report r;
    Checker(img, r).run();
    return r;
}

int print_report(const Report& r, const std::string& name, bool quiet) {
    static const char* const sev[] = {"note", "warning", "error"};
    for (const Finding& f : r.findings)
        if (!quiet || f.severity == Severity::Error)
            std::printf("fsck: %s: %s [%s]\n", sev[static_cast<int>(f.severity)], f.message.c_str(),
                        problem_name(f.kind));
    for (int k = 0; k < kProblemKinds; k++)
        if (r.counts[k] > Report::kMaxPerKind)
            std::printf("fsck: ... and %d more [%s]\n", r.counts[k] - Report::kMaxPerKind,
                        problem_name(static_cast<Problem>(k)));
    if (r.clean())
        std::printf("fsck: %s: clean, %u inodes and %u data blocks in use%s\n", name.c_str(), r.inodes_used,
                    r.blocks_used, r.warnings ? " (with warnings)" : "");
    else std::printf("fsck: %s: %d errors, %d warnings\n", name.c_str(), r.errors, r.warnings);
    return r.clean() ? 0 : 1;
}

}  // namespace q::tools
