#!/usr/bin/env python3
"""bench/os_bench.py - runs user/benchos (lmbench-style OS paths),
user/threadbench (threads and futexes, the same format) and
tests/libc/pthreadbench.c (POSIX threads, built by qcc; on an image with
it added when it has been built) in the guest.

Boots the kernel under QEMU -icount (shift=3: 125 M virtual instructions
per virtual second, whatever the host does), once per hart count, runs
`benchos` (each benchmark for 10 ticks = 1 s of virtual time) and prints a
table of ns/op per benchmark and hart count; writes OUT/os.csv
(harts,benchmark,ops,ns_per_op,ops_per_s) and OUT/os-raw.log.

Rows that keep a hart busy (null, fork, pipe, sbrk, cached reads) count
instructions, so they repeat exactly. Rows that wait for the disk (create,
append, mkdir, uncached reads) idle every hart while QEMU does the I/O. With
sleep=off, QEMU then jumps virtual time to the next timer deadline (up to a
100 ms tick) whenever the vCPU idles before the I/O completes, a race the
host decides: on one kernel, 1-tick runs counted 1 to 20 appends per tick.
With sleep=on (the default here) idle time passes with QEMU's clocks
instead; three runs of the same kernel then agreed within 6% on every
row, also with the host loaded. Compare two kernels in one mode.

    python3 bench/os_bench.py [--cpus 1,3] [--out build/bench] [--quick]
                              [--icount-sleep on|off] [--kernel ELF] [NAME...]

--kernel boots another kernel with this build's image (before/after
figures of one set of programs: another tree's build/kernel.elf).
"""
import argparse
import csv
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "guest"))
from extra_image import build_image  # noqa: E402
from qemu import BUILD, Guest  # noqa: E402

ICOUNT = 3
LINE = re.compile(r"^(\w+) ops (\d+) ns/op (\d+) ops/s (\d+)$", re.M)


# threadbench's rows (user/threadbench.c); every other name is benchos's.
THREAD_ROWS = ["thread", "tcreate", "mutex", "futexpp", "wakeup"]
# pthreadbench's rows (tests/libc/pthreadbench.c).
PTHREAD_ROWS = ["pmutex", "pcreate", "contend", "handoff", "semwake"]
PTHREADBENCH = os.path.join(BUILD, "libc-tests", "_pthreadbench")


def parse(out, prog="benchos"):
    """benchos (or threadbench) output -> [(name, ops, ns_per_op, ops_per_s)];
    raises on a failed or unfinished run."""
    if prog + ": done" not in out:
        raise RuntimeError("%s did not finish: %r" % (prog, out[-300:]))
    return [(m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))) for m in LINE.finditer(out)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cpus", default="1,3", help="hart counts, comma-separated")
    ap.add_argument("--out", default="build/bench")
    ap.add_argument("--quick", action="store_true", help="one tick per benchmark (benchos -q)")
    ap.add_argument("--icount-sleep", default="on", choices=["on", "off"],
                    help="QEMU -icount sleep= (default on: disk-bound rows repeat; see the top of the file)")
    ap.add_argument("--kernel", default=None, help="kernel to boot (default: this build's)")
    ap.add_argument("names", nargs="*", help="benchmarks to run (default: all)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    q = " -q" if args.quick else ""
    os_names = [n for n in args.names if n not in THREAD_ROWS + PTHREAD_ROWS]
    th_names = [n for n in args.names if n in THREAD_ROWS]
    pt_names = [n for n in args.names if n in PTHREAD_ROWS]
    runs = []  # (program, command line)
    if os_names or not args.names:
        runs.append(("benchos", "benchos" + q + "".join(" " + n for n in os_names)))
    if th_names or not args.names:
        runs.append(("threadbench", "threadbench" + q + "".join(" " + n for n in th_names)))
    image = None
    if (pt_names or not args.names) and os.path.exists(PTHREADBENCH):
        runs.append(("pthreadbench", "pthreadbench" + q + "".join(" " + n for n in pt_names)))
        image = build_image(args.out, [PTHREADBENCH], name="bench.img")
    results = {}
    harts = [int(c) for c in args.cpus.split(",")]
    with open(os.path.join(args.out, "os-raw.log"), "w") as log:
        for cpus in harts:
            with Guest(cpus=cpus, icount=ICOUNT, icount_sleep=args.icount_sleep == "on", timeout=600,
                       image=image, kernel=args.kernel) as g:
                g.boot(timeout=120)
                results[cpus] = []
                for prog, cmd in runs:
                    out = g.run(cmd, timeout=1800)
                    log.write("### %d harts: %s\n%s\n" % (cpus, cmd, out))
                    results[cpus] += parse(out, prog)
    with open(os.path.join(args.out, "os.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["harts", "benchmark", "ops", "ns_per_op", "ops_per_s"])
        for cpus in harts:
            for row in results[cpus]:
                w.writerow([cpus] + list(row))
    names = [r[0] for r in results[harts[0]]]
    print("benchos, -icount shift=%d,sleep=%s (virtual time), ns per operation" % (ICOUNT, args.icount_sleep))
    print("%-10s" % "benchmark" + "".join("%14s" % ("%d hart%s" % (c, "s" if c > 1 else "")) for c in harts))
    for i, name in enumerate(names):
        print("%-10s" % name + "".join("%14d" % results[c][i][2] for c in harts))
    print("wrote %s" % os.path.join(args.out, "os.csv"))


if __name__ == "__main__":
    main()
