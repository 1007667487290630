/* clone's flags as riscv64 Linux takes them (include/uapi/linux/sched.h): the low byte
 * is the signal the parent gets when the child exits (CSIGNAL), the rest what the
 * child shares or is given. Shared by the kernel (kernel/syscall/sys_fork.c) and
 * libc's fork (libc/fork.c). Plain macros only. */
#ifndef DUPLEX_UAPI_SCHED_H
#define DUPLEX_UAPI_SCHED_H

#define CSIGNAL              0x000000ffull /* the signal sent to the parent at exit */
#define CLONE_VM             0x00000100ull
#define CLONE_FS             0x00000200ull
#define CLONE_FILES          0x00000400ull
#define CLONE_SIGHAND        0x00000800ull
#define CLONE_VFORK          0x00004000ull
#define CLONE_THREAD         0x00010000ull
#define CLONE_SETTLS         0x00080000ull
#define CLONE_PARENT_SETTID  0x00100000ull
#define CLONE_CHILD_CLEARTID 0x00200000ull
#define CLONE_CHILD_SETTID   0x01000000ull

#endif
