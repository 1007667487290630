/* Kernel panic and the kernel fault report; see panic.h. */
#include "kernel/panic/panic.h"

#include <stdarg.h>
#include <stdint.h>

#include "kernel/hart/csr.h"
#include "kernel/hart/hart.h"
#include "kernel/lib/format.h"
#include "kernel/log/log.h"
#include "kernel/mm/layout.h"
#include "kernel/power/power.h"
#include "kernel/sbi/sbi.h"
#include "kernel/trap/trap.h"

static volatile int panicking;

extern char _kernel_start[], _text_end[];

static int in_kernel_text(uint64_t address)
{
	return address >= (uint64_t)_kernel_start && address < (uint64_t)_text_end;
}

/* Walk the frame-pointer chain: with -fno-omit-frame-pointer, gcc's RISC-V prologue
 * leaves the return address at fp-8 and the caller's fp at fp-16. Stops at the first
 * frame pointer that is not an aligned kernel address. */
static void print_backtrace(uint64_t pc, uint64_t ra, uint64_t fp)
{
	log_emergency("backtrace (frame pointers; resolve with addr2line -e kernel.elf):\n");
	log_emergency("  #0 %p\n", (void *)pc);
	int depth = 1;
	/* The faulting function may be a leaf that never saved ra: show it too. */
	if (in_kernel_text(ra))
		log_emergency("  #%d %p (ra)\n", depth++, (void *)ra);
	for (; depth < 24; depth++) {
		if ((fp & 7) || fp < DIRECT_MAP_BASE)
			break;
		uint64_t return_address = ((uint64_t *)fp)[-1];
		uint64_t caller_fp = ((uint64_t *)fp)[-2];
		if (!in_kernel_text(return_address))
			break;
		log_emergency("  #%d %p\n", depth, (void *)return_address);
		if (caller_fp <= fp)
			break;
		fp = caller_fp;
	}
}

/* Returns only to the first panicking hart; a nested or concurrent panic stops here. */
static void enter_panic(void)
{
	interrupts_disable();
	if (__atomic_exchange_n(&panicking, 1, __ATOMIC_ACQ_REL) != 0)
		panic_stop_this_hart();
	ipi_send_others(IPI_STOP);
}

void panic_stop_this_hart(void)
{
	interrupts_disable();
	sbi_hart_stop();
	for (;;)
		wait_for_interrupt();
}

void panic(const char *fmt, ...)
{
	char message[LOG_LINE_MAX - 32];
	va_list args;

	enter_panic();
	va_start(args, fmt);
	format_string(message, sizeof message, fmt, args);
	va_end(args);
	log_emergency("PANIC: %s\n", message);
	print_backtrace((uint64_t)__builtin_return_address(0), 0,
	                (uint64_t)__builtin_frame_address(0));
	log_emergency("kernel panic: system halted (exit status %d)\n", POWER_STATUS_PANIC);
	power_off(POWER_STATUS_PANIC);
}

void panic_fault(const struct trap_frame *frame, const char *task_name)
{
	enter_panic();
	log_emergency("KERNEL FAULT: %s (scause %#lx) in task %s\n", trap_cause_name(frame->scause),
	              frame->scause, task_name ? task_name : "?");
	log_emergency("sepc %p stval %p sstatus %#lx\n", (void *)frame->regs[0],
	              (void *)frame->stval, frame->sstatus);
	for (int n = 1; n < 32; n += 4) {
		char line[LOG_LINE_MAX];
		size_t length = 0;
		for (int k = n; k < n + 4 && k < 32; k++)
			length += format_buffer(line + length, sizeof line - length, "%s%4s %016lx",
			                        k == n ? "" : "  ", trap_register_name(k),
			                        frame->regs[k]);
		log_emergency("%s\n", line);
	}
	print_backtrace(frame->regs[0], frame->regs[1], frame->regs[8]);
	log_emergency("kernel panic: system halted (exit status %d)\n", POWER_STATUS_PANIC);
	power_off(POWER_STATUS_PANIC);
}
