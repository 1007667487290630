# What a board adds to the build beyond the kernel. Included at the end of the top-level
# Makefile, so BOARD's board.mk, BUILD, APPEND, PYTHON and QEMU_TOOL are all defined.
#
#   BOARD_KERNEL_CFLAGS      (board.mk) extra kernel compiler flags, e.g. -DBOARD_CPU_THEAD=1
#   boards/B/B.dts           if present, `make` compiles it to build/B/B.dtb
#   make image               build/B/duplex-sd.img: MBR, BOOTLOADER at 8 KiB (boards whose
#                            board.mk says IMAGE_NEEDS_BOOTLOADER require one), a FAT
#                            partition with Image, the DTB and boot.scr (tools/mkimage-sd.py)
#   make image FORMAT=android  build/B/duplex-boot.img: an Android boot image (AOSP header
#                            v0, Debian's mkbootimg) for boards whose board.mk gives the
#                            ANDROID_* header values: what the D1's stock U-Boot boots
#   make run-uboot           QEMU boards only: that image as a virtio disk, booted by OpenSBI
#                            fw_jump -> Debian's U-Boot -> boot.scr -> booti
#
# CONSOLE, CMDLINE and INIT become the bootargs in boot.scr, as they become -append for
# `make run`.

# A plain `KERNEL_CFLAGS +=` here is seen by every kernel rule: recipes expand their
# variables only when they run, after the whole Makefile has been read.
KERNEL_CFLAGS += $(BOARD_KERNEL_CFLAGS)

BOARD_DTS := $(wildcard boards/$(BOARD)/$(BOARD).dts)
BOARD_DTB := $(if $(BOARD_DTS),$(BUILD)/$(BOARD).dtb)

ifneq ($(BOARD_DTB),)
all: $(BOARD_DTB)

$(BOARD_DTB): $(BOARD_DTS)
	@mkdir -p $(dir $@)
	dtc -I dts -O dtb -o $@ $<
endif

# ---------------------------------------------------------------- SD-card image
BOOTLOADER ?=
SD_IMAGE := $(BUILD)/duplex-sd.img
# One boot script template for every board: it loads the DTB file when the image has one
# and passes on U-Boot's own tree (QEMU's) when it has none.
BOOT_SCRIPT_TEMPLATE := boards/lichee-rv-d1/boot.cmd

FORMAT ?= sd
ANDROID_IMAGE := $(BUILD)/duplex-boot.img
# /bin/boardcheck when CMDLINE asks for the board check (which starts it only when no
# init= is given, and here one always is).
ANDROID_DEFAULT_INIT := init=/bin/$(if $(filter boardcheck,$(CMDLINE)),boardcheck,sh)

ifeq ($(FORMAT),android)
# The header's command line follows the firmware's own bootargs (U-Boot's bootm appends
# it to them, common/image-android.c), and the vendor's bootargs name a Linux console
# (console=ttyS0,...) and Tina's first program (init=/pseudo_init or /sbin/init, Tina's
# env.cfg setargs_mmc): DEFAULT_CMDLINE is repeated here so that Duplex's console=
# wins, and init=/bin/sh so that Duplex's shell does (the last init= wins, as in Linux's
# init_setup). An init= that INIT or CMDLINE gives comes later and wins over that one.
image: deps all
	@if [ -z "$(ANDROID_BASE)" ]; then \
		echo "make image FORMAT=android: board $(BOARD) has no ANDROID_* settings in its board.mk" >&2; \
		exit 2; fi
	mkbootimg --header_version 0 --kernel $(BUILD)/Image --base $(ANDROID_BASE) \
		--kernel_offset $(ANDROID_KERNEL_OFFSET) --ramdisk_offset $(ANDROID_RAMDISK_OFFSET) \
		--second_offset $(ANDROID_SECOND_OFFSET) --tags_offset $(ANDROID_TAGS_OFFSET) \
		--pagesize $(ANDROID_PAGE_SIZE) --board '$(ANDROID_BOARD_NAME)' \
		--cmdline '$(strip $(DEFAULT_CMDLINE) $(ANDROID_DEFAULT_INIT) $(APPEND))' -o $(ANDROID_IMAGE)
	@echo "wrote $(ANDROID_IMAGE): Android boot image, kernel at $(ANDROID_BASE) + $(ANDROID_KERNEL_OFFSET), page size $(ANDROID_PAGE_SIZE)"
else ifeq ($(FORMAT),sd)
image: deps all
	$(PYTHON) tools/mkimage-sd.py --kernel $(BUILD)/Image $(if $(BOARD_DTB),--dtb $(BOARD_DTB)) \
		$(if $(BOOTLOADER),--bootloader '$(BOOTLOADER)') \
		$(if $(IMAGE_NEEDS_BOOTLOADER),--need-bootloader) \
		$(foreach address,$(BOOT_STOP_WATCHDOG),--stop-watchdog $(address)) \
		$(if $(BOOT_KERNEL_ADDR_R),--kernel-addr-r $(BOOT_KERNEL_ADDR_R) \
			--fdt-addr-r $(BOOT_FDT_ADDR_R) --dram-base $(BOOT_DRAM_BASE)) \
		--boot-cmd $(BOOT_SCRIPT_TEMPLATE) --bootargs $(APPEND_QUOTED) --output $(SD_IMAGE)
else
image:
	@echo "make image: FORMAT=$(FORMAT) unknown (sd: an SD card image; android: an Android boot image)" >&2; exit 2
endif

# ---------------------------------------------------------------- U-Boot in QEMU
# Debian's u-boot-qemu build for S-mode, started by OpenSBI fw_jump (the board's
# QEMU_BIOS) as its payload at 0x80200000 (Debian u-boot-qemu; docs/sources.md). Its distro
# boot scans virtio disks for boot.scr.
UBOOT_QEMU := /usr/lib/u-boot/qemu-riscv64_smode/u-boot.bin

ifneq ($(QEMU_MACHINE),)
run-uboot: image
	$(QEMU_TOOL) run --board $(BOARD) --image $(UBOOT_QEMU) --drive $(SD_IMAGE) \
		--smp $(SMP) $(if $(ICOUNT),--icount)
endif

.PHONY: image run-uboot
