/* Signals as riscv64 Linux numbers them: the numbers and _NSIG
 * (include/uapi/asm-generic/signal.h), the sigset_t bit of each, the handler values
 * SIG_DFL and SIG_IGN and rt_sigprocmask's `how` (include/uapi/asm-generic/signal-defs.h),
 * the alternate stack's flags and least size (asm-generic/signal.h), and the si_code
 * values Duplex sends (include/uapi/asm-generic/siginfo.h). With them, the sigaction
 * (uapi/signal_action.h); the frame, siginfo_t and stack_t are in uapi/signal_frame.h.
 *
 * For the kernel and for programs that make raw calls. Not for libc: picolibc numbers
 * signals the BSD way (SIGUSR1 30, SIGBUS 10) and its SIG_BLOCK is 1, under the same
 * names, so libc/signal.c translates at the boundary instead. Plain macros only. */
#ifndef DUPLEX_UAPI_SIGNAL_H
#define DUPLEX_UAPI_SIGNAL_H

#include "uapi/signal_action.h"

#define SIGHUP       1
#define SIGINT       2
#define SIGQUIT      3
#define SIGILL       4
#define SIGTRAP      5
#define SIGABRT      6
#define SIGBUS       7
#define SIGFPE       8
#define SIGKILL      9
#define SIGUSR1      10
#define SIGSEGV      11
#define SIGUSR2      12
#define SIGPIPE      13
#define SIGALRM      14
#define SIGTERM      15
#define SIGSTKFLT    16
#define SIGCHLD      17
#define SIGCONT      18
#define SIGSTOP      19
#define SIGTSTP      20
#define SIGTTIN      21
#define SIGTTOU      22
#define SIGURG       23
#define SIGXCPU      24
#define SIGXFSZ      25
#define SIGVTALRM    26
#define SIGPROF      27
#define SIGWINCH     28
#define SIGIO        29
#define SIGPWR       30
#define SIGSYS       31
#define SIGNAL_COUNT 64 /* _NSIG: 1..64, the real-time ones from 32 */

/* The bit of `signal` in a 64-bit sigset_t. */
#define SIGNAL_BIT(signal) (1ull << ((signal)-1))

/* si_code values. */
#define SI_USER       0    /* kill */
#define SI_KERNEL     0x80 /* sent by the kernel itself */
#define SI_TKILL      (-6) /* tkill, tgkill */
#define CLD_EXITED    1    /* SIGCHLD: the child called exit */
#define CLD_KILLED    2    /* SIGCHLD: a signal ended it */
#define CLD_STOPPED   5    /* SIGCHLD: a signal stopped it */
#define CLD_CONTINUED 6    /* SIGCHLD: SIGCONT continued it */
#define SEGV_MAPERR   1    /* SIGSEGV: no mapping at the address */
#define SEGV_ACCERR   2    /* SIGSEGV: the mapping forbids the access */
#define ILL_ILLOPC    1    /* SIGILL: illegal opcode */
#define BUS_ADRALN    1    /* SIGBUS: misaligned address */
#define TRAP_BRKPT    1    /* SIGTRAP: breakpoint (ebreak) */

/* Handler values (sa_handler) besides an address. */
#define SIG_DFL 0
#define SIG_IGN 1

/* rt_sigprocmask's `how`. */
#define SIG_BLOCK   0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2

/* sigaltstack: stack_t's ss_flags, and the least ss_size it takes. */
#define SS_ONSTACK    1
#define SS_DISABLE    2
#define SS_AUTODISARM (1u << 31)
#define MINSIGSTKSZ   2048

#endif
