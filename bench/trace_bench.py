#!/usr/bin/env python3
"""bench/trace_bench.py - what tracing costs, and how well a trace replays.

Boots 3 harts under -icount (shift=3, sleep=off: virtual time) with a 1 ms
slice, --boots times. In each boot it runs the same scenario twice, with
tracing off and on (the order alternates between boots, so a drift within
a boot favours neither side): two hogs in the background and `schbench -r
SECONDS -w 0`. It reports schbench's rps and p99 wake-up latency for both
and the traced run's records per second and drops. The first boot also
traces `storm 12 300` (a sleep/wake-up storm across the harts: the highest
record rate of the workloads here).

Replay fidelity: the first boot's traced schbench run is extracted with
build/qtrace and replayed by build/schedsim under the kernel's policy
(eevdf; schedsim has one shared queue for its cores, the kernel one per
hart); per process, the share of all CPU time it had in the kernel is
compared with its share in the simulation (executed ticks), and the total
dispatch counts are compared.

    python3 bench/trace_bench.py [--boots 3] [--seconds 3] [--out build/trace-bench]
Writes OUT/results.csv and prints a table.
"""
import argparse
import csv
import os
import re
import shutil
import statistics
import subprocess
import sys

import pexpect

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "guest"))
from qemu import BUILD, Guest  # noqa: E402

QTRACE = os.path.join(BUILD, "qtrace")
SCHEDSIM = os.path.join(BUILD, "schedsim")


def schbench(g, seconds):
    out = g.run("hog %d & hog %d & schbench -r %d -w 0" % (seconds, seconds, seconds), timeout=900)
    m = re.search(r"schbench: rps=([\d.]+) .*p99=([\d.]+)", out)
    if not m:
        raise RuntimeError("schbench printed %r" % out[-300:])
    return float(m.group(1)), float(m.group(2))


def stop(g):
    st = g.run("trace stop")
    m = re.search(r"trace: (\d+) records, (\d+) dropped", st)
    return int(m.group(1)), int(m.group(2))


def summary(image, path):
    p = subprocess.run([QTRACE, "-p", path, image], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    m = re.search(r"traced ([\d.]+) ms: (\d+) records, (\d+) dropped", p.stdout)
    if not m:
        raise RuntimeError(p.stdout)
    return float(m.group(1)) / 1000.0, int(m.group(2)), int(m.group(3)), p.stdout


def fidelity(image, path, out):
    """Per-process CPU shares, kernel (trace) vs schedsim replay under eevdf."""
    replay = os.path.join(out, "replay.txt")
    p = subprocess.run([QTRACE, "-p", path, "--replay", replay, "--summary", "-", image],
                       stdout=subprocess.PIPE, text=True, check=True)
    kernel = {}
    for m in re.finditer(r"^\s+(\S+):(\d+)\s+\|\s+([\d.]+) \|\s+(\d+) \|.*\| ([\d.]+)$", p.stdout, re.M):
        kernel[int(m.group(2))] = (m.group(1), float(m.group(3)), int(m.group(4)), float(m.group(5)))
    head = open(replay).read()
    cmd = re.search(r"# run: schedsim (.*) --policy all", head).group(1).replace("FILE", replay).split()
    tasks_csv = os.path.join(out, "tasks.csv")
    s = subprocess.run([SCHEDSIM] + cmd + ["--policy", "eevdf", "--format", "csv", "--tasks-out", tasks_csv,
                                           "--no-progress"], stdout=subprocess.PIPE, text=True, check=True)
    pids = [int(m.group(1)) for m in re.finditer(r"# pid (\d+) ", head)]  # in arrival order = task ids
    sim = {}
    with open(tasks_csv) as f:
        for row in csv.DictReader(f):
            sim[pids[int(row["id"])]] = (int(row["executed"]), int(row["waited"]))
    tick_ms = 0.1
    ktot = sum(kernel[p][1] for p in sim)
    stot = sum(s[0] for s in sim.values())
    rows = []
    for pid in sorted(sim, key=lambda p: -kernel[p][1]):
        rows.append((pid, kernel[pid][0], 100 * kernel[pid][1] / ktot, 100 * sim[pid][0] / stot, kernel[pid][3],
                     sim[pid][1] * tick_ms))
    lines = s.stdout.splitlines()
    row = dict(zip(lines[0].split(","), lines[1].split(",")))
    return rows, sum(k[2] for k in kernel.values()), row.get("ctx_switches", "?"), s.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--boots", type=int, default=3)
    ap.add_argument("--seconds", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(BUILD, "trace-bench"))
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    res = {"off": [], "on": []}
    rates, storm = [], None
    first_image = None
    for boot in range(a.boots):
        with Guest(cpus=3, icount=3, bootargs="slice=1000", timeout=900) as g:
            g.boot()
            for mode in (["off", "on"] if boot % 2 == 0 else ["on", "off"]):
                if mode == "on":
                    g.run("trace start -b 4096")
                res[mode].append(schbench(g, a.seconds))
                if mode == "on":
                    stop(g)
                    g.run("trace dump /bench.dat", timeout=900)
            if boot == 0:
                g.run("trace start -b 4096")
                g.run("storm 12 300", timeout=900)
                stop(g)
                g.run("trace dump /storm.dat", timeout=900)
            g.child.sendline("halt 0")
            g.child.expect(pexpect.EOF, timeout=60)
            clean, rep = g.stop_and_fsck()
            if not clean:
                raise RuntimeError("fsck: " + rep)
            image = os.path.join(a.out, "boot%d.img" % boot)
            shutil.copyfile(g.image, image)
        span, recs, dropped, _ = summary(image, "/bench.dat")
        rates.append((recs / span, dropped))
        if boot == 0:
            first_image = image
            sspan, srecs, sdropped, _ = summary(image, "/storm.dat")
            storm = (srecs / sspan, sdropped, srecs, sspan)
        print("boot %d: off rps %.1f p99 %.1f us | on rps %.1f p99 %.1f us | %.0f records/s, %d dropped" %
              (boot, res["off"][-1][0], res["off"][-1][1], res["on"][-1][0], res["on"][-1][1], rates[-1][0],
               rates[-1][1]))
        sys.stdout.flush()
    with open(os.path.join(a.out, "results.csv"), "w") as f:
        w = csv.writer(f)
        w.writerow(["mode", "boot", "rps", "p99_us"])
        for mode in ("off", "on"):
            for i, (rps, p99) in enumerate(res[mode]):
                w.writerow([mode, i, rps, p99])
    for mode in ("off", "on"):
        rps = [r for r, _ in res[mode]]
        p99 = [p for _, p in res[mode]]
        print("tracing %-3s: rps mean %.1f (%.1f..%.1f), p99 mean %.1f us (%.1f..%.1f)" %
              (mode, statistics.mean(rps), min(rps), max(rps), statistics.mean(p99), min(p99), max(p99)))
    print("records/s in the traced schbench runs: %s; dropped %s" %
          (", ".join("%.0f" % r for r, _ in rates), ", ".join(str(d) for _, d in rates)))
    print("storm: %.0f records/s (%d records in %.2f s), %d dropped" % (storm[0], storm[2], storm[3], storm[1]))
    rows, kswitch, sswitch, _ = fidelity(first_image, "/bench.dat", a.out)
    print("replay fidelity (boot 0, eevdf): pid name | CPU share %% kernel sim | wait ms kernel sim")
    err = 0.0
    for pid, name, k, s, kw, sw in rows:
        print("  %4d %-10s | %6.2f %6.2f | %8.1f %8.1f" % (pid, name, k, s, kw, sw))
        err += abs(k - s)
    print("  sum of |share difference|: %.2f percentage points; dispatches: kernel %d, schedsim context switches %s"
          % (err, kswitch, sswitch))
    return 0


if __name__ == "__main__":
    sys.exit(main())
