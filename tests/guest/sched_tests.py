"""tests/guest/sched_tests.py - the kernel's schedulers, tested in the guest.

Share tests run QEMU with -icount (shift=3, sleep=off), so guest time is
virtual: host load changes how long a test takes, not the CPU times it
measures. They boot with a 1 ms slice (slice=1000) and use `sharetest`,
which reads each hog's CPU time from the kernel's own statistics. Other
tests drive nice/renice/sched/ps and a sleep/wakeup storm across harts. One
`PASS name` / `FAIL name: why` line per test; after each boot the shell
still answers and fsck finds the disk clean (tests/guest/qemu.py's Suite,
with the test's name as the boot's tag: a failed boot keeps its console
transcript).

-icount does not make a run repeat exactly. It makes guest time a function
of the instructions executed (QEMU runs the vCPUs round-robin on one host
thread, and timer interrupts fire at virtual deadlines), but host events
still arrive at arbitrary virtual instants: the console characters of each
command line and the virtio disk completions (exec reads the disk). So each
boot starts the measurement from a different state, and the figures are
samples from a distribution. Measured under two busy host loops (load 9-13
on 2 cores), 8 hogs on 3 harts over 4 s: percpu max/min 1.003-1.013 in 24
runs, and the spread max-min between hogs, read every 100 ms, 4-22 ms (mean
8 ms at 1 s, 11 ms at 4 s: bounded, not growing with the window); rq=single
1.001-1.002 in 16 runs. Two things pushed runs over the 2% limits (1.022
and 1.026 were reported):
  - sharetest read the hogs' CPU times with one process-table scan per hog:
    the 8 window edges were 1-14 ms apart (3.2 ms typically), and the nice
    -20 parent is sometimes stalled in the middle of a reading (of 1230
    one-pass readings, 7% took over 2.5 ms, 0.9% over 10 ms, the longest
    29 ms): a hog read after a stall gets a window that much shorter or
    longer, up to its share of the stall (3/8 to 1/2 of it). sharetest now
    reads every hog in one pass (0.7 or 1.7 ms) and reads again when a pass
    took over 2.5 ms; the durations are in each share test's report line.
  - the percpu 8-hog spread is bounded, so its relative size falls as the
    window grows: 8 s (the 2% limit is 59 ms of a 2.95 s share; measured
    1.003-1.009 in 8 runs) instead of 4 s (29 ms of a 1.47 s share, within
    reach of a 22 ms spread plus a stall).
"""
import re
import time

from qemu import Suite, run_cases

LINUX_WEIGHT = {-20: 88761, 0: 1024, 5: 335}
ICOUNT = 3

suite = Suite("sched", show=True)
report = suite.check


def snapshots(out):
    """sharetest's `snapshots START_US END_US`: how long each reading took."""
    m = re.search(r"snapshots (\d+) (\d+)", out)
    return "readings took %s and %s us" % m.groups() if m else "no snapshot durations"


def share_boot(name, policy, cpus, rq="percpu"):
    """A boot for a share test, tagged with its name: 1 ms slice, -icount."""
    return suite.boot(cpus, tag=name, sched=policy, icount=ICOUNT, bootargs="slice=1000 rq=" + rq)


def shares(g, ms, nices, threads=False):
    """sharetest's CPU cycles per hog, and how long its readings took."""
    opt = "-t " if threads else ""  # the hogs as threads of one process
    out = g.run("sharetest %s%d %s" % (opt, ms, " ".join(map(str, nices))), timeout=600)
    got = [int(m.group(2)) for m in re.finditer(r"share (-?\d+) (\d+)", out)]
    if len(got) != len(nices):
        raise RuntimeError("sharetest printed %r" % out)
    return got, snapshots(out)


def ratio_test(policy, a, b, tolerance, ms=4000, threads=False):
    name = "share-nice%d-vs-nice%d-%s%s" % (a, b, policy, "-threads" if threads else "")
    with share_boot(name, policy, 1) as g:
        (ca, cb), snaps = shares(g, ms, [a, b], threads=threads)
        want = LINUX_WEIGHT[a] / LINUX_WEIGHT[b]
        got = ca / cb if cb else float("inf")
        err = abs(got / want - 1)
        report(err <= tolerance, name, "ratio %.3f, weights say %.3f (%.1f%% off, limit %.0f%%; %s)"
               % (got, want, 100 * err, 100 * tolerance, snaps))


def equal_test(policy, hogs, cpus, tolerance, rq="percpu", ms=4000):
    name = "share-%dhogs-%dharts-%s%s" % (hogs, cpus, policy, "" if rq == "percpu" else "-" + rq)
    with share_boot(name, policy, cpus, rq) as g:
        got, snaps = shares(g, ms, [0] * hogs)
        spread = max(got) / min(got) - 1
        report(spread <= tolerance, name, "max/min %.4f (limit %.2f) over %d ms, max-min %.1f ms; %s: %s"
               % (1 + spread, 1 + tolerance, ms, (max(got) - min(got)) / 1e4, snaps, got))


def multi_ratio_test(policy, cpus, a, b, per, tolerance, rq, ms=4000):
    """`per` hogs of nice a and `per` of nice b on `cpus` harts: the mean
    share of an a-hog over a b-hog follows the weights (with per-hart queues
    the balancer must pair them up: each hart one of each when per == cpus)."""
    name = "share-%dx-nice%d-vs-nice%d-%dharts-%s-%s" % (per, a, b, cpus, policy, rq)
    with share_boot(name, policy, cpus, rq) as g:
        got, snaps = shares(g, ms, [a] * per + [b] * per)
        ga, gb = sum(got[:per]) / per, sum(got[per:]) / per
        want = LINUX_WEIGHT[a] / LINUX_WEIGHT[b]
        err = abs((ga / gb) / want - 1)
        report(err <= tolerance, name, "ratio %.3f, weights say %.3f (%.1f%% off, limit %.0f%%; %s): %s"
               % (ga / gb, want, 100 * err, 100 * tolerance, snaps, got))


def affinity_test():
    """taskset: 3 hogs pinned to hart 1 of 3 share that hart (children
    inherit the mask); unpinned they would get a hart each."""
    name = "affinity-3hogs-pinned-to-hart1"
    with suite.boot(3, tag=name, icount=ICOUNT, bootargs="slice=1000") as g:
        out = g.run("taskset 0x2 sharetest 2000 0 0 0", timeout=600)
        tools = g.run("taskset -p 0x5 1; taskset -p 1; taskset -p 0x8 1; taskset 0x1", timeout=60)
        got = [int(m.group(2)) for m in re.finditer(r"share (-?\d+) (\d+)", out)]
        hart = 2000 * 10000  # cycles of one hart in 2000 ms (10 MHz)
        # (the window ends on a 100 ms tick: up to 2.1 s; unpinned: 3 harts)
        ok = len(got) == 3 and sum(got) <= 1.2 * hart and min(got) >= 0.3 * hart
        want_tools = ("pid 1 mask 0x5\n"
                      "taskset: mask 0x8 names no hart of this machine\n"
                      "usage: taskset MASK command [args...] | taskset -p [MASK] PID\n")
        report(ok and tools == want_tools, name,
               "shares %s (one hart: %d cycles); tools %r" % (got, hart, tools))


def infeasible_test():
    """Issue 12's kernel case, one shared queue on 2 harts: nice -20 and
    nice 19 hogs alone for 10 s, then a nice 0 hog; over the next 8 s the
    nice 19 hog gets its capped fluid share, 15/1039 of a hart (115 ms).
    Before weight readjustment (and lag clearing while every task has a
    hart) it got 0."""
    name = "infeasible-nice19-2harts-single"
    with suite.boot(2, tag=name, icount=ICOUNT, bootargs="slice=1000 rq=single") as g:
        out = g.run("sharetest -w 10000 8000 -20 19 +0", timeout=1200)
        got = {int(m.group(1)): int(m.group(2)) for m in re.finditer(r"share (-?\d+) (\d+)", out)}
        want = 8000 * 10000 * 15 / 1039  # cycles
        ok = 19 in got and abs(got[19] / want - 1) <= 0.30
        report(ok, name, "nice 19 got %.1f ms, fluid %.1f ms (limit 30%%): %s"
               % (got.get(19, 0) / 1e4, want / 1e4, out.strip().replace("\n", ", ")))


def single_mode_tests():
    name = "boot-eevdf-3harts-single"
    with suite.boot(3, tag=name, bootargs="rq=single") as g:
        out = g.run("sched; sched dwrr; storm 8 100", timeout=120)
        report(out == "eevdf single\ndwrr single\nstorm: ok 8 pairs 100 rounds\n", name, repr(out))


# (name, command, regex the output must match)
TOOL_CASES = [
    ("sched-prints-default", "sched", r"eevdf percpu\n"),
    ("sched-switch-dwrr", "sched dwrr", r"dwrr percpu\n"),
    ("sched-switch-back", "sched eevdf", r"eevdf percpu\n"),
    ("sched-unknown", "sched fifo", r"sched: unknown policy 'fifo'.*\n"),
    ("nice-runs-command", "nice -n 5 echo hi", r"hi\n"),
    ("nice-bad-value", "nice -n x echo hi", r"nice: bad value 'x'.*\n"),
    ("nice-usage", "nice echo", r"usage: nice -n N command \[args...\]\n"),
    # The calls say why they failed (errno): ESRCH here, EPERM for another
    # user's process (chrt-not-yours), EINVAL for a mask with no hart.
    ("renice-unknown-pid", "renice -n 5 -p 9999", r"renice: 9999: no such process\n"),
    ("renice-out-of-range", "renice -n 20 -p 1", r"renice: bad nice value '20'.*\n"),
    ("renice-usage", "renice 5 1", r"usage: renice -n N -p PID\n"),
    ("renice-init", "renice -n 3 -p 1; ps", r"(?s)1: nice 3\n.*\n +1 +0 sleep +3 +526 .*init\n.*"),
    # Columns right-aligned under the header (lib/abi/procview.h; ^P prints the same).
    ("ps-columns", "ps", r"(?s)policy eevdf percpu\n  PID  PPID STATE  NICE WEIGHT  CPU_MS WAIT_MS  SCHED    VOL  INVOL"
     r" MAXLAT_US  MIGR USER     NAME\n    1     0 sleep  [ -]{2}[ \d]\d [ \d]{5}\d [ \d]{6}\d [ \d]{6}\d [ \d]{5}\d "
     r"[ \d]{5}\d [ \d]{5}\d [ \d]{8}\d [ \d]{4}\d root     init\n.*sh\n.*ps\n"),
    ("nice-inherited", "nice -n 7 ps", r"(?s).*\d+ +\d+ run +7 +215 .*ps\n"),
    # EEVDF request size (chrt, sched_setrequest/getrequest: docs/scheduling.md "Request size").
    ("chrt-default", "chrt -p 1", r"pid 1 request default\n"),
    ("chrt-runs-command", "chrt -r 300 chrt -p 0", r"pid \d+ request 300 us\n"),
    ("chrt-clamped-low", "chrt -r 5 chrt -p 0", r"pid \d+ request 100 us\n"),
    ("chrt-clamped-high", "chrt -r 999999 chrt -p 0", r"pid \d+ request 100000 us\n"),
    # exec keeps it (chrt execs time), fork passes it on (time forks ps).
    # time may still be on its way into wait when ps looks (another hart): sleep or run, or
    # runble if it was preempted on the way (by its new child on the same hart, or a slice end).
    ("chrt-inherited", "chrt -r 400 time ps -s", r"(?s)policy eevdf percpu\n  PID   TID STATE  NICE WEIGHT REQ_US NAME\n"
     r"    1     1 sleep +-?\d+ +\d+      - init\n.*\n +\d+ +\d+ (sleep|run|runble) +0 +1024 +400 time\n"
     r" +\d+ +\d+ run +0 +1024 +400 ps\n.*"),
    ("chrt-set-pid", "chrt -r 250 -p 1; chrt -r 0 -p 1", r"pid 1 request 250 us\npid 1 request default\n"),
    ("chrt-not-yours", "su student chrt -r 200 -p 1",
     r"chrt: cannot set the request of 1: operation not permitted\n"),
    ("chrt-own", "su student chrt -r 200 chrt -p 0", r"pid \d+ request 200 us\n"),
    ("chrt-unknown-pid", "chrt -p 9999", r"chrt: cannot read the request of 9999: no such process\n"),
    ("chrt-set-unknown-pid", "chrt -r 200 -p 9999",
     r"chrt: cannot set the request of 9999: no such process\n"),
    ("taskset-unknown-pid", "taskset -p 0x1 9999", r"taskset: cannot set 0x1 on 9999: no such process\n"),
    ("chrt-bad-request", "chrt -r -5 echo hi", r"chrt: bad request '-5'.*\n"),
    ("chrt-usage", "chrt echo", r"usage: chrt -r US command \[args...\] \| chrt -r US -p PID \| chrt -p PID\n"),
    ("latbench-usage", "latbench 100 9 1000 10", r"usage: latbench \[-r US\] \[-s\] MS HOGS PERIOD_US BURST_US\n"),
    ("latbench-usage-sleeper", "latbench -s -r 5 100 1 1000 10",
     r"usage: latbench \[-r US\] \[-s\] MS HOGS PERIOD_US BURST_US\n"),
]

# Switching policy keeps running processes: two hogs must be runnable before
# and after four switches. The hogs are started first and waited for (on a
# loaded host a background job can take seconds of real time to exec).
SWITCH_CASE = ("switch-keeps-hogs", "sched rr; sched idwrr; sched dwrr; sched eevdf; ps",
               r"(?s)rr percpu\nidwrr percpu\ndwrr percpu\neevdf percpu\n.*(run|runble) +0 +1024 .*hog\n"
               r".*(run|runble) +0 +1024 .*hog\n.*")


def switch_keeps_hogs(g):
    g.run("hog 60 & ; hog 60 &", timeout=60)
    deadline = time.time() + 60
    while time.time() < deadline and len(re.findall(r" hog\n", g.run("ps", timeout=60))) < 2:
        time.sleep(0.5)
    run_cases(g, [SWITCH_CASE], timeout=60)


def tool_tests():
    with suite.boot(3, tag="tools-3harts") as g:
        if run_cases(g, TOOL_CASES, timeout=60):
            switch_keeps_hogs(g)


def lockstat_test():
    """lockstat over a wake-heavy command (storm: pairs of processes waking
    each other) lists every queue and a total whose counts are consistent:
    some acquisitions changed hands between harts, and no more than there
    were acquisitions; in percpu mode one row per hart."""
    for rq, queues in (("percpu", 2), ("single", 1)):
        name = "lockstat-storm-2harts-%s" % rq
        with suite.boot(2, tag=name, icount=ICOUNT, bootargs="rq=%s" % rq) as g:
            out = g.run("lockstat storm 4 50", timeout=300)
            rows = re.findall(r"^(\d+) (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)$", out, re.M)
            total = re.search(r"^total (\d+) (\d+) (\d+) (\d+)$", out, re.M)
            ok = ("%s queues: %d\n" % (rq, queues)) in out and "QUEUE ACQUIRED HANDOFF CONTENDED" in out
            ok = ok and len(rows) == queues and total is not None
            if ok:
                acq, hand, con = (int(total.group(i)) for i in (1, 2, 3))
                ok = 0 < hand <= acq and con <= acq and acq == sum(int(r[1]) for r in rows)
            report(ok, name, out.strip().replace("\n", " | "))


def storm_tests():
    for policy in ("rr", "dwrr", "idwrr", "eevdf", "stride", "lottery", "mlfq"):
        name = "storm-4harts-%s" % policy
        with suite.boot(4, tag=name, sched=policy) as g:
            out = g.run("storm 8 200", timeout=120)
            report("storm: ok 8 pairs 200 rounds" in out, name, out.strip())


def latency_test(bootargs="", slice_us=750):
    """The default slice (Linux's base slice rule: 0.75 ms x (1 + log2
    harts), 0.75 ms on 1 hart) keeps an interactive process beside 2 hogs
    on 1 hart within 2 slices of its wake-ups: `mlfqtest inter` (sleep one
    100 ms tick, run 100 us) under eevdf, the kernel's max wake-up latency.
    With xv6's 100 ms slice (the default before issue 23) it is reported
    only, for comparison. The worst case is EEVDF's order: the woken task
    (lag 0, its sleeping debt decayed) has deadline V + slice, and both
    hogs can be due before it (a hog behind V is), so it waits for the
    rest of the running hog's turn and then the other's whole turn (758
    us each with the timer's lateness), plus the dispatch paths. 1,588 us
    in 4 of 5 runs until a preempted hog resumed the rest of its turn: it
    got a fresh slice (a hog preempted after 246 us by mlfqtest's parent
    ran 759 us more). Since then, 29 runs: 834-1,522 us, over 1,500 (2
    slices) in 1; mean 165-237 us. The limit keeps 150 us for the paths:
    issue 23's "<= 2 slices" (1,500 us) is met in 28 runs of 29 and missed
    by 22 us in the other (docs/scheduling.md)."""
    name = "latency-interactive-2hogs-1hart-eevdf" + ("-" + bootargs if bootargs else "")
    with suite.boot(1, tag=name, sched="eevdf", icount=ICOUNT, bootargs=bootargs) as g:
        banner = g.log[0] if g.log else ""
        out = g.run("mlfqtest inter 3000 2 100", timeout=600)
        m = re.search(r"maxlat_us (\d+) meanlat_us (\d+)", out)
        s = re.search(r"slice (\d+) us", banner)
        if not m:
            raise RuntimeError("mlfqtest printed %r" % out)
        maxlat = int(m.group(1))
        limit = 2 * slice_us + 150
        ok = maxlat <= limit and s is not None and int(s.group(1)) == slice_us
        report(ok, name, "wake-up latency max %d us (limit 2 slices + 150 us = %d us), mean %s us from the tick; "
               "boot slice %s" % (maxlat, limit, m.group(2), s.group(1) + " us" if s else "not seen"))


def tick_test():
    """The scheduler tick (1 ms, lib/params.h kSchedTickCycles): 2 harts,
    per-hart queues, eevdf, 4 ms slice, two nice +10 hogs and schbench at
    nice -10 (make bench's hogs2-reniced). A worker that ran ahead on a hart
    crowded with the benchmark's threads wakes with a small debt onto the
    other hart, beside a hog, and is not eligible there at its wake-up; the
    tick lets it in once the hog is ineligible (about 1.3 ms later), where
    before it waited for the hog's slice end. p99 wake-up 1.84 and 1.91 ms
    with the tick when it came, 4.19 ms with tick_us=0 (the same kernel
    without it); since placement rule 2b, 450-466 us (docs/benchmarks.md,
    "The scheduler tick" and "A hog picked beside a woken task it
    outserved forfeits"). Limit 3 ms."""
    name = "tick-wakeup-hogs2-reniced-2harts-percpu"
    with suite.boot(2, tag=name, sched="eevdf", icount=ICOUNT, bootargs="slice=4000 rq=percpu", timeout=600) as g:
        g.run("nice -n 10 hog 6 &")
        g.run("nice -n 10 hog 6 &")
        out = g.run("nice -n -10 schbench -t 2 -r 3 -w 1 -n 1", timeout=600)
        m = re.search(r"schbench: rps=([\d.]+) p50=([\d.]+) p90=([\d.]+) p99=([\d.]+)", out)
        if not m:
            raise RuntimeError("schbench printed %r" % out)
        p99 = float(m.group(4))
        report(p99 <= 3000, name, "p99 wake-up %.1f us (limit 3000; 4,186 without the tick), %s" % (p99, m.group(0)))


def latbench(g, args):
    out = g.run("latbench " + args, timeout=600)
    m = re.search(r"periodic request_us (\d+) wakeups (\d+) p50_us (\d+) p99_us (\d+) max_us (\d+) cpu_us (\d+)\n"
                  r"hogs cpu_us ([\d ]+)\n", out)
    if not m:
        raise RuntimeError("latbench %s printed %r" % (args, out))
    v = [int(x) for x in m.groups()[:6]]
    return dict(req=v[0], n=v[1], p50=v[2], p99=v[3], max=v[4], cpu=v[5], hogs=[int(x) for x in m.group(7).split()])


# (run us, sleep us): a sleeper beside one hog, and its fluid share
# run / (2 run + sleep) from an EEVDF that keeps lag (issue 23 finding 1).
SLEEPERS = ((3000, 1000), (1000, 1000), (2000, 500))


def sleeper_share_tests():
    """Issue 23 finding 1, in the guest: one hog and one sleeper (`latbench
    -s`: run R us of CPU, sleep S us) on 1 hart, eevdf, 4 ms slice, 3 s of
    virtual time each. With the paper's lag (sleep_decay=0) the sleeper
    gets its fluid share, 3/7, 1/3 and 4/9, within 1% (the kernel once
    charged a task only when it stopped, so a sleeper woken mid-slice was
    placed against a V that left out the hog's run and got 0.5000 in all
    three; the host test is tests/host/sched_protocol_test.cc). Measured:
    0.4272-0.4281, 0.3346-0.3356, 0.4431. With the default decay (its debt
    is forgiven while it sleeps) it gets more, never more than its demand R
    / (R + S): 0.4662, 0.3477, 0.4701 (docs/scheduling.md "Sleeping lag")."""
    for decay in (0, 1):
        tag = "sleeper-share-1hart-eevdf-decay%d" % decay
        with suite.boot(1, tag=tag, sched="eevdf", icount=ICOUNT, bootargs="slice=4000 sleep_decay=%d" % decay) as g:
            for run, sleep in SLEEPERS:
                r = latbench(g, "-s 3000 1 %d %d" % (sleep, run))
                share = r["cpu"] / float(r["cpu"] + r["hogs"][0])
                fluid, demand = run / float(2 * run + sleep), run / float(run + sleep)
                if decay:
                    ok, want = fluid * 0.99 <= share <= demand, "%.4f..%.4f" % (fluid * 0.99, demand)
                else:
                    ok, want = abs(share - fluid) <= 0.01 * fluid, "%.4f within 1%%" % fluid
                report(ok, "%s-%d-%d" % (tag, run, sleep), "sleeper's share %.4f (want %s; CPU us %d, hog's %d)"
                       % (share, want, r["cpu"], r["hogs"][0]))


def request_tests():
    """EEVDF request size (issue 23; docs/scheduling.md "Request size"), 1
    hart, slice 750 us, -icount, with the scheduler tick (the default): a
    periodic task (wakes every 9,973 us, runs 100 us of CPU time) beside 2
    hogs for 2 s, with the default request (the slice) and with 100 us
    (Linux's minimum, 1/7.5 of this slice; the issue's 1 ms was 1/100 of its
    100 ms slice). Its p99 wake-up latency must drop >= 3x at the same CPU
    share (within 2%; the hogs' too). The period sweeps every phase of the
    1 ms tick: with 10,000 us the phase stayed fixed for a run, and in 2
    runs of 8 (once in a full make test) every burst took a tick's
    interrupt, about 5 us charged to it each time, so the 100 us request's
    CPU was 2.0-6.3% above the default's for no scheduling reason. Measured
    with 9,973 us, 5 runs (2026-12-07, after the turn fix): p99 1,202-1,506
    -> 201-215 us (5.8-7.2x; max 209-230), CPU 25,617-25,706 -> 25,522-25,585
    us (at most 0.6% apart). The short request's 200 us is EEVDF's order: a
    wake-up in the last part of a hog's request, whose deadline is then
    earlier than V + 100 us, waits for that request's end (when a
    preempted hog got a fresh slice it overran its request, its deadline
    moved on, and such wake-ups preempted it: p99 89-105 us). (Until latbench ran its bursts in CPU time and slept after
    its last one, its CPU time included a hog-like tail whose share varied
    by a slice: 25,531 against 26,267 us in one run of four with the tick,
    and this test booted without the tick.) Then the request's other half:
    a CPU-bound task with a 100 us request beside 2 default hogs gets a
    third of the hart (within 2%): a short request buys latency, not CPU.
    Then the interactive latency test's shape (mlfqtest inter 3000 2 100)
    with a 100 us request for the interactive only: its worst wake-up
    latency is within issue 23's 2 slices (1,500 us) with no allowance
    (measured 64 us; 827-1,588 with the default request).

    Last, a wake-up that comes between the scheduler's pick and its switch
    (a futex timeout's timer interrupt, taken while the scheduler loop runs
    with interrupts on) preempts the picked process: the 100 us-request
    periodic task over 6 s with a 9,973 us period, whose wake-ups sweep
    every phase of the hogs' slices and ticks, never waits a slice. Its max
    wake-up latency must stay under 300 us: measured 99-106 us in 8 runs,
    and 220-232 us in 6 since a preempted hog resumes the rest of its turn
    (the order above); 844-872 in 6 of 6 runs before the fix (the request to reschedule was
    cleared at the switch, and the woken task waited out the hog's whole
    slice; with the 10,000 us period that phase came in 1 run in 5, with
    1.0-1.6 ms more CPU time for the periodic task, which failed the 2%
    CPU check above)."""
    name = "request-p99-periodic-2hogs-1hart-eevdf"
    with suite.boot(1, tag=name, sched="eevdf", icount=ICOUNT) as g:
        d = latbench(g, "2000 2 9973 100")
        r = latbench(g, "-r 100 2000 2 9973 100")
        c = latbench(g, "-r 100 4000 2 0 0")
        s = latbench(g, "-r 100 6000 2 9973 100")
        out = g.run("mlfqtest inter 3000 2 100 100", timeout=600)
        ok = r["req"] == 100 and d["req"] == 0 and r["n"] >= 150 and d["n"] >= 150 and r["p99"] * 3 <= d["p99"]
        ok = ok and abs(r["cpu"] / d["cpu"] - 1) <= 0.02
        ok = ok and all(abs(x / y - 1) <= 0.02 for x, y in zip(r["hogs"], d["hogs"]))
        report(ok, name, "p99 %d -> %d us (%.1fx; max %d -> %d, p50 %d -> %d), its CPU %d -> %d us, hogs %s -> %s"
               % (d["p99"], r["p99"], d["p99"] / max(r["p99"], 1), d["max"], r["max"], d["p50"], r["p50"], d["cpu"],
                  r["cpu"], d["hogs"], r["hogs"]))
        mean = sum(c["hogs"]) / len(c["hogs"])
        ok = c["req"] == 100 and abs(c["cpu"] / mean - 1) <= 0.02
        report(ok, "request-share-hog-2hogs-1hart-eevdf",
               "100 us request hog %d us, default hogs %s us (limit 2%%)" % (c["cpu"], c["hogs"]))
        m = re.search(r"maxlat_us (\d+) meanlat_us (\d+)", out)
        ok = m is not None and int(m.group(1)) <= 1500
        report(ok, "latency-interactive-2hogs-1hart-eevdf-request100",
               "wake-up latency max %s us (limit 2 slices = 1500 us), mean %s us from the tick"
               % (m.group(1), m.group(2)) if m else out)
        ok = s["req"] == 100 and s["n"] >= 590 and s["max"] < 300
        report(ok, "request-wake-between-pick-and-switch-1hart-eevdf",
               "100 us request, 9973 us period, 6 s: %d wake-ups, p99 %d us, max %d us (limit 300)"
               % (s["n"], s["p99"], s["max"]))


def boot_tests():
    for policy in ("rr", "dwrr", "idwrr", "eevdf", "stride", "lottery", "mlfq"):
        for cpus in (1, 8):
            name = "boot-%s-%dharts" % (policy, cpus)
            with suite.boot(cpus, tag=name, sched=policy) as g:
                out = g.run("sched; echo hello | wc", timeout=60)
                report(out == "%s percpu\n1 1 6 \n" % policy, name, repr(out))


def main():
    tool_tests()
    lockstat_test()
    for policy in ("dwrr", "eevdf"):
        ratio_test(policy, 0, 5, 0.10)
    # nice is per thread (docs/threads.md): two threads of one process share
    # a hart by their weights as two processes do.
    ratio_test("eevdf", 0, 5, 0.10, threads=True)
    # nice -20 vs 0 over 8 s: a nice 0 hog's share is 1024/89785 of a hart,
    # counted in whole 1 ms slices; over 4 s that was 44-54 slices, so one
    # slice more or less moved the ratio 2% (measured up to 3.9% off in 16
    # runs against the 5% limit); over 8 s one slice is 1%.
    ratio_test("eevdf", -20, 0, 0.05, ms=8000)
    # Equal shares across harts are a per-task time-fairness property: EEVDF
    # (the default) accounts every cycle per task. DWRR and RR serve a queue
    # in FIFO turns, so uneven turn lengths (timer delivery under -icount's
    # round-robin vCPUs) are never paid back; they measure 2-6% here and are
    # not held to the 2% bound (see docs/processes-and-scheduling.md).
    equal_test("eevdf", 8, 3, 0.02, ms=8000)  # percpu: see the file comment
    # Both run-queue designs (rq=percpu, the default, and rq=single): equal
    # hogs share evenly and weights hold with more hogs than harts.
    equal_test("eevdf", 8, 3, 0.02, rq="single")
    for rq in ("percpu", "single"):
        multi_ratio_test("eevdf", 3, 0, 5, 3, 0.10, rq)
        multi_ratio_test("eevdf", 2, -20, 0, 2, 0.05, rq, ms=8000)
    single_mode_tests()
    infeasible_test()
    latency_test()
    sleeper_share_tests()
    tick_test()
    request_tests()
    affinity_test()
    storm_tests()
    boot_tests()


if __name__ == "__main__":
    main()
