/* What the kernel needs to know about the machine, read once from the device tree
 * that firmware passes in a1. Filled by platform_from_fdt() on the boot hart before
 * anything else runs; read-only afterwards. */
#ifndef DUPLEX_PLATFORM_H
#define DUPLEX_PLATFORM_H

#include <stdbool.h>
#include <stdint.h>

#define PLATFORM_MAX_HARTS    8 /* hart ids must be below this */
#define PLATFORM_MAX_MEMORY   8
#define PLATFORM_MAX_RESERVED 16

struct mem_range {
	uint64_t base;
	uint64_t size;
};

struct uart_desc {
	bool present;
	char compatible[32]; /* the first entry of "compatible" */
	uint64_t base;
	uint64_t size;
	uint32_t reg_shift;    /* "reg-shift", default 0 (2 for "allwinner,sun20i-uart") */
	uint32_t reg_io_width; /* "reg-io-width", default 1 (4 for "allwinner,sun20i-uart") */
	bool designware;       /* a DW APB UART: "snps,dw-apb-uart" or a vendor name for it */
	uint32_t clock_hz;     /* "clock-frequency", 0 if absent */
	uint32_t irq;          /* first of "interrupts" or "interrupts-extended", 0 if none */
	uint32_t fifo_size;    /* "fifo-size" or "sunxi,uart-fifosize", 0 if absent */
	uint32_t baud;         /* from stdout-path "path:115200n8", 0 if not given */
};

struct plic_desc {
	bool present;
	char compatible[32]; /* the driver's name that matched (selects quirks) */
	uint64_t base;
	uint64_t size;
	uint32_t source_count; /* "riscv,ndev" */
	/* PLIC context number for each hart id's S-mode external interrupt (cause 9),
	 * from "interrupts-extended"; -1 where the hart has none. */
	int32_t s_context[PLATFORM_MAX_HARTS];
};

/* A device the kernel can take its timer interrupts from when the harts have no Sstc
 * and the firmware's SBI timer does not work (kernel/timer/timer_source.h): the D1's
 * timer block, or, under QEMU, the Goldfish RTC's alarm (drivers/timer/). */
#define PLATFORM_MAX_TIMER_IRQS 4
struct timer_block_desc {
	bool present;
	char compatible[32]; /* the driver's name that matched */
	uint64_t base;
	uint64_t size;
	int irq_count;
	/* "interrupts" (or "interrupts-extended"), one per channel, in order */
	uint32_t irqs[PLATFORM_MAX_TIMER_IRQS];
};

struct platform {
	uint32_t timebase_hz; /* /cpus "timebase-frequency" (or the first cpu's) */

	int hart_count; /* enabled cpu nodes with a usable hart id */
	uint32_t hart_ids[PLATFORM_MAX_HARTS];
	char isa[96];    /* "riscv,isa" of the first hart, truncated */
	bool has_sstc;   /* every hart's ISA string (or riscv,isa-extensions) names Sstc */
	bool has_svpbmt; /* ... and Svpbmt (mm/memattr.h) */
	/* Single-letter extensions every hart has: bit n = letter 'a' + n ("imafdc"). */
	uint64_t isa_letters;
	/* /chosen rng-seed (or kaslr-seed) bytes in the blob, for kernel/random; NULL if none. */
	const void *rng_seed;
	uint32_t rng_seed_length;
	/* Every hart's "compatible" names a T-Head core ("thead,c906", ...): only then may
	 * the kernel read T-Head's own CSRs (mm/memattr.h: th.sxstatus for MAEE). */
	bool cpu_vendor_thead;

	int memory_count;
	struct mem_range memory[PLATFORM_MAX_MEMORY]; /* every reg of every memory node */
	int reserved_count;
	/* memreserve block entries plus every reg under /reserved-memory */
	struct mem_range reserved[PLATFORM_MAX_RESERVED];

	const char *bootargs; /* /chosen "bootargs" (points into the DTB), "" if none */

	struct uart_desc uart;          /* the console's node: /chosen stdout-path's, or
	                                 * the one platform_set_console_node chose */
	const char *uart_absent_reason; /* why uart is not present (static text), else 0 */
	int stdout_node; /* its node offset, -1 if none (the driver table binds it) */
	const char *console_source; /* how the console's node was found, for the boot log */

	/* The blob itself, for the driver table's walk over its nodes (drivers/base/):
	 * which driver handles which "compatible" is the drivers' business, not this
	 * file's. It must stay mapped and untouched. */
	const void *dtb;
};

/* Fill *platform from the blob. Returns 0, or a negative value with *error set to a
 * constant message naming what was missing or malformed (bad header, no memory node,
 * no cpus, no timebase-frequency). Missing optional devices are not errors. */
int platform_from_fdt(struct platform *platform, const void *dtb, const char **error);

/* Readers of one device node, for the drivers' probe functions (and the host tests).
 * `compatible` is the driver's name that matched the node (it selects quirks and is
 * what the boot log shows). Each fills *desc and returns 0, or -1 (desc->present
 * false) when the node lacks what the device needs: a reg, or for a timer block an
 * interrupt. Boot hart, never sleeps. */
struct fdt;
/* The console's node when /chosen stdout-path named none, or when console=ttySN names
 * another: platform->uart is read from `node` and `source` says how it was found (static
 * text). Called by the console's UART binding (drivers/base/console_uart.c) at boot.
 * Returns 0, or -1 (nothing changed) when the node has no reg. */
int platform_set_console_node(struct platform *platform, int node, const char *source);
/* The node /aliases names `alias` ("serial0"), -1 if none. */
int platform_alias_node(const struct platform *platform, const char *alias);
/* N where /aliases serialN names `node` (Linux numbers ttySN so), -1 if no alias does. */
int platform_serial_alias_number(const struct platform *platform, int node);

/* stdout-path's options give `baud` (0: none given). */
int platform_read_uart(const struct fdt *fdt, int node, uint32_t baud, struct uart_desc *uart);
/* The PLIC's S-mode context per hart comes from "interrupts-extended". */
int platform_read_plic(const struct fdt *fdt, int node, const char *compatible,
                       struct plic_desc *plic);
/* One interrupt per channel: the number in each "interrupts" (or, without it,
 * "interrupts-extended") entry. */
int platform_read_timer_block(const struct fdt *fdt, int node, const char *compatible,
                              struct timer_block_desc *timer);

#endif
