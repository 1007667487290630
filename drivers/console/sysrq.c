/* Magic SysRq's recognition on the console's RX path; see sysrq.h. The commands
 * themselves belong to the services that own what they show (the task dump to
 * kernel/proc); this file only tells a SysRq key from input. */
#include "drivers/console/sysrq.h"

#include "drivers/uart/uart.h"
#include "kernel/log/log.h"
#include "kernel/proc/task_dump.h"
#include "kernel/timer/clock.h"

void sysrq_enable(struct sysrq_state *state)
{
	__atomic_store_n(&state->enabled, true, __ATOMIC_RELEASE);
}

/* state->armed_until_ns: the BREAK armed SysRq until this clock_now_ns time (0: not
 * armed). Under the terminal's input lock. */
bool console_sysrq_filter(struct sysrq_state *state, uint8_t byte, uint8_t errors, char *key)
{
	if (!__atomic_load_n(&state->enabled, __ATOMIC_ACQUIRE))
		return false;
	uint64_t now = clock_now_ns();
	bool armed = state->armed_until_ns && now < state->armed_until_ns;
	if (errors & UART_ERROR_BREAK) {
		if (armed) { /* a second BREAK: received as termios says */
			state->armed_until_ns = 0;
			return false;
		}
		state->armed_until_ns = now + SYSRQ_TIMEOUT_NS;
		*key = 0;
		return true;
	}
	state->armed_until_ns = 0;
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
