/* What the boot path leaves for the rest of the kernel (kernel/boot/main.c). */
#ifndef DUPLEX_BOOT_H
#define DUPLEX_BOOT_H

#include <stdint.h>

struct boot_addresses {
	uint64_t kernel_physical_base; /* where the image was loaded; _start is here */
	uint64_t dtb_physical;         /* the device tree firmware passed in a1 */
};

/* Set by kernel_main on the boot hart before any task runs. Any context. */
const struct boot_addresses *boot_addresses(void);

/* How many harts have reached the boot entry (entry.S's boot lottery): 1, plus one per
 * hart that firmware sent there uninvited, each of which stopped itself. Any context. */
uint32_t boot_entries(void);

#endif
