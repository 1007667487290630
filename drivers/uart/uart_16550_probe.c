/* The one kernel-dependent part of the 16550 driver: mapping its registers. Kept apart
 * from uart_16550.c so that the host tests link the driver without the kernel. */
#include "drivers/uart/uart_16550.h"

#include "kernel/lib/string.h"
#include "kernel/log/log.h"
#include "kernel/mm/vm.h"

/* Map at least the DesignWare registers the driver uses (up to CPR at 0xf4 with
 * reg-shift 2) when the device tree gives no size. */
#define DEFAULT_REGISTER_SPAN 0x100

/* The one UART this driver drives: the console's. */
static struct uart console_uart;
static struct uart_16550 console_uart_state;

/* Called once at boot for stdout-path's node, on the boot hart, before secondary harts
 * start (see vm_map_device) and with interrupts off. */
struct uart *uart16550_probe(const struct device *device, uint32_t baud)
{
	struct uart_desc desc;
	if (platform_read_uart(device->fdt, device->node, 0, &desc) != 0)
		return 0;
	/* The matched name, not the node's first one, picks the DesignWare quirks (a SoC
	 * lists its own name first: "allwinner,sun20i-d1-uart", "snps,dw-apb-uart"). */
	size_t length = strlen(device->compatible);
	if (length >= sizeof desc.compatible)
		length = sizeof desc.compatible - 1;
	memcpy(desc.compatible, device->compatible, length);
	desc.compatible[length] = 0;
	if (desc.reg_io_width != 1 && desc.reg_io_width != 4)
		return 0; /* refuse before mapping anything; setup checks it again */
	volatile void *registers =
	    vm_map_device(desc.base, desc.size ? desc.size : DEFAULT_REGISTER_SPAN);
	/* The real hardware: MMIO accessors (the state is zero: never set up before). */
	if (uart16550_setup(&console_uart, &console_uart_state, registers, &desc, baud) != 0)
		return 0;
	if (console_uart_state.line_settings_failed)
		log_printf("uart: stayed busy, line settings left as firmware set them\n");
	return &console_uart;
}

/* uart.test.no_tx_irq=1 (drivers/base/console_uart.c, at boot): never enable the TX
 * interrupt, as on a board where it does not arrive, so the console's TX interrupt check
 * and its fallback to polling can be tested. Only the UART this file probed. */
void uart16550_suppress_tx_interrupt(struct uart *uart)
{
	if (uart == &console_uart)
		console_uart_state.tx_interrupt_suppressed = true;
}
