"""tests/guest/bench_smoke.py - quick in-guest check of schbench and frames.

Boots one guest (2 harts, -icount shift=3 so the run is short and
repeatable), runs each benchmark for about a virtual second (benchos: a
tick of a few of its benchmarks; diskstat: the disk traffic of mkdir),
parses the output and checks the numbers are sane: samples counted,
percentiles ordered, positive rates, a deterministic frame checksum and
disk counts, usage errors; then the shell still answers and fsck finds the
disk clean. One `PASS name` / `FAIL name: why` line per check
(tests/guest/qemu.py's Suite: a failed boot keeps its console transcript).
Takes about 15 s.
"""
import re

from qemu import Suite

SCHBENCH_RE = re.compile(r"schbench: rps=([\d.]+) p50=([\d.]+) p90=([\d.]+) p99=([\d.]+) p999=([\d.]+) "
                         r"max=([\d.]+) samples=(\d+)")
FRAMES_RE = re.compile(r"frames: fps=([\d.]+) frames=(\d+) ms=(\d+) checksum=([0-9a-f]+)")

suite = Suite("bench-smoke", show=True)
report = suite.check


def main():
    with suite.boot(2, icount=3, bootargs="slice=4000") as g:
        out = g.run("schbench -t 2 -r 1 -n 1", timeout=60)
        m = SCHBENCH_RE.search(out)
        if not m:
            report(False, "schbench-runs", repr(out))
        else:
            rps, p50, p90, p99, p999, mx = (float(m.group(i)) for i in range(1, 7))
            n = int(m.group(7))
            report(True, "schbench-runs", m.group(0))
            report("Wakeup Latencies percentiles (usec) runtime 1 (s)" in out and "average rps:" in out
                   and "RPS percentiles (requests)" in out, "schbench-layout", repr(out[:200]))
            report(n > 50 and abs(rps - n) <= 1, "schbench-samples", "samples %d rps %.2f" % (n, rps))
            report(0 < p50 <= p90 <= p99 <= p999 <= mx, "schbench-percentiles-ordered",
                   "p50 %.1f p90 %.1f p99 %.1f p99.9 %.1f max %.1f" % (p50, p90, p99, p999, mx))
            report(p50 < 20000, "schbench-latency-sane", "p50 %.1f us on an idle guest" % p50)
        out = g.run("schbench -t 0", timeout=30)
        report("usage: schbench" in out, "schbench-usage", repr(out))
        out = g.run("frames -t 1", timeout=60)
        m = FRAMES_RE.search(out)
        if not m:
            report(False, "frames-runs", repr(out))
        else:
            fps, frames, ms = float(m.group(1)), int(m.group(2)), int(m.group(3))
            report(fps > 10 and frames > 10 and 1000 <= ms < 1500 and abs(fps - frames * 1000.0 / ms) < 1,
                   "frames-fps", m.group(0))
        a = FRAMES_RE.search(g.run("frames -f 7", timeout=30))
        b = FRAMES_RE.search(g.run("frames -f 7", timeout=30))
        report(a is not None and b is not None and a.group(4) == b.group(4) and a.group(2) == "7",
               "frames-deterministic", "%s / %s" % (a and a.group(0), b and b.group(0)))
        out = g.run("frames -x", timeout=30)
        report("usage: frames" in out, "frames-usage", repr(out))
        benchos_checks(g)
        diskstat_checks(g)


BENCHOS_RE = re.compile(r"^(\w+) ops (\d+) ns/op (\d+) ops/s (\d+)$", re.M)


def benchos_checks(g):
    """benchos -q: one timed tick (0.1 s) per benchmark. Each line's
    operation count times its ns/op is the whole ticks it ran (within 2%):
    exactly one for the fast rows (the clock is read every 1/100 tick of
    operations); a disk-bound row (create: a few operations a tick) may see
    its last operation end a tick later when the host delays the disk, so it
    may span more. Each benchmark cleaned up its files (ls shows none)."""
    out = g.run("benchos -q null pipe create sbrk", timeout=120)
    rows = BENCHOS_RE.findall(out)
    names = [r[0] for r in rows]
    ok = names == ["null", "pipe", "create", "sbrk"] and "benchos: done 4" in out
    tick = 1e8
    for name, ops, ns_op, _ in rows:
        span = int(ops) * int(ns_op)
        ticks = max(1, round(span / tick))
        ok = ok and abs(span - ticks * tick) <= 0.02 * ticks * tick and (ticks == 1 or int(ops) < 100)
    report(ok, "benchos-runs", "%s; ops x ns/op = %s" % (repr(out), [int(r[1]) * int(r[2]) for r in rows]))
    report(len(rows) == 4 and int(rows[0][2]) < int(rows[1][2]) < int(rows[2][2]), "benchos-order",
           "null < pipe round trip < create: %s" % [r[2] for r in rows])
    left = g.run("ls", timeout=30)
    report("bo." not in left, "benchos-cleans-up", repr(left))
    out = g.run("benchos nosuch", timeout=30)
    report(out == "usage: benchos [-q] [-t TICK_MS] [NAME...]\n", "benchos-usage", repr(out))


DISKSTAT_RE = re.compile(r"^mkdir ops 20 per op: write_requests ([\d.]+) blocks_written ([\d.]+) read_requests "
                         r"([\d.]+) blocks_read ([\d.]+) round_trips ([\d.]+) commits ([\d.]+) installs ([\d.]+)$", re.M)


def diskstat_checks(g):
    """diskstat counts the disk traffic of an operation (deterministic):
    mkdir + unlink is two commits, each one round trip (group and header
    in flight together) plus a share of an occasional install; the old
    synchronous commit took 22 round trips. Counters print; bad arguments
    print the usage line; the tool's files are gone afterwards."""
    out = g.run("diskstat -n 20 mkdir", timeout=120)
    m = DISKSTAT_RE.search(out)
    ok = m is not None and float(m.group(6)) == 2.0 and float(m.group(5)) < 4.0 and float(m.group(1)) < 7.0
    report(ok, "diskstat-mkdir-commit-cost", repr(out))
    out = g.run("diskstat", timeout=30)
    report(re.search(r"^requests read \d+ write \d+ blocks read \d+ written \d+ round_trips \d+\r?$", out, re.M)
           is not None and "log commits" in out, "diskstat-counters", repr(out))
    out = g.run("diskstat -n 0 create", timeout=30) + g.run("diskstat nosuch", timeout=30)
    report(out.count("usage: diskstat [-n N] [create|append|mkdir]\n") == 2, "diskstat-usage", repr(out))
    left = g.run("ls", timeout=30)
    report("dstat." not in left, "diskstat-cleans-up", repr(left))


if __name__ == "__main__":
    main()
