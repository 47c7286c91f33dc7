# Host build of the dual-compiled library code: the seam and anything in lib/
# with a .cc file. Fragments add their own lib sources to LIB_HOST_SRCS.
# Host code is built in two flavours from the same sources:
#   $(BUILD)/host/      plain, -O2: the tools (mkfs, fsck, qobs) and
#                       schedsim, which run at full speed
#   $(BUILD)/host-san/  under ASan+UBSan ($(HOST_SANFLAGS)): everything the
#                       GoogleTest binaries link, at $(HOST_SAN_OPT) (-O0),
#                       except lib/ at $(HOST_SAN_LIB_OPT) (-O1, ASan's
#                       recommended level): the policies run the tests'
#                       longest loops. Optimising under UBSan is what cost:
#                       -O2 took 25-40 s a test file and 150 s for
#                       sim/sim.cc (-O0: 4-6 s and 16 s), for tests that run
#                       in seconds either way (README.md, "Where the time
#                       goes").
# A test binary is built once, sanitized: a plain copy found nothing the
# sanitized one does not, and cost a third of the build.
LIB_HOST_SRCS += lib/host/seam_host.cc $(wildcard lib/*.cc lib/fs/*.cc lib/sched/*.cc)
LIB_HOST_OBJS = $(patsubst %.cc,$(BUILD)/host/%.o,$(LIB_HOST_SRCS))
LIB_HOST_SAN_OBJS = $(patsubst %.cc,$(BUILD)/host-san/%.o,$(LIB_HOST_SRCS))
HOST_SAN_OPT ?= -O0
HOST_SAN_LIB_OPT ?= -O1

$(BUILD)/host/%.o: %.cc
	@mkdir -p $(dir $@)
	$(call say,HOSTCXX,$<)$(HOST_CXX) $(HOST_CXXFLAGS) -c $< -o $@

$(BUILD)/host-san/%.o: %.cc
	@mkdir -p $(dir $@)
	$(call say,SANCXX,$<)$(HOST_CXX) $(HOST_CXXFLAGS) $(HOST_SANFLAGS) $(HOST_SAN_OPT) -c $< -o $@

# lib/ (the shorter stem makes this rule win over the one above).
$(BUILD)/host-san/lib/%.o: lib/%.cc
	@mkdir -p $(dir $@)
	$(call say,SANCXX,$<)$(HOST_CXX) $(HOST_CXXFLAGS) $(HOST_SANFLAGS) $(HOST_SAN_LIB_OPT) -c $< -o $@

$(BUILD)/libquanta-host.a: $(LIB_HOST_OBJS)
	@mkdir -p $(dir $@)
	$(call say,AR,$@)rm -f $@ && ar rcs $@ $^

$(BUILD)/libquanta-host-san.a: $(LIB_HOST_SAN_OBJS)
	@mkdir -p $(dir $@)
	$(call say,AR,$@)rm -f $@ && ar rcs $@ $^

-include $(LIB_HOST_OBJS:.o=.d) $(LIB_HOST_SAN_OBJS:.o=.d)

# Host test binaries: one description, one binary.
#   $(call host_test,NAME,SOURCES)
# links $(BUILD)/tests/NAME from SOURCES compiled into $(BUILD)/host-san/
# (ASan+UBSan, see above) with libquanta-host-san.a and GoogleTest, and
# appends it to HOST_TESTS (so make test and make test-host run it).
# The binary's GoogleTest files (tests/host/*_test.cc) are compiled as one
# translation unit, $(call host_test_obj,NAME): the last with -c, the others
# through -include, in order. GoogleTest's headers cost about 3 s of CPU to
# parse and instantiate in every file that includes them, most of a test
# file's compile: sched_tests' 11 files took 52 s of CPU one by one and 16 s
# as one unit (README.md, "Where the time goes"). So the test files of one
# binary share one scope: two of them may not define the same helper at file
# scope (anonymous namespace or static), and the compiler names any clash.
# The code under test (kernel/, sim/, tools/ sources) is compiled file by
# file, as before. $(BUILD)/tests/NAME-san is the same binary under its old
# name (a link), so fragments and scripts that name it keep working. Extra
# flags for the tests go on $(call host_test_obj,NAME), e.g. mk/tools.mk.
# (1 name, 2 sources)
host_test_obj = $(BUILD)/host-san/tests/$(1).o
define host_test_binary
$(1)_UNITY := $(filter tests/host/%_test.cc,$(2))
$(call host_test_obj,$(1)): $$($(1)_UNITY)
	@mkdir -p $$(dir $$@)
	$$(call say,SANCXX,$(1): $$(words $$($(1)_UNITY)) test files)$$(HOST_CXX) $$(HOST_CXXFLAGS) $$(HOST_SANFLAGS) \
	  $$(HOST_SAN_OPT) $$(patsubst %,-include %,$$(filter-out $$(lastword $$($(1)_UNITY)),$$($(1)_UNITY))) \
	  -c $$(lastword $$($(1)_UNITY)) -o $$@
$(BUILD)/tests/$(1): $(call host_test_obj,$(1)) $(patsubst %.cc,$(BUILD)/host-san/%.o,$(filter-out tests/host/%_test.cc,$(2))) \
  $(BUILD)/libquanta-host-san.a
	@mkdir -p $$(dir $$@)
	$$(call say,TESTLD,$$@)$$(HOST_CXX) $$(HOST_CXXFLAGS) $$(HOST_SANFLAGS) -o $$@ $$(filter %.o %.a,$$^) $$(GTEST_LIBS)
$(BUILD)/tests/$(1)-san: $(BUILD)/tests/$(1)
	$$(Q)ln -sf $(1) $$@
HOST_TESTS += $(BUILD)/tests/$(1)
-include $(patsubst %.o,%.d,$(call host_test_obj,$(1)) $(patsubst %.cc,$(BUILD)/host-san/%.o,$(2)))
endef
host_test = $(eval $(call host_test_binary,$(1),$(2)))
