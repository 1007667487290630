/* <sys/syscall.h> for glibc builds of Duplex's programs: glibc's own (every Linux SYS_
 * number), plus Duplex's two calls and the raw `ecall` wrappers syscall0 .. syscall6
 * that Duplex's libc offers. user/user.mk puts libc/glibc/include before glibc's
 * headers. */
#ifndef DUPLEX_GLIBC_SYS_SYSCALL_H
#define DUPLEX_GLIBC_SYS_SYSCALL_H

#include_next <sys/syscall.h>

#include <uapi/duplex_syscalls.h>
#include <raw_syscall.h>

#endif
