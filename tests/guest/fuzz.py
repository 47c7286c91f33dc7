"""tests/guest/fuzz.py - run the in-guest system-call fuzzer and judge it.

    fuzz.py [--seconds N] [--cpus C] [--seed S] [--workers W]

Design: boots the kernel (Guest from qemu.py, private image copy), types
`fuzz SEED SECONDS WORKERS` at the shell and then watches the console. The
guest program prints a progress line every second of guest time and a
`fuzz: done ...` line at the end. The runner counts
  - a panic: the console printed "panic:" (the next seconds of output,
    the backtrace, are collected and printed);
  - a hang: no progress line for HANG_SECONDS (the console tail is printed,
    after Ctrl-P: the kernel's process list, which shows what everyone is
    blocked on; it once panicked, kprintf had no field widths), or the
    shell not answering `echo alive` after the run;
  - "fuzz: BUG" lines from the supervisor (a process surviving kill) count
    as hangs too.
Before the run root starts a victim (`hostile orphanroot`: a cwd and a
file in /tmp/rootv, an open unlinked file). After the run QEMU is killed
and the host fsck must find the image clean (inodes unlinked while in use,
which the fuzzer's held-orphans shape leaves, are listed in the orphan
table: notes); then the image is booted again, which must free every
listed inode, keep root's file and check clean.
The image is build/fs.img's files plus tools/mkbadelf.py's malformed ELFs,
which the fuzzer's exec shape runs. It prints `fuzz: N calls, N panics, N hangs`, the seed and hart count and
the replay command, then `PASS fuzz-...` or `FAIL fuzz-...: why` for
tests/run_tests.py. A seed fixes every worker's call sequence; with several
harts the interleaving still varies from run to run.
"""
import argparse
import os
import random
import re
import sys
import tempfile
import time

import pexpect

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hostile import build_image  # noqa: E402
from qemu import Guest, Suite, failures  # noqa: E402

HANG_SECONDS = 30

suite = Suite("fuzz", show=True)


class Reboot(Exception):
    """The reboot of the crashed image went wrong: raised inside its
    guest's block, so that guest keeps its console transcript."""


def orphans_listed(report):
    """How many orphans fsck's report lists: it names at most 20 of a kind
    (tools/fscheck.h:kMaxPerKind) and then says '... and N more [kind]'."""
    named = len(re.findall(r"^fsck: \w+: .*\[orphan-listed\]\r?$", report, re.M))
    more = sum(int(n) for n in re.findall(r"^fsck: \.\.\. and (\d+) more \[orphan-listed\]\r?$", report, re.M))
    return named + more


def reboot_frees_orphans(image, listed, problems):
    """Boot the crashed image: the orphans fsck saw listed must be freed,
    root's victim file kept, and the image then check clean with nothing
    listed. Returns False (with a problem) otherwise."""
    try:
        with Guest(cpus=2, timeout=HANG_SECONDS, image=image) as g:
            try:
                g.boot()
                kept = g.run("cat /tmp/rootv/keep", timeout=HANG_SECONDS)
            except Exception as e:  # noqa: BLE001
                raise Reboot("the crashed image did not boot to a shell (%s)" % type(e).__name__)
            said = "".join(g.log)
            m = re.search(r"fs: freed (\d+) orphaned inodes", said)
            freed = int(m.group(1)) if m else 0
            clean, report = g.stop_and_fsck()
            print("fuzz: %d orphans listed at the crash, %d freed by the next boot" % (listed, freed))
            if freed != listed or "root's file" not in kept or not clean or "[orphan-listed]" in report:
                raise Reboot("after the reboot: %d of %d orphans freed, /tmp/rootv/keep %r, fsck:\n%s" % (
                    freed, listed, kept, report[-2000:]))
    except Reboot as e:
        problems.append(str(e))
        return False
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--cpus", type=int, default=4)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--workers", type=int, default=4)
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else random.randrange(1, 1 << 30)
    tag = "%ds-%dharts-seed%d" % (a.seconds, a.cpus, seed)
    replay = "make fuzz FUZZ_SECONDS=%d FUZZ_CPUS=%d FUZZ_SEED=%d" % (a.seconds, a.cpus, seed)
    print("fuzz: seed %d, %d harts, %d seconds, %d workers (replay: %s)" % (seed, a.cpus, a.seconds, a.workers, replay))
    sys.stdout.flush()

    with tempfile.TemporaryDirectory(prefix="quanta-fuzz-") as work:
        image = build_image(work)  # the build's files plus the malformed ELFs of tools/mkbadelf.py
        # One verdict, fuzz-TAG: a boot that fails (or a root victim that
        # does not start) is that verdict's FAIL, with the console's tail.
        with suite.boot(a.cpus, tag=tag, alive=False, fsck=False, timeout=HANG_SECONDS, image=image) as g:
            g.child.sendline("hostile orphanroot &")
            g.child.expect(r"orphanroot: ready", timeout=60)
            fuzz_run(g, a, seed, tag, replay)


def fuzz_run(g, a, seed, tag, replay):
    """The run, the shell's answer, fsck and the reboot: one verdict,
    given while g is open (a failure keeps its console transcript)."""
    calls = panics = hangs = 0
    problems = []
    console = []
    g.child.sendline("fuzz %d %d %d" % (seed, a.seconds, a.workers))
    t0 = time.time()
    done = False
    pats = [r"fuzz: progress t=(\d+)s calls=(\d+)[^\n]*\n",
            r"fuzz: done calls=(\d+)[^\n]*\n",
            r"panic:",
            r"fuzz: BUG[^\n]*\n",
            pexpect.TIMEOUT, pexpect.EOF]
    last_line = ""
    while not done:
        i = g.child.expect(pats, timeout=HANG_SECONDS)
        console.append(g.child.before + (g.child.after if isinstance(g.child.after, str) else ""))
        if i == 0:
            calls = int(g.child.match.group(2))
            last_line = g.child.after.strip()
            if os.environ.get("FUZZ_VERBOSE"):
                print(last_line)
        elif i == 1:
            calls = int(g.child.match.group(1))
            last_line = g.child.after.strip()
            print(last_line)
            done = True
        elif i == 2:
            panics += 1
            try:
                g.child.expect(pexpect.TIMEOUT, timeout=3)
            except pexpect.EOF:
                pass
            tail = g.child.before or ""
            problems.append("kernel panic:\n" + "".join(console)[-3000:] + "panic:" + tail[:3000])
            break
        elif i == 3:
            hangs += 1
            problems.append(g.child.after.strip())
        elif i == 4:
            hangs += 1
            g.child.send("\x10")  # Ctrl-P: process list
            try:
                g.child.expect(pexpect.TIMEOUT, timeout=3)
            except pexpect.EOF:
                pass
            problems.append("hang: no progress for %ds after %r; then printed:\n%s\nconsole tail:\n%s" % (
                HANG_SECONDS, last_line, g.child.before, "".join(console)[-2000:]))
            break
        else:
            problems.append("QEMU exited; console tail:\n" + "".join(console)[-3000:])
            panics += 1
            break
    wall = time.time() - t0
    if done:
        # The shell must answer afterwards.
        try:
            g.wait_prompt(timeout=HANG_SECONDS)
            out = g.run("echo alive", timeout=HANG_SECONDS)
            if "alive" not in out:
                hangs += 1
                problems.append("shell answered %r after the run" % out)
        except Exception as e:  # noqa: BLE001
            hangs += 1
            problems.append("shell did not answer after the run (%s)" % type(e).__name__)
    clean, report = g.stop_and_fsck()
    if not clean:
        problems.append("fsck found the image damaged after the run:\n" + report[-3000:])
    elif not reboot_frees_orphans(g.image, orphans_listed(report), problems):
        clean = False
    print("fuzz: %d calls, %d panics, %d hangs" % (calls, panics, hangs))
    print("fuzz: seed %d, %d harts, %.1f s wall, %.0f calls/s" % (seed, a.cpus, wall, calls / max(wall, 0.001)))
    for p in problems:
        print(p)
    ok = not (panics or hangs or not done or not clean)
    suite.check(ok, "fuzz-" + tag, "(%d calls)" % calls if ok else "%d panics, %d hangs, fsck %s (replay: %s)" % (
        panics, hangs, "clean" if clean else "DAMAGED", replay))


if __name__ == "__main__":
    main()
    sys.exit(1 if failures() else 0)  # make fuzz / make exhaust fail too
