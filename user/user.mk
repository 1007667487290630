# User space: libc/ (Duplex's OS layer on top of Debian's picolibc), the programs in user/,
# and the cpio "newc" archive of them that the kernel embeds. Included by the top-level
# Makefile after BUILD, CC and OBJCOPY are defined.
#
#   USER_PROGRAMS          program names; user/NAME.c becomes $(BUILD)/user/bin/NAME
#   USER_BINARIES          those ELF files (with symbols, for gdb)
#   INITRAMFS              $(BUILD)/initramfs.cpio: bin/NAME (stripped, mode 0755) for every
#                          program plus the files under user/etc/ as etc/...; `cpio -t` lists it

USER_PROGRAMS := sh echo true false sleep cat crash test_syscalls consolestat conpattern \
	conrecords linetest bench loadwriter rxcheck fuzz exhaust spin exitrace stalemap dmesg logstorm nonblock pressure fopentest

USER_BUILD := $(BUILD)/user
INITRAMFS  := $(BUILD)/initramfs.cpio

# picolibc.specs adds picolibc's headers and libraries. No _zicsr in -march: picolibc's
# multilib selection breaks with it (asm that reads a CSR says `.option arch, +zicsr`). -D_DEFAULT_SOURCE: -std=c11
# alone would hide the POSIX declarations in picolibc's headers. libc/include comes before
# picolibc's headers, so its files replace or extend them (#include_next). -MD, not -MMD:
# the kernel headers come in through -idirafter, which makes them "system" headers that
# -MMD leaves out of the dependencies (a changed struct console_telemetry once left
# programs built against the old one).
USER_ARCH    := --specs=picolibc.specs -march=rv64imac -mabi=lp64
USER_CFLAGS  := $(USER_ARCH) -Os -g -Wall -Wextra -Werror -std=c11 -D_DEFAULT_SOURCE \
	-ffunction-sections -fdata-sections -Ilibc/include -idirafter . -MD -MP
# sbrk and getauxval exist in picolibc too (a fixed-region heap and a stub): naming them
# undefined up front makes the linker take libduplex's before it opens libc.a, where
# malloc() would otherwise find picolibc's sbrk in the same pass.
USER_LDFLAGS := $(USER_ARCH) -nostartfiles -static -T libc/user.ld -Wl,--gc-sections \
	-Wl,-z,max-page-size=4096 -Wl,--build-id=none -Wl,--undefined=sbrk \
	-Wl,--undefined=getauxval

LIBC_OBJECTS := $(patsubst libc/%.c,$(USER_BUILD)/libc/%.o,$(wildcard libc/*.c))
LIBC_CRT0    := $(USER_BUILD)/libc/crt0.o
LIBC_ARCHIVE := $(USER_BUILD)/libduplex.a

USER_BINARIES := $(patsubst %,$(USER_BUILD)/bin/%,$(USER_PROGRAMS))
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

# Staged in a fresh directory with every time stamp at 0 and owner root, sorted by name,
# so the same programs always give the same archive.
$(INITRAMFS): $(USER_BINARIES) $(addprefix user/,$(USER_ETC_FILES))
	@rm -rf $(USER_BUILD)/root && mkdir -p $(USER_BUILD)/root/bin $(USER_BUILD)/root/etc
	@for p in $(USER_PROGRAMS); do \
		$(OBJCOPY) --strip-all $(USER_BUILD)/bin/$$p $(USER_BUILD)/root/bin/$$p && \
		chmod 0755 $(USER_BUILD)/root/bin/$$p || exit 1; \
	done
	@for f in $(USER_ETC_FILES); do install -m 0644 user/$$f $(USER_BUILD)/root/$$f || exit 1; done
	cd $(USER_BUILD)/root && find . -type f -printf '%P\n' | LC_ALL=C sort > ../archive.list && \
		xargs touch -h -d @0 < ../archive.list && \
		cpio -o -H newc --reproducible -R 0:0 --quiet < ../archive.list > archive.tmp && \
		mv archive.tmp $(abspath $@)

# bench names the build it came from in its header line: the git commit (and "-dirty"),
# kept in a header that is rewritten only when it changes, so bench.o is rebuilt then and
# only then. (No __DATE__/__TIME__: the archive stays reproducible.)
BENCH_BUILD_ID := $(shell git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
$(USER_BUILD)/bench_build.h: bench-build-id
	@mkdir -p $(dir $@)
	@echo '#define BENCH_BUILD "$(BENCH_BUILD_ID)"' > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
$(USER_BUILD)/obj/bench.o: $(USER_BUILD)/bench_build.h
$(USER_BUILD)/obj/bench.o: USER_CFLAGS += -include $(USER_BUILD)/bench_build.h
.PHONY: bench-build-id

.SECONDARY: $(patsubst %,$(USER_BUILD)/obj/%.o,$(USER_PROGRAMS))

-include $(LIBC_OBJECTS:.o=.d) $(LIBC_CRT0:.o=.d) \
	$(patsubst %,$(USER_BUILD)/obj/%.d,$(USER_PROGRAMS))
