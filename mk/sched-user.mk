# User programs for scheduling: nice, renice, sched, ps, hog, sharetest.
UPROG_NAMES += nice renice sched ps hog sharetest storm
