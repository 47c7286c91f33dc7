# User programs for scheduling: nice, renice, sched, ps, hog, sharetest,
# storm, lockstat (run-queue lock statistics), taskset (affinity).
UPROG_NAMES += nice renice sched ps hog sharetest storm lockstat taskset
