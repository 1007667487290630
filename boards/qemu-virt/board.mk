# QEMU riscv64 `virt` machine (Debian qemu-system-misc 7.2).
# Read by the top-level Makefile and by tools/duplex_qemu.py (simple `NAME := value` lines only).

# OpenSBI fw_jump jumps to 0x80200000 (OpenSBI docs/firmware/fw_jump.md): DRAM base 0x80000000
# plus the Image header's text_offset 0x200000.
KERNEL_LOAD_ADDRESS := 0x80200000
QEMU_MACHINE := virt
QEMU_MEMORY := 256M
QEMU_BIOS := /usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.elf
DEFAULT_SMP := 4
# Build-time default kernel command line; /chosen/bootargs and CMDLINE are appended.
DEFAULT_CMDLINE := console=async
