# mk/user.mk - the user library, user programs and the disk image.
#
# Adding a program is one word: append its name to UPROG_NAMES (from any
# fragment, before or after this one); the source is user/NAME.c or
# user/NAME.cc and the binary is $(BUILD)/user/_NAME. mkfs drops the '_',
# so the program appears as /NAME in the image.
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
# UPROGS and the image's file list are expanded late (second expansion), so
# appends to UPROG_NAMES in fragments included after this one still count.

UPROG_NAMES += init sh cat echo grep kill ln ls mkdir rm wc halt usertests
UPROG_NAMES += id whoami su chmod chown permtest
UPROG_NAMES += sleep time
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

UPROG_PARTS_usertests := usertests_fs testkit
UPROG_PARTS_hostile := hostile_fs

.SECONDEXPANSION:
# A program of several files lists its other sources' base names in
# UPROG_PARTS_NAME (e.g. UPROG_PARTS_usertests := usertests_fs).
# (A function, because a literal % in a pattern rule's prerequisites would
# be replaced by the stem.)
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
