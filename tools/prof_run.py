#!/usr/bin/env python3
"""tools/prof_run.py - `make profile`: profile a command in the guest.

Boots the kernel (tests/guest/qemu.py's Guest, on a private copy of
build/fs.img) under -icount (virtual time, so the profile does not depend
on the host's load), runs `prof [-p US] [-b KB] CMD` in the shell (start,
run, stop, dump to /prof.dat) and `halt 0`, checks the guest's image with
fsck, and runs build/qprof on it, leaving in OUT (default build/profile):
fs.img (the profiled guest's disk), flat.txt and folded.txt, and printing
the top of the flat profile.

Usage: prof_run.py --cmd "CMD ARGS" [--cpus N] [--period US] [--kb KB]
                   [--icount N] [--out DIR] [--timeout S] [--top N]
Exit status 0, or 1 with one line saying which step failed.
"""
import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "guest"))
from qemu import BUILD, run_and_keep_image  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cmd", required=True)
    ap.add_argument("--cpus", type=int, default=3)
    ap.add_argument("--period", type=int, default=1000)
    ap.add_argument("--kb", type=int, default=1024)
    ap.add_argument("--icount", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(BUILD, "profile"))
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--top", type=int, default=25)
    a = ap.parse_args()

    def steps(g, mark):
        mark("prof " + a.cmd)
        out = g.run("prof -p %d -b %d %s" % (a.period, a.kb, a.cmd), timeout=a.timeout)
        sys.stdout.write(out)
        if "prof: wrote" not in out:
            raise RuntimeError(out.strip().splitlines()[-1] if out.strip() else "no output")

    image = run_and_keep_image("prof_run", dict(cpus=a.cpus, icount=a.icount, timeout=a.timeout), steps, a.out,
                               "profiled")
    if image is None:
        return 1
    p = subprocess.run([os.path.join(BUILD, "qprof"), "-k", os.path.join(BUILD, "kernel.elf"), "-u",
                        os.path.join(BUILD, "user"), "-o", a.out, "--top", str(a.top), image])
    if p.returncode != 0:
        return 1
    for name in ("flat.txt", "folded.txt"):
        print("prof_run: wrote %s" % os.path.join(a.out, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
