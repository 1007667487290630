# User space: libc/ (Duplex's OS layer on top of Debian's picolibc), the programs in user/,
# and the cpio "newc" archive of them that the kernel embeds. Included by the top-level
# Makefile after BUILD, CC and OBJCOPY are defined.
#
#   USER_PROGRAMS          program names; user/NAME.c becomes $(BUILD)/user/bin/NAME
#   USER_FOLDER_PROGRAMS   programs of several files: user/NAME/*.c become
#                          $(BUILD)/user/bin/NAME (bench, sh)
#   USER_FP_PROGRAMS       the same, built for the hard-float ABI (rv64imafdc, lp64d)
#                          against a second build of libc/ (under $(BUILD)/user/lp64d/)
#   GLIBC_PROGRAMS         programs also built with Debian's riscv64 glibc (static, lp64d):
#                          $(BUILD)/user/glibc/bin/NAME, packed as bin/glibc/NAME
#   EXTRA_PROGRAMS         (command line) static riscv64 executables built elsewhere,
#                          packed as bin/<file name> after tools/check-program.py accepts
#                          them: make run EXTRA_PROGRAMS=./hello INIT=hello
#   USERLAND=busybox       (command line) Debian trixie's busybox-static, fetched by
#                          tools/busybox-fetch.sh into build/busybox/, packed as
#                          bin/busybox with a symbolic link bin/APPLET -> busybox for each
#                          of its applets that is not one of Duplex's programs, and for sh,
#                          ls, head and tail (BUSYBOX_REPLACES: busybox's replace
#                          Duplex's), plus etc/init.sh and an
#                          etc/passwd and etc/group naming root (whoami, id)
#   USER_BINARIES          those ELF files (with symbols, for gdb)
#   ARCHIVE_LINKS          symbolic links packed as links (cpio type 0120000): NAME=TARGET,
#                          NAME inside the archive (links in bin/ show in the shell's
#                          `help`), TARGET as the link holds it (relative to NAME's
#                          directory, or absolute); other makefiles may add to it (+=)
#   INITRAMFS              $(BUILD)/initramfs.cpio: bin/NAME (stripped, mode 0755) for every
#                          program plus the files under user/etc/ as etc/... (0755 if executable
#                          in the source tree, else 0644) and the links; `cpio -t` lists it

USER_PROGRAMS := hello echo true false sleep cat ls head tail crash test_syscalls consolestat \
	conpattern conrecords linetest loadwriter rxcheck fuzz exhaust spin exitrace stalemap \
	boardcheck test_linux trace dmesg logstorm nonblock pressure fopentest test_fs test_fork test_pipe \
	stty test_terminal test_misc test_line_edit test_cow test_ppoll test_jobs test_tty_eintr \
	test_tty_eintr_polling test_lock_eintr ttyflood ids test_sysrq
USER_FOLDER_PROGRAMS := bench sh
USER_FP_PROGRAMS := fpcheck fptest test_signal
GLIBC_PROGRAMS := hello echo test_syscalls test_linux loadwriter fptest test_fs test_signal \
	test_fork test_pipe test_misc test_cow test_ppoll test_jobs
# Links test_fs resolves: relative (up and into bin/, as an applet link would point at
# busybox), absolute, and one that points at itself (ELOOP).
ARCHIVE_LINKS := etc/hello-link=../bin/hello etc/motd-link=/etc/motd etc/loop=loop

USER_BUILD := $(BUILD)/user
INITRAMFS  := $(BUILD)/initramfs.cpio

# picolibc.specs adds picolibc's headers and libraries. No _zicsr in -march: picolibc's
# multilib selection breaks with it (asm that reads a CSR says `.option arch, +zicsr`). -D_DEFAULT_SOURCE: -std=c11
# alone would hide the POSIX declarations in picolibc's headers. libc/include comes before
# picolibc's headers, so its files replace or extend them (#include_next). -MD, not -MMD:
# the kernel headers come in through -idirafter, which makes them "system" headers that
# -MMD leaves out of the dependencies (a changed struct console_telemetry once left
# programs built against the old one).
# The lp64d programs use picolibc's rv64imafdc/lp64d multilib (`--print-multi-lib`).
USER_ARCH    := --specs=picolibc.specs -march=rv64imac -mabi=lp64
USER_FP_ARCH := --specs=picolibc.specs -march=rv64imafdc -mabi=lp64d
USER_CFLAGS_ANY_ARCH := -Os -g -Wall -Wextra -Werror -std=c11 -D_DEFAULT_SOURCE \
	-ffunction-sections -fdata-sections -Ilibc/include -idirafter . -MD -MP
USER_CFLAGS  := $(USER_ARCH) $(USER_CFLAGS_ANY_ARCH)
# sbrk and getauxval exist in picolibc too (a fixed-region heap and a stub): naming them
# undefined up front makes the linker take libduplex's before it opens libc.a, where
# malloc() would otherwise find picolibc's sbrk in the same pass.
USER_LDFLAGS_ANY_ARCH := -nostartfiles -static -T libc/user.ld -Wl,--gc-sections \
	-Wl,-z,max-page-size=4096 -Wl,--build-id=none -Wl,--undefined=sbrk \
	-Wl,--undefined=getauxval
USER_LDFLAGS := $(USER_ARCH) $(USER_LDFLAGS_ANY_ARCH)

LIBC_OBJECTS := $(patsubst libc/%.c,$(USER_BUILD)/libc/%.o,$(wildcard libc/*.c))
LIBC_CRT0    := $(USER_BUILD)/libc/crt0.o
LIBC_ARCHIVE := $(USER_BUILD)/libduplex.a

USER_FP_BUILD        := $(USER_BUILD)/lp64d
LIBC_FP_OBJECTS      := $(patsubst libc/%.c,$(USER_FP_BUILD)/libc/%.o,$(wildcard libc/*.c))
LIBC_FP_CRT0         := $(USER_FP_BUILD)/libc/crt0.o
LIBC_FP_ARCHIVE      := $(USER_FP_BUILD)/libduplex.a

USER_FP_BINARIES := $(patsubst %,$(USER_BUILD)/bin/%,$(USER_FP_PROGRAMS))
USER_BINARIES := $(patsubst %,$(USER_BUILD)/bin/%,$(USER_PROGRAMS) $(USER_FOLDER_PROGRAMS)) \
	$(USER_FP_BINARIES)

# glibc builds: Debian's gcc-riscv64-linux-gnu and libc6-dev-riscv64-cross (make deps).
# glibc's headers come first; libc/glibc/include adds Duplex's calls to <sys/syscall.h>;
# libc/include comes after glibc's headers, so only what glibc lacks (<duplex.h>,
# <raw_syscall.h>) is taken from there. DUPLEX_BIN_DIR: where a program that starts
# itself again finds its own build.
GLIBC_CROSS    := riscv64-linux-gnu-
GLIBC_CC       := $(GLIBC_CROSS)gcc
GLIBC_BUILD    := $(USER_BUILD)/glibc
GLIBC_CFLAGS   := -O2 -g -Wall -Wextra -Werror -std=c11 -D_GNU_SOURCE \
	-DDUPLEX_BIN_DIR='"/bin/glibc"' -Ilibc/glibc/include -idirafter libc/include -idirafter . \
	-MD -MP
GLIBC_LDFLAGS  := -static -Wl,--build-id=none
GLIBC_SHIM     := $(GLIBC_BUILD)/libduplex-glibc.a
GLIBC_BINARIES := $(patsubst %,$(GLIBC_BUILD)/bin/%,$(GLIBC_PROGRAMS))
USER_ETC_FILES := $(patsubst user/%,%,$(wildcard user/etc/*))

# `make` (all) builds the archive; the kernel, which embeds it, depends on it too.
all: $(INITRAMFS)

$(USER_BUILD)/libc/%.o: libc/%.c user/user.mk
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -c $< -o $@

$(LIBC_CRT0): libc/crt0.S user/user.mk
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -c $< -o $@

$(USER_BUILD)/obj/%.o: user/%.c user/user.mk
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -c $< -o $@

$(LIBC_ARCHIVE): $(LIBC_OBJECTS)
	@rm -f $@
	$(CROSS)ar rcs $@ $^

# libduplex.a and picolibc's libc.a in one group, as they need each other.
$(USER_BUILD)/bin/%: $(USER_BUILD)/obj/%.o $(LIBC_CRT0) $(LIBC_ARCHIVE) libc/user.ld user/user.mk
	@mkdir -p $(dir $@)
	$(CC) $(USER_LDFLAGS) $(LIBC_CRT0) $< -Wl,--start-group $(LIBC_ARCHIVE) -lc \
		-Wl,--end-group -o $@

# A folder program: its objects in the order of their names, so the link is always the same,
# and NAME_LAST (if set) at the end. bench links console.c last: its 4 KiB payload then ends
# bench's .bss, 3104 bytes into a page, where the one-file bench had it. That matters to the
# numbers: the kernel checks a write's buffer page by page, so writes of more than 992 bytes
# from the payload span two pages and cost one page walk more (S10/S11 1024 B: ~0.1 us).
bench_LAST := user/bench/console.c
define folder_program
$(1)_OBJECTS := $$(patsubst user/%.c,$(USER_BUILD)/obj/%.o,\
	$$(filter-out $$($(1)_LAST),$$(sort $$(wildcard user/$(1)/*.c))) $$($(1)_LAST))
$(USER_BUILD)/bin/$(1): $$($(1)_OBJECTS) $(LIBC_CRT0) $(LIBC_ARCHIVE) libc/user.ld user/user.mk
	@mkdir -p $$(dir $$@)
	$(CC) $(USER_LDFLAGS) $(LIBC_CRT0) $$($(1)_OBJECTS) -Wl,--start-group $(LIBC_ARCHIVE) -lc \
		-Wl,--end-group -o $$@
endef
$(foreach p,$(USER_FOLDER_PROGRAMS),$(eval $(call folder_program,$(p))))

# The lp64d flavour: the same sources, compiled for the hard-float ABI.
$(USER_FP_BUILD)/libc/%.o: libc/%.c user/user.mk
	@mkdir -p $(dir $@)
	$(CC) $(USER_FP_ARCH) $(USER_CFLAGS_ANY_ARCH) -c $< -o $@

$(LIBC_FP_CRT0): libc/crt0.S user/user.mk
	@mkdir -p $(dir $@)
	$(CC) $(USER_FP_ARCH) $(USER_CFLAGS_ANY_ARCH) -c $< -o $@

$(USER_FP_BUILD)/obj/%.o: user/%.c user/user.mk
	@mkdir -p $(dir $@)
	$(CC) $(USER_FP_ARCH) $(USER_CFLAGS_ANY_ARCH) -c $< -o $@

$(LIBC_FP_ARCHIVE): $(LIBC_FP_OBJECTS)
	@rm -f $@
	$(CROSS)ar rcs $@ $^

$(USER_FP_BINARIES): $(USER_BUILD)/bin/%: $(USER_FP_BUILD)/obj/%.o $(LIBC_FP_CRT0) \
		$(LIBC_FP_ARCHIVE) libc/user.ld user/user.mk
	@mkdir -p $(dir $@)
	$(CC) $(USER_FP_ARCH) $(USER_LDFLAGS_ANY_ARCH) $(LIBC_FP_CRT0) $< -Wl,--start-group \
		$(LIBC_FP_ARCHIVE) -lc -lm -Wl,--end-group -o $@

$(GLIBC_BUILD)/obj/%.o: user/%.c user/user.mk
	@mkdir -p $(dir $@)
	$(GLIBC_CC) $(GLIBC_CFLAGS) -c $< -o $@

$(GLIBC_BUILD)/libc/duplex.o: libc/glibc/duplex.c user/user.mk
	@mkdir -p $(dir $@)
	$(GLIBC_CC) $(GLIBC_CFLAGS) -c $< -o $@

$(GLIBC_SHIM): $(GLIBC_BUILD)/libc/duplex.o
	@rm -f $@
	$(GLIBC_CROSS)ar rcs $@ $^

$(GLIBC_BUILD)/bin/%: $(GLIBC_BUILD)/obj/%.o $(GLIBC_SHIM) user/user.mk
	@mkdir -p $(dir $@)
	$(GLIBC_CC) $(GLIBC_LDFLAGS) $< $(GLIBC_SHIM) -o $@

# bench built with glibc too, packed as /bin/glibc/bench: the very binary the Linux peer
# (`make peer`, tools/linux-peer.sh) boots as its benchmark, so that both kernels run the
# same code (docs/benchmark.md, "Linux beside Duplex").
GLIBC_FOLDER_PROGRAMS := bench
GLIBC_BENCH := $(GLIBC_BUILD)/bin/bench
GLIBC_BENCH_OBJECTS := $(patsubst $(USER_BUILD)/obj/%,$(GLIBC_BUILD)/obj/%,$(bench_OBJECTS))
$(GLIBC_BENCH): $(GLIBC_BENCH_OBJECTS) $(GLIBC_SHIM) user/user.mk
	@mkdir -p $(dir $@)
	$(GLIBC_CC) $(GLIBC_LDFLAGS) $(GLIBC_BENCH_OBJECTS) $(GLIBC_SHIM) -o $@
$(GLIBC_BUILD)/obj/bench/header.o: $(USER_BUILD)/bench_build.h
$(GLIBC_BUILD)/obj/bench/header.o: GLIBC_CFLAGS += -include $(USER_BUILD)/bench_build.h

# EXTRA_PROGRAMS: the list is kept in a file rewritten only when it changes, so the
# archive is rebuilt when a program is added or removed, and when one of them changes.
# Its temporary file is the shell's own ($$$$): make runs concurrently in one tree under
# `make test` (tests that `make run`), and a shared name was renamed away under another.
EXTRA_PROGRAMS ?=
EXTRA_PROGRAMS_LIST := $(USER_BUILD)/extra-programs.list
EXTRA_NAME_CLASHES := $(filter $(USER_PROGRAMS) $(USER_FOLDER_PROGRAMS) $(USER_FP_PROGRAMS) glibc,$(notdir $(EXTRA_PROGRAMS)))
$(EXTRA_PROGRAMS_LIST): extra-programs-list
	@mkdir -p $(dir $@)
	@echo '$(abspath $(EXTRA_PROGRAMS))' > $@.$$$$.tmp; \
	if cmp -s $@.$$$$.tmp $@; then rm -f $@.$$$$.tmp; else mv $@.$$$$.tmp $@; fi
.PHONY: extra-programs-list

# USERLAND=busybox: the binary (fetched once, the version pinned in the script) and its
# applet list (tools/busybox-applets.py).
ifeq ($(USERLAND),busybox)
BUSYBOX         := build/busybox/root/usr/bin/busybox
BUSYBOX_APPLETS := $(USER_BUILD)/busybox-applets.list
$(BUSYBOX): tools/busybox-fetch.sh
	bash tools/busybox-fetch.sh >/dev/null
	@touch $@
$(BUSYBOX_APPLETS): $(BUSYBOX) tools/busybox-applets.py
	@mkdir -p $(dir $@)
	$(PYTHON) tools/busybox-applets.py $< > $@.tmp && mv $@.tmp $@
# Duplex's programs that busybox's applets replace, as its shell replaces sh: its ls,
# head and tail have every option a script may use, Duplex's only the few a lesson needs.
BUSYBOX_REPLACES := ls head tail
USERLAND_FILES := $(BUSYBOX) $(BUSYBOX_APPLETS) user/busybox/init.sh user/busybox/passwd \
	user/busybox/group user/busybox/shell-check.sh
endif

# Staged in a fresh directory with every time stamp at 0 and owner root, sorted by name,
# so the same programs always give the same archive.
$(INITRAMFS): $(USER_BINARIES) $(GLIBC_BINARIES) $(GLIBC_BENCH) $(addprefix user/,$(USER_ETC_FILES)) \
		$(EXTRA_PROGRAMS_LIST) $(wildcard $(EXTRA_PROGRAMS)) tools/check-program.py user/user.mk \
		$(USERLAND_FILES)
	@if [ -n "$(EXTRA_NAME_CLASHES)" ]; then \
		echo "EXTRA_PROGRAMS: /bin/$(firstword $(EXTRA_NAME_CLASHES)) is one of Duplex's own programs; rename the file" >&2; \
		exit 1; \
	fi
	@$(if $(EXTRA_PROGRAMS),$(PYTHON) tools/check-program.py $(EXTRA_PROGRAMS) || \
		{ echo "EXTRA_PROGRAMS: refused; nothing was packed" >&2; exit 1; })
	@rm -rf $(USER_BUILD)/root && mkdir -p $(USER_BUILD)/root/bin/glibc $(USER_BUILD)/root/etc
	@for p in $(USER_PROGRAMS) $(USER_FOLDER_PROGRAMS) $(USER_FP_PROGRAMS); do \
		$(OBJCOPY) --strip-all $(USER_BUILD)/bin/$$p $(USER_BUILD)/root/bin/$$p && \
		chmod 0755 $(USER_BUILD)/root/bin/$$p || exit 1; \
	done
	@for p in $(GLIBC_PROGRAMS); do \
		$(GLIBC_CROSS)objcopy --strip-all $(GLIBC_BUILD)/bin/$$p $(USER_BUILD)/root/bin/glibc/$$p && \
		chmod 0755 $(USER_BUILD)/root/bin/glibc/$$p || exit 1; \
	done
	@$(GLIBC_CROSS)objcopy --strip-all $(GLIBC_BENCH) $(USER_BUILD)/root/bin/glibc/bench && \
		chmod 0755 $(USER_BUILD)/root/bin/glibc/bench
	@for p in $(EXTRA_PROGRAMS); do \
		install -m 0755 "$$p" $(USER_BUILD)/root/bin/ || exit 1; \
	done
	@for f in $(USER_ETC_FILES); do \
		install -m $$(test -x user/$$f && echo 0755 || echo 0644) user/$$f $(USER_BUILD)/root/$$f \
		|| exit 1; done
	@for l in $(ARCHIVE_LINKS); do \
		mkdir -p "$$(dirname $(USER_BUILD)/root/$${l%%=*})" && \
		ln -s "$${l#*=}" "$(USER_BUILD)/root/$${l%%=*}" || exit 1; \
	done
	@$(if $(BUSYBOX),$(PYTHON) tools/check-program.py $(BUSYBOX) && \
		install -m 0755 $(BUSYBOX) $(USER_BUILD)/root/bin/busybox && \
		rm -f $(USER_BUILD)/root/bin/sh && \
		for a in $$(cat $(BUSYBOX_APPLETS)); do \
			[ -e $(USER_BUILD)/root/bin/$$a ] || ln -s busybox $(USER_BUILD)/root/bin/$$a || exit 1; \
		done && for a in $(BUSYBOX_REPLACES); do \
			ln -sf busybox $(USER_BUILD)/root/bin/$$a || exit 1; \
		done && install -m 0755 user/busybox/init.sh user/busybox/shell-check.sh \
			$(USER_BUILD)/root/etc/ && \
		install -m 0644 user/busybox/passwd user/busybox/group $(USER_BUILD)/root/etc/)
	cd $(USER_BUILD)/root && find . \( -type f -o -type l \) -printf '%P\n' | LC_ALL=C sort > ../archive.list && \
		xargs touch -h -d @0 < ../archive.list && \
		cpio -o -H newc --reproducible -R 0:0 --quiet < ../archive.list > archive.tmp && \
		mv archive.tmp $(abspath $@)

# bench names the build it came from in its header line: the git commit (and "-dirty"),
# kept in a header that is rewritten only when it changes, so bench/header.o (which prints
# it) is rebuilt then and only then. (No __DATE__/__TIME__: the archive stays reproducible.)
BENCH_BUILD_ID := $(shell git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
$(USER_BUILD)/bench_build.h: bench-build-id
	@mkdir -p $(dir $@)
	@echo '#define BENCH_BUILD "$(BENCH_BUILD_ID)"' > $@.$$$$.tmp; \
	if cmp -s $@.$$$$.tmp $@; then rm -f $@.$$$$.tmp; else mv $@.$$$$.tmp $@; fi
$(USER_BUILD)/obj/bench/header.o: $(USER_BUILD)/bench_build.h
$(USER_BUILD)/obj/bench/header.o: USER_CFLAGS += -include $(USER_BUILD)/bench_build.h
.PHONY: bench-build-id

.SECONDARY: $(patsubst %,$(USER_BUILD)/obj/%.o,$(USER_PROGRAMS)) \
	$(foreach p,$(USER_FOLDER_PROGRAMS),$($(p)_OBJECTS)) \
	$(patsubst %,$(USER_FP_BUILD)/obj/%.o,$(USER_FP_PROGRAMS)) \
	$(patsubst %,$(GLIBC_BUILD)/obj/%.o,$(GLIBC_PROGRAMS)) $(GLIBC_BENCH_OBJECTS)

-include $(LIBC_OBJECTS:.o=.d) $(LIBC_CRT0:.o=.d) \
	$(patsubst %,$(USER_BUILD)/obj/%.d,$(USER_PROGRAMS)) \
	$(foreach p,$(USER_FOLDER_PROGRAMS),$($(p)_OBJECTS:.o=.d)) \
	$(LIBC_FP_OBJECTS:.o=.d) $(LIBC_FP_CRT0:.o=.d) \
	$(patsubst %,$(USER_FP_BUILD)/obj/%.d,$(USER_FP_PROGRAMS)) \
	$(patsubst %,$(GLIBC_BUILD)/obj/%.d,$(GLIBC_PROGRAMS)) $(GLIBC_BUILD)/libc/duplex.d \
	$(GLIBC_BENCH_OBJECTS:.o=.d)
