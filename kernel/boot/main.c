/* Boot: what the boot hart does between entry.S and the scheduler, and what every
 * other hart does when SBI HSM starts it. Order matters and is commented. */
#include "kernel/boot/boot.h"
#include "kernel/boot/timer_choice.h"

#include <stdint.h>

#include "kernel/selftest/selftest.h"
#include "kernel/cmdline/cmdline.h"
#include "kernel/console/console.h"
#include "kernel/fdt/fdt.h"
#include "kernel/fs/file.h"
#include "kernel/fs/initramfs.h"
#include "kernel/fdt/platform.h"
#include "kernel/hart/csr.h"
#include "kernel/hart/hart.h"
#include "kernel/irq/irq.h"
#include "drivers/irqchip/plic.h"
#include "kernel/lib/string.h"
#include "kernel/log/log.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/page.h"
#include "kernel/mm/vm.h"
#include "kernel/panic/panic.h"
#include "kernel/power/power.h"
#include "kernel/proc/process.h"
#include "kernel/sched/sched.h"
#include "drivers/test_finisher/sifive_test.h"
#include "kernel/timer/clock.h"
#include "kernel/timer/timer.h"
#include "kernel/trap/trap.h"
#include "drivers/uart/line_model.h"
#include "drivers/uart/uart_16550.h"

#ifndef DEFAULT_CMDLINE
#define DEFAULT_CMDLINE ""
#endif

#define DEFAULT_BAUD 115200

static struct platform platform;
static struct cmdline command_line;
static struct uart console_uart;
static struct uart_16550 console_uart_state;
static struct line_model console_line;          /* uart.line=BAUD: the simulated wire */
static const struct timer_source *timer_source; /* boot/timer_choice.c */

extern char _kernel_start[], _kernel_end[];
extern uint32_t boot_lottery; /* entry.S: harts that reached the boot entry */

static struct boot_addresses addresses;

const struct boot_addresses *boot_addresses(void)
{
	return &addresses;
}

uint32_t boot_entries(void)
{
	return __atomic_load_n(&boot_lottery, __ATOMIC_RELAXED);
}

/* Let the console print every log line still waiting (in the log buffer or the async
 * backend's ring) and send it to the wire, then power off. Task context. */
static void power_off_after_sync(int status)
{
	console_sync();
	power_off(status);
}

/* The first task: runs a self-test if the command line asks for one, else starts
 * the first program (`init=`, default /bin/sh, with the words after `--` as its
 * arguments) and powers off with its exit status when it ends. */
static void kernel_init_task(void *argument)
{
	(void)argument;
	console_start();
	const char *selftest = cmdline_get(&command_line, "selftest");
	if (selftest)
		power_off_after_sync(selftest_run(selftest, &command_line));

	const char *init = cmdline_get(&command_line, "init");
	if (!init || !init[0])
		init = "/bin/sh";
	char *argv[CMDLINE_MAX_ARGS + 2];
	int argc = 0;
	argv[argc++] = (char *)init;
	for (int i = 0; i < command_line.init_argc; i++)
		argv[argc++] = (char *)command_line.init_argv[i];
	argv[argc] = 0;
	char *envp[] = {"PATH=/bin", "TERM=vt100", 0};

	int entries;
	unsigned long bytes;
	initramfs_describe(&entries, &bytes);
	log_printf("program archive: %d entries, %lu bytes; starting %s\n", entries, bytes, init);
	int pid = process_spawn(0, init, argv, envp);
	if (pid < 0) {
		log_printf("cannot start %s: error %d; powering off\n", init, -pid);
		power_off_after_sync(127);
	}
	int status = process_wait_orphan(pid);
	/* Shell convention: the exit code, or 128 + the signal that killed it. */
	int code = (status & 0x7f) ? 128 + (status & 0x7f) : (status >> 8) & 0xff;
	log_printf("%s exited with status %d; powering off\n", init, code);
	power_off_after_sync(code);
}

/* Per-hart bring-up shared by the boot hart and the others, in dependency order. */
static void bring_up_this_hart(void)
{
	this_hart()->satp = vm_kernel_satp();
	trap_init_hart();
	timers_init_hart(timer_source);
	irq_init_hart();
	sched_init_hart();
	hart_mark_online();
}

static void wake_nothing(struct timer *timer)
{
	(void)timer;
}

/* Wait, bounded, until `count` harts are online. Sleeps in wfi between looks rather
 * than spinning: under QEMU -icount a spinning hart starves the harts it waits for
 * (they only run when every hart is idle or at time warps). */
static void wait_for_harts(int count)
{
	struct timer poll;
	uint64_t give_up = clock_now_ns() + 1000000000ull;

	timer_init(&poll, wake_nothing, 0);
	for (;;) {
		/* Check and arm with interrupts masked: wfi still wakes on the pending timer,
		 * and it cannot fire unseen between the check and the wfi. */
		interrupts_disable();
		if (harts_online() >= count || clock_now_ns() >= give_up)
			break;
		timer_start(&poll, clock_now_ns() + 100000);
		wait_for_interrupt();
		interrupts_enable();
	}
	timer_cancel(&poll);
}

/* uart.line=BAUD (or 1: the UART's own baud; absent or 0: off): put the line model, a
 * simulated wire (drivers/uart/line_model.c), between the console and `uart`, deriving
 * BAUD's divisor from uart.line.clock=HZ (default the UART's clock; 0: exactly BAUD),
 * with uart.line.fifo=N TX FIFO bytes (default the UART's) and the TX interrupt at
 * uart.line.threshold=N bytes or fewer (default 0: when empty). The real UART keeps
 * the baud uart.baud gave it. Called once by kernel_main on the boot hart before
 * console_early_init; returns the UART the console is to use and leaves in *problem why
 * the model is off when it was asked for (logged later, once the console can print). */
static struct uart *console_line_model(struct uart *uart, const char **problem)
{
	uint64_t baud = 0, clock_hz = uart->clock_hz, fifo = 0, threshold = 0;
	*problem = 0;
	if (!cmdline_get_u64(&command_line, "uart.line", 0, &baud) || baud > UINT32_MAX) {
		*problem = "uart.line: not a baud rate";
		return uart;
	}
	if (baud == 0)
		return uart;
	if (!cmdline_get_u64(&command_line, "uart.line.clock", clock_hz, &clock_hz) ||
	    clock_hz > UINT32_MAX) {
		*problem = "uart.line.clock: not a frequency";
		return uart;
	}
	if (!cmdline_get_u64(&command_line, "uart.line.fifo", 0, &fifo) || fifo > UINT32_MAX ||
	    !cmdline_get_u64(&command_line, "uart.line.threshold", 0, &threshold) ||
	    threshold > UINT32_MAX) {
		*problem = "uart.line.fifo / uart.line.threshold: not a number";
		return uart;
	}
	struct line_model_config config = {
	    .baud = (uint32_t)baud,
	    .clock_hz = (uint32_t)clock_hz,
	    .fifo_depth = (uint32_t)fifo,
	    .tx_threshold = (uint32_t)threshold,
	};
	int status = line_model_init(&console_line, uart, &config);
	if (status == -2) {
		*problem = "uart.line.fifo must be 1-256 and uart.line.threshold below it";
		return uart;
	}
	if (status != 0) {
		*problem = "uart.line=1, but the UART's baud is unknown";
		return uart;
	}
	return &console_line.uart;
}

/* The boot log's line about the line model: what it models, and when the divisor cannot
 * give the baud asked for, what it runs at instead and why. Called once by kernel_main
 * after the console can print. */
static void log_line_model(const struct uart *console)
{
	const struct line_model *line = &console_line;
	uint64_t byte_ps = line_model_byte_ps(line);
	log_printf("line model: %u baud (actual %u, clock %u Hz, divisor %u), %u bits/byte, "
	           "fifo %u, byte %lu.%03lu ns: a simulated wire under the UART\n",
	           line->requested_baud, console->baud, console->clock_hz, console->divisor,
	           LINE_MODEL_BITS_PER_BYTE, console->fifo_depth, (unsigned long)(byte_ps / 1000),
	           (unsigned long)(byte_ps % 1000));
	if (console->tx_threshold)
		log_printf("line model: TX interrupt at %u bytes or fewer in the FIFO (PTIME)\n",
		           console->tx_threshold);
	struct line_rate rate = line->transmitter.rate;
	if (!line_rate_is_off(rate, line->requested_baud))
		return;
	uint32_t ppm = line_rate_error_ppm(rate, line->requested_baud);
	log_printf("line model: WARNING: %u baud cannot be made from a %u Hz UART clock: the "
	           "nearest divisor, %u, gives clock / (16 x %u) = %u baud, %u.%u %% off (over "
	           "2 %%); running at %u. uart.line.clock=0 models %u exactly\n",
	           line->requested_baud, console->clock_hz, console->divisor, console->divisor,
	           console->baud, ppm / 10000, ppm / 1000 % 10, console->baud,
	           line->requested_baud);
}

/* Called by entry.S on the boot hart with the MMU on (boot page table), on the boot
 * stack, interrupts off. Never returns. */
void kernel_main(uint64_t hart_id, uint64_t dtb_physical, uint64_t kernel_physical_base)
{
	const char *error = 0;

	hart_init_boot((uint32_t)hart_id); /* tp first: locks and the log need it */
	addresses = (struct boot_addresses){kernel_physical_base, dtb_physical};
	const void *dtb = physical_to_virtual(dtb_physical);
	if (platform_from_fdt(&platform, dtb, &error) != 0)
		panic("device tree at %#lx unusable: %s", dtb_physical, error);
	clock_init(platform.timebase_hz);
	hart_register_others(&platform);

	const char *parts[] = {DEFAULT_CMDLINE, platform.bootargs};
	if (cmdline_parse(&command_line, parts, 2, &error) != 0)
		log_printf("command line ignored: %s\n", error);
	uint64_t log_records = LOG_RECORDS_MAX;
	if (!cmdline_get_u64(&command_line, "log.records", log_records, &log_records) ||
	    log_set_capacity(log_records) != 0)
		log_printf("log.records: not %d .. %d, keeping %d\n", LOG_RECORDS_MIN,
		           LOG_RECORDS_MAX, LOG_RECORDS_MAX);

	uint64_t kernel_size = (uint64_t)(_kernel_end - _kernel_start);
	page_alloc_init(&platform, kernel_physical_base, kernel_size, dtb_physical,
	                fdt_total_size(dtb));
	vm_init(&platform, kernel_physical_base);

	uint64_t baud = DEFAULT_BAUD;
	if (platform.uart.baud)
		baud = platform.uart.baud;
	if (!cmdline_get_u64(&command_line, "uart.baud", baud, &baud))
		log_printf("uart.baud: not a number, using %lu\n", baud);
	/* The file layer sits below the console, so the console's file ops come from here. */
	if (file_register_device("/dev/console", console_file_ops()) != 0)
		panic("no room for /dev/console");
	/* Until console_init picks the backend, the console core sends log lines polled. */
	bool have_uart =
	    uart16550_probe(&console_uart, &console_uart_state, &platform.uart, baud) == 0;
	struct uart *console = &console_uart;
	const char *line_problem = 0;
	if (have_uart) {
		console = console_line_model(&console_uart, &line_problem);
		console_early_init(console);
		log_set_sinks(console_log_write, console_emergency_write);
	}

	log_printf("Duplex booting on hart %lu (kernel at %#lx, DTB at %#lx)\n", hart_id,
	           kernel_physical_base, dtb_physical);
	log_printf("command line: %s\n", command_line.text);
	log_printf("memory: %lu MiB free of %lu MiB RAM\n",
	           (unsigned long)(page_free_count() * PAGE_SIZE >> 20),
	           (unsigned long)(page_total_count() * PAGE_SIZE >> 20));
	log_printf("uart: %s at %#lx, clock %u Hz, %u baud (divisor %u), fifo %u\n",
	           platform.uart.compatible, platform.uart.base, console_uart.clock_hz,
	           console_uart.baud, console_uart.divisor, console_uart.fifo_depth);
	if (console_uart_state.line_settings_failed)
		log_printf("uart: stayed busy, line settings left as firmware set them\n");
	if (line_problem)
		log_printf("%s: line model off\n", line_problem);
	if (line_model_of(console))
		log_line_model(console);

	if (platform.has_test_finisher)
		sifive_test_init(platform.test_finisher_base);
	if (plic_init(&platform.plic) != 0)
		log_printf("no PLIC: external interrupts unavailable\n");
	/* Before the console backend: the async one's line model arms timers as soon as it
	 * sends, and a timer device needs the PLIC. */
	timer_source = timer_choose(&platform, cmdline_get(&command_line, "timer"));
	log_printf("timer: %s, timebase %u Hz\n", timer_source->name, platform.timebase_hz);
	/* The console backend needs the PLIC (the async one takes the UART interrupt). */
	if (have_uart && console_init(cmdline_get(&command_line, "console")) != 0) {
		log_printf("console: falling back to polling\n");
		console_init("polling");
	}

	bring_up_this_hart();
	int hart_limit = timer_source->max_harts ? timer_source->max_harts : hart_count();
	if (hart_limit < hart_count())
		log_printf("timer: the %s serves %d hart(s); the other %d stay offline\n",
		           timer_source->name, hart_limit, hart_count() - hart_limit);
	int started = harts_start_secondaries(kernel_physical_base, hart_limit);
	wait_for_harts(started);
	for (int i = 0; i < hart_limit; i++) {
		if (!hart_by_index(i)->online)
			log_printf("hart %u did not come online\n", hart_by_index(i)->hart_id);
	}
	log_printf("%d of %d harts online\n", harts_online(), hart_count());
	uint32_t entries = boot_entries();
	if (entries > 1)
		log_printf("firmware sent %u more hart(s) into the boot path; they stopped "
		           "themselves and were started through SBI HSM\n",
		           entries - 1);

	if (!task_create("init", kernel_init_task, 0, ALL_HARTS))
		panic("no memory for the init task");
	sched_idle_loop();
}

/* Called by entry.S on a secondary hart, MMU on with the boot table, on the stack
 * harts_start_secondaries allocated. Never returns. */
void secondary_main(struct hart *hart)
{
	(void)hart;
	vm_enable_on_this_hart();
	bring_up_this_hart();
	log_printf("hart %u online\n", this_hart()->hart_id);
	sched_idle_loop();
}
