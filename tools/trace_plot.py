#!/usr/bin/env python3
"""tools/trace_plot.py - a Gantt chart of a scheduler trace, drawn by gnuplot.

Reads the Chrome trace-event JSON that build/qtrace writes (one "X" event
per run of a process on a hart) and draws one row per hart, one box per
run, coloured by process, with the wake-ups of one chosen process as
marks above its hart (the dispatch that ended each wait at the arrow's
head). Used for docs/img/trace-timeline.png (docs/tracing.md).

Usage: trace_plot.py TRACE.json OUT.png [--from MS] [--to MS] [--pid PID]
Standard library and gnuplot only.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("json")
    ap.add_argument("png")
    ap.add_argument("--from", dest="t0", type=float, default=0.0, help="window start, ms")
    ap.add_argument("--to", dest="t1", type=float, default=None, help="window end, ms")
    ap.add_argument("--pid", type=int, default=None, help="mark this process's wake-ups")
    a = ap.parse_args()
    ev = json.load(open(a.json))["traceEvents"]
    runs = [e for e in ev if e.get("ph") == "X"]
    t1 = a.t1 if a.t1 is not None else max(e["ts"] + e["dur"] for e in runs) / 1000.0
    harts = sorted({e["tid"] for e in runs})
    pids = sorted({e["args"]["pid"] for e in runs})
    names = {e["args"]["pid"]: e["name"] for e in runs}
    colour = {p: i % 8 + 1 for i, p in enumerate(pids)}
    with tempfile.TemporaryDirectory() as d:
        data = os.path.join(d, "runs.dat")
        shown = set()
        with open(data, "w") as f:
            for e in runs:
                s, t = e["ts"] / 1000.0, (e["ts"] + e["dur"]) / 1000.0
                if t < a.t0 or s > t1:
                    continue
                s, t = max(s, a.t0), min(t, t1)
                shown.add(e["args"]["pid"])
                # x center, y, x half-width, y half-height, colour
                f.write("%f %d %f 0.35 %d\n" % ((s + t) / 2, e["tid"], (t - s) / 2, colour[e["args"]["pid"]]))
        marks = os.path.join(d, "wakes.dat")
        with open(marks, "w") as f:
            flows = {}
            for e in ev:
                if e.get("ph") in ("s", "f"):
                    flows.setdefault(e["id"], {})[e["ph"]] = e
            for e in ev:
                if e.get("ph") == "i" and e.get("cat") == "wakeup" and e["args"]["pid"] == a.pid:
                    t = e["ts"] / 1000.0
                    if a.t0 <= t <= t1:
                        f.write("%f %f\n" % (t, e["tid"] + 0.45))
        keys = "".join("set label %d '%s' at graph 1.01, graph %f left tc lt %d font ',9'\n" %
                       (i + 1, names[p].replace("'", ""), 0.95 - 0.06 * i, colour[p])
                       for i, p in enumerate(sorted(shown)))
        script = os.path.join(d, "plot.gp")
        with open(script, "w") as f:
            f.write("set terminal png size 1200,%d\nset output '%s'\n" % (160 + 70 * len(harts), a.png))
            f.write("set rmargin 18\nset xlabel 'ms since trace start'\nset ylabel 'hart'\n")
            f.write("set yrange [%f:%f]\nset ytics 1\nset xrange [%f:%f]\n" % (min(harts) - 0.6, max(harts) + 0.8,
                                                                          a.t0, t1))
            f.write("set style fill solid 0.8 border lc rgb 'black'\nunset key\n" + keys)
            f.write("plot '%s' using 1:2:3:4:5 with boxxyerrorbars lc variable" % data)
            if a.pid is not None:
                f.write(", '%s' using 1:2 with points pt 9 ps 1.5 lc rgb 'red'" % marks)
            f.write("\n")
        p = subprocess.run(["gnuplot", script], stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            print("trace_plot: gnuplot failed: " + p.stderr.strip().splitlines()[-1], file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
