"""tests/guest/threads_tests.py - threads and futexes in the guest (user/threadtest.c).

    threads_tests.py HARTS...

Boots the kernel once per hart count (default 1, 3 and 8) and runs
`threadtest`, which prints `PASS name` / `FAIL name: why` per test (each
test also checks that every page came back); the names are relayed with
the hart count appended. The host adds: no kernel panic, a summary line,
the shell still answering afterwards, and fsck finding the disk clean
once QEMU is killed.
"""
import re
import sys

from qemu import Guest, relay_results


def run(harts):
    with Guest(cpus=harts, timeout=60) as g:
        try:
            g.boot()
            out = g.run("threadtest", timeout=600)
            after = g.run("echo alive", timeout=30)
        except Exception as e:  # noqa: BLE001 - any failure to get a prompt
            print("FAIL threads-%dharts: no prompt (%s); console ends %r" % (harts, type(e).__name__,
                                                                         "".join(g.log)[-800:]))
            return
        if "panic" in out:
            print("FAIL threads-panic-%dharts: %r" % (harts, out[out.index("panic"):][:300]))
        relay_results(out, "threads", "%dharts" % harts)
        if not re.search(r"threadtest: \d+ passed, \d+ failed", out):
            print("FAIL threads-summary-%dharts: no summary line; output ends %r" % (harts, out[-500:]))
        if "alive" not in after:
            print("FAIL threads-shell-%dharts: the shell does not answer (%r)" % (harts, after))
        clean, report = g.stop_and_fsck()
        print("%s threads-fsck-%dharts%s" % ("PASS" if clean else "FAIL", harts,
                                             "" if clean else ": " + report.replace("\n", " | ")))


def main():
    harts = [int(a) for a in sys.argv[1:]] or [1, 3, 8]
    for n in harts:
        run(n)


if __name__ == "__main__":
    main()
