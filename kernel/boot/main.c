/* Boot: what the boot hart does between entry.S and the scheduler, and what every
 * other hart does when SBI HSM starts it. Order matters and is commented. */
#include "kernel/boot/boot.h"
#include "kernel/boot/breadcrumb.h"
#include "kernel/boot/parameters.h"
#include "kernel/boot/timer_choice.h"

#include <stdint.h>

#include "kernel/selftest/selftest.h"
#include "kernel/cmdline/cmdline.h"
#include "drivers/console/console.h"
#include "kernel/fdt/fdt.h"
#include "kernel/fs/file.h"
#include "kernel/fs/file_system.h"
#include "kernel/fs/initramfs.h"
#include "kernel/fs/tmpfs/tmpfs.h"
#include "kernel/fdt/platform.h"
#include "kernel/hart/isa.h"
#include "kernel/hart/csr.h"
#include "kernel/hart/hart.h"
#include "kernel/irq/irq.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/log/log.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/page.h"
#include "kernel/mm/vm.h"
#include "kernel/panic/panic.h"
#include "kernel/power/power.h"
#include "kernel/proc/process.h"
#include "kernel/random/random.h"
#include "kernel/sbi/sbi.h"
#include "kernel/sched/sched.h"
#include "kernel/timer/clock.h"
#include "kernel/timer/timer.h"
#include "kernel/trace/trace.h"
#include "kernel/trap/trap.h"
#include "drivers/base/bind.h"
#include "drivers/base/console_uart.h"

#ifndef DEFAULT_CMDLINE
#define DEFAULT_CMDLINE ""
#endif

static struct platform platform;
static struct cmdline command_line;
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

/* The first program when init= names none, and the one started when init='s cannot be. */
#define FALLBACK_INIT "/bin/sh"

/* Why process_spawn failed, in words a student can act on; `error` is positive. */
static const char *spawn_error_reason(int error)
{
	switch (error) {
	case ENOENT:
		return "no such program in the program archive";
	case ENOTDIR:
		return "a directory in its path is not one";
	case EACCES:
		return "not executable";
	case ENOEXEC:
		return "not a program this kernel runs (not a RISC-V ELF executable)";
	case ENOMEM:
		return "out of memory";
	default:
		return "it failed";
	}
}

/* The first task: runs a self-test if the command line asks for one, else starts
 * the first program (`init=`, default /bin/sh, with the words after `--` as its
 * arguments; /bin/sh without them when init='s cannot be started) and powers off with
 * its exit status when it ends. */
static void kernel_init_task(void *argument)
{
	(void)argument;
	console_start(cmdline_has(&command_line, "console.rx_watch"));
	if (cmdline_has(&command_line, "console.sysrq"))
		console_sysrq_enable();
	const char *selftest = cmdline_get(&command_line, "selftest");
	if (selftest)
		power_off_after_sync(selftest_run(selftest, &command_line));

	const char *init = cmdline_get(&command_line, "init");
	if (command_line.init_lost) {
		/* Not a shell: an unattended run would wait at it for ever. */
		log_printf("command line: the init= word was dropped; the first program it named "
		           "is unknown: powering off\n");
		power_off_after_sync(127);
	}
	/* boardcheck: the board check in one boot (docs/boards/lichee-rv-d1.md): the
	 * kernel's self-tests, then /bin/boardcheck unless init= names another program. */
	if (cmdline_get(&command_line, "boardcheck")) {
		int failed = selftest_run("all", &command_line);
		log_printf("boardcheck: kernel self-tests %s\n", failed ? "FAIL" : "PASS");
		if (!init || !init[0])
			init = "/bin/boardcheck";
	}
	if (!init || !init[0])
		init = FALLBACK_INIT;
	char *argv[CMDLINE_MAX_ARGS + 2];
	int argc = 0;
	argv[argc++] = (char *)init;
	for (int i = 0; i < command_line.init_argc; i++)
		argv[argc++] = (char *)command_line.init_argv[i];
	argv[argc] = 0;
	/* HOME=/ as Linux gives init (init/main.c envp_init): a shell's `cd` and ~ go there.
	 * `qemu.icount`: the launcher (make run ICOUNT=1) ran QEMU with -icount; the kernel
	 * cannot see that itself, so it passes the word on for bench's header. */
	char *envp[] = {"HOME=/", "PATH=/bin", "TERM=vt100", 0, 0};
	if (cmdline_has(&command_line, "qemu.icount"))
		envp[3] = "QEMU_ICOUNT=1";

	int entries;
	unsigned long bytes;
	initramfs_describe(&entries, &bytes);
	log_printf("program archive: %d entries, %lu bytes; starting %s\n", entries, bytes, init);
	int pid = process_spawn(0, init, argv, envp);
	if (pid < 0 && strcmp(init, FALLBACK_INIT) != 0) {
		/* A shell, not a silent power-off: on the D1's stock firmware power-off leaves
		 * the board on and mute, and a wrong init= (Tina's, a typo) is something the
		 * student can look into from the shell. Its arguments were for the other
		 * program, so the shell gets none. */
		log_printf("cannot start %s: %s (error %d); starting %s instead\n", init,
		           spawn_error_reason(-pid), -pid, FALLBACK_INIT);
		init = FALLBACK_INIT;
		argv[0] = (char *)init;
		argv[1] = 0;
		pid = process_spawn(0, init, argv, envp);
	}
	if (pid < 0) {
		log_printf("cannot start %s: %s (error %d); powering off\n", init,
		           spawn_error_reason(-pid), -pid);
		power_off_after_sync(127);
	}
	int status = process_wait_orphan(pid);
	/* Shell convention: the exit code, or 128 + the signal that killed it. */
	int code = (status & 0x7f) ? 128 + (status & 0x7f) : (status >> 8) & 0xff;
	log_printf("%s exited with status %d; powering off\n", init, code);
	power_off_after_sync(code);
}

/* Per-hart bring-up shared by the boot hart and the others, in dependency order.
 * Returns false on a secondary the boot hart stopped waiting for. */
static bool bring_up_this_hart(void)
{
	this_hart()->satp = vm_kernel_satp();
	trap_init_hart();
	timers_init_hart(timer_source);
	irq_init_hart();
	sched_init_hart();
	return hart_mark_online();
}

static void wake_nothing(struct timer *timer)
{
	(void)timer;
}

/* Wait, bounded, until `count` harts are online, then abandon the missing ones. Sleeps
 * in wfi between looks rather than spinning: under QEMU -icount a spinning hart starves
 * the harts it waits for (they only run when every hart is idle or at time warps).
 * After 1 s it waits on only while SBI HSM says a missing hart is running or about to
 * (up to 60 s): without -icount QEMU's clock is the host's, and on a loaded host a
 * hart's thread can take longer than 1 s to get there; such a hart used to come online
 * after "3 of 4 harts online", unannounced, and print after a panic's last line. */
static void wait_for_harts(int count)
{
	struct timer poll;
	uint64_t now = clock_now_ns();
	uint64_t give_up = now + 1000000000ull;
	uint64_t last_resort = now + 60000000000ull;

	timer_init(&poll, wake_nothing, 0);
	for (;;) {
		/* Check and arm with interrupts masked: wfi still wakes on the pending timer,
		 * and it cannot fire unseen between the check and the wfi. */
		interrupts_disable();
		if (harts_online() >= count)
			break;
		now = clock_now_ns();
		if (now >= give_up) {
			if (now >= last_resort || !harts_still_starting())
				break;
			give_up = now + 100000000ull; /* look at HSM again in 100 ms */
		}
		timer_start(&poll, now + 100000);
		wait_for_interrupt();
		interrupts_enable();
	}
	timer_cancel(&poll);
	harts_abandon_missing();
}

/* sbi=0.2: from here on use only what an SBI 0.2 firmware has (kernel/sbi/sbi.h);
 * sbi.test.no_time: act as if the firmware had no TIME extension (test only). Boot
 * hart, kernel_main, right after the command line is read. */
static void apply_sbi_option(void)
{
	const char *sbi = cmdline_get(&command_line, "sbi");
	if (sbi && strcmp(sbi, "0.2") == 0)
		sbi_restrict_to_0_2();
	else if (sbi)
		log_printf("sbi=%s: unknown (sbi=0.2 is the one choice); ignored\n", sbi);
	if (cmdline_has(&command_line, "sbi.test.no_time"))
		sbi_test_hide_time();
}

/* What the firmware offers and what Duplex uses of it, for the board log. */
static void log_sbi_choice(void)
{
	long version = sbi_spec_version();
	log_printf("sbi: spec %ld.%ld, implementation %ld version %#lx%s; console: %s, "
	           "power-off: %s, other harts: %s\n",
	           (version >> 24) & 0x7f, version & 0xffffff, sbi_implementation_id(),
	           sbi_implementation_version(), sbi_restricted_to_0_2() ? ", sbi=0.2" : "",
	           sbi_has_dbcn() ? "DBCN" : "legacy putchar",
	           sbi_has_srst() ? "SRST" : "legacy shutdown",
	           sbi_has_hsm() ? "started by HSM" : "stay offline (no HSM)");
}

/* watchdog=stop (default) or feed: a watchdog the firmware left running (the D1's
 * U-Boot starts one at 16 s and never stops it before booti) would reset the board
 * mid-session. Stop is the default because a teaching kernel is expected to sit at a
 * panic message, a debugger or an idle shell for as long as the student needs, and a
 * reset would wipe that screen; feeding from a timer interrupt would prove only that
 * interrupts arrive, not that the system is well. Boot hart, kernel_main, after its
 * timers are up (the feeder is a timer) and before the other harts start. */
static void bind_watchdogs(void)
{
	const char *choice = cmdline_get(&command_line, "watchdog");
	enum watchdog_policy policy = WATCHDOG_STOP;
	if (choice && strcmp(choice, "feed") == 0)
		policy = WATCHDOG_FEED;
	else if (choice && strcmp(choice, "stop") != 0)
		log_printf("watchdog=%s: unknown (stop or feed); stopping\n", choice);
	int failed = 0;
	int handled = drivers_bind_watchdogs(&platform, policy, &failed);
	if (!handled && !failed)
		log_printf("watchdog: none in the device tree\n");
}

/* Called by entry.S on the boot hart with the MMU on (boot page table), on the boot
 * stack, interrupts off. Never returns. The breadcrumbs (breadcrumb.h) go out through
 * SBI before each step up to the UART taking the log over, so a board that stops in
 * one of them says which. */
void kernel_main(uint64_t hart_id, uint64_t dtb_physical, uint64_t kernel_physical_base)
{
	const char *error = 0;

	breadcrumb_catch_traps();
	hart_init_boot((uint32_t)hart_id); /* tp first: locks and the log need it */
	addresses = (struct boot_addresses){kernel_physical_base, dtb_physical};
	breadcrumb("paging on; reading the device tree at %#lx", dtb_physical);
	const void *dtb = physical_to_virtual(dtb_physical);
	if (platform_from_fdt(&platform, dtb, &error) != 0) {
		breadcrumb("device tree at %#lx unusable: %s; stopping", dtb_physical, error);
		panic("device tree at %#lx unusable: %s", dtb_physical, error);
	}
	breadcrumb("device tree: %d hart(s), memory %#lx + %lu MiB (%d range(s)), timebase %u Hz, "
	           "UART %s%s",
	           platform.hart_count, platform.memory[0].base,
	           (unsigned long)(platform.memory[0].size >> 20), platform.memory_count,
	           platform.timebase_hz,
	           platform.uart.present ? platform.uart.compatible : "none: ",
	           platform.uart.present ? "" : platform.uart_absent_reason);
	clock_init(platform.timebase_hz);
	hart_register_others(&platform);
	isa_set_letters(platform.isa_letters);
	random_init(platform.rng_seed, platform.rng_seed_length);

	const char *parts[] = {DEFAULT_CMDLINE, platform.bootargs};
	cmdline_parse(&command_line, parts, 2); /* bad words are reported below */
	apply_sbi_option();
	uint64_t log_records = LOG_RECORDS_MAX;
	if (!cmdline_get_u64(&command_line, "log.records", log_records, &log_records) ||
	    log_set_capacity(log_records) != 0)
		log_printf("log.records: not %d .. %d, keeping %d\n", LOG_RECORDS_MIN,
		           LOG_RECORDS_MAX, LOG_RECORDS_MAX);

	uint64_t kernel_size = (uint64_t)(_kernel_end - _kernel_start);
	breadcrumb("command line read; handing RAM to the page allocator");
	page_alloc_init(&platform, kernel_physical_base, kernel_size, dtb_physical,
	                fdt_total_size(dtb));
	breadcrumb("%lu MiB free; building the kernel page table",
	           (unsigned long)(page_free_count() * PAGE_SIZE >> 20));
	vm_init(&platform, kernel_physical_base);

	/* The file layer sits below the console, so the console's file ops come from here. */
	if (file_register_device("/dev/console", console_file_ops()) != 0)
		panic("no room for /dev/console");
	/* The name space: the program archive at /, the devices at /dev, a tmpfs at /tmp
	 * with a budget of `tmpfs.pages=` pages (default a quarter of free memory). */
	uint64_t tmpfs_pages = tmpfs_default_pages(page_free_count());
	if (!cmdline_get_u64(&command_line, "tmpfs.pages", tmpfs_pages, &tmpfs_pages))
		log_printf("tmpfs.pages: not a number, keeping %lu\n", (unsigned long)tmpfs_pages);
	if (tmpfs_pages > tmpfs_largest_pages(page_free_count())) {
		tmpfs_pages = tmpfs_largest_pages(page_free_count());
		log_printf("tmpfs.pages: more than the kernel can spare, using %lu\n",
		           (unsigned long)tmpfs_pages);
	}
	if (mount_add("", &initramfs_file_system) != 0 ||
	    mount_add("dev", &devices_file_system) != 0 || tmpfs_mount("tmp", tmpfs_pages) != 0)
		panic("cannot mount the file systems");
	/* Drivers bind from the device tree through the driver table (drivers/base/). The
	 * console's UART first: until console_init picks the backend, the console core
	 * sends log lines through it polled. */
	if (platform.uart.present)
		breadcrumb(
		    "kernel page table on; starting the UART driver: %s at %#lx, clock %u Hz",
		    platform.uart.compatible, platform.uart.base, platform.uart.clock_hz);
	struct uart *console = console_uart_bind(&platform, &command_line);
	if (console) {
		breadcrumb("UART up: %u baud (divisor %u); the log moves to it", console->baud,
		           console->divisor);
		console_early_init(console, console_uart_port_number());
		/* The console's port by its Linux name too (/dev/ttyS0 on QEMU virt). */
		if (file_register_device(console_device_path(), console_file_ops()) != 0)
			panic("no room for %s", console_device_path());
		log_set_sinks(console_log_write, console_emergency_write);
		/* From here every SBI console or reset call first hands the UART back in
		 * the mode firmware's putc expects (DW PTIME off: sbi.h). */
		sbi_set_before_firmware_output(console_uart_hand_back);
	} else if (platform.uart.present) {
		breadcrumb("no driver took %s (unknown, or its probe failed); the log stays on the "
		           "SBI console",
		           platform.uart.compatible);
	} else {
		breadcrumb("kernel page table on; no UART (%s): the log stays on the SBI console",
		           platform.uart_absent_reason);
	}

	log_printf("Duplex booting on hart %lu (kernel at %#lx, DTB at %#lx)\n", hart_id,
	           kernel_physical_base, dtb_physical);
	log_printf("command line: %s\n", command_line.text);
	boot_parameters_report(&command_line);
	log_printf("memory: %lu MiB free of %lu MiB RAM\n",
	           (unsigned long)(page_free_count() * PAGE_SIZE >> 20),
	           (unsigned long)(page_total_count() * PAGE_SIZE >> 20));
	console_uart_report(&platform);
	log_sbi_choice();

	char trace_message[160];
	if (trace_boot(cmdline_get(&command_line, "trace"),
	               cmdline_get(&command_line, "trace.size"), trace_message,
	               sizeof trace_message))
		log_printf("trace: %s\n", trace_message);
	/* The exit device, so that a panic from here on ends QEMU with its status. */
	drivers_bind_one(&platform, DRIVER_EXIT);
	if (!drivers_bind_one(&platform, DRIVER_IRQCHIP))
		log_printf("no interrupt controller: external interrupts unavailable\n");
	/* The wall clock (CLOCK_REALTIME) from a real-time clock, before any program asks. */
	if (!drivers_bind_one(&platform, DRIVER_RTC))
		log_printf("rtc: no real-time clock; the wall clock starts at the epoch\n");
	/* Before the console backend: the async one's line model arms timers as soon as it
	 * sends, and a timer device needs the PLIC. */
	timer_source = timer_choose(&platform, cmdline_get(&command_line, "timer"));
	log_printf("timer: %s, timebase %u Hz\n", timer_source->name, platform.timebase_hz);
	/* The console backend needs the PLIC (the async one takes the UART interrupt). */
	if (console && console_init(cmdline_get(&command_line, "console")) != 0) {
		log_printf("console: falling back to polling\n");
		console_init("polling");
	}

	bring_up_this_hart();
	bind_watchdogs();
	int hart_limit = timer_source->max_harts ? timer_source->max_harts : hart_count();
	if (!sbi_has_hsm() && hart_limit > 1) {
		log_printf("sbi: no HSM extension to start harts with; the other %d stay offline\n",
		           hart_count() - 1);
		hart_limit = 1;
	}
	if (hart_limit < hart_count())
		log_printf("timer: the %s serves %d hart(s); the other %d stay offline\n",
		           timer_source->name, hart_limit, hart_count() - hart_limit);
	int started = harts_start_secondaries(kernel_physical_base, hart_limit);
	wait_for_harts(started);
	/* Loudly: every hart the tree names and the limits allow is online, or named here
	 * with why not (issue #29: a boot came up with a hart missing and said little). */
	for (int i = 0; i < hart_limit; i++) {
		if (hart_by_index(i)->online)
			continue;
		char why[160];
		hart_describe_loss(i, why, sizeof why);
		log_printf("hart %u did not come online: %s\n", hart_by_index(i)->hart_id, why);
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
	if (!bring_up_this_hart()) {
		log_printf("hart %u came up after the boot hart stopped waiting; stopping it\n",
		           this_hart()->hart_id);
		interrupts_disable();
		sbi_hart_stop();
		for (;;)
			wait_for_interrupt();
	}
	log_printf("hart %u online\n", this_hart()->hart_id);
	sched_idle_loop();
}
