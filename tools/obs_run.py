#!/usr/bin/env python3
"""tools/obs_run.py - `make trace` and `make profile`: record a command in the guest.

    obs_run.py trace --cmd "LINE" [--cpus N] [--sched P] [--rq M] [--bootargs "..."]
                     [--kb KB] [--icount N] [--out DIR] [--timeout S] [--tick-us N]
    obs_run.py prof --cmd "CMD ARGS" [--cpus N] [--period US] [--kb KB]
                    [--icount N] [--out DIR] [--timeout S] [--top N]

Boots the kernel (tests/guest/qemu.py's Guest, on its own fresh image of the
build's files), records in the shell, halts (`halt 0`), checks the guest's
image with fsck and runs the host tool on it, leaving the guest's disk in
OUT/fs.img with the reports beside it. With --icount N the guest runs in
virtual time (-icount shift=N), so recorded times and counts do not depend
on the host's load (both make targets' default).

trace: runs `trace start -b KB`, the command line, `trace stop` and
`trace dump /trace.dat`, then build/qtrace, leaving (default OUT
build/trace) trace.json, summary.txt and replay.txt. Records dropped
because a buffer filled up make the exit status 1, with a line saying so
(the files are still written).
prof: runs `prof [-p US] [-b KB] CMD` (start, run, stop, dump to
/prof.dat), then build/qprof, leaving (default OUT build/profile) flat.txt
and folded.txt, and printing the top of the flat profile.

Exit status 0, or 1 with one line saying which step failed.
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "guest"))
from qemu import BUILD, run_and_keep_image  # noqa: E402


def parse():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="kind", required=True)
    t = sub.add_parser("trace")
    t.add_argument("--sched", default="")
    t.add_argument("--rq", default="")
    t.add_argument("--bootargs", default="")
    t.add_argument("--kb", type=int, default=512)
    t.add_argument("--icount", type=int, default=None)
    t.add_argument("--out", default=os.path.join(BUILD, "trace"))
    t.add_argument("--timeout", type=int, default=600)
    t.add_argument("--tick-us", type=int, default=100)
    p = sub.add_parser("prof")
    p.add_argument("--period", type=int, default=1000)
    p.add_argument("--kb", type=int, default=1024)
    p.add_argument("--icount", type=int, default=3)
    p.add_argument("--out", default=os.path.join(BUILD, "profile"))
    p.add_argument("--timeout", type=int, default=900)
    p.add_argument("--top", type=int, default=25)
    for s in (t, p):
        s.add_argument("--cmd", required=True)
        s.add_argument("--cpus", type=int, default=3)
    return ap.parse_args()


def need(out, want):
    """A guest step's output must contain want: else RuntimeError with its last line."""
    if want not in out:
        raise RuntimeError(out.strip().splitlines()[-1] if out.strip() else "no output")


def trace(a):
    dropped = [0]

    def steps(g, mark):
        mark("trace start")
        out = g.run("trace start -b %d" % a.kb)
        if out.strip():
            raise RuntimeError(out.strip())
        mark("the command line")
        sys.stdout.write(g.run(a.cmd, timeout=a.timeout))
        mark("trace stop")
        out = g.run("trace stop")
        need(out, "records")
        print(out.strip())
        m = re.search(r"(\d+) dropped", out)
        dropped[0] = int(m.group(1)) if m else 0
        mark("trace dump")
        out = g.run("trace dump /trace.dat", timeout=a.timeout)
        need(out, "wrote")
        print(out.strip())

    boot = " ".join(x for x in [("rq=" + a.rq) if a.rq else "", a.bootargs] if x)
    guest = dict(cpus=a.cpus, sched=a.sched or None, icount=a.icount, bootargs=boot or None, timeout=a.timeout)
    image = run_and_keep_image("obs_run", guest, steps, a.out, "traced")
    if image is None:
        return 1
    if subprocess.run([os.path.join(BUILD, "qtrace"), "-o", a.out, "--tick-us", str(a.tick_us), image]).returncode:
        return 1
    for name in ("trace.json", "summary.txt", "replay.txt"):
        print("obs_run: wrote %s" % os.path.join(a.out, name))
    if dropped[0]:
        print("obs_run: %d records were dropped: a hart's buffer (%d KiB) filled up, so the trace misses what "
              "came after. Trace again with a larger TRACE_KB or a shorter command." % (dropped[0], a.kb),
              file=sys.stderr)
        return 1
    return 0


def prof(a):
    def steps(g, mark):
        mark("prof " + a.cmd)
        out = g.run("prof -p %d -b %d %s" % (a.period, a.kb, a.cmd), timeout=a.timeout)
        sys.stdout.write(out)
        need(out, "prof: wrote")

    guest = dict(cpus=a.cpus, icount=a.icount, timeout=a.timeout)
    image = run_and_keep_image("obs_run", guest, steps, a.out, "profiled")
    if image is None:
        return 1
    qprof = [os.path.join(BUILD, "qprof"), "-k", os.path.join(BUILD, "kernel.elf"), "-u", os.path.join(BUILD, "user")]
    if subprocess.run(qprof + ["-o", a.out, "--top", str(a.top), image]).returncode:
        return 1
    for name in ("flat.txt", "folded.txt"):
        print("obs_run: wrote %s" % os.path.join(a.out, name))
    return 0


def main():
    a = parse()
    return trace(a) if a.kind == "trace" else prof(a)


if __name__ == "__main__":
    sys.exit(main())
