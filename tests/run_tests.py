#!/usr/bin/env python3
"""tests/run_tests.py - run every test and print one closing line.

Runs, in order: each GoogleTest binary given with --gtest (counting every
test case), each check given with --check NAME:COMMAND (exit 0 = pass), and
each in-guest suite given with --guest 'SCRIPT [args]' or in --guest-list (counting its
`PASS name` / `FAIL name` lines). Failures are printed (a failed guest suite's
tail, its whole output kept in BUILD/test-logs/); the last
line is `N passed, N failed`. Exit status is 1 when anything failed.
Every binary, check and suite prints its wall time and the CPU time it
used; the totals are printed before the last line. With --jobs N, N of them run at once (make test uses
2: GoogleTest binaries are single-threaded and the guest suites' QEMU
mostly is, so one of a 2-core machine's cores idled); the in-guest suites
start first, host binaries and checks run one at a time beside them (they
share scratch files in the working directory), and each result prints when
it finishes. Timing-dependent guest tests measure in QEMU's virtual time
(-icount), so running beside another job changes how long they take, not
what they measure.

Narrowing (the fast loops, `make test-host GTEST_FILTER=...`,
`make test-guest SUITE=...`): --gtest-filter passes --gtest_filter to every
GoogleTest binary; --suite NAME keeps only the guest suites whose script is
NAME.py or NAME_tests.py (e.g. `sched` -> tests/guest/sched_tests.py).
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import subprocess
import sys
import threading
import time

GTEST_OK = re.compile(r"^\[\s+OK \] (\S+)", re.M)
GTEST_FAIL = re.compile(r"^\[\s+FAILED\s+\] (\S+) \(", re.M)


def run(cmd, timeout):
    """Run cmd to its end (killed after timeout seconds); returns its exit
    status, its output and the CPU seconds (user + sys) it and every
    descendant it waited for used (wait4's rusage, so QEMU's share of a
    guest suite is counted, and parallel jobs do not mix their figures)."""
    p = subprocess.Popen(cmd, shell=isinstance(cmd, str), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    chunks = []
    reader = threading.Thread(target=lambda: chunks.extend(iter(lambda: p.stdout.read1(65536), b"")), daemon=True)
    reader.start()
    expired = []
    timer = threading.Timer(timeout, lambda: (expired.append(1), p.kill()))
    timer.start()
    _, status, ru = os.wait4(p.pid, 0)
    timer.cancel()
    p.returncode = os.waitstatus_to_exitcode(status)
    # A descendant left running (a QEMU a killed suite never closed) may hold
    # the pipe open: take what came and go on.
    reader.join(30)
    out = b"".join(chunks).decode(errors="replace")
    if expired:
        out += "\n(timed out after %ds)" % timeout
    return p.returncode, out, ru.ru_utime + ru.ru_stime


def took(t0, cpu):
    """An item's time: wall seconds, and the CPU seconds it used (on a busy
    machine the wall time grows, the CPU time hardly)."""
    TOTAL_CPU.append(cpu)
    return "%.1fs, %.1fs CPU" % (time.time() - t0, cpu)


TOTAL_CPU = []


def run_gtest(binary, gtest_args):
    t0 = time.time()
    rc, out, cpu = run([binary] + gtest_args, 1200)
    ok = len(GTEST_OK.findall(out))
    bad = GTEST_FAIL.findall(out)
    text = []
    if rc != 0 and not bad:
        bad = ["%s (exit %d)" % (binary, rc)]
        text.append(out[-4000:])
    elif bad:
        text.append(out[-8000:])
    text.append("%-40s %4d passed, %d failed (%s)" % (binary, ok, len(bad), took(t0, cpu)))
    return ok, len(bad), "\n".join(text)


def run_check(check):
    name, _, cmd = check.partition(":")
    t0 = time.time()
    rc, out, cpu = run(cmd, 1200)
    if rc == 0:
        return 1, 0, "%-40s ok (%s)" % (name, took(t0, cpu))
    return 0, 1, "%s\n%-40s FAILED (exit %d, %s)" % (out[-4000:], name, rc, took(t0, cpu))


def keep_log(suite, out):
    """A failed suite's whole output goes to BUILD/test-logs/ (the evidence
    of an intermittent failure must survive the run); returns its tail and
    where the rest is."""
    logs = os.path.join(os.environ.get("QUANTA_BUILD", "build"), "test-logs")
    os.makedirs(logs, exist_ok=True)
    stem = os.path.basename(shlex.split(suite)[0])[:-len(".py")]
    path = os.path.join(logs, "%s-%d.log" % (stem, int(time.time() * 1000)))
    with open(path, "w") as f:
        f.write(out)
    return "%s\n(the whole output is in %s)" % (out[-6000:], path)


def run_guest(suite):
    t0 = time.time()
    rc, out, cpu = run([sys.executable] + shlex.split(suite), 1800)
    ok = re.findall(r"^PASS (\S+)", out, re.M)
    bad = re.findall(r"^FAIL (.*)$", out, re.M)
    text = []
    if rc != 0 and not bad:
        bad = ["%s exited %d" % (suite, rc)]
        text.append(out[-4000:])
    elif bad:
        text.append(keep_log(suite, out))
    text += ["  FAIL " + b for b in bad]
    text.append("%-40s %4d passed, %d failed (%s)" % (suite, len(ok), len(bad), took(t0, cpu)))
    return len(ok), len(bad), "\n".join(text)


# Host items (GoogleTest binaries, checks) run one at a time, beside the guest
# suites: they share the working directory (the top of the tree), and some
# write scratch files there (schedsim_tests writes schedsim_plot_test.png and
# removes it again; exercises-check builds in build/exercise-check).
HOST_LOCK = threading.Lock()


def run_job(kind, spec, gtest_args):
    if kind == "gtest":
        with HOST_LOCK:
            return run_gtest(spec, gtest_args)
    if kind == "check":
        with HOST_LOCK:
            return run_check(spec)
    return run_guest(spec)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gtest", action="append", default=[])
    ap.add_argument("--check", action="append", default=[])
    ap.add_argument("--guest", action="append", default=[])
    ap.add_argument("--guest-list", default="",
                    help="suites as one string: each word ending in .py starts a suite, the words after it are its args")
    ap.add_argument("--gtest-filter", default="", help="passed as --gtest_filter to every GoogleTest binary")
    ap.add_argument("--jobs", type=int, default=1,
                    help="run this many binaries/checks/suites at once (results print as each finishes)")
    ap.add_argument("--suite", action="append", default=[],
                    help="run only the guest suites whose script is NAME.py or NAME_tests.py (list: name them)")
    args = ap.parse_args()
    started = time.time()
    for word in args.guest_list.split():
        if word.endswith(".py") or not args.guest:
            args.guest.append(word)
        else:
            args.guest[-1] += " " + word
    if args.suite:
        def stem(suite):
            return os.path.basename(shlex.split(suite)[0])[:-len(".py")]
        known = sorted({re.sub(r"_tests$", "", stem(s)) for s in args.guest})
        if args.suite == ["list"]:
            print("suites (make test-guest SUITE=NAME): %s" % " ".join(known))
            return 0
        args.guest = [s for s in args.guest if stem(s) in args.suite or stem(s) in [n + "_tests" for n in args.suite]]
        if not args.guest:
            print("no guest suite named %s; suites: %s (the table: mk/tests.mk's GUEST_SUITES)"
                  % (" or ".join(args.suite), " ".join(known)))
            return 2
    gtest_args = ["--gtest_filter=" + args.gtest_filter] if args.gtest_filter else []
    jobs = [("gtest", b) for b in args.gtest] + [("check", c) for c in args.check] + [("guest", g) for g in args.guest]
    if args.jobs > 1:
        # Longest first, so the short host tests fill in around the guest suites.
        jobs.sort(key=lambda j: j[0] != "guest")
    passed = failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(run_job, kind, spec, gtest_args) for kind, spec in jobs]
        for f in concurrent.futures.as_completed(futures):
            ok, bad, text = f.result()
            passed += ok
            failed += bad
            print(text)
            sys.stdout.flush()

    print("total wall time %.1fs, %.1fs CPU (user + sys of every item)" % (time.time() - started, sum(TOTAL_CPU)))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
