"""tests/guest/pthread_tests.py - POSIX threads (user/libc/pthread*.c) in the guest.

Boots an image with tests/libc/pthreads.c (every pthread and semaphore call,
its error cases, and stresses whose counts must come out exact) and the
OSTEP-style programs of tests/libc/ostep/, all built unmodified by
`qcc -pthread`, once per hart count given (make test: 1, 3 and 8) under
-icount, runs each test as its own command and matches the whole output.
The image must check clean with fsck afterwards. (The kernel's log line
for the unknown SYS_errno call is dropped, as in libc_tests.py.)
"""
import os
import sys
import tempfile

from extra_image import build_image
from libc_tests import Quiet
from qemu import BUILD, Guest, run_cases

TESTS = ["create_join", "join_exited", "join_errors", "detached", "attr", "limit", "mutex",
         "mutex_stress", "cond", "cond_stress", "rwlock", "barrier", "once", "keys", "sem",
         "errno", "stdio"]
CASES = [("pthread-" + t, "pthreads " + t, r"PASS %s\n" % t) for t in TESTS] + [
    ("pthread-main-exit", "pthreads main_exit; echo .",
     r"last thread still runs after main's pthread_exit\.\n"),
    ("pthread-no-such-test", "pthreads nosuch", r"pthreads: no test nosuch\n"),
]
PROGS = ["pthreads"]


def main():
    cpus_list = [int(a) for a in sys.argv[1:]] or [1, 3, 8]
    extra = [os.path.join(BUILD, "libc-tests", "_" + p) for p in PROGS]
    with tempfile.TemporaryDirectory(prefix="quanta-pthread-") as work:
        image = build_image(work, extra)
        for cpus in cpus_list:
            tag = "-%dharts" % cpus
            with Guest(cpus=cpus, icount=3, image=image, timeout=180) as g:
                g.boot()
                run_cases(Quiet(g), CASES, suffix=tag, timeout=180)
                clean, report = g.stop_and_fsck()
                print(("PASS pthread-fsck" + tag) if clean else "FAIL pthread-fsck%s: %s" % (tag, report))


if __name__ == "__main__":
    main()
