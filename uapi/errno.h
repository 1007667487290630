/* errno values as riscv64 Linux numbers them (include/uapi/asm-generic/errno-base.h for
 * 1..34, include/uapi/asm-generic/errno.h above): a system call's error is -E... with
 * these numbers. The ones Duplex returns. For the kernel and for programs that check
 * raw calls. Not for libc: picolibc's <errno.h> numbers them the newlib way under the
 * same names (ENOSYS is 88 there, 38 here), so libc/errno.c translates at the
 * boundary. Plain macros only. */
#ifndef DUPLEX_UAPI_ERRNO_H
#define DUPLEX_UAPI_ERRNO_H

#define EPERM        1
#define ENOENT       2
#define ESRCH        3
#define EINTR        4
#define EIO          5
#define ENXIO        6
#define E2BIG        7
#define ENOEXEC      8
#define EBADF        9
#define ECHILD       10
#define EAGAIN       11
#define ENOMEM       12
#define EACCES       13
#define EFAULT       14
#define EBUSY        16
#define EEXIST       17
#define EXDEV        18
#define ENODEV       19
#define ENOTDIR      20
#define EISDIR       21
#define EINVAL       22
#define EMFILE       24
#define ENOTTY       25
#define EFBIG        27
#define ENOSPC       28
#define ESPIPE       29
#define EROFS        30
#define EPIPE        32
#define ERANGE       34
#define ENAMETOOLONG 36
#define ENOSYS       38
#define ENOTEMPTY    39
#define ELOOP        40
#define EOPNOTSUPP   95

#endif
