# U-Boot script that boots Duplex from the FAT partition of its SD (or virtio) image.
# tools/mkimage-sd.py fills in the bootargs and the DTB file name and compiles it into
# boot.scr with `mkimage -T script`. U-Boot's distro boot finds boot.scr on the first
# bootable FAT partition and runs it with devtype/devnum/distro_bootpart naming that
# partition. Everything between single quotes is taken literally by U-Boot's shell, so
# the bootargs may hold double quotes but no single quote (the tool refuses those).
#
# One template for both boards:
#   - lichee-rv-d1: the partition holds the board's DTB; it is loaded to fdt_addr_r.
#   - qemu-virt: no DTB file (duplex_dtb is empty); QEMU builds the machine's tree and
#     U-Boot runs on it, so that tree (${fdtcontroladdr}) is passed on.
# booti needs the RISC-V Image header (kernel/boot/entry.S), moves the Image to DRAM
# base + text_offset and enters it with a0 = hart id, a1 = the DTB.
# Each load is checked: a missing or unreadable file ends the script with a message
# naming it, without booti on whatever the memory held; U-Boot then goes on with its
# boot order or its prompt. (A flag, not `exit`: U-Boot 2023.01's shell does not leave a
# script on an `exit` inside an `if`, as QEMU showed.)

setenv bootargs '@BOOTARGS@'
setenv duplex_dtb "@DTB_FILE@"
# lichee-rv-d1: the MODE registers (+0x18) of the D1's two watchdogs: the RISC-V one at
# 0x06011000, which the D1 U-Boot starts (CONFIG_WDT_SUNXI, WATCHDOG_AUTOSTART, 16 s) and
# does not stop before booti, and the one in the timer block at 0x020500a0 (Linux
# sunxi-d1s-t113.dtsi: status "reserved", left to firmware), in case a U-Boot starts that
# one. Duplex's driver stops the first too (drivers/watchdog/), this is the belt.
# Writing the key 0x16aa in bits 31:16 with EN (bit 0) clear stops each (Linux
# drivers/watchdog/sunxi_wdt.c, sun20i_wdt_reg). Empty on qemu-virt (no such device).
setenv duplex_watchdog_modes "@WATCHDOG_MODE@"

echo "Duplex: loading Image from ${devtype} ${devnum}:${distro_bootpart}"
setenv duplex_ok 1
if load ${devtype} ${devnum}:${distro_bootpart} ${kernel_addr_r} Image; then
	setenv duplex_fdt ${fdtcontroladdr}
else
	echo "Duplex: cannot load Image from ${devtype} ${devnum}:${distro_bootpart}; not booting (list the partition: ls ${devtype} ${devnum}:${distro_bootpart})"
	setenv duplex_ok 0
fi
# The tree is loaded after the Image: if the Image, loaded below fdt_addr_r, reaches it,
# the tree's load would overwrite the Image's tail. `make image` checks that for the
# addresses in board.mk; this checks the board's own (another U-Boot may set others).
# setexpr and itest are U-Boot commands (CONFIG_CMD_SETEXPR, CONFIG_CMD_ITEST); a U-Boot
# without them fails the condition and skips the check.
if test "${duplex_ok}" = 1 && test -n "${duplex_dtb}"; then
	setexpr duplex_image_end ${kernel_addr_r} + ${filesize}
	if itest ${kernel_addr_r} -lt ${fdt_addr_r} && itest ${duplex_image_end} -gt ${fdt_addr_r}; then
		echo "Duplex: the Image is 0x${filesize} bytes: loaded at kernel_addr_r ${kernel_addr_r} it ends at 0x${duplex_image_end}, past fdt_addr_r ${fdt_addr_r}, so loading ${duplex_dtb} would overwrite its tail; not booting (setenv fdt_addr_r to 0x${duplex_image_end} or above, then boot)"
		setenv duplex_ok 0
	fi
fi
if test "${duplex_ok}" = 1 && test -n "${duplex_dtb}"; then
	echo "Duplex: loading ${duplex_dtb}"
	if load ${devtype} ${devnum}:${distro_bootpart} ${fdt_addr_r} ${duplex_dtb}; then
		setenv duplex_fdt ${fdt_addr_r}
	else
		echo "Duplex: cannot load ${duplex_dtb} from ${devtype} ${devnum}:${distro_bootpart}; not booting (list the partition: ls ${devtype} ${devnum}:${distro_bootpart})"
		setenv duplex_ok 0
	fi
elif test "${duplex_ok}" = 1; then
	echo "Duplex: passing on the device tree U-Boot runs on"
fi
if test "${duplex_ok}" = 1; then
	for duplex_mode in ${duplex_watchdog_modes}; do
		echo "Duplex: stopping the watchdog (mw.l ${duplex_mode} 0x16aa0000)"
		mw.l ${duplex_mode} 0x16aa0000
	done
fi
if test "${duplex_ok}" = 1; then
	echo "Duplex: booti ${kernel_addr_r} - ${duplex_fdt} with bootargs: ${bootargs}"
	booti ${kernel_addr_r} - ${duplex_fdt}
	echo "Duplex: booti failed"
fi
