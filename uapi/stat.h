/* struct stat as riscv64 Linux's fstat and newfstatat write it (include/uapi/asm-generic/stat.h):
 * shared by the kernel (kernel/syscall/sys_stat.c) and Duplex's libc (libc/stat.c,
 * which converts it to picolibc's struct stat). Plain declarations only. */
#ifndef DUPLEX_SYSCALL_LINUX_STAT_H
#define DUPLEX_SYSCALL_LINUX_STAT_H

#include <stdint.h>

struct linux_stat {
	uint64_t device;
	uint64_t inode;
	uint32_t mode;
	uint32_t links;
	uint32_t uid;
	uint32_t gid;
	uint64_t special_device;
	uint64_t padding1;
	int64_t size;
	int32_t block_size;
	int32_t padding2;
	int64_t blocks;   /* 512-byte units */
	int64_t times[6]; /* access, modification, change: seconds and nanoseconds each */
	uint32_t unused[2];
};
_Static_assert(sizeof(struct linux_stat) == 128, "riscv64 struct stat is 128 bytes");

#endif
