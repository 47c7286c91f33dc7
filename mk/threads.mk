# mk/threads.mk - threads and futexes (docs/threads.md): the in-guest test
# program and its suite, run on 1, 3 and 8 harts.
UPROG_NAMES += threadtest
EXTRA_GUEST_SUITES += tests/guest/threads_tests.py 1 3 8
