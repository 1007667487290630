/* Private to libc/: the pieces every wrapper shares.
 *
 * The rule of the layer: above libc/, programs see picolibc's numbering (errno values,
 * O_ flags, clock ids, signal numbers); below it, the kernel sees Linux's. Each wrapper
 * translates at the boundary with these helpers. */
#ifndef DUPLEX_LIBC_INTERNAL_H
#define DUPLEX_LIBC_INTERNAL_H

#include <sys/syscall.h>

/* Turn a raw result into the libc convention: -4095..-1 become -1 with errno set to
 * the picolibc equivalent of the Linux errno; anything else is returned as is. */
long libc_result(long raw);

/* Set errno to `error` (a picolibc errno) and return -1: for errors libc finds itself. */
long libc_fail(int error);

/* Linux errno number -> picolibc's errno value for the same condition. */
int libc_errno_from_linux(int linux_errno);

/* picolibc O_ flags -> Linux O_ flags; -1 if `flags` has a bit Duplex cannot express. */
long libc_open_flags_to_linux(int flags);
/* Linux O_ flags (F_GETFL's answer) -> picolibc O_ flags. */
int libc_open_flags_from_linux(long linux_flags);

/* Linux signal number -> picolibc's <signal.h> number. */
int libc_signal_from_linux(int linux_signal);

/* The auxiliary vector crt0 found above envp (pairs of type, value; AT_NULL ends it). */
extern const unsigned long *libc_auxv;

#endif
