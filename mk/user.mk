# mk/user.mk - the user library, user programs and the disk image.
#
# The table below is the one place a program is registered: a row names it
# (and its other source files), and make builds it, puts it in the image
# and asks docs/userland.md for its row (make docs-check). The source is
# user/NAME.c or user/NAME.cc and the binary is $(BUILD)/user/_NAME; mkfs
# drops the '_', so the program appears as /NAME in the image.
#
#   ULIB      the user library (start-up, system-call stubs, ulib, printf,
#             malloc, C++ run-time bits); crt0.o is linked first, separately
#   UPROGS    every built program ($(BUILD)/user/_NAME)
#   FS_IMG    the disk image: README.md, all programs, $(EXTRA_FILES)
#   IMG_PROGS the programs as the image holds them: $(BUILD)/image/_NAME,
#             a copy without debug sections (objcopy --strip-debug keeps the
#             symbols): a file holds at most 268 KiB (xv6's 12 direct and
#             256 indirect blocks) and _hostile's DWARF alone is over 200
#             KiB. gdb, qprof and mkbadelf read the full $(BUILD)/user/_NAME.
#
# The system-call stubs are generated from lib/abi/abi.h by user/lib/usys.sh.

# A row is `UPROG_NAMES += NAME...` for programs of one source file, or
# $(call uprog,NAME,OTHER) for user/NAME.c(c) linked with user/OTHER.c(c,S)
# for each base name in OTHER (it sets UPROG_PARTS_NAME).
uprog = $(eval UPROG_NAMES += $(1))$(eval UPROG_PARTS_$(1) := $(2))

# The programs, by what they are for:
# xv6's shell and file utilities, users and permissions (docs/users-and-protection.md)
UPROG_NAMES += init sh cat echo grep kill ln ls mkdir rm wc halt sleep time
UPROG_NAMES += id whoami su chmod chown permtest
$(call uprog,usertests,usertests_fs testkit)
# scheduling (docs/scheduling.md): nice, ps, affinity, run-queue lock
# statistics, EEVDF's request size (chrt) and a periodic task's wake-up
# latency beside hogs (latbench); OSTEP chapter 8's experiments (mlfqtest)
UPROG_NAMES += nice renice sched ps hog sharetest storm lockstat taskset chrt latbench mlfqtest
# benchmarks (docs/benchmarks.md): schbench, frames, OS paths (benchos),
# disk and buffer-cache figures
UPROG_NAMES += schbench frames benchos diskstat
$(call uprog,bcstat,dumpfile)
# the recorders (docs/tracing.md, docs/profiling.md): /trace and /prof are
# links to obs (mk/obs.mk)
$(call uprog,obs,dumpfile)
UPROG_NAMES += trace prof
# reliability (mk/reliability.mk): the fuzzer, crash workload, exhaustion,
# the hostile attacks (file system, threads, memory, signals)
$(call uprog,fuzz,fuzz_sig)
UPROG_NAMES += fsworkload exhaust bigbss
$(call uprog,hostile,hostile_proc hostile_mem hostile_io hostile_fs hostile_threads hostile_vm hostile_sig hostile_count)
# threads and futexes (docs/threads.md)
$(call uprog,threadtest,threadtest_proc testkit)
UPROG_NAMES += threadbench
# virtual memory (docs/memory.md): paging counters (vmstat), OSTEP chapter
# 21's memory toucher (mem)
$(call uprog,vmtest,testkit)
$(call uprog,mmaptest,testkit)
$(call uprog,vmstat,dumpfile)
UPROG_NAMES += mem
# named pipes and poll (docs/ipc.md)
UPROG_NAMES += mkfifo
$(call uprog,ipctest,testkit)
# signals, process groups and job control (docs/signals.md)
$(call uprog,sigtest,sigtest_regs sigtest_block testkit)
$(call uprog,jobtest,jobtest_stop testkit)
# Built for a test only, not put in the image: the FP checks
# (mk/libc.mk, tests/guest/fp_tests.py)
UPROG_PARTS_fptest := fptest_regs

UPROGS = $(patsubst %,$(BUILD)/user/_%,$(sort $(UPROG_NAMES)))
FS_IMG := $(BUILD)/fs.img
EXTRA_FILES ?=
IMG_PROGS = $(patsubst $(BUILD)/user/_%,$(BUILD)/image/_%,$(UPROGS))
FS_FILES = $(wildcard README.md) $(IMG_PROGS) $(EXTRA_FILES)

U_EXTRA_FLAGS := -fno-tree-loop-distribute-patterns
U_LDFLAGS := $(U_ARCH) -nostdlib -static -no-pie -Wl,--build-id=none -Wl,--no-warn-rwx-segments -T user/user.ld

ULIB_SRCS := user/lib/start.c user/lib/ulib.c user/lib/printf.c user/lib/umalloc.c user/lib/cxxrt.cc user/lib/passwd.c \
  user/lib/thread.c
ULIB_OBJS := $(patsubst %,$(BUILD)/%.o,$(basename $(ULIB_SRCS))) $(BUILD)/user/lib/usys.o
ULIB := $(BUILD)/user/libulib.a
UCRT0 := $(BUILD)/user/lib/crt0.o

$(BUILD)/user/lib/usys.S: lib/abi/abi.h user/lib/usys.sh
	@mkdir -p $(dir $@)
	$(call say,GEN,$@)sh user/lib/usys.sh $< > $@.tmp && mv $@.tmp $@

$(BUILD)/user/lib/usys.o: $(BUILD)/user/lib/usys.S
	$(call say,UAS,$<)$(U_CC) $(U_ARCH) -c $< -o $@

$(BUILD)/user/%.o: user/%.S
	@mkdir -p $(dir $@)
	$(call say,UAS,$<)$(U_CC) $(U_ARCH) -I. -MMD -MP -c $< -o $@

$(BUILD)/user/%.o: user/%.c
	@mkdir -p $(dir $@)
	$(call say,UCC,$<)$(U_CC) $(U_CFLAGS) $(U_EXTRA_FLAGS) -c $< -o $@

$(BUILD)/user/%.o: user/%.cc
	@mkdir -p $(dir $@)
	$(call say,UCXX,$<)$(U_CXX) $(U_CXXFLAGS) $(U_EXTRA_FLAGS) -c $< -o $@

$(ULIB): $(ULIB_OBJS)
	$(call say,UAR,$@)rm -f $@ && $(CROSS)ar rcs $@ $^

.SECONDEXPANSION:
# A program's other files: UPROG_PARTS_NAME (the table above). (A
# function, because a literal % in a pattern rule's prerequisites would be
# replaced by the stem.)
uprog_parts = $(patsubst %,$(BUILD)/user/%.o,$(UPROG_PARTS_$(1)))
$(BUILD)/user/_%: $(BUILD)/user/%.o $$(call uprog_parts,$$*) $(UCRT0) $(ULIB) user/user.ld
	$(call say,ULD,$@)$(U_CC) $(U_LDFLAGS) -o $@ $(UCRT0) $< $(call uprog_parts,$*) $(ULIB) -lgcc

# A symbolic link (/trace -> obs) stays a link, which mkfs makes a hard link.
$(BUILD)/image/_%: $(BUILD)/user/_%
	@mkdir -p $(dir $@)
	$(Q)if [ -L $< ]; then cp -P $< $@; else $(CROSS)objcopy --strip-debug $< $@; fi

# Rebuild the image when the list of files changes (e.g. EXTRA_FILES).
$(BUILD)/fs.list: user-fs-list-force
	@mkdir -p $(dir $@)
	@echo '$(FS_FILES)' | cmp -s - $@ || echo '$(FS_FILES)' > $@

$(FS_IMG): $(BUILD)/mkfs $(BUILD)/fs.list $$(FS_FILES)
	$(call say,MKFS,$@)$(BUILD)/mkfs $@ $(FS_FILES)

.PHONY: user user-fs-list-force
user: $$(UPROGS)

ALL_TARGETS += $(FS_IMG)

.PRECIOUS: $(BUILD)/user/%.o
-include $(wildcard $(BUILD)/user/*.d $(BUILD)/user/lib/*.d)
