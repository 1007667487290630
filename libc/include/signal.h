/* Duplex additions to picolibc's <signal.h>: the sigaction flags picolibc leaves out
 * (it defines only SA_NOCLDSTOP outside RTEMS), with Linux's values, which libc passes
 * to the kernel as they are. Signal numbers and sigset_t stay picolibc's (SIGUSR1 is 30
 * here, 10 in Linux); libc/signal.c translates them, like errno and the O_ flags. */
#ifndef DUPLEX_SIGNAL_H
#define DUPLEX_SIGNAL_H

#include_next <signal.h>

#ifndef SA_ONSTACK
#define SA_ONSTACK 0x08000000 /* run the handler on the sigaltstack */
#endif
#ifndef SA_RESTART
#define SA_RESTART 0x10000000 /* restart interrupted system calls */
#endif
#ifndef SA_NODEFER
#define SA_NODEFER 0x40000000 /* do not block the signal in its own handler */
#endif
#ifndef SA_RESETHAND
#define SA_RESETHAND 0x80000000 /* back to SIG_DFL once delivered */
#endif

#endif
