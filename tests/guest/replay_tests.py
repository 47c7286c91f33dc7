"""tests/guest/replay_tests.py - differential replay (issue 23): schedsim,
replaying a kernel trace through the run-queue core the kernel runs, must
reproduce the kernel's decisions.

For 1 and 3 harts, each queue mode (rq=percpu, rq=single), eevdf, 1 ms
slice, virtual time (-icount 3): two hogs start, then the tracer records
schbench (2 workers, 1 s, 2 work units a request); build/qtrace turns the
trace into a replay file (10 us ticks: each process's runs and sleeps as
the kernel saw them; a sleep another process ended is "sleep wait" and that
process's wake-up a "wake K" between its runs, so the replay wakes a
schbench worker when its message process gets there; a process still
runnable at the stop ends in `run inf`), and build/schedsim replays it on
the same configuration (cores, queue mode, slice, ticks). Per task, the
replay's CPU share must be within 1 percentage point of the kernel's, and
its dispatch count within 5% of the kernel's (tasks with fewer than 20
dispatches in the kernel: within 1). Shares are of the CPU time charged to
processes: the kernel's own time between a deschedule and the next
dispatch (about 2% at 1 hart) is charged to nobody and has no counterpart
in the replay, where the hogs would take it. One `PASS name` / `FAIL name:
why` line per case, with the residuals and every task's figures, and the
traced boot's shell and fsck checks (tests/guest/qemu.py's Suite: a
failed boot keeps its console transcript).

Not in `make test`: it does not pass yet (2026-12-06). Shares are within
0.41-0.90 points in all four cases; dispatches are 5.1-5.5% off at 1 hart
(the hogs: a kernel dispatch at slice end is charged 1.0094 ms, the slice
plus the switch, so the replay's 1 ms slice dispatches them ~1% more often,
and it gives them the 2% the kernel spends switching) and 49-83% off at 3
harts, where the kernel's hog dispatches overrun the slice: 987 of 2,031
were over 1.02 ms (median of those 1.53 ms). Not a kernel bug: under
-icount QEMU runs the harts in turn on one thread, and the late slice-end
traps were taken in user mode with the timer armed at the slice end, the
hart in user mode since before the deadline (docs/tracing.md, "Replay
fidelity").

What a replay cannot reproduce: times are rounded to 10 us ticks (a run is
at least one tick); a sleep ended by an interrupt (the console, a timer)
is replayed as a fixed time asleep; the kernel's own time (interrupts, the
scheduler) is charged to whoever runs.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

from qemu import BUILD, Suite

TICK_US = 10
SLICE_US = 1000

suite = Suite("replay", show=True)
report = suite.check


def trace_schbench(name, cpus, rq, image_copy):
    """Boot, start two hogs, trace schbench; leave the guest's image in
    image_copy. False when the boot failed (its verdict says why)."""
    with suite.boot(cpus, tag=name[len("replay-"):], sched="eevdf", icount=3, bootargs="slice=%d rq=%s" % (SLICE_US, rq),
                    timeout=120) as g:
        g.run("hog 5 & ; hog 5 &")
        out = g.run("trace start -b 1024")
        if out.strip():
            raise RuntimeError("trace start: " + out.strip())
        g.run("schbench -t 2 -r 1 -w 0 -n 2", timeout=300)
        out = g.run("trace stop", timeout=60)
        m = re.search(r"trace: (\d+) records, (\d+) dropped", out)
        if not m or m.group(2) != "0":
            raise RuntimeError("trace stop: " + out.strip())
        out = g.run("trace dump /t.dat", timeout=120)
        if "wrote" not in out:
            raise RuntimeError("trace dump: " + out.strip())
        suite.finish(g)  # the shell answers; QEMU stopped, fsck clean
        shutil.copyfile(g.image, image_copy)
    return os.path.exists(image_copy)


def kernel_figures(image, replay):
    """Runs qtrace: writes the replay file; returns (harts, span cycles, {pid: (runtime, switches)})."""
    p = subprocess.run([os.path.join(BUILD, "qtrace"), "-p", "/t.dat", "--tick-us", str(TICK_US), "--replay", replay,
                        "--summary", "-", image], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        raise RuntimeError("qtrace: " + p.stdout.strip())
    head = re.search(r"(\d+) harts, slice ([\d.]+) ms\ntraced ([\d.]+) ms", p.stdout)
    harts, span_ms = int(head.group(1)), float(head.group(3))
    tasks = {}
    for m in re.finditer(r"^  \S.*?:(\d+) +\| +([\d.]+) \| +(\d+) \|", p.stdout, re.M):
        tasks[int(m.group(1))] = (float(m.group(2)), int(m.group(3)))
    return harts, span_ms, tasks


def replay(replay_file, cpus, rq, csv):
    text = open(replay_file).read()
    ticks = int(re.search(r"--ticks (\d+)", text).group(1))
    pids = [int(m.group(1)) for m in re.finditer(r"^\d+ .*# pid (\d+) ", text, re.M)]
    cmd = [os.path.join(BUILD, "schedsim"), "--no-progress", "--policy", "eevdf", "--weights", "linux", "--replay",
           replay_file, "--cores", str(cpus), "--queues", rq, "--slice", str(SLICE_US // TICK_US), "--ticks",
           str(ticks), "--tasks-out", csv]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        raise RuntimeError("schedsim: " + p.stdout.strip()[-500:])
    rows = list(csv_rows(csv))
    if len(rows) != len(pids):
        raise RuntimeError("%d replay lines, %d tasks" % (len(pids), len(rows)))
    return ticks, {pid: (int(r["executed"]), int(r["dispatches"])) for pid, r in zip(pids, rows)}


def csv_rows(path):
    lines = open(path).read().splitlines()
    cols = lines[0].split(",")
    for line in lines[1:]:
        yield dict(zip(cols, line.split(",")))


def compare(cpus, rq):
    name = "replay-schbench-2hogs-%dhart%s-%s" % (cpus, "s" if cpus > 1 else "", rq)
    with tempfile.TemporaryDirectory(prefix="quanta-replay-") as tmp:
        image = os.path.join(tmp, "fs.img")
        if not trace_schbench(name, cpus, rq, image):
            return
        rfile, csv = os.path.join(tmp, "replay.txt"), os.path.join(tmp, "tasks.csv")
        harts, span_ms, kernel = kernel_figures(image, rfile)
        ticks, sim = replay(rfile, cpus, rq, csv)
        keep = os.environ.get("QUANTA_KEEP_REPLAY")  # a directory: keep each case's image and replay there
        if keep:
            os.makedirs(keep, exist_ok=True)
            for f in (image, rfile, csv):
                subprocess.run(["cp", f, os.path.join(keep, "%d-%s-%s" % (cpus, rq, os.path.basename(f)))])
    # Shares of the CPU time charged to processes: the kernel's own time
    # between a deschedule and the next dispatch is charged to nobody and
    # has no counterpart in the replay, where the hogs would absorb it.
    k_total = sum(run_ms for run_ms, _ in kernel.values())
    s_total = sum(exe for exe, _ in sim.values())
    overhead = 100.0 * (1 - k_total / (harts * span_ms))
    worst_share, worst_disp, lines, ok = 0.0, 0.0, [], harts == cpus and k_total > 0 and s_total > 0
    for pid, (exe, disp) in sim.items():
        run_ms, switches = kernel.get(pid, (0.0, 0))
        k_share = 100.0 * run_ms / k_total
        s_share = 100.0 * exe / s_total
        d_share = s_share - k_share
        d_disp = disp - switches
        rel = abs(d_disp) / switches if switches else float(abs(d_disp))
        ok_disp = abs(d_disp) <= 1 if switches < 20 else rel <= 0.05
        ok = ok and abs(d_share) <= 1.0 and ok_disp
        worst_share = max(worst_share, abs(d_share))
        if switches >= 20:
            worst_disp = max(worst_disp, rel)
        lines.append("pid %d: share %.2f/%.2f%% dispatches %d/%d" % (pid, k_share, s_share, switches, disp))
    report(ok, name, "kernel/replay, largest share residual %.2f points, dispatches %.1f%% (kernel time charged "
           "to nobody or idle %.1f%%, replay idle %.1f%%); %s"
           % (worst_share, 100 * worst_disp, overhead, 100.0 * (1 - s_total / (cpus * ticks)), "; ".join(lines)))


def main():
    cases = [(1, "percpu"), (1, "single"), (3, "percpu"), (3, "single")]
    if len(sys.argv) > 1:  # replay_tests.py CPUS RQ: one case
        cases = [(int(sys.argv[1]), sys.argv[2])]
    for cpus, rq in cases:
        try:
            compare(cpus, rq)
        except Exception as e:  # noqa: BLE001
            report(False, "replay-schbench-2hogs-%d-%s" % (cpus, rq), str(e))


if __name__ == "__main__":
    main()
