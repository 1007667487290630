/* One signal handler for the console's interruption tests (user/test_tty_eintr.c,
 * user/test_tty_eintr_polling.c, user/test_lock_eintr.c): `handler` for `signal`,
 * sa_flags `flags` (0, or SA_RESTART), nothing else blocked while it runs. Header-only
 * (user.mk builds one program per user/NAME.c). */
#ifndef DUPLEX_USER_CATCH_SIGNAL_H
#define DUPLEX_USER_CATCH_SIGNAL_H

#include <signal.h>
#include <string.h>

static inline void catch_signal(int signal, void (*handler)(int), int flags)
{
	struct sigaction action;
	memset(&action, 0, sizeof action);
	action.sa_handler = handler;
	action.sa_flags = flags;
	sigemptyset(&action.sa_mask);
	sigaction(signal, &action, NULL);
}

#endif
