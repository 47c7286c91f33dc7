#!/usr/bin/env python3
"""tools/trace_run.py - `make trace`: trace a shell command line in the guest.

Boots the kernel (tests/guest/qemu.py's Guest, on its own fresh image of
the build's files), runs `trace start -b KB`, the command line, `trace stop`,
`trace dump /trace.dat` and `halt 0` in the shell, checks the guest's image
with fsck, and runs build/qtrace on it, leaving in OUT (default
build/trace): fs.img (the traced guest's disk), trace.json, summary.txt and
replay.txt. With --icount N the guest runs in virtual time (-icount
shift=N), so traced times do not depend on the host's load (make trace's
default). Records dropped because a buffer filled up make the exit status
1, with a line saying so (the files are still written).

Usage: trace_run.py --cmd "LINE" [--cpus N] [--sched P] [--rq M]
                    [--bootargs "..."] [--kb KB] [--icount N] [--out DIR]
                    [--timeout S] [--tick-us N]
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cmd", required=True)
    ap.add_argument("--cpus", type=int, default=3)
    ap.add_argument("--sched", default="")
    ap.add_argument("--rq", default="")
    ap.add_argument("--bootargs", default="")
    ap.add_argument("--kb", type=int, default=512)
    ap.add_argument("--icount", type=int, default=None)
    ap.add_argument("--out", default=os.path.join(BUILD, "trace"))
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--tick-us", type=int, default=100)
    a = ap.parse_args()
    boot = " ".join(x for x in [("rq=" + a.rq) if a.rq else "", a.bootargs] if x)

    def steps(g, mark):
        mark("trace start")
        out = g.run("trace start -b %d" % a.kb)
        if out.strip():
            raise RuntimeError(out.strip())
        mark("the command line")
        sys.stdout.write(g.run(a.cmd, timeout=a.timeout))
        mark("trace stop")
        out = g.run("trace stop")
        if "records" not in out:
            raise RuntimeError(out.strip())
        print(out.strip())
        m = re.search(r"(\d+) dropped", out)
        dropped[0] = int(m.group(1)) if m else 0
        mark("trace dump")
        out = g.run("trace dump /trace.dat", timeout=a.timeout)
        if "wrote" not in out:
            raise RuntimeError(out.strip())
        print(out.strip())

    dropped = [0]
    guest = dict(cpus=a.cpus, sched=a.sched or None, icount=a.icount, bootargs=boot or None, timeout=a.timeout)
    image = run_and_keep_image("trace_run", guest, steps, a.out, "traced")
    if image is None:
        return 1
    p = subprocess.run([os.path.join(BUILD, "qtrace"), "-o", a.out, "--tick-us", str(a.tick_us), image])
    if p.returncode != 0:
        return 1
    for name in ("trace.json", "summary.txt", "replay.txt"):
        print("trace_run: wrote %s" % os.path.join(a.out, name))
    if dropped[0]:
        print("trace_run: %d records were dropped: a hart's buffer (%d KiB) filled up, so the trace misses what "
              "came after. Trace again with a larger TRACE_KB or a shorter command." % (dropped[0], a.kb),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
