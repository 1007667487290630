/* Linux signal numbers -> picolibc's <signal.h> numbers.
 *
 * The kernel reports a killed child with the Linux signal number (SIGBUS = 7); picolibc
 * numbers signals the BSD way (SIGBUS = 10). wait4() translates the status with this
 * table so that WTERMSIG(status) matches the <signal.h> constants and strsignal(). */
#include <signal.h>

#include "internal.h"

static const unsigned char signal_from_linux[] = {
    [1] = SIGHUP,   [2] = SIGINT,    [3] = SIGQUIT,  [4] = SIGILL,   [5] = SIGTRAP,
    [6] = SIGABRT,  [7] = SIGBUS,    [8] = SIGFPE,   [9] = SIGKILL,  [10] = SIGUSR1,
    [11] = SIGSEGV, [12] = SIGUSR2,  [13] = SIGPIPE, [14] = SIGALRM, [15] = SIGTERM,
    [17] = SIGCHLD, [18] = SIGCONT,  [19] = SIGSTOP, [20] = SIGTSTP, [21] = SIGTTIN,
    [22] = SIGTTOU, [23] = SIGURG,   [24] = SIGXCPU, [25] = SIGXFSZ, [26] = SIGVTALRM,
    [27] = SIGPROF, [28] = SIGWINCH, [29] = SIGIO,   [31] = SIGSYS,
};

/* Called by wait4() for a killed child. Signals picolibc cannot name keep their number. */
int libc_signal_from_linux(int linux_signal)
{
	if (linux_signal > 0 && linux_signal < (int)sizeof(signal_from_linux) &&
	    signal_from_linux[linux_signal] != 0)
		return signal_from_linux[linux_signal];
	return linux_signal;
}
