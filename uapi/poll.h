/* poll events as riscv64 Linux's ppoll takes and returns them
 * (include/uapi/asm-generic/poll.h). Shared by the kernel (every file's poll op returns
 * these) and libc's <poll.h>, which passes them through unchanged. struct pollfd is not
 * here: libc's <poll.h> declares it under POSIX's name for programs, and a program may
 * spell Linux's layout for raw calls itself. Plain macros only. */
#ifndef DUPLEX_UAPI_POLL_H
#define DUPLEX_UAPI_POLL_H

#define POLLIN     0x0001
#define POLLPRI    0x0002
#define POLLOUT    0x0004
#define POLLERR    0x0008
#define POLLHUP    0x0010
#define POLLNVAL   0x0020
#define POLLRDNORM 0x0040
#define POLLRDBAND 0x0080
#define POLLWRNORM 0x0100
#define POLLWRBAND 0x0200

#endif
