# mk/threads.mk - threads and futexes (docs/threads.md): the in-guest test
# program and its suite on 1, 3 and 8 harts, hostile's thread attacks
# (user/hostile_threads.c, part of user/hostile) on 8 harts as well (the
# hostile suite's own runs have 1 and 3), and threadbench (make bench-os).
UPROG_NAMES += threadtest threadbench
UPROG_PARTS_hostile += hostile_threads
UPROG_PARTS_threadtest := threadtest_proc testkit
EXTRA_GUEST_SUITES += tests/guest/threads_tests.py 1 3 8
EXTRA_GUEST_SUITES += tests/guest/hostile.py --cpus 8 --only tbomb tfutex texitrace texecrace tkill tjoin tstack
