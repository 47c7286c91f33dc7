# mk/tools.mk - host tools (mkfs, fsck) and their GoogleTest tests.
#
#   $(BUILD)/mkfs              build an image:  mkfs IMAGE FILE...
#   $(BUILD)/fsck              check an image:  fsck [-q] IMAGE
#   $(BUILD)/tests/fs_tests    tests/host/fs_*.cc under ASan + UBSan
#                              (appended to HOST_TESTS)
#
# The shared engine (tools/fsbuild.cc, tools/fscheck.cc) is compiled by
# mk/lib.mk's pattern rules into $(BUILD)/host/ (the tools) and
# $(BUILD)/host-san/ (the tests). mkfs links only its builder and the seam
# (make qemu builds nothing else on the host); fsck and the tests link
# $(BUILD)/libquanta-host(-san).a.

# The tools are compiled at -O1 (HOST_TOOLS_OPT): they read and write
# images and dumps of a few MiB, in milliseconds either way, and -O2 made
# their 12 files cost 37 s of CPU against 24 s (make test builds them all;
# make qemu builds mkfs). schedsim and lib/ stay at -O2 (HOST_CXXFLAGS).
HOST_TOOLS_OPT ?= -O1
$(BUILD)/host/tools/%.o: HOST_CXXFLAGS += $(HOST_TOOLS_OPT)

TOOLS_LIB_SRCS := tools/fsbuild.cc tools/fscheck.cc
TOOLS_LIB_OBJS := $(patsubst %.cc,$(BUILD)/host/%.o,$(TOOLS_LIB_SRCS))
FS_TEST_SRCS := $(wildcard tests/host/fs_*.cc)
FS_TESTS := $(BUILD)/tests/fs_tests

$(BUILD)/mkfs: $(BUILD)/host/tools/mkfs.o $(BUILD)/host/tools/fsbuild.o $(BUILD)/host/lib/host/seam_host.o
	$(call say,HOSTLD,$@)$(HOST_CXX) $(HOST_CXXFLAGS) -o $@ $^

$(BUILD)/fsck: $(BUILD)/host/tools/fsck.o $(TOOLS_LIB_OBJS) $(BUILD)/libquanta-host.a
	$(call say,HOSTLD,$@)$(HOST_CXX) $(HOST_CXXFLAGS) -o $@ $^

# The tests also run the mkfs and fsck binaries (exit statuses, messages).
FS_TEST_DEFS := -DQ_MKFS_PATH='"$(BUILD)/mkfs"' -DQ_FSCK_PATH='"$(BUILD)/fsck"'
$(call host_test_obj,fs_tests): HOST_CXXFLAGS += $(FS_TEST_DEFS)

$(call host_test,fs_tests,$(FS_TEST_SRCS) $(TOOLS_LIB_SRCS))
$(FS_TESTS): | $(BUILD)/mkfs $(BUILD)/fsck

ALL_TARGETS += $(BUILD)/mkfs $(BUILD)/fsck

.PHONY: tools fs-tests
tools: $(BUILD)/mkfs $(BUILD)/fsck
# Build and run the fs tests.
fs-tests: $(FS_TESTS)
	$(FS_TESTS)

-include $(wildcard $(BUILD)/host/tools/*.d $(BUILD)/host-san/tools/*.d)
