# User programs for scheduling: nice, renice, sched, ps, hog, sharetest,
# storm, lockstat (run-queue lock statistics), taskset (affinity).
UPROG_NAMES += nice renice sched ps hog sharetest storm lockstat taskset
# chrt: EEVDF request size; latbench: a periodic task's wake-up latency
# beside hogs (docs/scheduling.md "Request size").
UPROG_NAMES += chrt latbench
# mlfqtest: OSTEP chapter 8's interactive/hog and gaming experiments
# (tests/guest/ostep_tests.py, docs/ostep-kernel.md).
UPROG_NAMES += mlfqtest
EXTRA_GUEST_SUITES += tests/guest/ostep_tests.py
