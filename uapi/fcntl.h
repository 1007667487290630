/* File flags as riscv64 Linux numbers them: the open flags and fcntl's commands and
 * descriptor flag (include/uapi/asm-generic/fcntl.h, octal as there), and the *at
 * calls' directory descriptor and flags (include/uapi/linux/fcntl.h).
 *
 * For the kernel and for programs that make raw calls. Not for libc: picolibc's
 * <fcntl.h> numbers the O_ flags its own way under the same names (O_NONBLOCK is 0x4000
 * there, 04000 here), so libc/open_flags.c translates at the boundary. Plain macros
 * only. */
#ifndef DUPLEX_UAPI_FCNTL_H
#define DUPLEX_UAPI_FCNTL_H

#define O_ACCMODE   00000003
#define O_RDONLY    00000000
#define O_WRONLY    00000001
#define O_RDWR      00000002
#define O_CREAT     00000100
#define O_EXCL      00000200
#define O_NOCTTY    00000400
#define O_TRUNC     00001000
#define O_APPEND    00002000
#define O_NONBLOCK  00004000
#define O_DSYNC     00010000
#define O_DIRECT    00040000
#define O_DIRECTORY 00200000
#define O_NOFOLLOW  00400000
#define O_CLOEXEC   02000000
#define O_SYNC      04010000 /* includes O_DSYNC */
#define O_PATH      010000000
#define O_TMPFILE   (020000000 | O_DIRECTORY)

/* fcntl commands. */
#define F_DUPFD         0
#define F_GETFD         1
#define F_SETFD         2
#define F_GETFL         3
#define F_SETFL         4
#define F_DUPFD_CLOEXEC 1030 /* F_LINUX_SPECIFIC_BASE + 6 (linux/fcntl.h) */

/* FD_CLOEXEC, the one descriptor flag (F_GETFD, F_SETFD). */
#define FD_CLOEXEC 1

/* The *at calls: the working directory as `dirfd`, and their flags. */
#define AT_FDCWD            (-100)
#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_REMOVEDIR        0x200 /* unlinkat */
#define AT_EACCESS          0x200 /* faccessat2: the same bit */
#define AT_SYMLINK_FOLLOW   0x400
#define AT_NO_AUTOMOUNT     0x800
#define AT_EMPTY_PATH       0x1000

#endif
