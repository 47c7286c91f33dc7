# mk/vm.mk - virtual memory (docs/memory.md): the in-guest test program
# (user/vmtest.c) and its suite on 1, 3 and 8 harts.
UPROG_NAMES += vmtest
EXTRA_GUEST_SUITES += tests/guest/vm_tests.py 1 3 8
UPROG_NAMES += mmaptest
UPROG_PARTS_mmaptest := testkit
UPROG_PARTS_vmtest := testkit
UPROG_PARTS_hostile += hostile_vm
# vmstat: the paging counters (SYS_vmstat), or what a command cost.
UPROG_NAMES += vmstat
UPROG_PARTS_vmstat := dumpfile
# mem: OSTEP chapter 21's memory toucher (the swap cliff, docs/memory.md "Swap").
UPROG_NAMES += mem
# Swap and page replacement: a 24 MiB guest with a 32 MiB swap disk.
EXTRA_GUEST_SUITES += tests/guest/swap_tests.py 1 3 8
# The page cache's index (lib/vm/page_cache.h): host tests.
$(call host_test,pcache_tests,tests/host/page_cache_test.cc)
# The virtual-memory attacks of the hostile suite (user/hostile_vm.c) on 8
# harts too: concurrent copy-on-write faults, copies racing munmap.
EXTRA_GUEST_SUITES += tests/guest/hostile.py --cpus 8 --only cowbomb copyrace touchall mmaptrunc mprotrace lockorder
