# Host build of the dual-compiled library code: the seam and anything in lib/
# with a .cc file. Fragments add their own lib sources to LIB_HOST_SRCS.
LIB_HOST_SRCS += lib/host/seam_host.cc $(wildcard lib/*.cc lib/fs/*.cc lib/sched/*.cc)
LIB_HOST_OBJS = $(patsubst %.cc,$(BUILD)/host/%.o,$(LIB_HOST_SRCS))
LIB_HOST_SAN_OBJS = $(patsubst %.cc,$(BUILD)/host-san/%.o,$(LIB_HOST_SRCS))

$(BUILD)/host/%.o: %.cc
	@mkdir -p $(dir $@)
	$(HOST_CXX) $(HOST_CXXFLAGS) -c $< -o $@

# Sanitizer build (AddressSanitizer + UndefinedBehaviorSanitizer).
$(BUILD)/host-san/%.o: %.cc
	@mkdir -p $(dir $@)
	$(HOST_CXX) $(HOST_CXXFLAGS) $(HOST_SANFLAGS) -c $< -o $@

$(BUILD)/libquanta-host.a: $(LIB_HOST_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/libquanta-host-san.a: $(LIB_HOST_SAN_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

-include $(LIB_HOST_OBJS:.o=.d) $(LIB_HOST_SAN_OBJS:.o=.d)
