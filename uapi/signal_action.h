/* How a program asks for a signal's handling through rt_sigaction: riscv64 Linux's
 * struct sigaction (include/uapi/asm-generic/signal.h: handler, flags, mask; riscv64
 * has no SA_RESTORER, so no restorer field) and its SA_ flags
 * (include/uapi/asm-generic/signal-defs.h), and the size of the kernel's sigset_t.
 *
 * Only names picolibc does not use differently, so that libc's <signal.h> can include
 * this beside picolibc's own: each SA_ flag is guarded as in Linux's signal-defs.h
 * (picolibc defines SA_NOCLDSTOP, with Linux's value). The signal numbers, which
 * picolibc numbers otherwise, are in uapi/signal.h. Plain declarations only. */
#ifndef DUPLEX_UAPI_SIGNAL_ACTION_H
#define DUPLEX_UAPI_SIGNAL_ACTION_H

#include <stdint.h>

struct linux_sigaction {
	uint64_t handler; /* SIG_DFL (0), SIG_IGN (1) or the handler's address */
	uint64_t flags;   /* SA_* */
	uint64_t mask;    /* blocked while the handler runs: bit signal - 1 */
};

/* The kernel's sigset_t is 64 bits on riscv64 (asm-generic/signal.h: _NSIG 64): the
 * size rt_sigaction, rt_sigprocmask, rt_sigpending, rt_sigsuspend and rt_sigtimedwait
 * take. */
#define SIGSET_SIZE 8

#ifndef SA_NOCLDSTOP
#define SA_NOCLDSTOP 0x00000001u
#endif
#ifndef SA_NOCLDWAIT
#define SA_NOCLDWAIT 0x00000002u
#endif
#ifndef SA_SIGINFO
#define SA_SIGINFO 0x00000004u
#endif
#ifndef SA_ONSTACK
#define SA_ONSTACK 0x08000000u /* run the handler on the sigaltstack */
#endif
#ifndef SA_RESTART
#define SA_RESTART 0x10000000u /* restart interrupted system calls */
#endif
#ifndef SA_NODEFER
#define SA_NODEFER 0x40000000u /* do not block the signal in its own handler */
#endif
#ifndef SA_RESETHAND
#define SA_RESETHAND 0x80000000u /* back to SIG_DFL once delivered */
#endif

#endif
