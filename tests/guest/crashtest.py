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
and hart count) and ends with `N passed, N failed`.
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
from qemu import BUILD, ROOT, Guest  # noqa: E402

FSCK = os.path.join(BUILD, "fsck")
KILL_JITTER = 0.05  # seconds after the target step is seen


def fsck(image):
    p = subprocess.run([FSCK, image], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    return p.returncode, p.stdout


def iteration(idx, seed, cpus, steps, keep):
    rnd = random.Random(seed)
    name = "crash-%d-seed%d-%dharts" % (idx, seed, cpus)
    wl_seed = rnd.randrange(1, 1 << 30)
    target = rnd.randrange(1, steps) if steps > 1 else 1
    delay = rnd.uniform(0.0, KILL_JITTER)
    info = []
    stage = "setup"
    g = None
    work = tempfile.mkdtemp(prefix="quanta-crash-")
    crashed = os.path.join(work, "crashed.img")
    try:
        # 1-2: run the workload, kill QEMU.
        g = Guest(cpus=cpus)
        try:
            stage = "first boot"
            g.boot()
            stage = "workload start"
            g.child.sendline("fsworkload %d %d" % (wl_seed, steps))
            g.child.expect(r"s 0\r?\n", timeout=30)
            stage = "workload"
            out = []
            finished = False
            # Kill once step `target` is seen done, after a little jitter:
            # spread over the whole workload however fast the file system is.
            i = g.child.expect([r"(?:^|\n)s %d\r?\n" % target, r"fsworkload: done[^\n]*\n",
                                r"fsworkload: [^\n]*\n"], timeout=300)
            out.append(g.child.before + g.child.after)
            if i == 2:
                return False, name, "workload error: %s" % g.child.after.strip()
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
        finally:
            g.close()
        info.append("killed %.0f ms after step %d, %d steps seen done%s" % (delay * 1000, target, seen,
                                                                              " (finished)" if finished else ""))

        # 3: fsck before replay.
        rc, rep = fsck(crashed)
        logged = "replay" in rep.lower()
        info.append("fsck before replay: %s%s" % ("clean" if rc == 0 else "exit %d" % rc,
                                                   ", committed log" if logged else ""))
        if rc != 0:
            return False, name, "; ".join(info) + "\n" + rep
        # 4: boot (replay), verify, halt.
        g = Guest(cpus=cpus, image=crashed)
        try:
            stage = "boot after the crash (log replay)"
            g.boot()
            stage = "verifier"
            vout = g.run("fsworkload -v %d %d %d" % (wl_seed, steps, seen), timeout=60)
            info.append(vout.strip().splitlines()[0] if vout.strip() else "verifier printed nothing")
            stage = "halt"
            g.child.sendline("halt 0")
            try:
                g.child.expect(pexpect.EOF, timeout=20)
            except pexpect.TIMEOUT:
                return False, name, "; ".join(info) + "; halt did not power off"
            g.child.close()
            replayed = os.path.join(work, "replayed.img")
            shutil.copyfile(g.image, replayed)
        finally:
            g.close()
        if "verify: ok" not in vout:
            return False, name, "; ".join(info) + "\n" + vout
        # 5: fsck after replay.
        rc, rep = fsck(replayed)
        info.append("fsck after replay: %s" % ("clean" if rc == 0 else "exit %d" % rc))
        if rc != 0:
            return False, name, "; ".join(info) + "\n" + rep
        return True, name, "; ".join(info)
    except Exception as e:  # noqa: BLE001
        tail = ""
        try:
            tail = (g.child.before or "")[-1500:] if isinstance(g.child.before, str) else ""
        except Exception:  # noqa: BLE001
            pass
        return False, name, "; ".join(info + ["%s during %s" % (type(e).__name__, stage)]) + \
            "\n  console tail:\n" + tail
    finally:
        if keep:
            print("  images kept in " + work)
        else:
            shutil.rmtree(work, ignore_errors=True)


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
    passed = failed = 0
    for idx in range(a.first, a.first + a.crashes):
        it_seed = (seed * 1000003 + idx) % (1 << 31)
        t0 = time.time()
        ok, name, detail = iteration(idx, it_seed, a.cpus, a.steps, a.keep)
        if ok:
            passed += 1
            print("PASS %s (%.1fs): %s" % (name, time.time() - t0, detail))
        else:
            failed += 1
            print("FAIL %s: %s\n  replay: python3 tests/guest/crashtest.py --seed %d --first %d --crashes 1 "
                  "--cpus %d --steps %d --keep" % (name, detail, seed, idx, a.cpus, a.steps))
        sys.stdout.flush()
    print("crashtest: seed %d, %d harts" % (seed, a.cpus))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
