# mk/lib.mk - lib/, the code written once for the kernel and the host.
# The kernel compiles lib/ with its own flags (mk/kernel.mk); this is the
# host build of it: the seam and anything in lib/ with a .cc file, in
# $(BUILD)/libquanta-host.a and $(BUILD)/libquanta-host-san.a, and the check
# that the scheduling policies stay freestanding (sched-freestanding-check).
# Fragments add their own lib sources to LIB_HOST_SRCS.
# The host pattern rules below compile every host source (tools/, sim/,
# tests/, bench/ too); host test binaries are mk/tests.mk's host_test.
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

$(BUILD)/host/%.o: %.cc | $$(@D)/.
	$(call say,HOSTCXX,$<)$(HOST_CXX) $(HOST_CXXFLAGS) -c $< -o $@

$(BUILD)/host-san/%.o: %.cc | $$(@D)/.
	$(call say,SANCXX,$<)$(HOST_CXX) $(HOST_CXXFLAGS) $(HOST_SANFLAGS) $(HOST_SAN_OPT) -c $< -o $@

# lib/ (the shorter stem makes this rule win over the one above).
$(BUILD)/host-san/lib/%.o: lib/%.cc | $$(@D)/.
	$(call say,SANCXX,$<)$(HOST_CXX) $(HOST_CXXFLAGS) $(HOST_SANFLAGS) $(HOST_SAN_LIB_OPT) -c $< -o $@

$(BUILD)/libquanta-host.a: $(LIB_HOST_OBJS) | $$(@D)/.
	$(call say,AR,$@)rm -f $@ && ar rcs $@ $^

$(BUILD)/libquanta-host-san.a: $(LIB_HOST_SAN_OBJS) | $$(@D)/.
	$(call say,AR,$@)rm -f $@ && ar rcs $@ $^

-include $(LIB_HOST_OBJS:.o=.d) $(LIB_HOST_SAN_OBJS:.o=.d)

# Every lib/sched/*.cc must compile with the kernel's flags and reference no
# symbol outside lib/sched (const members included) except the seam and
# memset/memcpy (kernel-provided). The objects checked are the kernel's own
# (mk/kernel.mk compiles lib/ with the kernel's flags), not a second copy.
# In make test (HOST_CHECKS).
SCHED_LIB_SRCS := $(wildcard lib/sched/*.cc)
SCHED_K_OBJS := $(patsubst %,$(BUILD)/kernel-obj/%.o,$(SCHED_LIB_SRCS))
HOST_CHECKS += sched-freestanding-check

.PHONY: sched-freestanding-check
sched-freestanding-check: $(SCHED_K_OBJS)
	@undef=$$($(CROSS)nm -u $^ | awk '$$1=="U"{print $$2}' | sort -u | \
	  grep -v -E '^(_ZNK?1q4seam|_ZNK?1q5sched|_ZTVN1q5sched|memset$$|memcpy$$)' || true); \
	if [ -n "$$undef" ]; then echo "sched: unexpected external symbols: $$undef"; exit 1; fi; \
	echo "sched-freestanding-check: $(words $^) objects OK"
