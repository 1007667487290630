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

setenv bootargs '@BOOTARGS@'
setenv duplex_dtb "@DTB_FILE@"

echo "Duplex: loading Image from ${devtype} ${devnum}:${distro_bootpart}"
load ${devtype} ${devnum}:${distro_bootpart} ${kernel_addr_r} Image
if test -n "${duplex_dtb}"; then
	echo "Duplex: loading ${duplex_dtb}"
	load ${devtype} ${devnum}:${distro_bootpart} ${fdt_addr_r} ${duplex_dtb}
	setenv duplex_fdt ${fdt_addr_r}
else
	echo "Duplex: passing on the device tree U-Boot runs on"
	setenv duplex_fdt ${fdtcontroladdr}
fi
echo "Duplex: booti ${kernel_addr_r} - ${duplex_fdt} with bootargs: ${bootargs}"
booti ${kernel_addr_r} - ${duplex_fdt}
echo "Duplex: booti failed"
