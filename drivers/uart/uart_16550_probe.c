/* The one kernel-dependent part of the 16550 driver: mapping its registers. Kept apart
 * from uart_16550.c so that the host tests link the driver without the kernel. */
#include "drivers/uart/uart_16550.h"

#include "kernel/mm/vm.h"

/* Map at least the DesignWare registers the driver uses (up to CPR at 0xf4 with
 * reg-shift 2) when the device tree gives no size. */
#define DEFAULT_REGISTER_SPAN 0x100

/* Called once at boot by kernel_main on the boot hart, before secondary harts start (see
 * vm_map_device) and with interrupts off. */
int uart16550_probe(struct uart *uart, struct uart_16550 *state, const struct uart_desc *desc,
                    uint32_t baud)
{
	if (!desc->present)
		return -1;
	if (desc->reg_io_width != 1 && desc->reg_io_width != 4)
		return -1; /* refuse before mapping anything; setup checks it again */
	volatile void *registers =
	    vm_map_device(desc->base, desc->size ? desc->size : DEFAULT_REGISTER_SPAN);
	/* The real hardware: MMIO accessors, whatever the state held before. */
	state->read_register = 0;
	state->write_register = 0;
	state->access_context = 0;
	return uart16550_setup(uart, state, registers, desc, baud);
}
