#!/usr/bin/env python3
"""bench/guest_bench.py - schbench and frames under CPU hogs, every policy.

Boots the kernel once per policy (rr, dwrr, idwrr, eevdf, and OSTEP's
stride, lottery and mlfq) under QEMU with
-icount (shift=3, sleep=off: 125 M virtual instructions per virtual second,
so every figure comes from virtual time and repeats run to run), with
--cpus harts and a --slice microsecond preemption slice, and in each boot
runs every scenario:

  idle               no hogs
  hogs2              two hogs, everything at nice 0
  hogs2-reniced      benchmark at nice -10, hogs at nice +10
  saturated          harts + 1 hogs, everything at nice 0
  saturated-reniced  as saturated, benchmark -10, hogs +10

In each scenario it starts the hogs in the background (the second one is
`hog -p` writing dots to a file, like the seed's printing hog), runs
`schbench` and then `frames`, and kills the hogs. It prints a table and
writes OUT/results.csv (policy,scenario,benchmark,metric,value), OUT/raw.log
(every command's output) and OUT/results.png (gnuplot).

    python3 bench/guest_bench.py [--cpus 1] [--rq percpu|single] [--slice 4000] [--seconds 3]
                                 [--policies rr,eevdf] [--scenarios idle,hogs2]
"""
import argparse
import csv
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests", "guest"))
from qemu import Guest  # noqa: E402

POLICIES = ["rr", "dwrr", "idwrr", "eevdf", "stride", "lottery", "mlfq"]
SCENARIOS = ["idle", "hogs2", "hogs2-reniced", "saturated", "saturated-reniced"]
ICOUNT = 3
SCHBENCH_RE = re.compile(r"schbench: rps=([\d.]+) p50=([\d.]+) p90=([\d.]+) p99=([\d.]+) p999=([\d.]+) "
                         r"max=([\d.]+) samples=(\d+)")
FRAMES_RE = re.compile(r"frames: fps=([\d.]+) frames=(\d+)")
METRICS = [("schbench", "rps"), ("schbench", "wakeup_p50_us"), ("schbench", "wakeup_p99_us"),
           ("schbench", "wakeup_p999_us"), ("frames", "fps")]


def hogs_for(scenario, cpus):
    if scenario == "idle":
        return 0
    if scenario.startswith("hogs2"):
        return 2
    return cpus + 1


class Runner:
    def __init__(self, guest, log):
        self.g = guest
        self.log = log

    def run(self, line, timeout=300):
        out = self.g.run(line, timeout=timeout)
        self.log.write("$ %s\n%s" % (line, out))
        self.log.flush()
        return out

    def hog_pids(self):
        out = self.run("ps")
        return [int(m.group(1)) for m in re.finditer(r"^ *(\d+) +\d+ \S+ .* hog$", out, re.M)]

    def kill_hogs(self):
        for _ in range(20):
            pids = self.hog_pids()
            if not pids:
                return
            self.run("kill " + " ".join(map(str, pids)))
        raise RuntimeError("hogs survive kill")


def run_scenario(r, scenario, cpus, args):
    nhogs = hogs_for(scenario, cpus)
    reniced = scenario.endswith("-reniced")
    hog_nice = "nice -n 10 " if reniced else ""
    bench_nice = "nice -n -10 " if reniced else ""
    for i in range(nhogs):
        # The second hog prints in its loop like the seed's (to a file, so the
        # console stays parseable).
        r.run(hog_nice + ("hog -p > /hog%d.out &" % i if i == 1 else "hog &"))
    if nhogs and len(r.hog_pids()) != nhogs:
        raise RuntimeError("%s: expected %d hogs running" % (scenario, nhogs))
    workers = args.workers or cpus
    out = r.run("%sschbench -t %d -r %d -w %d -n %d" % (bench_nice, workers, args.seconds, args.warmup, args.work))
    m = SCHBENCH_RE.search(out)
    if not m:
        raise RuntimeError("%s: schbench printed %r" % (scenario, out))
    res = {("schbench", "rps"): float(m.group(1)), ("schbench", "wakeup_p50_us"): float(m.group(2)),
           ("schbench", "wakeup_p99_us"): float(m.group(4)), ("schbench", "wakeup_p999_us"): float(m.group(5))}
    out = r.run("%sframes -t %d" % (bench_nice, args.seconds))
    m = FRAMES_RE.search(out)
    if not m:
        raise RuntimeError("%s: frames printed %r" % (scenario, out))
    res[("frames", "fps")] = float(m.group(1))
    r.kill_hogs()
    return res


def fmt(v):
    return "%.1f" % v if v < 10000 else "%.0f" % v


def print_table(results, policies, scenarios):
    cols = ["rps", "p50_us", "p99_us", "p99.9_us", "fps"]
    print("%-8s %-18s %10s %10s %10s %10s %8s" % tuple(["policy", "scenario"] + cols))
    for p in policies:
        for s in scenarios:
            res = results.get((p, s))
            if not res:
                print("%-8s %-18s %s" % (p, s, "(failed)"))
                continue
            print("%-8s %-18s %10s %10s %10s %10s %8s" % (p, s, *[fmt(res[k]) for k in METRICS]))
    sys.stdout.flush()


def targets(results, policies):
    """hogs2-reniced: best priority policy vs rr."""
    rr = results.get(("rr", "hogs2-reniced"))
    if not rr:
        return []
    lines = []
    for key, better, want, label in [(("schbench", "rps"), max, 2.0, "rps >= 2x rr"),
                                     (("schbench", "wakeup_p99_us"), min, 0.2, "p99 wakeup <= 1/5 rr"),
                                     (("frames", "fps"), max, 1.3, "fps >= 1.3x rr")]:
        cands = [(results[(p, "hogs2-reniced")][key], p) for p in policies
                 if p != "rr" and (p, "hogs2-reniced") in results]
        if not cands:
            continue
        v, p = better(cands)
        ratio = v / rr[key] if rr[key] else float("inf")
        ok = ratio >= want if better is max else ratio <= want
        lines.append("target %-22s %s: best %s %s vs rr %s = %.2fx" % (label, "MET" if ok else "MISSED", p,
                                                                      fmt(v), fmt(rr[key]), ratio))
    return lines


def plot(out_dir, results, policies, scenarios):
    panels = [(("schbench", "rps"), "schbench requests/s", False),
              (("schbench", "wakeup_p99_us"), "schbench p99 wakeup latency (us, log)", True),
              (("frames", "fps"), "frames per second", False)]
    gp = ["set terminal pngcairo size 1500,520 font ',9'" if has_cairo() else "set terminal png size 1500,520",
          "set output '%s'" % os.path.join(out_dir, "results.png"),
          "set multiplot layout 1,3",
          "set style data histograms", "set style histogram clustered gap 1",
          "set style fill solid 0.85 border -1", "set boxwidth 0.9",
          "set xtics rotate by -30 scale 0", "set key outside bottom center horizontal", "set grid ytics"]
    for i, (key, title, log) in enumerate(panels):
        data = os.path.join(out_dir, "plot_%d.dat" % i)
        with open(data, "w") as f:
            f.write("scenario " + " ".join(policies) + "\n")
            for s in scenarios:
                row = [results.get((p, s), {}).get(key, 0) or 0 for p in policies]
                f.write(s + " " + " ".join("%g" % max(v, 0.1 if log else 0) for v in row) + "\n")
        gp.append("set title '%s'" % title)
        gp.append("set logscale y" if log else "unset logscale y")
        gp.append("set yrange [%s:*]" % ("10" if log else "0"))
        gp.append("plot " + ", ".join("'%s' using %d:xtic(1) title columnhead(%d)" % (data, j + 2, j + 2)
                                      for j in range(len(policies))))
    gp.append("unset multiplot")
    script = os.path.join(out_dir, "plot.gp")
    with open(script, "w") as f:
        f.write("\n".join(gp) + "\n")
    try:
        subprocess.run(["gnuplot", script], check=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=60)
        return os.path.join(out_dir, "results.png")
    except (OSError, subprocess.SubprocessError) as e:
        print("plot: gnuplot failed (%s); script left in %s" % (e, script))
        return None


def has_cairo():
    try:
        p = subprocess.run(["gnuplot", "-e", "set terminal"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=20)
        return "pngcairo" in p.stdout
    except (OSError, subprocess.SubprocessError):
        return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cpus", type=int, default=1)
    ap.add_argument("--slice", type=int, default=4000, help="preemption slice, microseconds")
    ap.add_argument("--rq", choices=["percpu", "single"], default="percpu", help="run-queue mode (boot rq=)")
    ap.add_argument("--seconds", type=int, default=3, help="virtual seconds per benchmark run")
    ap.add_argument("--warmup", type=int, default=1, help="schbench warm-up seconds")
    ap.add_argument("--work", type=int, default=1, help="schbench work units per request")
    ap.add_argument("--workers", type=int, default=0, help="schbench workers (default: harts)")
    ap.add_argument("--policies", default=",".join(POLICIES))
    ap.add_argument("--scenarios", default=",".join(SCENARIOS))
    ap.add_argument("--bootargs", default="", help="more boot arguments, e.g. turn_us=50")
    ap.add_argument("--out", default="build/bench")
    args = ap.parse_args()
    policies = args.policies.split(",")
    scenarios = args.scenarios.split(",")
    os.makedirs(args.out, exist_ok=True)
    t_start = time.time()
    results = {}
    print("guest bench: %d hart(s), rq=%s, slice %d us, icount shift=%d, %d s per run, schbench -t %d -n %d -w %d"
          % (args.cpus, args.rq, args.slice, ICOUNT, args.seconds, args.workers or args.cpus, args.work,
             args.warmup))
    with open(os.path.join(args.out, "raw.log"), "w") as log:
        for policy in policies:
            t0 = time.time()
            log.write("### policy %s, %d harts, rq=%s, slice %d us\n" % (policy, args.cpus, args.rq, args.slice))
            try:
                with Guest(cpus=args.cpus, sched=policy, icount=ICOUNT, bootargs="slice=%d rq=%s%s" % (args.slice, args.rq, args.bootargs and " " + args.bootargs),
                           timeout=120) as g:
                    g.boot(timeout=120)
                    r = Runner(g, log)
                    for s in scenarios:
                        try:
                            results[(policy, s)] = run_scenario(r, s, args.cpus, args)
                        except Exception as e:  # noqa: BLE001
                            print("%s %s: FAILED: %s" % (policy, s, e))
                            log.write("FAILED %s\n" % e)
                            r.kill_hogs()
            except Exception as e:  # noqa: BLE001
                print("%s: boot or shell failed: %s" % (policy, e))
            print("  %s done in %.0f s" % (policy, time.time() - t0))
            sys.stdout.flush()
    with open(os.path.join(args.out, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["policy", "scenario", "benchmark", "metric", "value"])
        for p in policies:
            for s in scenarios:
                for key in METRICS:
                    if (p, s) in results:
                        w.writerow([p, s, key[0], key[1], "%g" % results[(p, s)][key]])
    print()
    print_table(results, policies, scenarios)
    print()
    for line in targets(results, policies):
        print(line)
    png = plot(args.out, results, policies, scenarios)
    print("wrote %s%s (%.0f s)" % (os.path.join(args.out, "results.csv"), ", " + png if png else "",
                                   time.time() - t_start))
    missing = len(policies) * len(scenarios) - len(results)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
