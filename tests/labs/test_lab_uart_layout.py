"""Grading for lab uart-layout (docs/teaching/labs/uart-layout.md): the register
accessors of drivers/uart/uart_16550.c (mmio_read, mmio_write, read_reg, read_reg_wide,
write_reg).

The host tests listed in labs/uart-layout/lab.toml run the driver over a register model
laid out as a device tree says (tests/fixtures/uart-shift2.dts: reg-shift 2, 32-bit
access; the D1's DesignWare UART: the same layout); this file checks that QEMU's UART
(reg-shift 0, byte access) still carries every byte on both backends, over the line
model at 1.5 Mbaud so that the FIFO fills and the driver's THRE and room reads count.
"""

import pytest

from labrun import pattern_run


@pytest.mark.parametrize("console", ["polling", "async"])
def test_qemu_console_still_works(request, image, console):
    pattern_run(request, image, console, 16 * 1024, line=1500000)
