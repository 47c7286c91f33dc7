"""tests/guest/trace_tests.py - the scheduler tracer end to end, in the guest.

Boots 3 harts under -icount (virtual time, 1 ms slice), starts tracing,
runs two hogs in the background (the second `hog -y`, which yields now and
then) and a short schbench (on hart 1), stops tracing and
runs `ps` just before stopping it (`ps; trace stop`), dumps, and checks that
the shell still answers and the guest's image is clean with fsck. Then build/qtrace extracts the dump from the image and the test
checks that the trace is consistent with itself and with the kernel's own
statistics:
  - no records dropped; every switched-to pid is known (snapshot or fork);
  - per hart, dispatches and deschedules alternate and runs never overlap;
    no pid runs on two harts at once;
  - each hog's CPU_MS and SCHED in ps lie between the trace's runtime and
    dispatch count for it at ps's exec and at ps's exit (ps read them in
    between; both count completed runs only);
  - the replay file has a line for each hog, and the yielding hog's line
    ends runs with "yield" (the Deschedule records tell a yield from a
    preemption), the other hog's never;
  - one hog, pinned to hart 0 with `taskset -p 1 PID` while tracing, has
    one affinity record (setaffinity, mask 0x1) and its replay line has
    `at TICK cpus 0`; schbench runs as `taskset 2 schbench`, so each of
    its workers has an inherited record and `cpus=1` on its replay line;
    schedsim runs the replay on 3 per-hart queues.
It also checks the control program's errors (stop when not tracing, dump
while tracing, a bad -b), that `obs trace` is `trace` (one inode, two
names), and runs docs/tracing.md's quick start as written
(its `make trace CMD=...` line with mk/tools.mk's defaults): it must drop no
record. One `PASS name` / `FAIL name: why` line per check (tests/guest/qemu.py's
Suite: a failed boot keeps its console transcript).
"""
import os
import re
import subprocess
import sys
import tempfile

from qemu import BUILD, ROOT, Suite

suite = Suite("trace", show=True)
report = suite.check


def events(image):
    p = subprocess.run([os.path.join(BUILD, "qtrace"), "--events", "-p", "/t.dat", image],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        raise RuntimeError("qtrace --events: " + p.stdout.strip())
    out = []
    for line in p.stdout.splitlines():
        f = line.split()
        ev = {"t": int(f[0]), "hart": int(f[2]), "type": f[3], "pid": int(f[5])}
        kv = dict(zip(f[6::2], f[7::2]))
        ev.update(kv)
        out.append(ev)
    return out


def check_consistency(evs):
    known = set()
    running = {}  # hart -> pid
    on_hart = {}  # pid -> hart
    problems = []
    for e in evs:
        if e["type"] in ("proc", "fork", "thread"):  # a thread's tid: docs/threads.md
            known.add(e["pid"])
        elif e["type"] == "switch":
            if e["pid"] not in known:
                problems.append("switch to unknown pid %d at %d" % (e["pid"], e["t"]))
            if e["hart"] in running:
                problems.append("hart %d dispatches %d while %d runs" % (e["hart"], e["pid"], running[e["hart"]]))
            if e["pid"] in on_hart:
                problems.append("pid %d dispatched on hart %d while on hart %d" % (e["pid"], e["hart"],
                                                                                   on_hart[e["pid"]]))
            running[e["hart"]] = e["pid"]
            on_hart[e["pid"]] = e["hart"]
        elif e["type"] == "deschedule":
            if e["hart"] in running and running[e["hart"]] != e["pid"]:
                problems.append("hart %d deschedules %d while %d runs" % (e["hart"], e["pid"], running[e["hart"]]))
            running.pop(e["hart"], None)
            on_hart.pop(e["pid"], None)
    return problems


def matches_ps(evs, ps):
    """ps read each hog's CPU and dispatch count at some instant between its
    own exec and exit, both in the trace: the counts must lie between the
    trace's at those two instants (CPU counts completed runs only, as ps's
    does)."""
    ps_pid = [e["pid"] for e in evs if e["type"] == "exec" and e.get("name") == "ps"]
    if not ps_pid:
        return False, "no exec of ps in the trace"
    t_exec = max(e["t"] for e in evs if e["type"] == "exec" and e["pid"] == ps_pid[-1])
    t_exit = [e["t"] for e in evs if e["type"] == "exit" and e["pid"] == ps_pid[-1]]
    if not t_exit:
        return False, "ps did not exit inside the trace"
    hogs = [pid for pid, r in ps.items() if r[0] == "hog"]
    ok, details = len(hogs) == 2, []

    def at(pid, t):
        cpu = sum(int(e["key"]) for e in evs if e["type"] == "deschedule" and e["pid"] == pid and e["t"] <= t)
        sw = sum(1 for e in evs if e["type"] == "switch" and e["pid"] == pid and e["t"] <= t)
        return cpu // 10000, sw

    for pid in hogs:
        (lo_ms, lo_sw), (hi_ms, hi_sw) = at(pid, t_exec), at(pid, t_exit[0])
        _, cpu_ms, sched = ps[pid]
        ok = ok and lo_ms <= cpu_ms <= hi_ms and lo_sw <= sched <= hi_sw
        details.append("pid %d: ps %d ms %d dispatches, trace %d..%d ms %d..%d" %
                       (pid, cpu_ms, sched, lo_ms, hi_ms, lo_sw, hi_sw))
    return ok, "; ".join(details) or "no hogs in ps: %r" % ps


def ps_rows(text):
    """pid -> (name, CPU_MS, SCHED), by ps's header (columns may be added)."""
    rows, cols = {}, None
    for line in text.splitlines():
        f = line.split()
        if f and f[0] == "PID":
            cols = f
        elif cols and len(f) == len(cols) and f[0].isdigit():
            rows[int(f[0])] = (f[cols.index("NAME")], int(f[cols.index("CPU_MS")]), int(f[cols.index("SCHED")]))
    return rows


def main():
    with suite.boot(3, icount=3, bootargs="slice=1000", timeout=120) as g:
        out = g.run("trace stop")
        report("not tracing" in out, "trace-stop-when-off", out.strip())
        out = g.run("obs trace stop; obs -h; ls trace; ls obs")
        names = {f[0]: f[2] for f in (l.split() for l in out.splitlines()) if len(f) >= 4 and f[0] in ("trace", "obs")}
        report("not tracing" in out and "usage: obs trace" in out and len(names) == 2 and names["trace"] == names["obs"],
               "obs-trace-is-trace", out.strip())
        out = g.run("trace start -b 3")
        report(out.startswith("usage:"), "trace-bad-size", out.strip())
        out = g.run("trace start -b 512")
        report(out.strip() == "", "trace-start", out.strip())
        out = g.run("trace dump /t.dat")
        report("still tracing" in out, "trace-dump-while-tracing", out.strip())
        g.run("hog 3 & hog -y 3 &")
        hogs = sorted(pid for pid, r in ps_rows(g.run("ps")).items() if r[0] == "hog")
        pinned = hogs[0] if hogs else 0
        out = g.run("taskset -p 1 %d; taskset -p %d" % (pinned, pinned))
        report("pid %d mask 0x1" % pinned in out, "trace-taskset", out.strip())
        g.run("taskset 2 schbench -r 1 -w 0", timeout=120)
        out = g.run("ps; trace stop", timeout=60)
        m = re.search(r"trace: (\d+) records, (\d+) dropped", out)
        report(m is not None and m.group(2) == "0", "trace-no-drops", m.group(0) if m else out)
        ps = ps_rows(out)
        out = g.run("trace dump /t.dat", timeout=120)
        report("wrote" in out, "trace-dump", out.strip())
        suite.finish(g)  # QEMU stopped, fsck clean: the host tools read the image
        evs = events(g.image)
        problems = check_consistency(evs)
        report(not problems and len(evs) > 1000, "trace-consistent",
               "%d records" % len(evs) if not problems else "; ".join(problems[:5]))
        p = subprocess.run([os.path.join(BUILD, "qtrace"), "-p", "/t.dat", "--summary", "-",
                            "--replay", "-", g.image], stdout=subprocess.PIPE, text=True)
        ok, detail = matches_ps(evs, ps)
        report(ok, "trace-matches-ps", detail)
        hog_lines = re.findall(r"^\d+ 20 run .*# pid \d+ hog$", p.stdout, re.M)
        report(len(hog_lines) == 2, "trace-replay-lines", "%d hog lines" % len(hog_lines))
        yields = [line.count(" yield ") for line in hog_lines]
        report(sorted(yields)[0] == 0 and sorted(yields)[-1] > 0, "trace-replay-yields",
               "yields per hog line: %s" % yields)
        check_affinity(evs, p.stdout, pinned)


def check_affinity(evs, qtrace_out, pinned):
    """The hog pinned with `taskset -p 1` while tracing: one setaffinity
    record by the taskset process, `at TICK cpus 0` on the hog's replay
    line. schbench, run as `taskset 2 schbench`: its workers (processes it
    forks) inherit mask 0x2 from it (an inherited record each, by it), and
    their replay lines have cpus=1. schedsim (the same cores, per-hart
    queues) runs the file."""
    sets = [e for e in evs if e["type"] == "affinity" and e["pid"] == pinned]
    report(len(sets) == 1 and sets[0].get("how") == "setaffinity" and sets[0].get("mask") == "0x1" and
           sets[0].get("cpus") == "0", "trace-affinity-record", "%r" % sets)
    line = re.search(r"^\d+ 20 run .*# pid %d hog$" % pinned, qtrace_out, re.M)
    report(line is not None and re.search(r" at \d+ cpus 0 ", line.group(0)) is not None, "trace-replay-affinity",
           line.group(0) if line else "no replay line for pid %d" % pinned)
    sch = [e["pid"] for e in evs if e["type"] == "exec" and e.get("name") == "schbench"]
    children = sorted(e["pid"] for e in evs if e["type"] in ("fork", "thread") and sch and int(e["other"]) == sch[-1])
    inherited = sorted(e["pid"] for e in evs if e["type"] == "affinity" and e.get("how") == "inherited" and
                       sch and int(e["by"]) == sch[-1] and e.get("mask") == "0x2")
    lines = re.findall(r"^\d+ .* cpus=1 .*# pid (\d+) schbench$", qtrace_out, re.M)
    report(len(children) >= 2 and inherited == children and sorted(map(int, lines)) == children,
           "trace-affinity-inherited",
           "schbench %s children %s, inherited 0x2: %s, cpus=1 lines: %s" % (sch[-1:], children, inherited, lines))
    replay = qtrace_out[qtrace_out.index("# schedsim replay"):]
    ticks = re.search(r"--ticks (\d+)", replay)
    with tempfile.NamedTemporaryFile("w", prefix="quanta-replay-", suffix=".txt") as f:
        f.write(replay)
        f.flush()
        p = subprocess.run([os.path.join(BUILD, "schedsim"), "--no-progress", "--replay", f.name, "--cores", "3",
                            "--queues", "percpu", "--policy", "eevdf", "--weights", "linux", "--slice", "10",
                            "--ticks", ticks.group(1) if ticks else "1000"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    report(p.returncode == 0, "trace-replay-affinity-schedsim",
           "exit 0" if p.returncode == 0 else "exit %d: %s" % (p.returncode, p.stdout.strip()[-300:]))


def make_default(var):
    """VAR's default in mk/tools.mk (`VAR ?= value`)."""
    m = re.search(r"^%s \?= *(.*)$" % var, open(os.path.join(ROOT, "mk", "tools.mk")).read(), re.M)
    return m.group(1).strip() if m else ""


def quick_start():
    """docs/tracing.md's quick start, as a reader runs it: nothing dropped."""
    import shlex
    name = "trace-quick-start-no-drops"
    doc = open(os.path.join(ROOT, "docs", "tracing.md")).read()
    m = re.search(r"^make trace (CMD=.*)$", doc, re.M)
    if not m:
        return report(False, name, "no `make trace CMD=...` line in docs/tracing.md")
    words = dict(w.split("=", 1) for w in shlex.split(m.group(1)))
    kb, icount = words.get("TRACE_KB", make_default("TRACE_KB")), words.get("TRACE_ICOUNT", make_default("TRACE_ICOUNT"))
    with tempfile.TemporaryDirectory(prefix="quanta-trace-") as out:
        cmd = [sys.executable, os.path.join(ROOT, "tools", "obs_run.py"), "trace", "--cmd", words["CMD"], "--cpus", "3",
               "--kb", kb, "--out", out] + (["--icount", icount] if icount else [])
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace",
                           timeout=600)
    m = re.search(r"trace: (\d+) records, (\d+) dropped", p.stdout)
    report(p.returncode == 0 and m is not None and m.group(2) == "0", name,
           m.group(0) if m else p.stdout[-1500:])


if __name__ == "__main__":
    main()
    quick_start()
