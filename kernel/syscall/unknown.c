/* System calls the kernel does not implement: -ENOSYS, and a kernel log line naming the
 * call, so that a user running a foreign program sees what it is missing:
 *     [    0.031250] h0 hello[3]: system call 96 (set_tid_address) not implemented: ENOSYS
 * Each number is reported once per program, and at most UNKNOWN_REPORTS_MAX numbers per
 * program (a fuzzer calls them all), the last report saying that the rest go unlogged. */
#include "kernel/syscall/unknown.h"

#include "kernel/lib/errno.h"
#include "kernel/log/log.h"
#include "kernel/proc/process.h"
#include "kernel/syscall/linux_names.h"
#include "kernel/syscall/syscall.h"

#define UNKNOWN_REPORTS_MAX 8

_Static_assert(sizeof(((struct process *)0)->unknown_calls_reported) * 8 >= SYSCALL_COUNT,
               "one bit per system call number");

long syscall_unknown(uint64_t number)
{
	struct process *process = process_current();
	/* Numbers past the table share the last bit: reported once, whichever came first. */
	uint64_t slot = number < SYSCALL_COUNT ? number : SYSCALL_COUNT - 1;
	uint64_t bit = 1ull << (slot % 64);
	uint64_t *word = &process->unknown_calls_reported[slot / 64];
	if ((*word & bit) || process->unknown_call_reports >= UNKNOWN_REPORTS_MAX)
		return -ENOSYS;
	*word |= bit;
	process->unknown_call_reports++;
	const char *name = syscall_linux_name(number);
	log_printf("%s[%d]: system call %lu (%s) not implemented: ENOSYS%s\n", process->name,
	           process->pid, number, name ? name : "not a Linux call",
	           process->unknown_call_reports == UNKNOWN_REPORTS_MAX
	               ? "; further unknown calls of this program are not logged"
	               : "");
	return -ENOSYS;
}
