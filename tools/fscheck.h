// tools/fscheck.h - file-system consistency checking (fsck's engine).
//
// check_image() walks an image with the layout code shared with the kernel
// and mkfs (lib/fs/layout.h) and returns a Report of findings, each with a
// kind (so tests can ask "was this corruption detected?"), a severity and a
// readable message. What is checked:
//   - the superblock: magic, format version (kOldestFormatVersion to
//     kFormatVersion; any other is refused, nothing else checked), regions
//     in order, inside the image;
//   - the log: header count within the log, home blocks in range (the
//     superblock's block, which holds the orphan table, or past it); a
//     committed log (n > 0) is replayed on a copy, which is then checked,
//     just as the kernel would replay it at boot;
//   - the orphan table (lib/fs/layout.h): a known magic number (or zeros),
//     every slot naming an allocated inode with nlink 0, none twice;
//   - inodes: valid types; a mode with no bits beyond perm::kModeMask and
//     zero reserved bytes; every block number inside the data region and
//     used once; no holes below the size; size within the maximum file;
//     a FIFO (type 4) with size 0 and no blocks (its bytes are in memory);
//   - the bitmap: a block is marked used iff it is metadata or some inode
//     uses it;
//   - directories: size a multiple of the entry size, "." naming itself,
//     ".." naming the parent (root's names root), no entry naming a free or
//     out-of-range inode, no duplicate names, every directory reachable from
//     the root through exactly one name;
//   - link counts: nlink equals the number of entries naming the inode,
//     not counting "." entries (xv6's rule: a directory's nlink is its name
//     in the parent plus its subdirectories' "..");
//   - an allocated inode with nlink 0 must be listed in the orphan table:
//     it was unlinked while in use, and the next boot frees it (a note, not
//     an error). A removed directory in the table is dead: it is not
//     reached from the root, and its '..' (which may name a directory freed
//     since) neither counts as a link nor is checked. An unlisted one is
//     leaked (an error: nothing would ever free it).
// Warnings (not errors): blocks mapped past the end of a file (a write that
// failed half way).
#pragma once

#include <string>
#include <vector>

#include "tools/image.h"

namespace q::tools {

enum class Problem {
    BadSuperblock,
    BadVersion,
    LogBadCount,
    LogBadBlock,
    LogReplayed,
    BadInodeType,
    BadMode,
    BlockOutOfRange,
    BlockDuplicate,
    SizeMismatch,
    BlockPastSize,
    BitmapUsedButFree,
    BitmapFreeButUsed,
    RootNotDir,
    DirBadSize,
    DirMissingDot,
    DirMissingDotDot,
    DirBadParent,
    DirDuplicateName,
    DirUnreachable,
    DirMultipleNames,
    EntryOutOfRange,
    EntryToFreeInode,
    BadLinkCount,
    OrphanInode,     // allocated, nlink 0, not in the orphan table: leaked
    OrphanListed,    // in the orphan table: the next boot frees it (a note)
    OrphanTableBad,  // the table's magic or a slot is wrong
    FifoHasData,     // a FIFO (named pipe) with a size or data blocks: its bytes live in memory only
};
constexpr int kProblemKinds = static_cast<int>(Problem::FifoHasData) + 1;
const char* problem_name(Problem p);

enum class Severity { Note, Warning, Error };

struct Finding {
    Problem kind;
    Severity severity;
    std::string message;
};

struct Report {
    std::vector<Finding> findings;  // the first kMaxPerKind of each kind
    int counts[kProblemKinds] = {};
    int errors = 0;
    int warnings = 0;
    u32 inodes_used = 0;
    u32 blocks_used = 0;  // data blocks

    static constexpr int kMaxPerKind = 20;
    bool clean() const { return errors == 0; }
    int count(Problem p) const { return counts[static_cast<int>(p)]; }
    bool has(Problem p) const { return count(p) > 0; }
    void add(Problem p, Severity s, std::string message);
};

// Check an image (read-only; a committed log is replayed on a copy).
Report check_image(const Image& img);

// Print a report in fsck's format to stdout; returns fsck's exit status.
int print_report(const Report& r, const std::string& name, bool quiet);

}  // namespace q::tools
