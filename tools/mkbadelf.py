#!/usr/bin/env python3
"""tools/mkbadelf.py - malformed ELF executables for the hostile suite.

    mkbadelf.py VALID_ELF OUTDIR

Design: starts from a valid user program (its ELF header and its first
PT_LOAD segment, the text at address 0) and writes one file per case into
OUTDIR, named `be_CASE` (at most 14 bytes: a directory entry's limit). Most cases keep that good first segment and
append a new program-header table whose second PT_LOAD is broken in one
way, so exec has already mapped and filled a segment when it meets the bad
one: that is where a loader leaks or panics if it loses track of what it
mapped. The others are broken before anything is mapped. Every case must
make exec return -1, except `be_entry_k` (a valid image whose
entry point is unmapped: exec succeeds and the program is killed at its
first instruction). user/hostile.c runs them; tests/guest/hostile.py puts
them on a copy of the disk image. Deterministic: same input, same files.
"""
import os
import struct
import sys

EHDR = struct.Struct("<16sHHIQQQIHHHHHH")
PHDR = struct.Struct("<IIQQQQQQ")
PT_LOAD = 1
PF_R, PF_W, PF_X = 4, 2, 1
PAGE = 4096
MAXVA = 1 << 38
TRAPFRAME = MAXVA - 2 * PAGE  # first address above user memory


def page_up(x):
    return (x + PAGE - 1) // PAGE * PAGE


def load(path):
    data = open(path, "rb").read()
    eh = list(EHDR.unpack_from(data, 0))
    if eh[0][:4] != b"\x7fELF":
        sys.exit("mkbadelf: %s is not an ELF file" % path)
    phoff, phnum = eh[5], eh[10]
    loads = [PHDR.unpack_from(data, phoff + i * PHDR.size) for i in range(phnum)]
    loads = [list(p) for p in loads if p[0] == PT_LOAD]
    if not loads:
        sys.exit("mkbadelf: %s has no PT_LOAD segment" % path)
    return data, eh, loads[0]


def with_phdrs(data, eh, phdrs, phnum=None, entry=None):
    """The file with a new program-header table appended and pointed to."""
    body = bytearray(data)
    while len(body) % 8:
        body.append(0)
    off = len(body)
    for p in phdrs:
        body += PHDR.pack(*p)
    h = list(eh)
    h[5] = off
    h[10] = len(phdrs) if phnum is None else phnum
    if entry is not None:
        h[4] = entry
    body[0:EHDR.size] = EHDR.pack(*h)
    return bytes(body)


def cases(data, eh, first):
    """(name, contents) for every case."""
    end = page_up(first[3] + first[6])  # first free page after the text
    size = len(data)

    def seg(off, vaddr, filesz, memsz, flags=PF_R | PF_W):
        return [PT_LOAD, flags, off, vaddr, vaddr, filesz, memsz, PAGE]

    second = {
        "pasteof": seg(size + PAGE, end, 100, PAGE),
        "runseof": seg(size - 16, end, 4096, PAGE),
        "filesz": seg(0, end, 2 * PAGE, PAGE),
        "unalign": seg(0, end + 8, 16, PAGE),
        "overlap": seg(0, first[3], 16, PAGE),
        "hugemem": seg(0, end, 0, 0x3f_0000_0000),
        "neartop": seg(0, TRAPFRAME - PAGE, 0, 2 * PAGE),
        "wraps": seg(0, 0xffff_ffff_ffff_f000, 0, 2 * PAGE),
        "offhuge": seg(1 << 40, end, 16, PAGE),
    }
    out = []
    for name, p in second.items():
        out.append(("be_" + name, with_phdrs(data, eh, [first, p])))
    # The program-header table runs past the end of the file after a good segment.
    out.append(("be_phnum", with_phdrs(data, eh, [first], phnum=500)))
    # Broken before anything is mapped.
    out.append(("be_magic", b"\x7fELG" + data[4:]))
    out.append(("be_trunc", data[:20]))
    out.append(("be_empty", b""))
    h = list(eh)
    h[5] = 1 << 40
    out.append(("be_phoff", EHDR.pack(*h) + data[EHDR.size:]))
    # Valid layout, entry point on an unmapped page: exec succeeds, the
    # process is killed by its first instruction fetch.
    out.append(("be_entry_k", with_phdrs(data, eh, [first], entry=0x10_0000_0000)))
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: mkbadelf.py VALID_ELF OUTDIR")
    data, eh, first = load(sys.argv[1])
    os.makedirs(sys.argv[2], exist_ok=True)
    for name, contents in cases(data, eh, first):
        with open(os.path.join(sys.argv[2], name), "wb") as f:
            f.write(contents)


if __name__ == "__main__":
    main()
