# Device tree reader and platform description. The small .dts fixtures are compiled
# here; the QEMU dumps (qemu-virt-*.dtb, trimmed to their header's totalsize) are checked in.
HOST_TESTS += fdt
HOST_TEST_fdt_SOURCES := tests/host/test_fdt.c kernel/fdt/fdt.c kernel/fdt/platform.c
HOST_TEST_fdt_FIXTURES := d1-like reserved cpus cpus-mixed no-memory no-cpus no-timebase \
	too-many-reserved
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
