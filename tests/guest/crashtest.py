"""tests/guest/crashtest.py - crash consistency: kill QEMU mid-workload, check.

    crashtest.py [--crashes N] [--seed S] [--cpus C] [--steps K]

Design: each iteration i derives its own seed from the run's seed (so a
failing iteration is replayed alone with --seed S --first i --crashes 1) and:
  1. boots QEMU on a private copy of build/fs.img and runs
     `fsworkload SEED STEPS`, which prints `s N` after each completed
     disk-changing system call;
  2. SIGKILLs QEMU during the workload: once a seeded random step K (1 to
     STEPS-1) is seen done, plus a random 0-50 ms, so the crashes spread
     over the whole workload however fast the file system is (a fixed
     window of 0-3 s after the start caught the workload finished in 36 of
     40 iterations once commits got 20x faster). It reads everything QEMU
     printed before dying; the highest `s N` is the number of steps known
     to have finished;
  3. runs the host fsck on the crashed image, before any replay: it must
     be clean (a committed log is replayed on a copy inside fsck; a log with
     garbage would be an error). Whether the log held a committed
     transaction is reported;
  4. boots again on that image (fs_init replays the log), runs
     `fsworkload -v SEED STEPS N`, which checks that the disk equals the
     workload's model after some step j >= N (every call atomic, none that
     finished lost), then `halt`;
  5. runs fsck on the replayed image: must be clean.
Prints `PASS crash-i-...` / `FAIL crash-i-...: why` per iteration (with seed
and hart count) through tests/guest/qemu.py's Suite: a failure is raised
inside the block of the guest that saw it, which keeps its console
transcript in build/test-logs.
"""
import argparse
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import pexpect

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qemu import BUILD, ROOT, Guest, Suite, failures  # noqa: E402

FSCK = os.path.join(BUILD, "fsck")
KILL_JITTER = 0.05  # seconds after the target step is seen

suite = Suite("crash", show=True)


def fsck(image):
    p = subprocess.run([FSCK, image], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    return p.returncode, p.stdout


class Failed(Exception):
    """An iteration's failure, raised inside its guest's block: that guest
    keeps its console transcript (tests/guest/qemu.py)."""


def iteration(seed, cpus, steps, work, info, at):
    """One crash and its replay (steps 1-5 above); what it saw goes to
    info, the stage under way and its guest to `at`. Raises on a failure."""
    rnd = random.Random(seed)
    wl_seed = rnd.randrange(1, 1 << 30)
    target = rnd.randrange(1, steps) if steps > 1 else 1
    delay = rnd.uniform(0.0, KILL_JITTER)
    crashed = os.path.join(work, "crashed.img")
    # 1-2: run the workload, kill QEMU.
    with Guest(cpus=cpus) as g:
        at.update(stage="first boot", guest=g)
        g.boot()
        at["stage"] = "workload start"
        g.child.sendline("fsworkload %d %d" % (wl_seed, steps))
        g.child.expect(r"s 0\r?\n", timeout=30)
        at["stage"] = "workload"
        out = []
        # Kill once step `target` is seen done, after a little jitter:
        # spread over the whole workload however fast the file system is.
        i = g.child.expect([r"(?:^|\n)s %d\r?\n" % target, r"fsworkload: done[^\n]*\n",
                            r"fsworkload: [^\n]*\n"], timeout=300)
        out.append(g.child.before + g.child.after)
        if i == 2:
            raise Failed("workload error: %s" % g.child.after.strip())
        finished = i == 1
        time.sleep(delay)
        os.kill(g.child.pid, signal.SIGKILL)
        try:
            g.child.expect(pexpect.EOF, timeout=10)
            out.append(g.child.before)
        except pexpect.TIMEOUT:
            pass
        text = "".join(x for x in out if isinstance(x, str))
        done = [int(m) for m in re.findall(r"^s (\d+)\r?$", text, re.M)]
        seen = max(done) if done else 0
        shutil.copyfile(g.image, crashed)
        info.append("killed %.0f ms after step %d, %d steps seen done%s" % (delay * 1000, target, seen,
                                                                              " (finished)" if finished else ""))
        # 3: fsck before replay.
        rc, rep = fsck(crashed)
        logged = "replay" in rep.lower()
        info.append("fsck before replay: %s%s" % ("clean" if rc == 0 else "exit %d" % rc,
                                                   ", committed log" if logged else ""))
        if rc != 0:
            raise Failed(rep)
    # 4: boot (replay), verify, halt.
    with Guest(cpus=cpus, image=crashed) as g:
        at.update(stage="boot after the crash (log replay)", guest=g)
        g.boot()
        at["stage"] = "verifier"
        vout = g.run("fsworkload -v %d %d %d" % (wl_seed, steps, seen), timeout=60)
        info.append(vout.strip().splitlines()[0] if vout.strip() else "verifier printed nothing")
        at["stage"] = "halt"
        g.child.sendline("halt 0")
        try:
            g.child.expect(pexpect.EOF, timeout=20)
        except pexpect.TIMEOUT:
            raise Failed("halt did not power off")
        g.child.close()
        if "verify: ok" not in vout:
            raise Failed(vout)
        # 5: fsck after replay.
        replayed = os.path.join(work, "replayed.img")
        shutil.copyfile(g.image, replayed)
        rc, rep = fsck(replayed)
        info.append("fsck after replay: %s" % ("clean" if rc == 0 else "exit %d" % rc))
        if rc != 0:
            raise Failed(rep)


def crash(idx, seed, cpus, steps, keep):
    """Iteration idx: its PASS verdict, or None, else why it failed."""
    name = "crash-%d-seed%d-%dharts" % (idx, seed, cpus)
    info, at = [], {"stage": "setup", "guest": None}
    work = tempfile.mkdtemp(prefix="quanta-crash-")
    t0 = time.time()
    try:
        iteration(seed, cpus, steps, work, info, at)
        suite.check(True, name, "(%.1fs): %s" % (time.time() - t0, "; ".join(info)))
        return None
    except Failed as e:
        why = "; ".join(info) + "\n" + str(e)
    except Exception as e:  # noqa: BLE001
        before = at["guest"].child.before if at["guest"] else ""
        why = "; ".join(info + ["%s during %s" % (type(e).__name__, at["stage"])]) + \
            "\n  console tail:\n" + (before[-1500:] if isinstance(before, str) else "")
    finally:
        if keep:
            print("  images kept in " + work)
        else:
            shutil.rmtree(work, ignore_errors=True)
    return why


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--crashes", type=int, default=10)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--first", type=int, default=0, help="index of the first iteration (to replay one)")
    ap.add_argument("--cpus", type=int, default=3)
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--keep", action="store_true", help="keep the crashed and replayed images")
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else random.randrange(1, 1 << 30)
    if not os.path.exists(FSCK):
        subprocess.run(["make", "--no-print-directory", "-s", "BUILD=" + BUILD, FSCK], cwd=ROOT, check=False)
    print("crashtest: seed %d, %d crashes, %d harts, %d steps" % (seed, a.crashes, a.cpus, a.steps))
    sys.stdout.flush()
    for idx in range(a.first, a.first + a.crashes):
        it_seed = (seed * 1000003 + idx) % (1 << 31)
        why = crash(idx, it_seed, a.cpus, a.steps, a.keep)
        if why is not None:
            suite.check(False, "crash-%d-seed%d-%dharts" % (idx, it_seed, a.cpus),
                        "%s\n  replay: python3 tests/guest/crashtest.py --seed %d --first %d --crashes 1 "
                        "--cpus %d --steps %d --keep" % (why, seed, idx, a.cpus, a.steps))
    print("crashtest: seed %d, %d harts" % (seed, a.cpus))
    return 1 if failures() else 0


if __name__ == "__main__":
    sys.exit(main())
