#!/usr/bin/env python3
"""bench/swap_cliff.py - OSTEP chapter 21's cliff on quanta (docs/benchmarks.md
"Swap: the cliff").

    python3 bench/swap_cliff.py [--policy clock|fifo] [MB...]

Boots a 1-hart 24 MiB guest with a 64 MiB swap disk under -icount
(shift=3, sleep=off) and runs `vmstat mem MB 3` for each size (default 4 8
12 16 18 20 24 32): one line per size with each pass's KiB/ms and vmstat's
page-ins and page-outs. The counts repeat exactly; past the cliff the
KiB/ms depend on how long the host takes for each polled swap transfer.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "guest"))
from qemu import Guest  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--policy", default="clock", choices=["clock", "fifo"])
    ap.add_argument("sizes", nargs="*", type=int, default=[4, 8, 12, 16, 18, 20, 24, 32])
    args = ap.parse_args()
    with Guest(cpus=1, mem="24M", swap_mb=64, timeout=120, icount=3, bootargs="vm=" + args.policy) as g:
        g.boot()
        print(g.run("vmstat", timeout=30).strip())
        for mb in args.sizes:
            out = g.run("vmstat mem %d 3" % mb, timeout=1200)
            passes = re.findall(r"pass \d+: \d+ KiB in \d+ us, (\d+) KiB/ms", out)
            c = re.search(r"during minflt \d+ majflt \d+ cow \d+ pgin (\d+) pgout (\d+)", out)
            ok = "MiB ok" in out and c is not None
            print("%s %d MiB: passes %s KiB/ms, page-ins %s, page-outs %s%s" % (
                args.policy, mb, " ".join(passes), c.group(1) if c else "?", c.group(2) if c else "?",
                "" if ok else " FAIL " + out[-200:]))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
