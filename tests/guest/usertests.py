"""tests/guest/usertests.py - run the in-guest test program (user/usertests.c).

    usertests.py [--full] HARTS...

Boots the kernel once per hart count and runs `usertests -q` (quick mode;
--full runs every test, including the slow ones). usertests prints
`PASS name` / `FAIL name: why` per test; this script prefixes each name
with the hart count so failures say how to reproduce them.
"""
import re
import sys

from qemu import Guest


def main():
    args = sys.argv[1:]
    full = "--full" in args
    harts = [int(a) for a in args if a != "--full"] or [1, 3]
    for n in harts:
        try:
            with Guest(cpus=n) as g:
                g.boot()
                out = g.run("usertests" if full else "usertests -q", timeout=900 if full else 300)
        except Exception as e:  # noqa: BLE001
            print("FAIL usertests-%dharts: no prompt after usertests (%s)" % (n, type(e).__name__))
            continue
        seen = 0
        for m in re.finditer(r"^(PASS|FAIL) (.*)$", out, re.M):
            seen += 1
            print("%s %dharts-%s" % (m.group(1), n, m.group(2).strip()))
        summary = re.search(r"usertests: (\d+) passed, (\d+) failed", out)
        if not seen or not summary:
            print("FAIL usertests-%dharts: no summary line; output ends %r" % (n, out[-500:]))


if __name__ == "__main__":
    main()
