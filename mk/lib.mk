# Host build of the dual-compiled library code: the seam and anything in lib/
# with a .cc file. Fragments add their own lib sources to LIB_HOST_SRCS.
# Every host object is built twice from the same source: plain into
# $(BUILD)/host/, with ASan+UBSan ($(HOST_SANFLAGS)) into $(BUILD)/host-san/.
LIB_HOST_SRCS += lib/host/seam_host.cc $(wildcard lib/*.cc lib/fs/*.cc lib/sched/*.cc)
LIB_HOST_OBJS = $(patsubst %.cc,$(BUILD)/host/%.o,$(LIB_HOST_SRCS))
LIB_HOST_SAN_OBJS = $(patsubst %.cc,$(BUILD)/host-san/%.o,$(LIB_HOST_SRCS))

$(BUILD)/host/%.o: %.cc
	@mkdir -p $(dir $@)
	$(call say,HOSTCXX,$<)$(HOST_CXX) $(HOST_CXXFLAGS) -c $< -o $@

$(BUILD)/host-san/%.o: %.cc
	@mkdir -p $(dir $@)
	$(call say,SANCXX,$<)$(HOST_CXX) $(HOST_CXXFLAGS) $(HOST_SANFLAGS) -c $< -o $@

$(BUILD)/libquanta-host.a: $(LIB_HOST_OBJS)
	@mkdir -p $(dir $@)
	$(call say,AR,$@)rm -f $@ && ar rcs $@ $^

$(BUILD)/libquanta-host-san.a: $(LIB_HOST_SAN_OBJS)
	@mkdir -p $(dir $@)
	$(call say,AR,$@)rm -f $@ && ar rcs $@ $^

-include $(LIB_HOST_OBJS:.o=.d) $(LIB_HOST_SAN_OBJS:.o=.d)

# Host test binaries: one description, two binaries.
#   $(call host_test,NAME,SOURCES)
# links $(BUILD)/tests/NAME from SOURCES compiled into $(BUILD)/host/ with
# libquanta-host.a, and $(BUILD)/tests/NAME-san from the same SOURCES
# compiled into $(BUILD)/host-san/ with libquanta-host-san.a and
# $(HOST_SANFLAGS); both with GoogleTest, both appended to HOST_TESTS (so
# make test and make test-host run them). Extra flags or prerequisites go
# on their own lines next to the call, e.g. mk/tools.mk.
# (1 name, 2 sources, 3 variant dir host|host-san, 4 suffix, 5 extra flags, 6 tag)
define host_test_variant
$(BUILD)/tests/$(1)$(4): $(patsubst %.cc,$(BUILD)/$(3)/%.o,$(2)) $(BUILD)/libquanta-$(3).a
	@mkdir -p $$(dir $$@)
	$$(call say,$(6),$$@)$$(HOST_CXX) $$(HOST_CXXFLAGS) $(5) -o $$@ $$(filter %.o %.a,$$^) $$(GTEST_LIBS)
HOST_TESTS += $(BUILD)/tests/$(1)$(4)
-include $(patsubst %.cc,$(BUILD)/$(3)/%.d,$(2))
endef
host_test = $(eval $(call host_test_variant,$(1),$(2),host,,,HOSTLD))$(eval \
  $(call host_test_variant,$(1),$(2),host-san,-san,$(HOST_SANFLAGS),SANLD))
