"""tests/guest/threads_tests.py - threads and futexes in the guest (user/threadtest.c).

    threads_tests.py HARTS...

Boots the kernel once per hart count (default 1, 3 and 8) under -icount
(virtual time: the tests' bounds on how long a timeout or an exit takes do
not depend on how busy the host is) and runs `threadtest`, which prints `PASS name` / `FAIL name: why` per test (each
test also checks that every page came back); the names are relayed with
the hart count appended. The host adds: no kernel panic, a summary line,
the shell still answering afterwards, and fsck finding the disk clean
once QEMU is killed. Then, on 3 harts, the tracer with threads: a traced
`threadtest create_join` must record a Thread record per new thread (its
tid and its process, a known one), dispatch only known tids, and qtrace's
JSON must show each thread as a track of its process's group. Last, on 8
harts without -icount (harts truly in parallel, where a joiner can see the
join word cleared while the ending thread's kernel path is still running):
`threadtest join_count` four times (200 joins each; before its fix one run
in four saw a joined thread still counted).
"""
import os
import re
import subprocess

from qemu import BUILD, Guest, Suite, report

suite = Suite("threads")


def run(harts):
    with suite.boot(harts, timeout=60, icount=3) as g:
        suite.program(g.run("threadtest", timeout=600), "threadtest", harts)


def trace_threads():
    with Guest(cpus=3, timeout=60) as g:
        try:
            g.boot()
            out = g.run("trace -o /tt.dat threadtest create_join", timeout=300)
        except Exception as e:  # noqa: BLE001
            return report(False, "threads-trace", "no prompt (%s)" % type(e).__name__)
        clean, fsck = g.stop_and_fsck()
        if "PASS create_join" not in out or not clean:
            return report(False, "threads-trace", "traced run failed or disk damaged: %r %s" % (out[-300:], fsck))
        q = os.path.join(BUILD, "qtrace")
        p = subprocess.run([q, "--events", "-p", "/tt.dat", g.image], stdout=subprocess.PIPE, text=True)
        known, threads, problems = set(), [], []
        for line in p.stdout.splitlines():
            f = line.split()
            kind, pid = f[3], int(f[5])
            kv = dict(zip(f[6::2], f[7::2]))
            if kind in ("proc", "fork"):
                known.add(pid)
            elif kind == "thread":
                other = int(kv["other"])
                if other not in known or pid == other:
                    problems.append("thread %d of unknown process %d" % (pid, other))
                known.add(pid)
                threads.append((pid, other))
            elif kind == "switch" and pid not in known:
                problems.append("dispatch of unknown tid %d" % pid)
        report(len(threads) >= 8 and not problems, "threads-trace-records",
               "%d thread records; %s" % (len(threads), "; ".join(problems[:5])))
        j = subprocess.run([q, "-p", "/tt.dat", "--json", "-", g.image], stdout=subprocess.PIPE, text=True).stdout
        missing = [t for t, pr in threads if '"pid":%d,"tid":%d,' % (100000 + pr, t) not in j]
        report(p.returncode == 0 and not missing, "threads-trace-tracks", "no track for tids %s" % missing[:5])


def join_race():
    with suite.boot(8, timeout=60, tag="join-race") as g:
        for i in range(4):
            out = g.run("threadtest join_count", timeout=300)
            suite.program(out, "threadtest", 8, prefix="threads-parallel-run%d" % i)


def main():
    harts = suite.harts()
    for n in harts:
        run(n)
    if 3 in harts:
        trace_threads()
    if 8 in harts:
        join_race()


if __name__ == "__main__":
    main()
