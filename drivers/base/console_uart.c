/* The console's UART; see console_uart.h. */
#include "drivers/base/console_uart.h"

#include "drivers/base/bind.h"
#include "drivers/uart/line_model.h"
#include "drivers/uart/uart_16550.h"
#include "kernel/lib/string.h"
#include "kernel/log/log.h"

#define DEFAULT_BAUD 115200

static struct uart *real_uart;   /* what the driver gave */
static struct uart *console;     /* what the console uses: real_uart or &line.uart */
static struct line_model line;   /* uart.line=BAUD: the simulated wire */
static const char *baud_problem; /* logged by console_uart_report */
static const char *line_problem;
static uint64_t chosen_baud;
static int port_number;        /* N of ttySN: the node's serialN alias, else 0 */
static int missing_alias = -1; /* console=ttySN, no serialN alias: the report says so */

/* uart.line=BAUD (or 1: the UART's own baud; absent or 0: off): put the line model
 * between the console and `uart`, deriving BAUD's divisor from uart.line.clock=HZ
 * (default the UART's clock; 0: exactly BAUD), with uart.line.fifo=N TX FIFO bytes
 * (default the UART's) and the TX interrupt at uart.line.threshold=N bytes or fewer
 * (default 0: when empty). The real UART keeps the baud uart.baud gave it. Returns the
 * UART the console is to use; leaves in line_problem why the model is off when it was
 * asked for. */
static struct uart *wrap_in_line_model(struct uart *uart, const struct cmdline *cmdline)
{
	uint64_t baud = 0, clock_hz = uart->clock_hz, fifo = 0, threshold = 0;
	if (!cmdline_get_u64(cmdline, "uart.line", 0, &baud) || baud > UINT32_MAX) {
		line_problem = "uart.line: not a baud rate";
		return uart;
	}
	if (baud == 0)
		return uart;
	if (!cmdline_get_u64(cmdline, "uart.line.clock", clock_hz, &clock_hz) ||
	    clock_hz > UINT32_MAX) {
		line_problem = "uart.line.clock: not a frequency";
		return uart;
	}
	if (!cmdline_get_u64(cmdline, "uart.line.fifo", 0, &fifo) || fifo > UINT32_MAX ||
	    !cmdline_get_u64(cmdline, "uart.line.threshold", 0, &threshold) ||
	    threshold > UINT32_MAX) {
		line_problem = "uart.line.fifo / uart.line.threshold: not a number";
		return uart;
	}
	struct line_model_config config = {
	    .baud = (uint32_t)baud,
	    .clock_hz = (uint32_t)clock_hz,
	    .fifo_depth = (uint32_t)fifo,
	    .tx_threshold = (uint32_t)threshold,
	};
	int status = line_model_init(&line, uart, &config);
	if (status == -2) {
		line_problem = "uart.line.fifo must be 1-256 and uart.line.threshold below it";
		return uart;
	}
	if (status != 0) {
		line_problem = "uart.line=1, but the UART's baud is unknown";
		return uart;
	}
	return &line.uart;
}

/* The boot log's line about the line model: what it models, and when the divisor cannot
 * give the baud asked for, what it runs at instead and why. Called by
 * console_uart_report once the console can print. */
static void log_line_model(void)
{
	uint64_t byte_ps = line_model_byte_ps(&line);
	log_printf("line model: %u baud (actual %u, clock %u Hz, divisor %u), %u bits/byte, "
	           "fifo %u, byte %lu.%03lu ns: a simulated wire under the UART\n",
	           line.requested_baud, console->baud, console->clock_hz, console->divisor,
	           LINE_MODEL_BITS_PER_BYTE, console->fifo_depth, (unsigned long)(byte_ps / 1000),
	           (unsigned long)(byte_ps % 1000));
	if (console->tx_threshold)
		log_printf("line model: TX interrupt at %u bytes or fewer in the FIFO (PTIME)\n",
		           console->tx_threshold);
	struct line_rate rate = line.transmitter.rate;
	if (!line_rate_is_off(rate, line.requested_baud))
		return;
	uint32_t ppm = line_rate_error_ppm(rate, line.requested_baud);
	log_printf("line model: WARNING: %u baud cannot be made from a %u Hz UART clock: the "
	           "nearest divisor, %u, gives clock / (16 x %u) = %u baud, %u.%u %% off (over "
	           "2 %%); running at %u. uart.line.clock=0 models %u exactly\n",
	           line.requested_baud, console->clock_hz, console->divisor, console->divisor,
	           console->baud, ppm / 10000, ppm / 1000 % 10, console->baud, line.requested_baud);
}

void console_uart_hand_back(void)
{
	if (real_uart)
		uart_set_sole_driver(real_uart, false);
}

/* N from console=ttySN[,...], -1 when console= names no ttyS port (a policy, or
 * nothing). */
static int wanted_port_number(const struct cmdline *cmdline)
{
	const char *console = cmdline_get(cmdline, "console");
	if (!console || strncmp(console, "ttyS", 4) != 0 || console[4] < '0' || console[4] > '9' ||
	    (console[5] != '\0' && console[5] != ','))
		return -1;
	return console[4] - '0';
}

/* Which node is the console's, as Linux picks it: console=ttySN names the serialN
 * alias's node (of_alias_get_id numbers the 8250 ports); else /chosen stdout-path's
 * (read by platform_from_fdt); else the serial0 alias (Linux's of_console_check takes
 * it for stdout); else, in the binding below, the first UART a driver takes. Each step
 * that finds nothing is said in the boot log (console_uart_report). Boot hart. */
static void choose_console_node(struct platform *platform, const struct cmdline *cmdline)
{
	int wanted = wanted_port_number(cmdline);
	if (wanted >= 0) {
		char alias[8] = "serial0";
		alias[6] = (char)('0' + wanted);
		int node = platform_alias_node(platform, alias);
		if (node < 0)
			missing_alias = wanted;
		else if (node != platform->stdout_node)
			platform_set_console_node(platform, node,
			                          "console=ttySN (its serialN alias)");
	}
	if (platform->stdout_node < 0) {
		int node = platform_alias_node(platform, "serial0");
		if (node >= 0)
			platform_set_console_node(
			    platform, node,
			    "the serial0 alias (/chosen has no usable stdout-path)");
	}
}

struct uart *console_uart_bind(struct platform *platform, const struct cmdline *cmdline)
{
	choose_console_node(platform, cmdline);
	uint64_t fallback = platform->uart.baud ? platform->uart.baud : DEFAULT_BAUD;
	chosen_baud = fallback;
	if (!cmdline_get_u64(cmdline, "uart.baud", fallback, &chosen_baud)) {
		baud_problem = "uart.baud: not a number";
		chosen_baud = fallback;
	} else if (chosen_baud > UINT32_MAX) {
		/* Never truncate: 4294967297 would otherwise run at 1 baud. */
		baud_problem = "uart.baud: above 4294967295";
		chosen_baud = fallback;
	}
	real_uart = drivers_bind_uart(platform, platform->stdout_node, (uint32_t)chosen_baud);
	if (!real_uart && platform->stdout_node < 0) {
		int node = -1;
		real_uart = drivers_bind_first_uart(platform, (uint32_t)chosen_baud, &node);
		if (real_uart)
			platform_set_console_node(platform, node,
			                          "the first UART a driver takes (no stdout-path, "
			                          "no serial0 alias)");
	}
	int alias_number = platform_serial_alias_number(platform, platform->stdout_node);
	port_number = alias_number > 0 ? alias_number : 0;
	uint64_t suppress = 0;
	if (real_uart && cmdline_get_u64(cmdline, "uart.test.no_tx_irq", 0, &suppress) && suppress)
		uart16550_suppress_tx_interrupt(real_uart); /* test-only: a board without it */
	console = real_uart ? wrap_in_line_model(real_uart, cmdline) : 0;
	return console;
}

int console_uart_port_number(void)
{
	return port_number;
}

void console_uart_report(const struct platform *platform)
{
	if (missing_alias >= 0)
		log_printf("console=ttyS%d: the device tree has no serial%d alias\n", missing_alias,
		           missing_alias);
	if (real_uart && platform->console_source)
		log_printf("console: ttyS%d, found by %s\n", port_number, platform->console_source);
	if (baud_problem)
		log_printf("%s, using %lu\n", baud_problem, (unsigned long)chosen_baud);
	if (!real_uart) {
		log_printf("uart: none%s; /dev/console answers ENODEV\n",
		           platform->uart.present ? " (stdout-path names no UART a driver takes)"
		                                  : "");
		return;
	}
	if (real_uart->clock_hz == 0)
		log_printf("uart: %s at %#lx, clock unknown (the node has no clock-frequency): "
		           "the firmware's divisor %u kept, fifo %u\n",
		           real_uart->name, platform->uart.base, real_uart->divisor,
		           real_uart->fifo_depth);
	else
		log_printf("uart: %s at %#lx, clock %u Hz, %u baud (divisor %u), fifo %u\n",
		           real_uart->name, platform->uart.base, real_uart->clock_hz,
		           real_uart->baud, real_uart->divisor, real_uart->fifo_depth);
	if (line_problem)
		log_printf("%s: line model off\n", line_problem);
	if (console == &line.uart)
		log_line_model();
}
