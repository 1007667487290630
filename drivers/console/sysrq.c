/* Magic SysRq's recognition on the console's RX path; see sysrq.h. The commands
 * themselves belong to the services that own what they show (the task dump to
 * kernel/proc); this file only tells a SysRq key from input. */
#include "drivers/console/sysrq.h"

#include "drivers/uart/uart.h"
#include "kernel/log/log.h"
#include "kernel/proc/task_dump.h"
#include "kernel/timer/clock.h"

static bool enabled;
/* The BREAK armed SysRq until this clock_now_ns time (0: not armed). Under the console
 * input lock. */
static uint64_t armed_until_ns;

void console_sysrq_enable(void)
{
	__atomic_store_n(&enabled, true, __ATOMIC_RELEASE);
}

bool console_sysrq_filter(uint8_t byte, uint8_t errors, char *key)
{
	if (!__atomic_load_n(&enabled, __ATOMIC_ACQUIRE))
		return false;
	uint64_t now = clock_now_ns();
	bool armed = armed_until_ns && now < armed_until_ns;
	if (errors & UART_ERROR_BREAK) {
		if (armed) { /* a second BREAK: received as termios says */
			armed_until_ns = 0;
			return false;
		}
		armed_until_ns = now + SYSRQ_TIMEOUT_NS;
		*key = 0;
		return true;
	}
	armed_until_ns = 0;
	/* A NUL or a byte with an error after the BREAK disarms and is received, as
	 * uart_handle_sysrq_char does. */
	if (!armed || errors || byte == 0)
		return false;
	*key = (char)byte;
	return true;
}

void console_sysrq_run(char key)
{
	switch (key) {
	case 't':
		task_dump_all();
		break;
	case 'w':
		task_dump_blocked();
		break;
	default:
		log_printf("sysrq: HELP : show-task-states(t) show-blocked-tasks(w)\n");
		break;
	}
}
