# Scheduling policy library (lib/sched): host tests, sanitizer tests, the
# freestanding check with the kernel's flags, and the pick+charge benchmark.
#   make sched-tests            build build/tests/sched_tests (ASan+UBSan)
#   make sched-freestanding-check  compile lib/sched/*.cc with kernel flags
#   make bench-sched            Google Benchmark: pick+charge at 1k/10k/100k

SCHED_LIB_SRCS := $(wildcard lib/sched/*.cc)
SCHED_TEST_SRCS := $(wildcard tests/host/sched_*.cc)

$(call host_test,sched_tests,$(SCHED_TEST_SRCS))
ALL_TARGETS += $(BUILD)/tests/sched_tests
HOST_CHECKS += sched-freestanding-check

.PHONY: sched-tests sched-freestanding-check bench-sched
sched-tests: $(BUILD)/tests/sched_tests

# Every lib/sched/*.cc must compile with the kernel's flags and reference no
# symbol outside lib/sched (const members included) except the seam and
# memset/memcpy (kernel-provided). The objects checked are the kernel's own
# (mk/kernel.mk compiles lib/ with the kernel's flags), not a second copy.
SCHED_K_OBJS := $(patsubst %,$(BUILD)/kernel-obj/%.o,$(SCHED_LIB_SRCS))

sched-freestanding-check: $(SCHED_K_OBJS)
	@undef=$$($(CROSS)nm -u $^ | awk '$$1=="U"{print $$2}' | sort -u | \
	  grep -v -E '^(_ZNK?1q4seam|_ZNK?1q5sched|_ZTVN1q5sched|memset$$|memcpy$$)' || true); \
	if [ -n "$$undef" ]; then echo "sched: unexpected external symbols: $$undef"; exit 1; fi; \
	echo "sched-freestanding-check: $(words $^) objects OK"

$(BUILD)/bench/sched_bench: $(BUILD)/host/bench/sched_bench.o $(BUILD)/libquanta-host.a
	@mkdir -p $(dir $@)
	$(call say,HOSTLD,$@)$(HOST_CXX) $(HOST_CXXFLAGS) -o $@ $^ -lbenchmark -pthread

bench-sched: $(BUILD)/bench/sched_bench
	$(BUILD)/bench/sched_bench --benchmark_min_time=0.2

-include $(BUILD)/host/bench/sched_bench.d
