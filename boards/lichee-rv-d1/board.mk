# Sipeed Lichee RV (Allwinner D1: one T-Head C906 hart), booted from an SD card by the
# D1 U-Boot's `booti` (docs/boards/lichee-rv-d1.md). It has no QEMU model, so there are
# no QEMU_* keys: `make run` refuses this board, `make image` builds its SD card.
# Read by the top-level Makefile (and tools that parse simple `NAME := value` lines).

# booti moves the Image to DRAM base 0x40000000 + the header's text_offset 0x200000
# (Linux Documentation/arch/riscv/boot-image-header.rst); the kernel runs wherever it lands.
KERNEL_LOAD_ADDRESS := 0x40200000
# The D1 has a single hart, one T-Head C906 core (Allwinner D1 user manual).
DEFAULT_SMP := 1
# Build-time default kernel command line; /chosen/bootargs (boot.scr's bootargs) follows.
DEFAULT_CMDLINE := console=async
# The hart is a T-Head C906: kernel/boot/entry.S may read th.sxstatus to decide the
# memory-attribute bits of its boot page table (see kernel/mm/memattr.h).
BOARD_KERNEL_CFLAGS := -DBOARD_CPU_THEAD=1
# The SD image (tools/mkimage-sd.py) must carry the D1 bootloader at 8 KiB.
IMAGE_NEEDS_BOOTLOADER := yes
# boot.scr stops the watchdogs before booti: the MODE registers of the RISC-V watchdog at
# 0x06011000, which U-Boot starts, and of the timer block's at 0x020500a0 (Linux
# sun20i-d1.dtsi and sunxi-d1s-t113.dtsi; sunxi_wdt.c: MODE at +0x18).
BOOT_STOP_WATCHDOG := 0x06011018 0x020500b8
# Where boot.scr's loads land: U-Boot's kernel_addr_r and fdt_addr_r in the D1 fork's
# environment (SDRAM_OFFSET(...) in its include/configs/sunxi-common.h; the values
# docs/boards/lichee-rv-d1.md gives, not checked for the pinned commit), and the DRAM
# base booti moves the Image above. `make image` refuses an Image and tree that would
# overlap there (tools/mkimage-sd.py --kernel-addr-r ...), and boot.scr checks the
# board's own addresses. A board whose `printenv kernel_addr_r fdt_addr_r` says
# otherwise: set them here.
BOOT_KERNEL_ADDR_R := 0x41000000
BOOT_FDT_ADDR_R := 0x41800000
BOOT_DRAM_BASE := 0x40000000
# The board's stock firmware (Sipeed's image: BOOT0, OpenSBI v0.6, U-Boot 2018.05) runs
# `sunxi_flash read 45000000 boot; bootm 45000000`: an Android boot image (AOSP header
# v0) from the `boot` partition. `make image FORMAT=android` writes one with the stock
# image's values (StarryOS docs/licheerv-dock-bringup.md, GitHub daivy2333/StarryOS):
# kernel_addr 0x40200000, tags_addr 0x40200100, page size 2048, name d1-nezha. The
# ramdisk and second offsets give the stock 0x41200000 and 0x41100000, but the image has
# neither part, and mkbootimg writes 0 for the address of an empty part (AOSP mkbootimg),
# so the header's ramdisk_addr and second_addr are 0 (tests/test_image.py).
ANDROID_BASE := 0x40000000
ANDROID_KERNEL_OFFSET := 0x200000
ANDROID_RAMDISK_OFFSET := 0x1200000
ANDROID_SECOND_OFFSET := 0x1100000
ANDROID_TAGS_OFFSET := 0x200100
ANDROID_PAGE_SIZE := 2048
ANDROID_BOARD_NAME := d1-nezha
