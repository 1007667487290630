/* Host tests for the device tree reader (kernel/fdt/fdt.c) and the platform
 * description built from it (kernel/fdt/platform.c).
 *
 * Fixtures: QEMU's own dumps in tests/fixtures/, and small .dts files there that
 * tests/host/tests.mk compiles into build/host/fixtures/. Paths are relative to the
 * repository root, where the Makefile runs the tests.
 *
 * Every blob is loaded into a heap buffer of exactly its size, so AddressSanitizer
 * reports any read past its end. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kernel/fdt/fdt.h"
#include "kernel/fdt/platform.h"
#include "driver_probes.h"

#define QEMU_SMP4_DTB "tests/fixtures/qemu-virt-smp4.dtb"
#define QEMU_SMP1_DTB "tests/fixtures/qemu-virt-smp1.dtb"
#define FIXTURE(name) "build/host/fixtures/" name ".dtb"

/* Header field offsets, for corrupting blobs on purpose. */
enum {
	HEADER_MAGIC = 0,
	HEADER_TOTAL_SIZE = 4,
	HEADER_STRUCT_OFFSET = 8,
	HEADER_STRINGS_OFFSET = 12,
	HEADER_MEMRESERVE_OFFSET = 16,
	HEADER_VERSION = 20,
	HEADER_LAST_COMPATIBLE = 24,
	HEADER_STRINGS_SIZE = 32,
	HEADER_STRUCT_SIZE = 36,
};

enum { TOKEN_BEGIN_NODE = 1, TOKEN_END_NODE = 2, TOKEN_PROP = 3, TOKEN_NOP = 4 };

static uint32_t get_be32(const uint8_t *blob, size_t offset)
{
	const uint8_t *p = blob + offset;
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put_be32(uint8_t *blob, size_t offset, uint32_t value)
{
	blob[offset] = (uint8_t)(value >> 24);
	blob[offset + 1] = (uint8_t)(value >> 16);
	blob[offset + 2] = (uint8_t)(value >> 8);
	blob[offset + 3] = (uint8_t)value;
}

/* A heap copy of exactly `size` bytes. */
static uint8_t *copy_blob(const uint8_t *blob, size_t size)
{
	uint8_t *copy = malloc(size);
	if (!copy) {
		perror("malloc");
		exit(2);
	}
	memcpy(copy, blob, size);
	return copy;
}

/* Read a fixture. If the file is longer than the blob's totalsize (a raw QEMU dump),
 * keep only the blob, so the buffer ends exactly where the blob does. Exits if the
 * file is missing: that is a build problem, not a test failure. */
static uint8_t *load_blob(const char *path, size_t *size_out)
{
	FILE *file = fopen(path, "rb");
	if (!file) {
		perror(path);
		exit(2);
	}
	fseek(file, 0, SEEK_END);
	long file_size = ftell(file);
	fseek(file, 0, SEEK_SET);
	uint8_t *data = malloc((size_t)file_size);
	if (!data || fread(data, 1, (size_t)file_size, file) != (size_t)file_size) {
		fprintf(stderr, "%s: cannot read\n", path);
		exit(2);
	}
	fclose(file);
	size_t size = (size_t)file_size;
	uint32_t total_size = fdt_total_size(data);
	if (total_size > 0 && total_size < size)
		size = total_size;
	uint8_t *blob = copy_blob(data, size);
	free(data);
	*size_out = size;
	return blob;
}

/* What the driver table bound in the last platform_from_file (or bind_devices) call. */
static struct bound_devices bound;

/* Run platform_from_fdt() on a fixture file, then the driver table's walk over it into
 * `bound` (while the blob is still there); returns platform_from_fdt's result. */
static int platform_from_file(const char *path, struct platform *platform, const char **error)
{
	size_t size;
	uint8_t *blob = load_blob(path, &size);
	int result = platform_from_fdt(platform, blob, error);
	bind_devices(platform, &bound);
	platform->dtb = NULL;
	/* platform->bootargs points into the blob; tests that read it keep their own. */
	if (platform->bootargs && platform->bootargs[0] != '\0')
		platform->bootargs = "(freed)";
	free(blob);
	return result;
}

/* Offset of the first occurrence of the `length` bytes at `needle` in `haystack`,
 * or -1. */
static long find_bytes(const uint8_t *haystack, size_t size, const void *needle, size_t length)
{
	for (size_t i = 0; i + length <= size; i++)
		if (memcmp(haystack + i, needle, length) == 0)
			return (long)i;
	return -1;
}

static int count_children(const struct fdt *fdt, int node)
{
	int count = 0;
	for (int child = fdt_first_child(fdt, node); child >= 0;
	     child = fdt_next_sibling(fdt, child))
		count++;
	return count;
}

static void test_header_and_tree_walk(void)
{
	size_t size;
	uint8_t *blob = load_blob(QEMU_SMP4_DTB, &size);
	struct fdt fdt;

	CHECK(fdt_open(&fdt, blob) == 0);
	CHECK_EQ_U64(fdt_total_size(blob), size);
	CHECK_EQ_U64(fdt.total_size, size);

	int root = fdt_root(&fdt);
	CHECK(root >= 0);
	CHECK_STR(fdt_node_name(&fdt, root), "");
	CHECK(fdt_parent(&fdt, root) == -1);
	CHECK(fdt_next_sibling(&fdt, root) == -1);
	CHECK(fdt_path(&fdt, "/") == root);

	int soc = fdt_path(&fdt, "/soc");
	int serial = fdt_path(&fdt, "/soc/serial@10000000");
	CHECK(soc >= 0 && serial >= 0);
	CHECK_STR(fdt_node_name(&fdt, serial), "serial@10000000");
	CHECK(fdt_parent(&fdt, serial) == soc);
	CHECK(fdt_parent(&fdt, soc) == root);
	CHECK(fdt_path(&fdt, "/soc/serial") == serial);
	CHECK(fdt_path(&fdt, "//soc//serial@10000000/") == serial);
	CHECK(fdt_path(&fdt, "/soc/serial@10000001") == -1);
	CHECK(fdt_path(&fdt, "/soc/seria") == -1);
	CHECK(fdt_path(&fdt, "/nonexistent") == -1);
	CHECK(fdt_path(&fdt, "serial0") == -1);    /* QEMU's tree has no /aliases */
	CHECK(fdt_parent(&fdt, serial + 4) == -1); /* not the start of a node */
	CHECK(fdt_node_name(&fdt, serial + 4) == NULL);

	int cpus = fdt_path(&fdt, "/cpus");
	CHECK(count_children(&fdt, cpus) == 5); /* four cpu@N and cpu-map */
	int cpu0 = fdt_first_child(&fdt, cpus);
	CHECK_STR(fdt_node_name(&fdt, cpu0), "cpu@0");
	CHECK(fdt_path(&fdt, "/cpus/cpu") == cpu0);
	CHECK_STR(fdt_node_name(&fdt, fdt_path(&fdt, "/cpus/cpu@2")), "cpu@2");
	int intc0 = fdt_first_child(&fdt, cpu0);
	CHECK_STR(fdt_node_name(&fdt, intc0), "interrupt-controller");
	CHECK(fdt_parent(&fdt, intc0) == cpu0);
	CHECK(fdt_first_child(&fdt, intc0) == -1);

	CHECK(fdt_address_cells(&fdt, serial) == 2);
	CHECK(fdt_size_cells(&fdt, serial) == 2);
	CHECK(fdt_address_cells(&fdt, cpu0) == 1);
	CHECK(fdt_size_cells(&fdt, cpu0) == 0);
	CHECK(fdt_address_cells(&fdt, root) == 2); /* spec defaults */
	CHECK(fdt_size_cells(&fdt, root) == 1);

	uint64_t base = 0, reg_size = 0;
	CHECK(fdt_reg(&fdt, serial, 0, &base, &reg_size) == 0);
	CHECK_EQ_U64(base, 0x10000000);
	CHECK_EQ_U64(reg_size, 0x100);
	CHECK(fdt_reg(&fdt, serial, 1, &base, &reg_size) == -1);
	CHECK(fdt_reg(&fdt, serial, -1, &base, &reg_size) == -1);
	CHECK(fdt_reg(&fdt, fdt_path(&fdt, "/flash"), 1, &base, &reg_size) == 0);
	CHECK_EQ_U64(base, 0x22000000);
	CHECK_EQ_U64(reg_size, 0x2000000);
	CHECK(fdt_reg(&fdt, fdt_path(&fdt, "/cpus/cpu@3"), 0, &base, &reg_size) == 0);
	CHECK_EQ_U64(base, 3);
	CHECK_EQ_U64(reg_size, 0);
	/* A PCI address has 3 cells: more than fdt_reg() can return. */
	CHECK(fdt_reg(&fdt, fdt_first_child(&fdt, fdt_path(&fdt, "/soc/pci")), 0, &base,
	              &reg_size) == -1);

	uint32_t length = 0, value = 1234;
	CHECK(fdt_prop(&fdt, serial, "reg", &length) != NULL);
	CHECK(length == 16);
	CHECK(fdt_prop(&fdt, serial, "reg", NULL) != NULL);
	CHECK(fdt_prop(&fdt, serial, "missing", &length) == NULL);
	CHECK(fdt_prop(&fdt, serial, "re", &length) == NULL); /* no prefix matches */
	CHECK_STR(fdt_prop_string(&fdt, serial, "compatible"), "ns16550a");
	CHECK(fdt_prop_u32(&fdt, serial, "clock-frequency", &value));
	CHECK(value == 3686400);
	CHECK(!fdt_prop_u32(&fdt, serial, "missing", &value));
	CHECK(value == 3686400); /* left alone */
	CHECK(!fdt_prop_u32(&fdt, fdt_path(&fdt, "/soc/pci"), "dma-coherent", &value));

	int test = fdt_path(&fdt, "/soc/test");
	CHECK_STR(fdt_prop_string(&fdt, test, "compatible"), "sifive,test1");
	CHECK(fdt_stringlist_contains(&fdt, test, "compatible", "sifive,test0"));
	CHECK(fdt_stringlist_contains(&fdt, test, "compatible", "syscon"));
	CHECK(!fdt_stringlist_contains(&fdt, test, "compatible", "sifive,test"));
	CHECK(!fdt_stringlist_contains(&fdt, test, "compatible", "sifive,test01"));
	CHECK(!fdt_stringlist_contains(&fdt, test, "missing", "syscon"));
	CHECK(fdt_next_compatible(&fdt, -1, "sifive,test0") == test);
	CHECK(fdt_next_compatible(&fdt, test, "sifive,test0") == -1);

	int virtio_count = 0;
	int first_virtio = fdt_next_compatible(&fdt, -1, "virtio,mmio");
	for (int node = first_virtio; node >= 0;
	     node = fdt_next_compatible(&fdt, node, "virtio,mmio"))
		virtio_count++;
	CHECK(virtio_count == 8);
	CHECK_STR(fdt_node_name(&fdt, first_virtio), "virtio_mmio@10008000");

	CHECK_STR(fdt_node_name(&fdt, fdt_node_by_phandle(&fdt, 9)), "plic@c000000");
	CHECK(fdt_node_by_phandle(&fdt, 8) == intc0);
	CHECK(fdt_node_by_phandle(&fdt, 0) == -1);
	CHECK(fdt_node_by_phandle(&fdt, 0xffffffffu) == -1);
	CHECK(fdt_node_by_phandle(&fdt, 0x1234) == -1);

	CHECK(fdt_node_enabled(&fdt, cpu0));   /* status = "okay" */
	CHECK(fdt_node_enabled(&fdt, serial)); /* no status */
	CHECK(fdt_memreserve(&fdt, 0, &base, &reg_size) == -1);
	free(blob);
}

static void test_read_cells(void)
{
	/* Cells are stored as big-endian bytes; build them that way. */
	const uint8_t bytes[8] = {0x00, 0x00, 0x00, 0x01, 0x80, 0x00, 0x00, 0x02};
	uint32_t cells[2];
	memcpy(cells, bytes, sizeof(cells));
	CHECK_EQ_U64(fdt_read_cells(cells, 1), 1);
	CHECK_EQ_U64(fdt_read_cells(cells, 2), 0x180000002ull);
	CHECK_EQ_U64(fdt_read_cells(cells + 1, 1), 0x80000002u);
	CHECK_EQ_U64(fdt_read_cells(cells, 0), 0);
}

static void test_platform_qemu_smp4(void)
{
	struct platform platform;
	const char *error = NULL;

	CHECK(platform_from_file(QEMU_SMP4_DTB, &platform, &error) == 0);
	CHECK(error == NULL);
	CHECK(platform.memory_count == 1);
	CHECK_EQ_U64(platform.memory[0].base, 0x80000000);
	CHECK_EQ_U64(platform.memory[0].size, 256u << 20);
	CHECK(platform.reserved_count == 0);
	CHECK(platform.hart_count == 4);
	for (int i = 0; i < 4; i++)
		CHECK(platform.hart_ids[i] == (uint32_t)i);
	CHECK(platform.timebase_hz == 10000000);
	CHECK_STR(platform.isa, "rv64imafdch_zicsr_zifencei_zihintpause_zba_zbb_zbc_zbs_sstc");
	CHECK(platform.has_sstc);
	CHECK_STR(platform.bootargs, "");
	CHECK(platform.rng_seed_length == 32); /* /chosen rng-seed: eight cells */
	CHECK(platform.rng_seed != NULL);

	CHECK(platform.uart.present);
	CHECK_STR(platform.uart.compatible, "ns16550a");
	CHECK_EQ_U64(platform.uart.base, 0x10000000);
	CHECK_EQ_U64(platform.uart.size, 0x100);
	CHECK(platform.uart.irq == 10);
	CHECK(platform.uart.clock_hz == 3686400);
	CHECK(platform.uart.reg_shift == 0);
	CHECK(platform.uart.reg_io_width == 1);
	CHECK(platform.uart.fifo_size == 0);
	CHECK(platform.uart.baud == 0);

	CHECK(bound.plic.present);
	CHECK_STR(bound.plic.compatible, "riscv,plic0");
	CHECK_EQ_U64(bound.plic.base, 0x0c000000);
	CHECK_EQ_U64(bound.plic.size, 0x600000);
	CHECK(bound.plic.source_count == 0x60);
	for (int hart = 0; hart < PLATFORM_MAX_HARTS; hart++)
		CHECK(bound.plic.s_context[hart] == (hart < 4 ? 2 * hart + 1 : -1));

	/* The Goldfish RTC, whose alarm is the timer device under QEMU (one cell per
	 * interrupt: QEMU's PLIC has #interrupt-cells 1). */
	CHECK(bound.timer.present);
	CHECK_STR(bound.timer.compatible, "google,goldfish-rtc");
	CHECK_EQ_U64(bound.timer.base, 0x101000);
	CHECK(bound.timer.irq_count == 1);
	CHECK(bound.timer.irqs[0] == 11);

	CHECK_STR(bound.exit_driver, "sifive-test");
	CHECK_EQ_U64(bound.exit_base, 0x100000);

	/* The driver table binds each to its driver: the stdout UART through "ns16550a",
	 * the PLIC through the first of its names the table prefers. */
	CHECK_STR(bound.uart_driver, "uart16550_probe");
	CHECK_STR(bound.uart_compatible, "ns16550a");
	CHECK_EQ_U64(bound.uart.base, 0x10000000);
	CHECK_STR(bound.irqchip_driver, "plic");
	CHECK_STR(bound.timer_driver, "goldfish_alarm_probe");
	/* The same node is the wall clock's source too (drivers/rtc/goldfish_rtc.c). */
	CHECK_STR(bound.rtc_driver, "goldfish-rtc");
	CHECK_STR(bound.rtc_compatible, "google,goldfish-rtc");
	CHECK_EQ_U64(bound.rtc_base, 0x101000);
}

static void test_platform_qemu_smp1(void)
{
	struct platform platform;
	const char *error = NULL;

	CHECK(platform_from_file(QEMU_SMP1_DTB, &platform, &error) == 0);
	CHECK(platform.memory_count == 1);
	CHECK_EQ_U64(platform.memory[0].base, 0x80000000);
	CHECK_EQ_U64(platform.memory[0].size, 256u << 20);
	CHECK(platform.hart_count == 1);
	CHECK(platform.hart_ids[0] == 0);
	CHECK(platform.timebase_hz == 10000000);
	CHECK(platform.has_sstc);
	CHECK(platform.uart.present);
	CHECK_EQ_U64(platform.uart.base, 0x10000000);
	CHECK(bound.plic.present);
	CHECK(bound.plic.s_context[0] == 1);
	for (int hart = 1; hart < PLATFORM_MAX_HARTS; hart++)
		CHECK(bound.plic.s_context[hart] == -1);
	CHECK_STR(bound.exit_driver, "sifive-test");
}

static void test_platform_d1_like(void)
{
	struct platform platform;
	const char *error = NULL;

	CHECK(platform_from_file(FIXTURE("d1-like"), &platform, &error) == 0);
	CHECK(platform.memory_count == 1);
	CHECK_EQ_U64(platform.memory[0].base, 0x40000000);
	CHECK_EQ_U64(platform.memory[0].size, 512u << 20);
	CHECK(platform.reserved_count == 0);
	CHECK(platform.hart_count == 1);
	CHECK(platform.hart_ids[0] == 0);
	CHECK(platform.timebase_hz == 24000000);
	CHECK_STR(platform.isa, "rv64imafdc");
	CHECK(platform.isa_letters & (1u << ('f' - 'a')));
	CHECK(platform.isa_letters & (1u << ('d' - 'a')));
	CHECK(platform.rng_seed == NULL && platform.rng_seed_length == 0); /* none in /chosen */
	CHECK(!platform.has_sstc);
	CHECK_STR(platform.bootargs, "");

	CHECK(platform.uart.present);
	CHECK_STR(platform.uart.compatible, "snps,dw-apb-uart");
	CHECK_EQ_U64(platform.uart.base, 0x02500000);
	CHECK_EQ_U64(platform.uart.size, 0x400);
	CHECK(platform.uart.reg_shift == 2);
	CHECK(platform.uart.reg_io_width == 4);
	CHECK(platform.uart.clock_hz == 24000000);
	CHECK(platform.uart.irq == 18);
	CHECK(platform.uart.fifo_size == 64);
	CHECK(platform.uart.baud == 115200);

	CHECK(bound.plic.present);
	CHECK_STR(bound.plic.compatible, "thead,c900-plic");
	CHECK_EQ_U64(bound.plic.base, 0x10000000);
	CHECK_EQ_U64(bound.plic.size, 0x4000000);
	CHECK(bound.plic.source_count == 176);
	CHECK(bound.plic.s_context[0] == 1);
	CHECK(bound.plic.s_context[1] == -1);

	CHECK(bound.exit_driver == NULL);
}

static void test_reserved_memory_and_chosen(void)
{
	size_t size;
	uint8_t *blob = load_blob(FIXTURE("reserved"), &size);
	struct platform platform;
	struct fdt fdt;
	uint64_t base = 0, reg_size = 0;

	CHECK(fdt_open(&fdt, blob) == 0);
	CHECK(fdt_memreserve(&fdt, 0, &base, &reg_size) == 0);
	CHECK_EQ_U64(base, 0x80000000);
	CHECK_EQ_U64(reg_size, 0x20000);
	CHECK(fdt_memreserve(&fdt, 1, &base, &reg_size) == 0);
	CHECK_EQ_U64(base, 0x88000000);
	CHECK(fdt_memreserve(&fdt, 2, &base, &reg_size) == -1);
	CHECK(fdt_memreserve(&fdt, -1, &base, &reg_size) == -1);

	/* Aliases: a string path, a phandle-made path, and an alias plus more path. */
	int serial = fdt_path(&fdt, "/soc/serial@10000000");
	CHECK(serial >= 0);
	CHECK(fdt_path(&fdt, "serial0") == serial);
	CHECK(fdt_path(&fdt, "bus/serial@10000000") == serial);
	CHECK(fdt_path(&fdt, "bus/serial") == serial);
	CHECK(fdt_path(&fdt, "bus") == fdt_path(&fdt, "/soc"));
	CHECK(fdt_path(&fdt, "serial1") == -1);
	CHECK(fdt_path(&fdt, "serial") == -1); /* alias names match exactly */
	CHECK(fdt_path(&fdt, "") == -1);
	CHECK(!fdt_node_enabled(&fdt, fdt_path(&fdt, "/reserved-memory/ignored")));

	CHECK(platform_from_fdt(&platform, blob, NULL) == 0);
	bind_devices(&platform, &bound);
	CHECK(platform.memory_count == 3);
	CHECK_EQ_U64(platform.memory[0].base, 0x80000000);
	CHECK_EQ_U64(platform.memory[0].size, 0x8000000);
	CHECK_EQ_U64(platform.memory[1].base, 0x90000000);
	CHECK_EQ_U64(platform.memory[1].size, 0x4000000);
	CHECK_EQ_U64(platform.memory[2].base, 0x100000000ull);
	CHECK_EQ_U64(platform.memory[2].size, 0x10000000);

	/* Two memreserve entries, then three reg ranges; the disabled node and the
	 * size-only (dynamic) node reserve nothing. */
	CHECK(platform.reserved_count == 5);
	CHECK_EQ_U64(platform.reserved[0].base, 0x80000000);
	CHECK_EQ_U64(platform.reserved[0].size, 0x20000);
	CHECK_EQ_U64(platform.reserved[1].base, 0x88000000);
	CHECK_EQ_U64(platform.reserved[1].size, 0x1000);
	CHECK_EQ_U64(platform.reserved[2].base, 0x80000000);
	CHECK_EQ_U64(platform.reserved[2].size, 0x40000);
	CHECK_EQ_U64(platform.reserved[3].base, 0x80040000);
	CHECK_EQ_U64(platform.reserved[3].size, 0x20000);
	CHECK_EQ_U64(platform.reserved[4].base, 0x80080000);
	CHECK_EQ_U64(platform.reserved[4].size, 0x10000);

	CHECK_STR(platform.bootargs, "console=ttyS0 loglevel=7");
	CHECK(platform.bootargs >= (const char *)blob &&
	      platform.bootargs < (const char *)blob + size);
	CHECK(platform.uart.present);
	CHECK_EQ_U64(platform.uart.base, 0x10000000);
	CHECK(platform.uart.baud == 9600);
	CHECK(platform.uart.irq == 0);
	CHECK(platform.uart.clock_hz == 3686400);
	CHECK(platform.has_sstc);
	CHECK(!bound.plic.present);
	free(blob);
}

/* AT_HWCAP's V: a "v" in riscv,isa alone is T-Head's vector 0.7.1 on the D1 and is
 * not believed (Linux cpufeature.c); riscv,isa-extensions' "v" is the ratified one. */
static void test_vector_only_from_isa_extensions(void)
{
	struct platform platform;
	const uint64_t v = 1u << ('v' - 'a');
	CHECK(platform_from_file(FIXTURE("isa-vector"), &platform, NULL) == 0);
	CHECK(platform.isa_letters & v);
	CHECK(platform.isa_letters & (1u << ('d' - 'a')));
}

static void test_cpu_variations(void)
{
	struct platform platform;
	const char *error = NULL;

	CHECK(platform_from_file(FIXTURE("cpus"), &platform, &error) == 0);
	/* cpu@2 is disabled and cpu@9 is beyond PLATFORM_MAX_HARTS. */
	CHECK(platform.hart_count == 2);
	CHECK(platform.hart_ids[0] == 0);
	CHECK(platform.hart_ids[1] == 1);
	CHECK(platform.has_sstc);               /* "_SSTC" and riscv,isa-extensions both count */
	CHECK(platform.timebase_hz == 1000000); /* from cpu@0, as /cpus has none */
	CHECK_STR(platform.isa, "rv64imac_zicsr_SSTC_zifencei");
	/* Common to "rv64imac...", the isa-extensions list "i m a c" and "rv64imac". */
	CHECK_EQ_U64(platform.isa_letters, (1u << ('i' - 'a')) | (1u << ('m' - 'a')) |
	                                       (1u << ('a' - 'a')) | (1u << ('c' - 'a')));

	CHECK(platform.uart.present); /* stdout-path = "console", an alias */
	CHECK_EQ_U64(platform.uart.base, 0x10000000);
	CHECK(platform.uart.baud == 0);
	CHECK(platform.uart.reg_shift == 0);
	CHECK(platform.uart.reg_io_width == 1);
	CHECK(platform.uart.clock_hz == 0);

	CHECK(bound.plic.present);
	CHECK_STR(bound.plic.compatible, "riscv,plic0");
	CHECK(bound.plic.source_count == 53);
	/* Contexts: 0 = hart 0 unusable, 1 = hart 0 S, 2 = hart 9 S (ignored),
	 * 3 = hart 1 unusable, 4 = hart 1 S. */
	CHECK(bound.plic.s_context[0] == 1);
	CHECK(bound.plic.s_context[1] == 4);
	for (int hart = 2; hart < PLATFORM_MAX_HARTS; hart++)
		CHECK(bound.plic.s_context[hart] == -1);

	CHECK(platform_from_file(FIXTURE("cpus-mixed"), &platform, &error) == 0);
	CHECK(platform.hart_count == 2);
	CHECK(!platform.has_sstc); /* "_zsstc" and "_sstcx" are not Sstc */
	CHECK(!platform.uart.present);
	CHECK(!bound.plic.present);
	CHECK(bound.irqchip_driver == NULL);
	CHECK(bound.exit_driver == NULL);
	CHECK_STR(platform.bootargs, "");
}

static void test_platform_errors(void)
{
	struct platform platform;
	const char *error;

	error = NULL;
	CHECK(platform_from_file(FIXTURE("no-memory"), &platform, &error) < 0);
	CHECK_STR(error, "no memory node");
	error = NULL;
	CHECK(platform_from_file(FIXTURE("no-cpus"), &platform, &error) < 0);
	CHECK_STR(error, "no /cpus node");
	error = NULL;
	CHECK(platform_from_file(FIXTURE("no-timebase"), &platform, &error) < 0);
	CHECK_STR(error, "no timebase-frequency");
	error = NULL;
	CHECK(platform_from_file(FIXTURE("too-many-reserved"), &platform, &error) < 0);
	CHECK_STR(error, "too many reserved memory ranges");
	error = NULL;
	CHECK(platform_from_fdt(&platform, NULL, &error) < 0);
	CHECK_STR(error, "bad device tree header");
	CHECK(platform_from_fdt(&platform, NULL, NULL) < 0);
	CHECK_STR(platform.bootargs, ""); /* safe defaults even on failure */
}

/* fdt_total_size() and fdt_open() must not read past a header that is cut short:
 * these buffers are only as long as the fields the functions may look at. */
static void test_short_buffers(void)
{
	struct fdt fdt;
	uint8_t *wrong_magic = calloc(1, 4);
	CHECK(fdt_total_size(wrong_magic) == 0);
	CHECK(fdt_open(&fdt, wrong_magic) == -1);
	free(wrong_magic);

	uint8_t *tiny = calloc(1, 8);
	put_be32(tiny, HEADER_MAGIC, FDT_MAGIC);
	put_be32(tiny, HEADER_TOTAL_SIZE, 8);
	CHECK(fdt_total_size(tiny) == 8);
	CHECK(fdt_open(&fdt, tiny) == -1);
	free(tiny);
	CHECK(fdt_total_size(NULL) == 0);
	CHECK(fdt_open(&fdt, NULL) == -1);
}

/* Corrupt one header field of a copy of `blob` and return whether fdt_open() took it. */
static bool opens_with_field(const uint8_t *blob, size_t size, size_t field, uint32_t value)
{
	uint8_t *copy = copy_blob(blob, size);
	struct fdt fdt;
	put_be32(copy, field, value);
	bool opened = fdt_open(&fdt, copy) == 0;
	free(copy);
	return opened;
}

static void test_malformed_headers(void)
{
	size_t size;
	uint8_t *blob = load_blob(FIXTURE("d1-like"), &size);
	uint32_t struct_offset = get_be32(blob, HEADER_STRUCT_OFFSET);
	uint32_t strings_offset = get_be32(blob, HEADER_STRINGS_OFFSET);
	uint32_t strings_size = get_be32(blob, HEADER_STRINGS_SIZE);
	uint32_t memreserve_offset = get_be32(blob, HEADER_MEMRESERVE_OFFSET);
	struct platform platform;
	const char *error = NULL;

	CHECK(opens_with_field(blob, size, HEADER_MAGIC, FDT_MAGIC)); /* control */
	CHECK(!opens_with_field(blob, size, HEADER_MAGIC, 0xedfe0dd0));
	CHECK(!opens_with_field(blob, size, HEADER_VERSION, 15));
	CHECK(!opens_with_field(blob, size, HEADER_LAST_COMPATIBLE, 18));
	CHECK(!opens_with_field(blob, size, HEADER_TOTAL_SIZE, 20));
	CHECK(!opens_with_field(blob, size, HEADER_TOTAL_SIZE, 0x80000000u));
	/* totalsize that lies: smaller than the blocks it should contain. */
	CHECK(!opens_with_field(blob, size, HEADER_TOTAL_SIZE, strings_offset + strings_size - 1));
	CHECK(!opens_with_field(blob, size, HEADER_STRUCT_OFFSET, struct_offset + 2));
	CHECK(!opens_with_field(blob, size, HEADER_STRUCT_OFFSET, 0));
	CHECK(!opens_with_field(blob, size, HEADER_STRUCT_SIZE, 0xfffffff0u)); /* wraps */
	CHECK(!opens_with_field(blob, size, HEADER_STRUCT_SIZE, (uint32_t)size));
	CHECK(!opens_with_field(blob, size, HEADER_STRINGS_OFFSET, (uint32_t)size));
	CHECK(!opens_with_field(blob, size, HEADER_STRINGS_SIZE, strings_size + 1));
	CHECK(!opens_with_field(blob, size, HEADER_MEMRESERVE_OFFSET, memreserve_offset + 4));
	CHECK(!opens_with_field(blob, size, HEADER_MEMRESERVE_OFFSET, (uint32_t)(size & ~7u) - 8));

	/* Version 16 has no size_dt_struct: the block runs to the end of the blob. */
	uint8_t *version16 = copy_blob(blob, size);
	put_be32(version16, HEADER_VERSION, 16);
	put_be32(version16, HEADER_STRUCT_SIZE, 0xdeadbeef);
	CHECK(platform_from_fdt(&platform, version16, &error) == 0);
	CHECK(platform.uart.baud == 115200);
	free(version16);

	/* The blob must be 4-byte aligned so property cells can be read as uint32_t. */
	uint8_t *unaligned = malloc(size + 1);
	memcpy(unaligned + 1, blob, size);
	struct fdt fdt;
	CHECK(fdt_open(&fdt, unaligned + 1) == -1);
	free(unaligned);

	uint8_t *bad_magic = copy_blob(blob, size);
	bad_magic[0] ^= 1;
	CHECK(fdt_total_size(bad_magic) == 0);
	CHECK(platform_from_fdt(&platform, bad_magic, &error) < 0);
	CHECK_STR(error, "bad device tree header");
	free(bad_magic);
	free(blob);
}

/* The root node of a dtc-made blob starts the structure block: BEGIN_NODE, the empty
 * name padded to 4 bytes, then its first property at offset 8: PROP, length,
 * name offset, value. */
#define ROOT_FIRST_PROP 8

static void test_malformed_structure(void)
{
	size_t size;
	uint8_t *blob = load_blob(FIXTURE("d1-like"), &size);
	uint32_t struct_offset = get_be32(blob, HEADER_STRUCT_OFFSET);
	uint32_t struct_size = get_be32(blob, HEADER_STRUCT_SIZE);
	size_t first_prop = struct_offset + ROOT_FIRST_PROP;
	struct platform platform;
	const char *error;
	struct fdt fdt;
	uint32_t length;

	CHECK(get_be32(blob, struct_offset) == TOKEN_BEGIN_NODE);
	CHECK(get_be32(blob, first_prop) == TOKEN_PROP);

	/* A property name offset beyond the strings block. */
	uint8_t *copy = copy_blob(blob, size);
	put_be32(copy, first_prop + 8, 0x7fffffff);
	CHECK(fdt_open(&fdt, copy) == 0);
	CHECK(fdt_prop(&fdt, fdt_root(&fdt), "#address-cells", &length) == NULL);
	CHECK(fdt_first_child(&fdt, fdt_root(&fdt)) == -1);
	CHECK(fdt_path(&fdt, "/cpus") == -1);
	error = NULL;
	CHECK(platform_from_fdt(&platform, copy, &error) < 0);
	CHECK(error != NULL);
	free(copy);

	/* A property name offset at the very last byte of the strings block, whose
	 * string is then unterminated once the block is shortened by one. */
	copy = copy_blob(blob, size);
	put_be32(copy, HEADER_STRINGS_SIZE, get_be32(blob, HEADER_STRINGS_SIZE) - 1);
	CHECK(fdt_open(&fdt, copy) == 0);
	CHECK(platform_from_fdt(&platform, copy, &error) <= 0);
	free(copy);

	/* A property length that runs past the end of the block, by a lot and by one. */
	uint32_t lengths[] = {0xfffffff0u, struct_size - ROOT_FIRST_PROP - 12 + 1};
	for (size_t i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++) {
		copy = copy_blob(blob, size);
		put_be32(copy, first_prop + 4, lengths[i]);
		CHECK(fdt_open(&fdt, copy) == 0);
		CHECK(fdt_prop(&fdt, fdt_root(&fdt), "#address-cells", &length) == NULL);
		CHECK(fdt_first_child(&fdt, fdt_root(&fdt)) == -1);
		CHECK(platform_from_fdt(&platform, copy, &error) < 0);
		free(copy);
	}

	/* An unknown token. */
	copy = copy_blob(blob, size);
	put_be32(copy, first_prop, 7);
	CHECK(fdt_open(&fdt, copy) == 0);
	CHECK(fdt_path(&fdt, "/cpus") == -1);
	CHECK(platform_from_fdt(&platform, copy, &error) < 0);
	free(copy);

	/* NOPs are skipped: overwrite the root's first property (4 header/value cells). */
	copy = copy_blob(blob, size);
	for (size_t cell = 0; cell < 4; cell++)
		put_be32(copy, first_prop + 4 * cell, TOKEN_NOP);
	CHECK(fdt_open(&fdt, copy) == 0);
	CHECK(fdt_prop(&fdt, fdt_root(&fdt), "#address-cells", &length) == NULL);
	CHECK(fdt_prop(&fdt, fdt_root(&fdt), "#size-cells", &length) != NULL);
	CHECK(fdt_path(&fdt, "/soc/serial@2500000") >= 0);
	free(copy);

	/* A structure block cut short: in the middle, and inside a node name. */
	uint32_t short_sizes[] = {struct_size / 2, 0, 4};
	for (size_t i = 0; i < sizeof(short_sizes) / sizeof(short_sizes[0]); i++) {
		copy = copy_blob(blob, size);
		put_be32(copy, HEADER_STRUCT_SIZE, short_sizes[i]);
		CHECK(fdt_open(&fdt, copy) == 0);
		CHECK(fdt_path(&fdt, "/soc/serial@2500000") == -1);
		CHECK(platform_from_fdt(&platform, copy, &error) < 0);
		free(copy);
	}
	/* BEGIN_NODE then the name, so as not to find the alias that holds the path. */
	static const char serial_node[] = "\0\0\0\001serial@2500000";
	long node =
	    find_bytes(blob + struct_offset, struct_size, serial_node, sizeof(serial_node) - 1);
	CHECK(node > 0);
	copy = copy_blob(blob, size);
	put_be32(copy, HEADER_STRUCT_SIZE, (uint32_t)node + 4 + 5);
	CHECK(fdt_open(&fdt, copy) == 0);
	int soc = fdt_path(&fdt, "/soc");
	CHECK(soc >= 0);
	CHECK(fdt_parent(&fdt, soc) == fdt_root(&fdt));
	CHECK(fdt_path(&fdt, "/soc/serial") == -1);
	CHECK(fdt_next_sibling(&fdt, soc) == -1);
	CHECK(platform_from_fdt(&platform, copy, &error) == 0); /* all it needs came first */
	CHECK(!platform.uart.present);
	free(copy);

	/* The root's END_NODE turned into a NOP: the tree never closes, but every node in
	 * it is still reachable. */
	copy = copy_blob(blob, size);
	CHECK(get_be32(copy, struct_offset + struct_size - 8) == TOKEN_END_NODE);
	put_be32(copy, struct_offset + struct_size - 8, TOKEN_NOP);
	CHECK(fdt_open(&fdt, copy) == 0);
	CHECK(fdt_path(&fdt, "/soc/serial@2500000") >= 0);
	CHECK(fdt_parent(&fdt, fdt_path(&fdt, "/soc")) == fdt_root(&fdt));
	CHECK(platform_from_fdt(&platform, copy, &error) == 0);
	free(copy);
	free(blob);
}

/* Visit every node through the accessors platform_from_fdt() may not reach (it
 * already covers fdt_reg() and fdt_parent()); returns how many nodes it saw. */
static int walk_everything(const struct fdt *fdt, int node, int depth)
{
	int count = 1;
	uint32_t value;

	(void)fdt_node_name(fdt, node);
	(void)fdt_node_enabled(fdt, node);
	(void)fdt_prop_string(fdt, node, "compatible");
	(void)fdt_stringlist_contains(fdt, node, "compatible", "riscv,plic0");
	(void)fdt_prop_u32(fdt, node, "phandle", &value);
	if (depth > 32)
		return count;
	for (int child = fdt_first_child(fdt, node); child >= 0;
	     child = fdt_next_sibling(fdt, child))
		count += walk_everything(fdt, child, depth + 1);
	return count;
}

/* Exercise the reader on a corrupted copy: whatever it returns, it must not read out
 * of bounds (AddressSanitizer would stop the test) or hang. A copy whose totalsize
 * now exceeds the buffer is skipped: only the loader, which knows how much memory it
 * has, can reject that. */
static void exercise_corrupted(uint8_t *copy, size_t size)
{
	struct platform platform;
	struct fdt fdt;
	uint64_t base, reg_size;

	if (fdt_total_size(copy) > size)
		return;
	struct bound_devices ignored;
	(void)platform_from_fdt(&platform, copy, NULL);
	bind_devices(&platform, &ignored); /* the driver table's walk, over the damage too */
	if (fdt_open(&fdt, copy) < 0)
		return;
	if (fdt_root(&fdt) >= 0)
		(void)walk_everything(&fdt, fdt_root(&fdt), 0);
	(void)fdt_path(&fdt, "serial0");
	(void)fdt_path(&fdt, "/soc/serial");
	(void)fdt_next_compatible(&fdt, -1, "sifive,test0");
	for (uint32_t phandle = 1; phandle < 4; phandle++)
		(void)fdt_node_by_phandle(&fdt, phandle);
	for (int i = 0; fdt_memreserve(&fdt, i, &base, &reg_size) == 0; i++)
		continue;
}

static void test_corruption_sweep(void)
{
	const char *paths[] = {FIXTURE("d1-like"), FIXTURE("reserved"), FIXTURE("cpus")};
	const uint8_t replacements[] = {0x00, 0xff, 0x03, 0x80};

	for (size_t p = 0; p < sizeof(paths) / sizeof(paths[0]); p++) {
		size_t size;
		uint8_t *blob = load_blob(paths[p], &size);
		uint8_t *copy = copy_blob(blob, size);
		/* Every byte in turn set to 0, 0xff, FDT_PROP and 0x80: broken tokens, sizes
		 * and offsets. */
		for (size_t offset = 0; offset < size; offset++) {
			for (size_t r = 0; r < sizeof(replacements); r++) {
				copy[offset] = replacements[r];
				exercise_corrupted(copy, size);
			}
			copy[offset] = blob[offset];
		}
		/* Random multi-byte damage, deterministic (xorshift). */
		uint32_t state = 0x12345678u + (uint32_t)p;
		for (int round = 0; round < 1000; round++) {
			memcpy(copy, blob, size);
			int writes = 1 + (int)(state % 4);
			for (int w = 0; w < writes; w++) {
				state ^= state << 13;
				state ^= state >> 17;
				state ^= state << 5;
				copy[state % size] = (uint8_t)(state >> 24);
			}
			exercise_corrupted(copy, size);
		}
		/* Still intact after all that. */
		memcpy(copy, blob, size);
		struct platform platform;
		CHECK(platform_from_fdt(&platform, copy, NULL) == 0);
		free(copy);
		free(blob);
	}
}

int main(void)
{
	RUN(test_header_and_tree_walk);
	RUN(test_read_cells);
	RUN(test_platform_qemu_smp4);
	RUN(test_platform_qemu_smp1);
	RUN(test_platform_d1_like);
	RUN(test_reserved_memory_and_chosen);
	RUN(test_cpu_variations);
	RUN(test_vector_only_from_isa_extensions);
	RUN(test_platform_errors);
	RUN(test_short_buffers);
	RUN(test_malformed_headers);
	RUN(test_malformed_structure);
	RUN(test_corruption_sweep);
	return check_summary();
}
