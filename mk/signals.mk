# mk/signals.mk - signals (docs/signals.md): user/sigtest (with its
# register-survival part in assembly) goes into the image; the suite runs
# it on 1, 3 and 8 harts and checks Ctrl-C at the shell
# (tests/guest/signals_tests.py).
UPROG_NAMES += sigtest
UPROG_PARTS_sigtest := sigtest_regs sigtest_block testkit
GUEST_SUITES += tests/guest/signals_tests.py 1 3 8
# user/jobtest: process groups, sessions, the console's foreground group
# (docs/signals.md "Process groups and job control").
UPROG_NAMES += jobtest
UPROG_PARTS_jobtest := jobtest_stop testkit
# The signal attacks of the hostile suite (user/hostile_sig.c).
UPROG_PARTS_hostile += hostile_sig
