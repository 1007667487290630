/* Known command line parameters and the report on bad and unknown ones; see
 * parameters.h. The table lists every key a cmdline_get* call in the kernel or its
 * drivers names (README.md, "Kernel command line"); tests/test_kernel_core.py checks
 * the two agree. */
#include "kernel/boot/parameters.h"

#include "kernel/lib/format.h"
#include "kernel/lib/string.h"
#include "kernel/log/log.h"

static const char *const known_parameters[] = {
    "boardcheck",
    "console",
    "console.rx_watch",
    "console.sysrq",
    "init",
    "log.records",
    "qemu.icount",
    "sbi",
    "sbi.test.no_time",
    "selftest",
    "selftest.rounds",
    "timer",
    "tmpfs.pages",
    "trace",
    "trace.size",
    "uart.baud",
    "uart.line",
    "uart.line.clock",
    "uart.line.fifo",
    "uart.line.threshold",
    "uart.test.no_tx_irq",
    "watchdog",
};

bool boot_parameter_known(const char *key)
{
	for (size_t i = 0; i < sizeof known_parameters / sizeof known_parameters[0]; i++)
		if (strcmp(key, known_parameters[i]) == 0)
			return true;
	return false;
}

void boot_parameters_report(const struct cmdline *line)
{
	int shown =
	    line->problem_count < CMDLINE_MAX_PROBLEMS ? line->problem_count : CMDLINE_MAX_PROBLEMS;
	for (int i = 0; i < shown; i++) {
		const struct cmdline_problem *problem = &line->problems[i];
		if (problem->word[0])
			log_printf("command line: bad word '%s' (%s): ignored, the rest kept\n",
			           problem->word, problem->reason);
		else
			log_printf("command line: %s\n", problem->reason);
	}
	if (line->problem_count > shown)
		log_printf("command line: %d more bad words ignored\n",
		           line->problem_count - shown);

	/* One line for all the unknown ones, as Linux prints them. */
	char unknown[200]; /* a log record holds 256 bytes */
	size_t used = 0;
	for (int i = 0; i < line->param_count; i++) {
		const struct cmdline_param *param = &line->params[i];
		if (boot_parameter_known(param->key))
			continue;
		used += (size_t)format_buffer(unknown + used, sizeof unknown - used, "%s%s%s%s",
		                              used ? " " : "", param->key,
		                              param->value[0] ? "=" : "", param->value);
		if (used >= sizeof unknown)
			used = sizeof unknown - 1;
	}
	if (used)
		log_printf("Unknown kernel command line parameters \"%s\", ignored\n", unknown);
}
