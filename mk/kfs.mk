# Host unit tests for the kernel file system: build/tests/kfs_tests.
#  - the pure logic (lib/fs/path.h, lib/fs/pipe_ring.h, lib/fs/log_logic.h)
#  - the real kernel/fs/*.cc compiled for the host, driven through the sys_*
#    calls against a RAM disk by a stand-in kernel (tests/host/kfs_env.cc)
KFS_TEST_SRCS := $(wildcard tests/host/kfs_*.cc)
KFS_KERNEL_SRCS := $(wildcard kernel/fs/*.cc)
KFS_TEST_OBJS := $(patsubst %.cc,$(BUILD)/host/%.o,$(KFS_TEST_SRCS) $(KFS_KERNEL_SRCS))

$(BUILD)/tests/kfs_tests: $(KFS_TEST_OBJS) $(BUILD)/libquanta-host.a
	@mkdir -p $(dir $@)
	$(HOST_CXX) $(HOST_CXXFLAGS) -o $@ $(KFS_TEST_OBJS) $(BUILD)/libquanta-host.a -lgtest -lgtest_main -pthread

HOST_TESTS += $(BUILD)/tests/kfs_tests

-include $(KFS_TEST_OBJS:.o=.d)

# The same tests under AddressSanitizer + UndefinedBehaviorSanitizer.
KFS_TEST_SAN_OBJS := $(patsubst %.cc,$(BUILD)/host-san/%.o,$(KFS_TEST_SRCS) $(KFS_KERNEL_SRCS))
$(BUILD)/tests/kfs_tests-san: $(KFS_TEST_SAN_OBJS) $(BUILD)/libquanta-host-san.a
	@mkdir -p $(dir $@)
	$(HOST_CXX) $(HOST_CXXFLAGS) $(HOST_SANFLAGS) -o $@ $(KFS_TEST_SAN_OBJS) $(BUILD)/libquanta-host-san.a -lgtest -lgtest_main -pthread

HOST_TESTS += $(BUILD)/tests/kfs_tests-san
-include $(KFS_TEST_SAN_OBJS:.o=.d)
