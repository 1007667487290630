# The driver table and its device tree walk (drivers/base/), with host stand-ins for
# the probes that record what they were given (tests/host/driver_probes.c).
HOST_DRIVER_TABLE := drivers/base/drivers.c drivers/base/bind.c tests/host/driver_probes.c

# Device tree reader and platform description. The small .dts fixtures are compiled
# here; the QEMU dumps (qemu-virt-*.dtb, trimmed to their header's totalsize) are checked in.
HOST_TESTS += fdt
HOST_TEST_fdt_SOURCES := tests/host/test_fdt.c kernel/fdt/fdt.c kernel/fdt/platform.c \
	$(HOST_DRIVER_TABLE)
HOST_TEST_fdt_FIXTURES := d1-like reserved cpus cpus-mixed no-memory no-cpus no-timebase \
	too-many-reserved isa-vector
HOST_TEST_fdt_DEPS := $(patsubst %,$(HOST_BUILD)/fixtures/%.dtb,$(HOST_TEST_fdt_FIXTURES)) \
	tests/fixtures/qemu-virt-smp1.dtb tests/fixtures/qemu-virt-smp4.dtb

$(HOST_BUILD)/fixtures/%.dtb: tests/fixtures/%.dts
	@mkdir -p $(dir $@)
	dtc -I dts -O dtb -o $@ $<

# Kernel command line parser.
HOST_TESTS += cmdline
HOST_TEST_cmdline_SOURCES := tests/host/test_cmdline.c kernel/cmdline/cmdline.c

# Physical page pool and kernel heap arena (pure logic, no fixtures).
HOST_TESTS += page_pool
HOST_TEST_page_pool_SOURCES := tests/host/test_page_pool.c kernel/mm/page_pool.c
HOST_TESTS += heap_arena
HOST_TEST_heap_arena_SOURCES := tests/host/test_heap_arena.c kernel/mm/heap_arena.c
HOST_TESTS += runqueue
HOST_TEST_runqueue_SOURCES := tests/host/test_runqueue.c kernel/sched/runqueue.c

# The kernel log's record store (kernel/log/log_buffer.c).
HOST_TESTS += log_buffer
HOST_TEST_log_buffer_SOURCES := tests/host/test_log_buffer.c kernel/log/log_buffer.c

# Console byte ring (drivers/console/port/ring.c): wrap-around, full/empty, counters past 2^32,
# and a 64 MiB two-thread producer/consumer stream checked byte for byte.
HOST_TESTS += ring
HOST_TEST_ring_SOURCES := tests/host/test_ring.c drivers/console/port/ring.c
HOST_TEST_ring_LIBS := -lpthread
# The same test under ThreadSanitizer, which reports any ring access the acquire/release
# protocol leaves unordered. TSan cannot be combined with ASan, so this binary replaces
# HOST_CFLAGS for its own target (a target-specific value wins over the global one). It
# goes through the generic host_test_rule like every other entry: an explicit recipe here
# would be overridden by that rule's (it is eval'd after this file), and without the
# HOST_TESTS entry `make check-host` would not run it. A race makes it exit with status 66.
HOST_TESTS += ring_tsan
HOST_TEST_ring_tsan_SOURCES := $(HOST_TEST_ring_SOURCES)
HOST_TEST_ring_tsan_LIBS := -lpthread
$(HOST_BUILD)/test_ring_tsan: HOST_CFLAGS := -std=c11 -g -O1 -Wall -Wextra -Werror \
	-fsanitize=thread -I. -Itests/host

# The 16550 / DW APB UART driver against a register-level model of both UARTs.
HOST_TESTS += uart_16550
HOST_TEST_uart_16550_SOURCES := tests/host/test_uart_16550.c tests/host/uart_model.c \
	drivers/uart/uart_16550.c drivers/uart/uart_polled.c

# The Allwinner watchdog (drivers/watchdog/sunxi_wdt.c) against a D1 watchdog model.
HOST_TESTS += watchdog
HOST_TEST_watchdog_SOURCES := tests/host/test_watchdog.c drivers/watchdog/sunxi_wdt.c

# Memory-attribute PTE bits (kernel/mm/memattr.c; the CSR probe lives in memattr_probe.c).
HOST_TESTS += memattr
HOST_TEST_memattr_SOURCES := tests/host/test_memattr.c kernel/mm/memattr.c

# The kernel's page tables (kernel/mm/page_table.c, the code vm_init and vm_map_device
# run) built over the D1's trees with MAEE on, with Svpbmt and with neither, every leaf
# walked: RAM carries exactly the normal-memory bits, device registers the device bits.
HOST_TESTS += page_walk
HOST_TEST_page_walk_SOURCES := tests/host/test_page_walk.c kernel/mm/page_table.c \
	kernel/mm/memattr.c kernel/fdt/fdt.c kernel/fdt/platform.c $(HOST_DRIVER_TABLE)
HOST_TEST_page_walk_DEPS := $(HOST_BUILD)/boards/lichee-rv-d1.dtb \
	$(HOST_BUILD)/fixtures/d1-vendor.dtb

# The Lichee RV (D1) board: its real device tree, compiled here from boards/, through the
# kernel's FDT reader, and its UART description through the driver on the DW model.
HOST_TESTS += board_d1
HOST_TEST_board_d1_SOURCES := tests/host/test_board_d1.c kernel/fdt/fdt.c \
	kernel/fdt/platform.c tests/host/uart_model.c drivers/uart/uart_16550.c \
	drivers/uart/uart_polled.c $(HOST_DRIVER_TABLE)
HOST_TEST_board_d1_DEPS := $(HOST_BUILD)/boards/lichee-rv-d1.dtb \
	$(HOST_BUILD)/fixtures/d1-vendor.dtb tests/fixtures/qemu-virt-smp4.dtb

$(HOST_BUILD)/boards/lichee-rv-d1.dtb: boards/lichee-rv-d1/lichee-rv-d1.dts
	@mkdir -p $(dir $@)
	dtc -I dts -O dtb -o $@ $<

# The UART line model (drivers/uart/line_model.c): its exact wire-time arithmetic against
# a 128-bit byte-by-byte reference, and its UART operations and TX interrupt over a fake
# clock, timer, real UART and interrupt handler.
HOST_TESTS += line_model
HOST_TEST_line_model_SOURCES := tests/host/test_line_model.c drivers/uart/line_model.c

# The PLIC's S-mode access check at probe (drivers/irqchip/plic_access.c) against a model
# of the T-Head PLIC that refuses S-mode writes until firmware sets PLIC_CTRL.S_PER.
HOST_TESTS += plic_access
HOST_TEST_plic_access_SOURCES := tests/host/test_plic_access.c drivers/irqchip/plic_access.c

# The D1 timer block driver (drivers/timer/sun20i_timer.c) against a register model:
# deadlines never early, reprogramming, stale interrupts, clamping, the restart rule.
HOST_TESTS += sun20i_timer
HOST_TEST_sun20i_timer_SOURCES := tests/host/test_sun20i_timer.c drivers/timer/sun20i_timer.c

# The UART register layout the device tree gives (reg-shift, reg-io-width): a 16550 with
# registers 4 bytes apart (tests/fixtures/uart-shift2.dts) and QEMU's, through the FDT
# reader and the driver on the 16550 model. Lab uart-layout grades with it.
HOST_TESTS += uart_layout
HOST_TEST_uart_layout_SOURCES := tests/host/test_uart_layout.c kernel/fdt/fdt.c \
	kernel/fdt/platform.c tests/host/uart_model.c drivers/uart/uart_16550.c \
	drivers/uart/uart_polled.c
HOST_TEST_uart_layout_DEPS := $(HOST_BUILD)/fixtures/uart-shift2.dtb \
	tests/fixtures/qemu-virt-smp4.dtb

# trace= on the kernel command line (kernel/trace/classes.c).
HOST_TESTS += trace_classes
HOST_TEST_trace_classes_SOURCES := tests/host/test_trace_classes.c kernel/trace/classes.c

# Path resolution (kernel/fs/path.c) over a made-up tree: dots, slashes, symbolic links.
HOST_TESTS += path
HOST_TEST_path_SOURCES := tests/host/test_path.c kernel/fs/path.c
# The console's line discipline (drivers/console/line_discipline.c): canonical editing,
# echo forms, input mapping, ISIG, IXON/IXOFF, breaks and RX errors, OPOST.
HOST_TESTS += line_discipline
HOST_TEST_line_discipline_SOURCES := tests/host/test_line_discipline.c \
	drivers/console/line_discipline.c
# Canonical editing (VERASE, VWERASE, VKILL and their echo) on its own, in groups that lab
# line-edit's grading tests run one at a time (tests/labs/test_lab_line_edit.py).
HOST_TESTS += line_edit
HOST_TEST_line_edit_SOURCES := tests/host/test_line_edit.c drivers/console/line_discipline.c

# The UART interface's break (uart_set_break) on the 16550 / DW driver: LCR bit 6.
HOST_TESTS += uart_break
HOST_TEST_uart_break_SOURCES := tests/host/test_uart_break.c tests/host/uart_model.c \
	drivers/uart/uart_16550.c drivers/uart/uart_polled.c

# The kernel's memcpy at every pair of alignments (kernel/lib/string.c).
HOST_TESTS += string
HOST_TEST_string_SOURCES := tests/host/test_string.c
HOST_TEST_string_DEPS := kernel/lib/string.c
