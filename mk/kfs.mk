# Host unit tests for the kernel file system: build/tests/kfs_tests, under
# ASan+UBSan (mk/lib.mk's host_test).
#  - the pure logic (lib/fs/path.h, lib/fs/pipe_ring.h, lib/fs/log_logic.h)
#  - the real kernel/fs/*.cc (and the descriptor table, kernel/proc/tgroup.cc,
#    and the statistics calls, kernel/stats.cc)
#    compiled for the host, driven through the sys_*
#    calls against a RAM disk by a stand-in kernel (tests/host/kfs_env.cc)
# kfs_fifo_test.cc and kfs_perm_test.cc include lib/abi/abi.h before any
# system header (inside a namespace: the host's struct stat, SYS_* and POLL*
# macros would clash), so they come first in the binary's one translation
# unit (mk/lib.mk's host_test).
KFS_ABI_FIRST := tests/host/kfs_fifo_test.cc tests/host/kfs_perm_test.cc
KFS_TEST_SRCS := $(KFS_ABI_FIRST) $(filter-out $(KFS_ABI_FIRST),$(wildcard tests/host/kfs_*.cc))
KFS_KERNEL_SRCS := $(wildcard kernel/fs/*.cc) kernel/proc/tgroup.cc kernel/stats.cc
# fsck's engine: the kernel tests check their images with the real fsck.
KFS_TOOL_SRCS := tools/fscheck.cc

$(call host_test,kfs_tests,$(KFS_TEST_SRCS) $(KFS_KERNEL_SRCS) $(KFS_TOOL_SRCS))
