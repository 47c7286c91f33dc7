#!/usr/bin/env python3
"""bench/pages_saved.py - what N running copies of one program cost in free
pages (docs/benchmarks.md "The page cache").

    python3 bench/pages_saved.py [--kernel ELF] [--copies 1,2,4,8]

Boots the kernel (1 hart; this build's image), reads `vmstat`'s free pages,
then starts copies of `mmaptest -hold 1 0 1 &` from the shell (each reads a
byte of every page of its image, writes a byte to the console and blocks
reading it) and reads the free pages again at each count. Prints one line
per count: copies, free pages, pages taken since none ran, and vmstat's
page-cache line. With the page cache, each copy after the first takes its
text's whole pages fewer than without.
"""
import argparse
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "guest"))
from qemu import Guest  # noqa: E402


def free_pages(g):
    out = g.run("vmstat", timeout=30)
    m = re.search(r"vmstat: free (\d+)", out)
    c = re.search(r"vmstat: cache \d+ idle \d+", out)
    return int(m.group(1)), (c.group(0) if c else "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernel", default=None, help="kernel to boot (default: this build's)")
    ap.add_argument("--copies", default="1,2,4,8")
    a = ap.parse_args()
    with Guest(cpus=1, timeout=120, kernel=a.kernel) as g:
        g.boot()
        base, cache = free_pages(g)
        print("copies 0 free %d taken 0 %s" % (base, cache))
        n = 0
        for want in [int(c) for c in a.copies.split(",")]:
            while n < want:
                g.run("mmaptest -hold 1 0 1 &", timeout=30)
                n += 1
            time.sleep(1)  # the last one has touched its image
            free, cache = free_pages(g)
            print("copies %d free %d taken %d %s" % (n, free, base - free, cache))


if __name__ == "__main__":
    main()
