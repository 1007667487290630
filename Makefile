# Duplex — top-level build.  `make` builds the kernel ELF and its RISC-V Linux Image;
# `make run` boots it in QEMU; `make test` runs the host unit tests and QEMU system tests.
# See README.md for the variables.

BOARD   ?= qemu-virt
include boards/$(BOARD)/board.mk

CONSOLE ?=
CMDLINE ?=
ICOUNT  ?=
# USERLAND=busybox: Debian's busybox as /bin/sh and its applets (user/user.mk); built in
# build/$(BOARD)-busybox/ so that the default build stays as it is. Its default first
# program is `/bin/sh -c /etc/init.sh` (the StarryOS image's start-up shape), which runs
# busybox's interactive shell in a session of its own (`setsid -c`) and waits for it.
USERLAND ?=
ifneq ($(filter-out busybox,$(USERLAND)),)
$(error USERLAND=$(USERLAND): the only other userland is busybox)
endif
INIT    ?= $(if $(USERLAND),sh -c /etc/init.sh)
# RECORD=file / REPLAY=file: QEMU record/replay of a one-hart -icount run (make run,
# make debug); SMP defaults to 1 then, since QEMU refuses it on several harts.
RECORD  ?=
REPLAY  ?=
ifneq ($(RECORD)$(REPLAY),)
SMP     ?= 1
endif
SMP     ?= $(DEFAULT_SMP)

CROSS   ?= riscv64-unknown-elf-
CC      := $(CROSS)gcc
OBJCOPY := $(CROSS)objcopy
HOST_CC ?= gcc
PYTHON  ?= /usr/bin/python3

BUILD      := build/$(BOARD)$(if $(USERLAND),-$(USERLAND))
HOST_BUILD := build/host

# ---------------------------------------------------------------- user programs
# user/user.mk builds libc, the programs and $(INITRAMFS), the cpio archive the kernel
# carries (kernel/fs/initramfs_data.S includes it).
include user/user.mk

# ---------------------------------------------------------------- kernel
KERNEL_CFLAGS := -std=c11 -ffreestanding -fno-builtin -nostdlib -march=rv64imac_zicsr_zifencei -mabi=lp64 \
	-mcmodel=medany -mno-relax -O2 -g -fno-omit-frame-pointer -fno-stack-protector \
	-fno-pie -fno-common -Wall -Wextra -Werror -I. -MMD -MP \
	-DDEFAULT_CMDLINE='"$(DEFAULT_CMDLINE)"'
KERNEL_LDFLAGS := -nostdlib -static -Wl,--no-relax -Wl,-T,kernel/boot/kernel.ld -Wl,--build-id=none

KERNEL_SOURCES := $(wildcard kernel/*/*.c kernel/*/*/*.c kernel/*/*.S drivers/*/*.c drivers/*/*/*.c drivers/*/*.S)
KERNEL_OBJECTS := $(patsubst %,$(BUILD)/%.o,$(KERNEL_SOURCES))

all: $(BUILD)/kernel.elf $(BUILD)/Image

$(BUILD)/%.c.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(KERNEL_CFLAGS) -c $< -o $@

$(BUILD)/%.S.o: %.S
	@mkdir -p $(dir $@)
	$(CC) $(KERNEL_CFLAGS) -D__ASSEMBLY__ -c $< -o $@

$(BUILD)/kernel.elf: $(KERNEL_OBJECTS) kernel/boot/kernel.ld
	$(CC) $(KERNEL_CFLAGS) $(KERNEL_LDFLAGS) $(KERNEL_OBJECTS) -o $@

# The Image is the raw memory image; its first 64 bytes are the Linux RISC-V boot
# header written in kernel/boot/entry.S, so U-Boot's booti and QEMU -kernel both load it.
$(BUILD)/Image: $(BUILD)/kernel.elf
	$(OBJCOPY) -O binary $< $@

$(BUILD)/kernel/fs/initramfs_data.S.o: $(INITRAMFS)
$(BUILD)/kernel/fs/initramfs_data.S.o: KERNEL_CFLAGS += -DINITRAMFS_PATH='"$(INITRAMFS)"'

-include $(KERNEL_OBJECTS:.o=.d)

# ---------------------------------------------------------------- running
# INIT="prog args" becomes "init=/bin/prog -- args". The kernel command line quotes with
# double quotes (as Linux's), so single quotes in INIT become double ones:
# INIT="sh -c 'echo hi'" runs sh with the two words -c and "echo hi".
# ICOUNT=1 (and RECORD/REPLAY, which imply -icount) also put `qemu.icount` on the line: the
# kernel hands it to the first program as QEMU_ICOUNT=1, so that bench's header says icount.
APPEND := $(strip $(if $(ICOUNT)$(RECORD)$(REPLAY),qemu.icount) $(if $(CONSOLE),console=$(CONSOLE)) $(if $(LINE),uart.line=$(LINE)) $(CMDLINE) \
	$(if $(INIT),init=/bin/$(firstword $(INIT)) -- $(subst ',",$(wordlist 2,999,$(INIT)))))
# APPEND inside single quotes for the shell: each ' becomes '\''.
APPEND_QUOTED := '$(subst ','\'',$(APPEND))'
QEMU_TOOL := $(PYTHON) tools/duplex_qemu.py
QEMU_RR := $(if $(RECORD),--record $(RECORD)) $(if $(REPLAY),--replay $(REPLAY))

deps:
	@bash tools/deps.sh

ifeq ($(QEMU_MACHINE),)
# A board without QEMU_MACHINE in its board.mk (lichee-rv-d1) has no QEMU model: say so
# before building anything, and point at what does work.
run debug run-uboot:
	@echo "make $@: board $(BOARD) cannot run in QEMU (it has no QEMU model)." >&2; \
	echo "  Put it on an SD card: make image BOARD=$(BOARD) BOOTLOADER=path/to/u-boot-sunxi-with-spl.bin" >&2; \
	echo "  (docs/boards/$(BOARD).md). The same U-Boot boot path runs in QEMU with: make run-uboot" >&2; \
	exit 2
else
run: deps all
	$(QEMU_TOOL) run --board $(BOARD) --image $(BUILD)/Image --smp $(SMP) \
		--append $(APPEND_QUOTED) $(if $(ICOUNT),--icount) $(QEMU_RR)

# QEMU waits halted with a GDB stub on :1234; gdb-multiarch attaches with the kernel's symbols.
debug: deps all
	$(QEMU_TOOL) run --board $(BOARD) --image $(BUILD)/Image --smp $(SMP) \
		--append $(APPEND_QUOTED) $(if $(ICOUNT),--icount) $(QEMU_RR) --gdb & \
	gdb-multiarch -q $(BUILD)/kernel.elf -ex 'target remote :1234'; \
	kill %1 2>/dev/null || true
endif

# ---------------------------------------------------------------- tests
include tests/host/tests.mk

HOST_CFLAGS := -std=c11 -g -O1 -Wall -Wextra -Werror -fsanitize=address,undefined \
	-fno-sanitize-recover=all -I. -Itests/host
HOST_HEADERS := $(wildcard uapi/*.h kernel/*/*.h kernel/*/*/*.h drivers/*/*.h drivers/*/*/*.h tests/host/*.h)
HOST_BINARIES := $(patsubst %,$(HOST_BUILD)/test_%,$(HOST_TESTS))

define host_test_rule
$(HOST_BUILD)/test_$(1): $$(HOST_TEST_$(1)_SOURCES) $$(HOST_TEST_$(1)_DEPS) $$(HOST_HEADERS)
	@mkdir -p $$(dir $$@)
	$$(HOST_CC) $$(HOST_CFLAGS) $$(HOST_TEST_$(1)_CFLAGS) $$(HOST_TEST_$(1)_SOURCES) \
		-o $$@ $$(HOST_TEST_$(1)_LIBS)
endef
$(foreach t,$(HOST_TESTS),$(eval $(call host_test_rule,$(t))))

check-host-build: $(HOST_BINARIES)

check-host: check-host-build
	@set -e; for t in $(HOST_BINARIES); do echo "== $$t"; $$t; done

# QEMU 10 from bookworm-backports, unpacked into build/qemu-backports/ beside the system's
# QEMU 7.2 (which the benchmark measures with): it has the T-Head C906 model that
# tests/test_c906.py boots the lichee-rv-d1 kernel on. The test fetches it itself.
qemu-backports:
	@bash tools/qemu-backports.sh

# `make test`: the suite (or TESTS="tests/test_x.py ...") in JOBS pytest-xdist workers, one
# per core by default (most tests are one single-threaded QEMU; JOBS=1 runs one test at a
# time). --dist loadgroup: tests that write the same build outputs, or share a lab's boots,
# carry an xdist_group and run in one worker (tests/conftest.py says which).
# tests/labs/test_results_current.py compares docs/teaching/results.md with what every
# lab grading run of the session left behind (tools/lab_records.py), so it runs after
# the others.
PYTEST_ARGS ?=
JOBS ?= $(shell nproc)
TESTS ?= tests
LAST_TESTS := tests/labs/test_results_current.py
test: deps all check-host-build
	@$(MAKE) --no-print-directory test-suite

# The suite alone, built or not (make test and make test-loaded run it).
test-suite:
ifeq ($(TESTS),tests)
	@status=0; set -x; \
	$(PYTHON) -m pytest -q -n $(JOBS) --dist loadgroup tests --ignore=$(LAST_TESTS) \
		$(PYTEST_ARGS) || status=$$?; \
	$(PYTHON) -m pytest -q $(LAST_TESTS) $(PYTEST_ARGS) || [ $$? -eq 5 ] || status=1; \
	exit $$status
else
	$(PYTHON) -m pytest -q -n $(JOBS) --dist loadgroup $(TESTS) $(PYTEST_ARGS)
endif

# `make test-loaded`: the same with LOAD busy-loop CPU hogs beside it, as on a shared
# machine; the hogs are killed whatever the result. The harness's waits count QEMU's CPU
# time (tools/duplex_qemu.py, HostTooSlow), and DUPLEX_HOST_TIMEOUT_SCALE lets a starved
# QEMU have LOAD + 4 times its timeout.
LOAD ?= 2
test-loaded: deps all check-host-build
	@$(PYTHON) tools/with_load.py $(LOAD) env DUPLEX_HOST_TIMEOUT_SCALE=$$(( $(LOAD) + 4 )) \
		$(MAKE) --no-print-directory test-suite
include tests/soak.mk

# The async TX protocol model (tests/model/README.md), by hand: `make model` checks it
# (safety: deadlocks, lost wake-ups, assertions); MODEL_FLAGS=-DNO_IDLE_KICK (or another
# switch) breaks one piece of the protocol, and the error trail Spin finds is printed.
MODEL_FLAGS ?=
model: deps
	@rm -rf $(BUILD)/model && mkdir -p $(BUILD)/model
	cp tests/model/async_tx.pml $(BUILD)/model/
	cd $(BUILD)/model && spin -a $(MODEL_FLAGS) async_tx.pml && \
		gcc -O1 -DNOCLAIM -o pan pan.c && ./pan > pan.out; cat pan.out | grep -E "errors:|invalid end state|assertion violated|State-vector" ; \
		if [ -f async_tx.pml.trail ]; then \
			echo "--- the interleaving that fails, every step (spin -t -p):"; \
			spin -t -p $(MODEL_FLAGS) async_tx.pml; \
		fi

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf build

.PHONY: all deps run debug check-host check-host-build qemu-backports test test-suite test-loaded model format clean

# ---------------------------------------------------------------- boards
# Per-board extras: the DTB, board kernel flags, `make image` (SD card) and `make run-uboot`.
include boards/boards.mk
include tools/bench.mk
include labs/labs.mk

# ---------------------------------------------------------------- timeline
# `make timeline`: one traced write of SIZE bytes + tcdrain per backend under QEMU -icount,
# drawn by tools/timeline into build/timeline/ (a picture per backend, a side-by-side
# one, summary.txt). CONSOLE=B draws only that backend; LINE=0 is plain QEMU (default: the
# line model at 115200 baud, where the wire's time shows). docs/tracing.md explains it.
# Two harts unless SMP is given: the docs' pictures (docs/timeline/, checked by
# tests/test_trace.py against summary.txt) are drawn on two.
SIZE         ?= 64
TIMELINE_OUT ?= build/timeline
TIMELINE_SMP := $(if $(filter command line environment,$(origin SMP)),$(SMP),2)
timeline: deps all
	$(PYTHON) tools/timeline run --image $(BUILD)/Image --smp $(TIMELINE_SMP) --size $(SIZE) \
		--line $(if $(LINE),$(LINE),115200) $(if $(CONSOLE),--console $(CONSOLE)) \
		--out $(TIMELINE_OUT)

.PHONY: timeline

# ---------------------------------------------------------------- help
include tools/help.mk
