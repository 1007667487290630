/* System calls the kernel does not implement: -ENOSYS, and a kernel log line naming the
 * call, so that a user running a foreign program sees everything it is missing:
 *     [    0.031250] h0 hello[3]: system call 96 (set_tid_address) not implemented: ENOSYS
 * Each Linux call is reported once per program, every one of them (busybox's shell
 * start-up alone tries a dozen). Numbers that are no Linux call at all (holes in the
 * table, 512 and above: a bug or a fuzzer, never a libc) are reported once together:
 * the first one is logged, saying that the others go unlogged. */
#include "kernel/syscall/unknown.h"

#include <stdbool.h>

#include "kernel/lib/errno.h"
#include "kernel/log/log.h"
#include "kernel/proc/process.h"
#include "kernel/syscall/linux_names.h"
#include "kernel/syscall/syscall.h"

_Static_assert(sizeof(((struct process *)0)->unknown_calls_reported) * 8 >= SYSCALL_COUNT,
               "one bit per system call number");

/* Set the bit of `slot` in the process's reported set; false if it was set already. */
static bool first_report(struct process *process, uint64_t slot)
{
	uint64_t bit = 1ull << (slot % 64);
	uint64_t *word = &process->unknown_calls_reported[slot / 64];
	if (*word & bit)
		return false;
	*word |= bit;
	return true;
}

long syscall_unknown(uint64_t number)
{
	struct process *process = process_current();
	const char *name = number < SYSCALL_COUNT ? syscall_linux_name(number) : 0;
	/* Every number that is no Linux call shares the last slot (511 is none). */
	_Static_assert(SYSCALL_COUNT == 512, "slot 511 is no Linux call");
	if (!first_report(process, name ? number : SYSCALL_COUNT - 1))
		return -ENOSYS;
	process->unknown_call_reports++;
	if (name)
		log_printf("%s[%d]: system call %lu (%s) not implemented: ENOSYS\n", process->name,
		           process->pid, number, name);
	else
		log_printf("%s[%d]: system call %lu (not a Linux call) not implemented: ENOSYS; "
		           "further numbers that are not Linux calls are not logged\n",
		           process->name, process->pid, number);
	return -ENOSYS;
}
