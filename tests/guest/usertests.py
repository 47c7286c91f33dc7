"""tests/guest/usertests.py - run the in-guest test program (user/usertests.c).

    usertests.py [--full] HARTS...
    usertests.py --xv6 PROGRAM [--full] HARTS...

Boots the kernel once per hart count and runs `usertests -q` (quick mode;
--full runs every test, including the slow ones). usertests prints
`PASS name` / `FAIL name: why` per test; this script prefixes each name
with the hart count so failures say how to reproduce them. usertests'
last check (sbrk_pages) is xv6's free-page check: a process growing with
sbrk until it fails must get as many pages after the tests as before.
QEMU is killed afterwards and fsck must find the image clean, with no
inode left in the orphan table (every test has ended: nothing may still
hold an unlinked inode).

--xv6 PROGRAM runs xv6-riscv's own usertests instead, built in an xv6-riscv
tree against this one's compatibility headers (docs/userland.md; not part
of this tree): it is put on a private copy of the image as /xv6usertests,
run with -q (or without, with --full) from /, and must print
ALL TESTS PASSED (its last step is the same free-page count).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

from qemu import BUILD, ROOT, Suite

suite = Suite("usertests", harts=(1, 3))


def xv6_image(program, workdir):
    """build/fs.img's files plus PROGRAM as /xv6usertests; returns the image."""
    files = open(os.path.join(BUILD, "fs.list")).read().split()
    files = [f if os.path.isabs(f) else os.path.join(ROOT, f) for f in files]
    prog = os.path.join(workdir, "_xv6usertests")
    shutil.copyfile(program, prog)
    image = os.path.join(workdir, "xv6.img")
    subprocess.run([os.path.join(BUILD, "mkfs"), image] + files + [prog], check=True, stdout=subprocess.DEVNULL)
    return image


def run_xv6(program, full, harts):
    work = tempfile.mkdtemp(prefix="quanta-xv6-")
    try:
        image = xv6_image(program, work)
        for n in harts:
            # verdicts xv6-usertests-Nharts, then usertests-fsck-xv6-Nharts
            with suite.boot(n, tag="xv6-%dharts" % n, alive=False, image=image) as g:
                out = g.run("xv6usertests" if full else "xv6usertests -q", timeout=1800 if full else 600)
                failed = [l.strip() for l in out.splitlines() if "FAILED" in l or "lost some free pages" in l]
                suite.check("ALL TESTS PASSED" in out, "xv6-usertests-%dharts" % n,
                            "; ".join(failed[-5:]) or out[-300:])
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    args = sys.argv[1:]
    full = "--full" in args
    xv6 = None
    if "--xv6" in args:
        i = args.index("--xv6")
        xv6 = args[i + 1]
        del args[i:i + 2]
    harts = [int(a) for a in args if a != "--full"] or [1, 3]
    if xv6:
        run_xv6(xv6, full, harts)
        return
    for n in harts:
        # Every test has ended: an inode still listed as unlinked-but-in-use
        # would be a reference the kernel never dropped (verdict usertests-fsck-Nharts).
        with suite.boot(n, alive=False, fsck_ok=lambda said: "[orphan-listed]" not in said) as g:
            out = g.run("usertests" if full else "usertests -q", timeout=900 if full else 300)
            seen = 0
            for m in re.finditer(r"^(PASS|FAIL) (\S+?)(?::? (.*?))?\s*$", out, re.M):
                seen += 1
                suite.check(m.group(1) == "PASS", "%dharts-%s" % (n, m.group(2)), m.group(3) or "", show=True)
            summary = re.search(r"usertests: (\d+) passed, (\d+) failed", out)
            if not seen or not summary:
                suite.check(False, "usertests-%dharts" % n, "no summary line; output ends %r" % out[-500:])


if __name__ == "__main__":
    main()
