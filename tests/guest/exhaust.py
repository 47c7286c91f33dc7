"""tests/guest/exhaust.py - resource exhaustion in the guest (user/exhaust).

    exhaust.py [--cpus C] [tests...]

Design: boots QEMU on a private image copy, runs `exhaust` (which prints one
`PASS name (detail)` / `FAIL name: why` line per resource), and relays each
line with the hart count appended to the test name. A panic or a missing
`exhaust: done` line (hang) is a failure of its own, printed with the
console tail. Then the shell must still answer (unless the kernel
panicked), and, QEMU killed, fsck must find the image clean: the disk-full
and inode tests leave the disk as it must be (tests/guest/qemu.py's Suite:
a failed boot keeps its console transcript). No randomness: the hart count
is all a rerun needs.
"""
import argparse
import os
import sys

import pexpect

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qemu import Suite, failures, relay_results  # noqa: E402

suite = Suite("exhaust")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cpus", type=int, default=3)
    ap.add_argument("tests", nargs="*")
    a = ap.parse_args()
    tag = "%dharts" % a.cpus
    with suite.boot(a.cpus) as g:
        g.child.sendline("exhaust " + " ".join(a.tests))
        try:
            i = g.child.expect([r"exhaust: done[^\n]*\n", r"panic:"], timeout=180)
        except (pexpect.TIMEOUT, pexpect.EOF) as e:
            i = -1
            err = type(e).__name__
        out = (g.child.before or "").replace("\r\n", "\n")
        if i == 1:
            try:
                g.child.expect(pexpect.TIMEOUT, timeout=2)
            except pexpect.EOF:
                pass
            out += "panic:" + (g.child.before or "")
        relay_results(out, "exhaust", tag)
        suite.check(i == 0, "exhaust-run-%s" % tag, "%s (rerun: make exhaust CPUS=%d)\n%s" % (
            "kernel panic" if i == 1 else "no 'exhaust: done' (%s)" % err if i else "", a.cpus, out[-3000:]))
        if i == 0:
            g.wait_prompt(timeout=60)  # the prompt after exhaust's last line
        suite.finish(g, alive=i == 0)


if __name__ == "__main__":
    main()
    sys.exit(1 if failures() else 0)  # make fuzz / make exhaust fail too
