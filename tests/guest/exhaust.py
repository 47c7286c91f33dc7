"""tests/guest/exhaust.py - resource exhaustion in the guest (user/exhaust).

    exhaust.py [--cpus C] [tests...]

Design: boots QEMU on a private image copy, runs `exhaust` (which prints one
`PASS name (detail)` / `FAIL name: why` line per resource), and relays each
line with the hart count appended to the test name. A panic or a missing
`exhaust: done` line (hang) is a failure of its own, printed with the
console tail. QEMU is then killed and fsck must find the image clean. No
randomness: the hart count is all a rerun needs.
"""
import argparse
import os
import sys

import pexpect

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qemu import Guest, relay_results  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cpus", type=int, default=3)
    ap.add_argument("tests", nargs="*")
    a = ap.parse_args()
    tag = "%dharts" % a.cpus
    with Guest(cpus=a.cpus) as g:
        try:
            g.boot()
        except Exception as e:  # noqa: BLE001
            print("FAIL exhaust-boot-%s: %s" % (tag, type(e).__name__))
            return 1
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
        clean, report = g.stop_and_fsck()  # the disk-full and inode tests leave the disk as it must be
    relay_results(out, "exhaust", tag)
    print("PASS exhaust-fsck-%s" % tag if clean else "FAIL exhaust-fsck-%s: %s" % (tag, report[-2000:]))
    if i != 0:
        print("FAIL exhaust-run-%s: %s (rerun: make exhaust CPUS=%d)\n%s" % (
            tag, "kernel panic" if i == 1 else "no 'exhaust: done' (%s)" % err, a.cpus, out[-3000:]))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
