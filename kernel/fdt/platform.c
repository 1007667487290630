/* Turn the firmware's device tree into the few facts the kernel needs (struct platform).
 *
 * Runs once, on the boot hart, before anything else: it never sleeps, takes no locks
 * and allocates nothing. Strings it keeps (bootargs) point into the blob, which must
 * therefore stay mapped and untouched. */
#include "kernel/fdt/platform.h"
#include "kernel/fdt/fdt.h"
#include "kernel/lib/string.h"

#define SUPERVISOR_EXTERNAL_INTERRUPT 9 /* scause code the PLIC's S-mode contexts raise */
#define MAX_INTERRUPT_CELLS           4 /* more in an interrupt specifier is malformed */
#define STDOUT_PATH_MAX               128

/* True if the node's "device_type" is `type`. Called by the memory and cpu readers. */
static bool has_device_type(const struct fdt *fdt, int node, const char *type)
{
	const char *value = fdt_prop_string(fdt, node, "device_type");

	return value && strcmp(value, type) == 0;
}

/* A u32 property that some trees write as two cells (timebase-frequency); false if
 * absent, malformed or too large for 32 bits. Called by read_cpus(). */
static bool read_frequency(const struct fdt *fdt, int node, const char *name, uint32_t *value)
{
	uint32_t length;
	const uint32_t *cells = fdt_prop(fdt, node, name, &length);

	if (!cells || (length != 4 && length != 8))
		return false;
	uint64_t frequency = fdt_read_cells(cells, (int)(length / 4));
	if (frequency == 0 || frequency > 0xffffffffu)
		return false;
	*value = (uint32_t)frequency;
	return true;
}

/* Every reg entry of every enabled memory node under the root; entries beyond
 * PLATFORM_MAX_MEMORY are dropped (less memory, but nothing unsafe).
 * Called by platform_from_fdt(). */
static void read_memory(const struct fdt *fdt, struct platform *platform)
{
	int root = fdt_root(fdt);

	for (int node = fdt_first_child(fdt, root); node >= 0; node = fdt_next_sibling(fdt, node)) {
		if (!has_device_type(fdt, node, "memory") || !fdt_node_enabled(fdt, node))
			continue;
		uint64_t base, size;
		for (int i = 0; fdt_reg(fdt, node, i, &base, &size) == 0; i++) {
			if (platform->memory_count == PLATFORM_MAX_MEMORY)
				return;
			if (size == 0)
				continue;
			platform->memory[platform->memory_count].base = base;
			platform->memory[platform->memory_count].size = size;
			platform->memory_count++;
		}
	}
}

/* Append one reserved range; -1 when the table is full, because silently dropping a
 * reservation could let the kernel hand out firmware's memory.
 * Called by read_reserved(). */
static int add_reserved(struct platform *platform, uint64_t base, uint64_t size)
{
	if (size == 0)
		return 0;
	if (platform->reserved_count == PLATFORM_MAX_RESERVED)
		return -1;
	platform->reserved[platform->reserved_count].base = base;
	platform->reserved[platform->reserved_count].size = size;
	platform->reserved_count++;
	return 0;
}

/* The memory reservation block, then every reg of every enabled /reserved-memory
 * child (children with only "size" ask the OS to allocate; we ignore them).
 * Called by platform_from_fdt(); -1 if there are more than fit. */
static int read_reserved(const struct fdt *fdt, struct platform *platform)
{
	uint64_t base, size;

	for (int i = 0; fdt_memreserve(fdt, i, &base, &size) == 0; i++)
		if (add_reserved(platform, base, size) < 0)
			return -1;

	int reserved_memory = fdt_path(fdt, "/reserved-memory");
	for (int child = fdt_first_child(fdt, reserved_memory); child >= 0;
	     child = fdt_next_sibling(fdt, child)) {
		if (!fdt_node_enabled(fdt, child))
			continue;
		for (int i = 0; fdt_reg(fdt, child, i, &base, &size) == 0; i++)
			if (add_reserved(platform, base, size) < 0)
				return -1;
	}
	return 0;
}

/* Lower-case an ASCII letter; anything else unchanged. */
static char to_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* True if the riscv,isa string ("rv64imafdc_zicsr_sstc") has a multi-letter
 * extension equal to `name` (lower case), ignoring case. Called by cpu_has_extension(). */
static bool isa_string_has(const char *isa, const char *name)
{
	size_t name_length = strlen(name);

	/* Multi-letter extensions each follow an underscore; the first component is the
	 * base ISA with its single-letter extensions. */
	for (const char *component = strchr(isa, '_'); component;
	     component = strchr(component, '_')) {
		component++;
		size_t i = 0;
		while (i < name_length && to_lower(component[i]) == name[i])
			i++;
		if (i == name_length && (component[i] == '_' || component[i] == '\0'))
			return true;
	}
	return false;
}

/* Does this cpu node advertise the multi-letter extension `name` (lower case: "sstc",
 * "svpbmt"), in either the old riscv,isa string or the newer riscv,isa-extensions list?
 * Called by read_cpus(). */
static bool cpu_has_extension(const struct fdt *fdt, int cpu, const char *name)
{
	const char *isa = fdt_prop_string(fdt, cpu, "riscv,isa");

	if (isa && isa_string_has(isa, name))
		return true;
	return fdt_stringlist_contains(fdt, cpu, "riscv,isa-extensions", name);
}

/* The single-letter extensions of a cpu node as a bit mask (bit n: letter 'a' + n, the
 * encoding of Linux's AT_HWCAP, arch/riscv/include/uapi/asm/hwcap.h): the base-ISA part
 * of riscv,isa ("rv64imafdc_..."; "g" stands for "imafd"), or else the one-letter
 * entries of riscv,isa-extensions (Linux Documentation/devicetree/bindings/riscv/
 * extensions.yaml). Except V: a "v" in riscv,isa is not believed. T-Head cores (the
 * D1's C906: "rv64imafdcvsu" in the stock tree) put it there for their vector unit,
 * XTheadVector 0.7.1, which is not the ratified V 1.0; Linux drops that "v" too
 * (arch/riscv/kernel/cpufeature.c, riscv_fill_hwcap_from_isa_string: "V in ISA
 * strings is ambiguous in practice"). V counts only when riscv,isa-extensions, whose
 * "v" means the ratified extension (extensions.yaml), names it. Called by read_cpus(). */
static uint64_t cpu_isa_letters(const struct fdt *fdt, int cpu)
{
	const char *isa = fdt_prop_string(fdt, cpu, "riscv,isa");
	uint64_t letters = 0;

	if (isa) {
		const char *c = isa;
		if ((c[0] == 'r' || c[0] == 'R') && (c[1] == 'v' || c[1] == 'V'))
			c += 2;
		while (*c >= '0' && *c <= '9')
			c++;
		for (; *c && *c != '_'; c++) {
			char letter = to_lower(*c);
			if (letter == 'g')
				letters |= 1ull << ('i' - 'a') | 1ull << ('m' - 'a') |
				           1ull << ('a' - 'a') | 1ull << ('f' - 'a') |
				           1ull << ('d' - 'a');
			else if (letter >= 'a' && letter <= 'z' && letter != 'v')
				letters |= 1ull << (letter - 'a');
		}
		if (fdt_stringlist_contains(fdt, cpu, "riscv,isa-extensions", "v"))
			letters |= 1ull << ('v' - 'a');
		return letters;
	}
	for (char letter = 'a'; letter <= 'z'; letter++) {
		char name[2] = {letter, 0};
		if (fdt_stringlist_contains(fdt, cpu, "riscv,isa-extensions", name))
			letters |= 1ull << (letter - 'a');
	}
	return letters;
}

/* Does any entry of the cpu node's "compatible" list start with T-Head's vendor prefix
 * "thead," (Linux Documentation/devicetree/bindings/riscv/cpus.yaml: "thead,c906",
 * "thead,c910", ...)? Called by read_cpus(). */
static bool cpu_is_thead(const struct fdt *fdt, int cpu)
{
	static const char prefix[] = "thead,";
	uint32_t length;
	const char *list = fdt_prop(fdt, cpu, "compatible", &length);

	/* A string list: NUL-terminated strings back to back, the last one terminated too. */
	for (uint32_t at = 0; list && at < length;) {
		size_t entry_length = strnlen(list + at, length - at);
		if (entry_length >= sizeof(prefix) - 1 &&
		    memcmp(list + at, prefix, sizeof(prefix) - 1) == 0 &&
		    at + entry_length < length)
			return true;
		at += (uint32_t)entry_length + 1;
	}
	return false;
}

/* True if hart_id is already in the table (a malformed tree may repeat one).
 * Called by read_cpus(). */
static bool hart_listed(const struct platform *platform, uint64_t hart_id)
{
	for (int i = 0; i < platform->hart_count; i++)
		if (platform->hart_ids[i] == hart_id)
			return true;
	return false;
}

/* Harts, ISA, Sstc, Svpbmt and timebase from /cpus. Called by platform_from_fdt(); returns -1
 * with *error set if there is no usable hart or no timebase. */
static int read_cpus(const struct fdt *fdt, struct platform *platform, const char **error)
{
	int cpus = fdt_path(fdt, "/cpus");
	int first_cpu = -1;
	bool every_hart_has_sstc = true;
	bool every_hart_has_svpbmt = true;
	bool every_hart_is_thead = true;
	uint64_t common_letters = ~0ull;

	if (cpus < 0) {
		*error = "no /cpus node";
		return -1;
	}
	for (int cpu = fdt_first_child(fdt, cpus); cpu >= 0; cpu = fdt_next_sibling(fdt, cpu)) {
		uint64_t hart_id, unused_size;
		if (!has_device_type(fdt, cpu, "cpu") || !fdt_node_enabled(fdt, cpu))
			continue;
		if (fdt_reg(fdt, cpu, 0, &hart_id, &unused_size) < 0 ||
		    hart_id >= PLATFORM_MAX_HARTS || hart_listed(platform, hart_id))
			continue;
		platform->hart_ids[platform->hart_count++] = (uint32_t)hart_id;
		if (first_cpu < 0) {
			const char *isa = fdt_prop_string(fdt, cpu, "riscv,isa");
			first_cpu = cpu;
			copy_string(platform->isa, sizeof(platform->isa), isa ? isa : "");
		}
		if (!cpu_has_extension(fdt, cpu, "sstc"))
			every_hart_has_sstc = false;
		if (!cpu_has_extension(fdt, cpu, "svpbmt"))
			every_hart_has_svpbmt = false;
		if (!cpu_is_thead(fdt, cpu))
			every_hart_is_thead = false;
		common_letters &= cpu_isa_letters(fdt, cpu);
	}
	if (platform->hart_count == 0) {
		*error = "no enabled cpu with a usable hart id";
		return -1;
	}
	platform->has_sstc = every_hart_has_sstc;
	platform->has_svpbmt = every_hart_has_svpbmt;
	platform->cpu_vendor_thead = every_hart_is_thead;
	platform->isa_letters = common_letters;

	if (!read_frequency(fdt, cpus, "timebase-frequency", &platform->timebase_hz) &&
	    !read_frequency(fdt, first_cpu, "timebase-frequency", &platform->timebase_hz)) {
		*error = "no timebase-frequency";
		return -1;
	}
	return 0;
}

/* The baud rate at the start of stdout-path options ("115200n8"); 0 if none or absurd.
 * Called by read_chosen(). */
static uint32_t parse_baud(const char *options)
{
	uint32_t baud = 0;

	for (; *options >= '0' && *options <= '9'; options++) {
		uint32_t digit = (uint32_t)(*options - '0');
		if (baud > (0xffffffffu - digit) / 10)
			return 0;
		baud = baud * 10 + digit;
	}
	return baud;
}

/* #interrupt-cells of the controller that takes `node`'s interrupts: its own or the
 * nearest ancestor's interrupt-parent (devicetree spec 2.4.1). 1 when none is found,
 * which is what a bare "interrupts = <N>" means. Called by read_interrupts(). */
static int interrupt_cells_of(const struct fdt *fdt, int node)
{
	for (int at = node; at >= 0; at = fdt_parent(fdt, at)) {
		uint32_t phandle, cells = 1;
		if (!fdt_prop_u32(fdt, at, "interrupt-parent", &phandle))
			continue;
		int controller = fdt_node_by_phandle(fdt, phandle);
		if (controller >= 0)
			fdt_prop_u32(fdt, controller, "#interrupt-cells", &cells);
		return cells ? (int)cells : 1;
	}
	return 1;
}

/* #interrupt-cells of the controller with phandle `phandle`; 0 when there is no such
 * node or it does not say (an entry cannot then be delimited). */
static int interrupt_cells_of_controller(const struct fdt *fdt, uint32_t phandle)
{
	uint32_t cells = 0;
	int controller = fdt_node_by_phandle(fdt, phandle);
	if (controller >= 0)
		fdt_prop_u32(fdt, controller, "#interrupt-cells", &cells);
	return (int)cells;
}

/* The interrupt numbers of `node`, one per entry, in order, up to `max`: from
 * "interrupts" (entries of the interrupt parent's #interrupt-cells, the number in the
 * first cell), else from "interrupts-extended" (each entry <controller phandle,
 * that controller's #interrupt-cells cells>, the number in the first of those), as the
 * devicetree spec 2.4.1 and Linux's of_irq_parse_one read them. Allwinner's Tina tree
 * (the Lichee RV's stock firmware) gives the UART and the timer only the second form:
 * interrupts-extended = <&plic0 18 IRQ_TYPE_LEVEL_HIGH>. Returns the count. Called by
 * platform_read_uart() and platform_read_timer_block(). */
static int read_interrupts(const struct fdt *fdt, int node, uint32_t *irqs, int max)
{
	uint32_t length = 0;
	int count = 0;
	const uint32_t *cells = fdt_prop(fdt, node, "interrupts", &length);
	if (cells) {
		int per_entry = interrupt_cells_of(fdt, node);
		int entries = (int)(length / 4) / per_entry;
		for (int entry = 0; entry < entries && count < max; entry++)
			irqs[count++] = (uint32_t)fdt_read_cells(cells + entry * per_entry, 1);
		return count;
	}
	cells = fdt_prop(fdt, node, "interrupts-extended", &length);
	uint32_t total = cells ? length / 4 : 0;
	for (uint32_t at = 0; at < total && count < max;) {
		int per_entry =
		    interrupt_cells_of_controller(fdt, (uint32_t)fdt_read_cells(cells + at, 1));
		if (per_entry == 0 || at + 1 + (uint32_t)per_entry > total)
			break; /* an entry that cannot be delimited ends the list */
		irqs[count++] = (uint32_t)fdt_read_cells(cells + at + 1, 1);
		at += 1 + (uint32_t)per_entry;
	}
	return count;
}

/* The Allwinner vendor name of the D1's UART, a Synopsys DesignWare APB UART: the tree
 * the Lichee RV's stock firmware passes calls UART0 this, with neither reg-shift nor
 * reg-io-width and its clock as a `clocks` phandle (StarryOS
 * docs/licheerv-dock-bringup.md), where the mainline tree says "snps,dw-apb-uart",
 * reg-shift 2, reg-io-width 4, clock-frequency 24 MHz (Linux arch/riscv/boot/dts/
 * allwinner/sunxi-d1s-t113.dtsi). */
static const char sun20i_uart_compatible[] = "allwinner,sun20i-uart";

/* Fill *uart from a UART node. It is only "present" with a reg, since a console without
 * an address is of no use. Called by read_chosen() for stdout-path's node and by the
 * UART driver's probe (drivers/uart/uart_16550_probe.c). */
int platform_read_uart(const struct fdt *fdt, int node, uint32_t baud, struct uart_desc *uart)
{
	const char *compatible = fdt_prop_string(fdt, node, "compatible");

	memset(uart, 0, sizeof(*uart));
	if (fdt_reg(fdt, node, 0, &uart->base, &uart->size) < 0)
		return -1;
	uart->present = true;
	copy_string(uart->compatible, sizeof(uart->compatible), compatible ? compatible : "");
	uart->designware = fdt_stringlist_contains(fdt, node, "compatible", "snps,dw-apb-uart");
	uart->reg_shift = 0;
	uart->reg_io_width = 1;
	if (fdt_stringlist_contains(fdt, node, "compatible", sun20i_uart_compatible)) {
		/* As mainline describes the same block. A clock named only by phandle stays
		 * unknown (0): the driver then keeps the divisor the firmware set, which
		 * its own console already proved right. */
		uart->designware = true;
		uart->reg_shift = 2;
		uart->reg_io_width = 4;
	}
	fdt_prop_u32(fdt, node, "reg-shift", &uart->reg_shift);
	fdt_prop_u32(fdt, node, "reg-io-width", &uart->reg_io_width);
	fdt_prop_u32(fdt, node, "clock-frequency", &uart->clock_hz);
	read_interrupts(fdt, node, &uart->irq, 1);
	/* "fifo-size" [8250.yaml], else the Allwinner vendor property the Tina tree uses
	 * for the same thing (sunxi,uart-fifosize = <64> on UART0; Tina's sunxi-uart.c). */
	if (!fdt_prop_u32(fdt, node, "fifo-size", &uart->fifo_size))
		fdt_prop_u32(fdt, node, "sunxi,uart-fifosize", &uart->fifo_size);
	uart->baud = baud;
	return 0;
}

/* bootargs and the console from /chosen. stdout-path is "path-or-alias[:options]".
 * Called by platform_from_fdt(). */
static void read_chosen(const struct fdt *fdt, struct platform *platform)
{
	int chosen = fdt_path(fdt, "/chosen");
	const char *bootargs = fdt_prop_string(fdt, chosen, "bootargs");
	const char *stdout_path = fdt_prop_string(fdt, chosen, "stdout-path");
	char path[STDOUT_PATH_MAX];
	size_t length = 0;

	if (bootargs)
		platform->bootargs = bootargs;
	platform->uart_absent_reason = "/chosen has no stdout-path";
	/* Seed bytes for the kernel's random numbers (Linux Documentation/devicetree/
	 * bindings/chosen.txt: rng-seed, kaslr-seed); QEMU virt passes rng-seed. */
	platform->rng_seed = fdt_prop(fdt, chosen, "rng-seed", &platform->rng_seed_length);
	if (!platform->rng_seed)
		platform->rng_seed =
		    fdt_prop(fdt, chosen, "kaslr-seed", &platform->rng_seed_length);
	if (!platform->rng_seed)
		platform->rng_seed_length = 0;
	if (!stdout_path)
		return;
	while (stdout_path[length] != '\0' && stdout_path[length] != ':')
		length++;
	platform->uart_absent_reason = "stdout-path is too long";
	if (length >= sizeof(path))
		return;
	/* fdt_path() wants a terminated string, and the blob is read-only: copy. */
	memcpy(path, stdout_path, length);
	path[length] = '\0';
	int node = fdt_path(fdt, path);
	platform->uart_absent_reason = "stdout-path names no node of this tree";
	if (node < 0)
		return;
	if (platform_read_uart(
	        fdt, node, stdout_path[length] == ':' ? parse_baud(stdout_path + length + 1) : 0,
	        &platform->uart) == 0) {
		platform->stdout_node = node;
		platform->console_source = "/chosen stdout-path";
	}
	platform->uart_absent_reason =
	    platform->uart.present ? 0 : "the stdout-path node has no reg";
}

int platform_set_console_node(struct platform *platform, int node, const char *source)
{
	struct fdt fdt;
	struct uart_desc uart;
	if (!platform->dtb || fdt_open(&fdt, platform->dtb) < 0 ||
	    platform_read_uart(&fdt, node, 0, &uart) != 0)
		return -1;
	platform->uart = uart;
	platform->stdout_node = node;
	platform->console_source = source;
	platform->uart_absent_reason = 0;
	return 0;
}

int platform_alias_node(const struct platform *platform, const char *alias)
{
	struct fdt fdt;
	if (!platform->dtb || fdt_open(&fdt, platform->dtb) < 0)
		return -1;
	int aliases = fdt_path(&fdt, "/aliases");
	const char *path = aliases >= 0 ? fdt_prop_string(&fdt, aliases, alias) : 0;
	return path ? fdt_path(&fdt, path) : -1;
}

/* Linux's of_alias_get_id(np, "serial") for the 8250 driver's line numbers; ten are
 * enough for any board Duplex knows (the D1 has six UARTs). */
int platform_serial_alias_number(const struct platform *platform, int node)
{
	for (int number = 0; number < 10; number++) {
		char alias[8] = "serial0";
		alias[6] = (char)('0' + number);
		if (node >= 0 && platform_alias_node(platform, alias) == node)
			return number;
	}
	return -1;
}

/* Map each hart to its PLIC context for S-mode external interrupts. Entry i of
 * interrupts-extended describes context i: <phandle of a hart's interrupt controller,
 * that controller's interrupt-cells>. Called by platform_read_plic(). */
static void read_plic_contexts(const struct fdt *fdt, int plic_node, struct plic_desc *plic)
{
	uint32_t length;
	const uint32_t *cells = fdt_prop(fdt, plic_node, "interrupts-extended", &length);
	uint32_t cell_count = cells ? length / 4 : 0;

	for (uint32_t cell = 0, context = 0; cell < cell_count; context++) {
		int controller =
		    fdt_node_by_phandle(fdt, (uint32_t)fdt_read_cells(cells + cell, 1));
		uint32_t interrupt_cells = 1;
		if (controller < 0)
			return; /* we cannot know where the next entry starts */
		fdt_prop_u32(fdt, controller, "#interrupt-cells", &interrupt_cells);
		if (interrupt_cells == 0 || interrupt_cells > MAX_INTERRUPT_CELLS ||
		    interrupt_cells > cell_count - cell - 1)
			return;
		uint32_t cause = (uint32_t)fdt_read_cells(cells + cell + 1, 1);
		cell += 1 + interrupt_cells;
		if (cause != SUPERVISOR_EXTERNAL_INTERRUPT ||
		    !fdt_stringlist_contains(fdt, controller, "compatible", "riscv,cpu-intc"))
			continue;
		/* A hart's interrupt controller is a child of its cpu node, whose reg is the
		 * hart id. */
		uint64_t hart_id, unused_size;
		int cpu = fdt_parent(fdt, controller);
		if (fdt_reg(fdt, cpu, 0, &hart_id, &unused_size) == 0 &&
		    hart_id < PLATFORM_MAX_HARTS)
			plic->s_context[hart_id] = (int32_t)context;
	}
}

/* See platform.h. Called by the PLIC's probe (drivers/irqchip/plic.c). */
int platform_read_plic(const struct fdt *fdt, int node, const char *compatible,
                       struct plic_desc *plic)
{
	memset(plic, 0, sizeof(*plic));
	for (int hart = 0; hart < PLATFORM_MAX_HARTS; hart++)
		plic->s_context[hart] = -1;
	if (fdt_reg(fdt, node, 0, &plic->base, &plic->size) < 0)
		return -1;
	plic->present = true;
	copy_string(plic->compatible, sizeof(plic->compatible), compatible);
	fdt_prop_u32(fdt, node, "riscv,ndev", &plic->source_count);
	read_plic_contexts(fdt, node, plic);
	return 0;
}

/* See platform.h. Called by the timer devices' probes (drivers/timer/). */
int platform_read_timer_block(const struct fdt *fdt, int node, const char *compatible,
                              struct timer_block_desc *timer)
{
	memset(timer, 0, sizeof(*timer));
	if (fdt_reg(fdt, node, 0, &timer->base, &timer->size) < 0)
		return -1;
	timer->irq_count = read_interrupts(fdt, node, timer->irqs, PLATFORM_MAX_TIMER_IRQS);
	copy_string(timer->compatible, sizeof(timer->compatible), compatible);
	timer->present = timer->irq_count > 0;
	return timer->present ? 0 : -1;
}

/* Called once by the boot hart's early setup, before any other hart runs; never
 * sleeps, needs no lock. `error` may be NULL. */
int platform_from_fdt(struct platform *platform, const void *dtb, const char **error)
{
	struct fdt fdt;
	const char *unused_error;

	if (!error)
		error = &unused_error;
	memset(platform, 0, sizeof(*platform));
	platform->bootargs = "";
	platform->dtb = dtb;
	platform->stdout_node = -1;

	if (fdt_open(&fdt, dtb) < 0 || fdt_root(&fdt) < 0) {
		*error = "bad device tree header";
		return -1;
	}
	read_memory(&fdt, platform);
	if (platform->memory_count == 0) {
		*error = "no memory node";
		return -1;
	}
	if (read_reserved(&fdt, platform) < 0) {
		*error = "too many reserved memory ranges";
		return -1;
	}
	if (read_cpus(&fdt, platform, error) < 0)
		return -1;
	read_chosen(&fdt, platform);
	return 0;
}
