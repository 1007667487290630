/* Duplex additions to picolibc's <signal.h>: the sigaction flags picolibc leaves out
 * (it defines only SA_NOCLDSTOP outside RTEMS), with Linux's values, which libc passes
 * to the kernel as they are: the user ABI's uapi/signal_action.h. Signal numbers and
 * sigset_t stay picolibc's (SIGUSR1 is 30 here, 10 in Linux); libc/signal.c translates
 * them, like errno and the O_ flags, so uapi/signal.h is not included here. */
#ifndef DUPLEX_SIGNAL_H
#define DUPLEX_SIGNAL_H

#include_next <signal.h>

#include <uapi/signal_action.h>

#endif
