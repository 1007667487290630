/* Boot breadcrumbs; see breadcrumb.h. */
#include "kernel/boot/breadcrumb.h"

#include <stdarg.h>
#include <stddef.h>

#include "kernel/hart/csr.h"
#include "kernel/lib/format.h"
#include "kernel/sbi/sbi.h"
#include "kernel/trap/trap.h"

#define BREADCRUMB_MAX 200

extern char boot_trap_vector[]; /* entry.S */

/* The last step announced, for boot_trap. Boot hart only, before the scheduler. */
static char current_step[BREADCRUMB_MAX];

static void sbi_write(const char *text)
{
	for (; *text; text++)
		sbi_console_putchar(*text);
}

void breadcrumb(const char *fmt, ...)
{
	va_list args;
	va_start(args, fmt);
	format_string(current_step, sizeof current_step, fmt, args);
	va_end(args);
	sbi_write("boot: ");
	sbi_write(current_step);
	sbi_write("\n");
}

void breadcrumb_catch_traps(void)
{
	csr_write(stvec, (uint64_t)boot_trap_vector);
}

void breadcrumb_stop(void)
{
	interrupts_disable();
	for (;;)
		wait_for_interrupt();
}

void boot_trap(uint64_t scause, uint64_t sepc, uint64_t stval)
{
	char line[BREADCRUMB_MAX + 120];
	format_buffer(line, sizeof line,
	              "boot: trap (%s, scause %#lx, sepc %#lx, stval %#lx) in the step after "
	              "\"%s\"; stopping\n",
	              trap_cause_name(scause), scause, sepc, stval, current_step);
	sbi_write(line);
	breadcrumb_stop();
}
