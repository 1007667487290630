/* Processes the POSIX way: fork, vfork, the exec family. riscv64 Linux has no fork or
 * vfork call: both are clone (Linux kernel/fork.c; glibc does the same). */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* clone's flags (the user ABI). */
#include <uapi/sched.h>

/* The exit signal clone is given: Linux's SIGCHLD (uapi/signal.h, which libc does not
 * include: picolibc's signal names have other numbers). */
#define LINUX_SIGCHLD 17

/* A copy of this process; 0 in the child, the child's pid in the parent, -1 with errno
 * (EAGAIN at the process limit, ENOMEM) when none was made. */
pid_t fork(void)
{
	return (pid_t)libc_result(syscall5(SYS_clone, LINUX_SIGCHLD, 0, 0, 0, 0));
}

/* vfork's failure path (the parent only: there is no child), from the asm below. */
long libc_vfork_failed(long raw);
long libc_vfork_failed(long raw)
{
	return libc_result(raw);
}

/* vfork: the child runs on the parent's memory, the parent waits until it calls execve
 * or _exit. Written in assembly with no stack frame: the child returns from here first
 * and goes on using the stack below, where a C function's frame (its saved ra) would be
 * when the parent returns from the same call. ra stays in its register, which the kernel
 * keeps for both. */
__asm__(".text\n"
        ".globl vfork\n"
        ".type vfork, @function\n"
        "vfork:\n"
        "	li a0, 0x4111\n" /* CLONE_VM | CLONE_VFORK | SIGCHLD */
        "	li a1, 0\n"
        "	li a2, 0\n"
        "	li a3, 0\n"
        "	li a4, 0\n"
        "	li a7, 220\n" /* SYS_clone */
        "	ecall\n"
        "	bltz a0, 1f\n"
        "	ret\n"
        "1:	tail libc_vfork_failed\n"
        ".size vfork, . - vfork\n");
_Static_assert((CLONE_VM | CLONE_VFORK | LINUX_SIGCHLD) == 0x4111, "vfork's clone flags");
_Static_assert(SYS_clone == 220, "vfork's clone number");

/* Run `path` in place of this program. Returns only on failure: -1 with errno. */
int execve(const char *path, char *const argv[], char *const envp[])
{
	return (int)libc_result(syscall3(SYS_execve, (long)path, (long)argv, (long)envp));
}

int execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

/* The search path when PATH is unset (glibc's default, confstr _CS_PATH). */
#define DEFAULT_PATH  "/bin:/usr/bin"
#define NAME_MAX_HERE 256

/* execvpe: a name with a slash runs as it is; otherwise each PATH directory is tried in
 * turn (an empty entry is the current directory), going on after ENOENT, ENOTDIR and
 * EACCES, and failing with EACCES if any candidate was there but not runnable (POSIX
 * exec, glibc's __execvpe). */
int execvpe(const char *file, char *const argv[], char *const envp[])
{
	if (file == NULL || file[0] == 0) {
		errno = ENOENT;
		return -1;
	}
	if (strchr(file, '/'))
		return execve(file, argv, envp);
	const char *path = NULL;
	for (char **entry = environ; entry && *entry; entry++) {
		if (strncmp(*entry, "PATH=", 5) == 0)
			path = *entry + 5;
	}
	if (path == NULL)
		path = DEFAULT_PATH;
	size_t file_length = strlen(file);
	int saw_eacces = 0;
	for (const char *start = path;;) {
		const char *end = strchr(start, ':');
		size_t length = end ? (size_t)(end - start) : strlen(start);
		char candidate[NAME_MAX_HERE];
		if (length + 1 + file_length + 1 <= sizeof candidate) {
			size_t n = 0;
			if (length) {
				memcpy(candidate, start, length);
				n = length;
				candidate[n++] = '/';
			}
			memcpy(candidate + n, file, file_length + 1);
			execve(candidate, argv, envp);
			if (errno == EACCES)
				saw_eacces = 1;
			else if (errno != ENOENT && errno != ENOTDIR)
				return -1;
		}
		if (!end)
			break;
		start = end + 1;
	}
	errno = saw_eacces ? EACCES : ENOENT;
	return -1;
}

int execvp(const char *file, char *const argv[])
{
	return execvpe(file, argv, environ);
}

/* Process groups and sessions (POSIX; Linux's rules and errno values). */
int setpgid(pid_t pid, pid_t process_group)
{
	return (int)libc_result(syscall2(SYS_setpgid, pid, process_group));
}

pid_t getpgid(pid_t pid)
{
	return (pid_t)libc_result(syscall1(SYS_getpgid, pid));
}

pid_t getpgrp(void)
{
	return getpgid(0);
}

pid_t setsid(void)
{
	return (pid_t)libc_result(syscall0(SYS_setsid));
}

pid_t getsid(pid_t pid)
{
	return (pid_t)libc_result(syscall1(SYS_getsid, pid));
}
