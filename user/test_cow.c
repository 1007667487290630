/* test_cow: fork shares memory copy-on-write (kernel/mm/address_space.c), and neither
 * side ever sees the other's stores: the child's writes stay out of the parent and the
 * parent's out of the child, through three generations; the kernel's own stores into a
 * shared page (read() from a pipe and from a file, a signal frame on a shared
 * sigaltstack, wait4's status) break the share as the program's store would; mprotect
 * after fork cannot open a shared page for writing; a child that runs out of memory
 * breaking the share is killed with SIGKILL and every page comes back; forking until
 * the kernel says no (EAGAIN or ENOMEM) loses no page.
 *
 * Prints "ok NAME" or "FAIL NAME: DETAIL" per check (user/check.h), then "test_cow: N
 * passed, M failed"; exits 0 only if nothing failed. Built with both C libraries
 * (user.mk GLIBC_PROGRAMS); raw system calls with Linux numbers for signals, so both
 * builds check the same ABI. tests/test_cow.py runs it as init on 1 and 4 harts. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "uapi/signal_action.h"
#include "uapi/signal_frame.h"

#define PAGE 4096

/* Linux values (include/uapi/asm-generic/signal.h, signal-defs.h). */
#define L_SIGKILL 9
#define L_SIGUSR1 10

/* Data the tests share across fork: a global, a heap buffer, and pages of their own. */
static volatile int global_value = 1;
static char read_target[3 * PAGE] __attribute__((aligned(PAGE)));
static char alternate_stack[4 * PAGE] __attribute__((aligned(PAGE)));

/* Free pages now (sysinfo's freeram, 64-bit longs: byte 40, mem_unit at 104), after a
 * pause so that a child just reaped on another hart has freed its kernel stack. */
static unsigned long free_pages(void)
{
	struct timespec settle = {0, 5 * 1000 * 1000};
	nanosleep(&settle, NULL);
	unsigned char info[112] = {0};
	syscall(SYS_sysinfo, info);
	unsigned long free_bytes;
	unsigned mem_unit;
	memcpy(&free_bytes, info + 40, sizeof free_bytes);
	memcpy(&mem_unit, info + 104, sizeof mem_unit);
	return free_bytes * (mem_unit ? mem_unit : 1) / PAGE;
}

static int wait_for(pid_t pid)
{
	int status = -1;
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

static bool exited_with(int status, int code)
{
	return status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == code;
}

/* The child's stores (global, heap, stack) stay out of the parent; the child sees its
 * own. The child exits 0 when it saw what it wrote. */
static void test_child_writes_stay_in_the_child(void)
{
	char *heap = malloc(2 * PAGE);
	int on_stack[256];
	memset(heap, 'p', 2 * PAGE);
	for (int i = 0; i < 256; i++)
		on_stack[i] = i;
	global_value = 1;
	pid_t pid = fork();
	if (pid == 0) {
		global_value = 2;
		memset(heap, 'c', 2 * PAGE);
		for (int i = 0; i < 256; i++)
			on_stack[i] = -i;
		bool saw = global_value == 2 && heap[0] == 'c' && heap[2 * PAGE - 1] == 'c' &&
		           on_stack[255] == -255;
		_exit(saw ? 0 : 1);
	}
	int status = wait_for(pid);
	bool parent_intact = global_value == 1 && on_stack[255] == 255;
	for (int i = 0; i < 2 * PAGE; i++)
		parent_intact = parent_intact && heap[i] == 'p';
	check(exited_with(status, 0), "child sees its own writes", "status %#x", status);
	check(parent_intact, "child writes do not show in the parent", "global %d heap[0] %c",
	      global_value, heap[0]);
	free(heap);
}

/* The parent's stores after fork stay out of the child: the child waits on a pipe
 * until the parent has written, then reports what it sees. */
static void test_parent_writes_stay_in_the_parent(void)
{
	int go[2];
	if (pipe(go) != 0) {
		check(false, "parent writes after fork", "pipe errno %d", errno);
		return;
	}
	char *heap = malloc(PAGE);
	memset(heap, 'a', PAGE);
	global_value = 10;
	pid_t pid = fork();
	if (pid == 0) {
		char byte;
		close(go[1]);
		if (read(go[0], &byte, 1) != 1)
			_exit(3);
		_exit(global_value == 10 && heap[0] == 'a' && heap[PAGE - 1] == 'a' ? 0 : 1);
	}
	close(go[0]);
	global_value = 11;
	memset(heap, 'b', PAGE);
	if (write(go[1], "g", 1) != 1)
		global_value = -1;
	close(go[1]);
	int status = wait_for(pid);
	check(exited_with(status, 0), "parent writes after fork do not show in the child",
	      "status %#x", status);
	check(global_value == 11 && heap[0] == 'b', "the parent sees its own writes after fork",
	      "global %d", global_value);
	free(heap);
}

/* Three generations: the grandchild sees what the child wrote before forking it, and
 * nobody sees the grandchild's or the child's later writes. Exit codes carry results. */
static void test_fork_of_fork(void)
{
	global_value = 100;
	pid_t child = fork();
	if (child == 0) {
		global_value = 200;
		pid_t grandchild = fork();
		if (grandchild == 0) {
			bool saw = global_value == 200;
			global_value = 300;
			_exit(saw && global_value == 300 ? 0 : 1);
		}
		int status = wait_for(grandchild);
		bool fine = exited_with(status, 0) && global_value == 200;
		global_value = 250;
		_exit(fine ? 0 : 2);
	}
	int status = wait_for(child);
	check(exited_with(status, 0), "fork of fork: each generation keeps its own writes",
	      "status %#x", status);
	check(global_value == 100, "fork of fork: the first parent is untouched", "global %d",
	      global_value);
}

/* read() stores into a page that is still shared (nobody wrote it since fork): the
 * kernel's copy into user memory must break the share. From a pipe in the child, from
 * a file in the parent; each side then checks the other's page kept its bytes. */
static void test_read_into_a_shared_page(void)
{
	memset(read_target, 'o', sizeof read_target);
	int data[2], done[2];
	if (pipe(data) != 0 || pipe(done) != 0) {
		check(false, "read into a shared page", "pipe errno %d", errno);
		return;
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(data[1]);
		close(done[0]);
		/* Across a page boundary, so that two shared pages break in one read. */
		char *at = read_target + PAGE - 8;
		ssize_t got = read(data[0], at, 16);
		bool fine = got == 16 && memcmp(at, "0123456789abcdef", 16) == 0 &&
		            read_target[PAGE - 9] == 'o' && read_target[PAGE + 8] == 'o';
		char byte;
		/* Wait until the parent has read its file into the same pages. */
		if (write(done[1], "r", 1) != 1 || read(data[0], &byte, 1) != 0)
			_exit(4);
		fine = fine && memcmp(at, "0123456789abcdef", 16) == 0;
		_exit(fine ? 0 : 1);
	}
	close(data[0]);
	close(done[1]);
	if (write(data[1], "0123456789abcdef", 16) != 16)
		check(false, "read into a shared page", "write errno %d", errno);
	char byte;
	ssize_t acknowledged = read(done[0], &byte, 1);
	bool parent_intact = true;
	for (size_t i = 0; i < sizeof read_target; i++)
		parent_intact = parent_intact && read_target[i] == 'o';
	int file = open("/etc/fork_script", O_RDONLY);
	ssize_t got = file >= 0 ? read(file, read_target + PAGE - 8, 16) : -1;
	if (file >= 0)
		close(file);
	close(data[1]); /* the child's second read sees EOF and checks its bytes again */
	int status = wait_for(pid);
	check(acknowledged == 1 && exited_with(status, 0),
	      "read() from a pipe into a shared page: the child gets the bytes", "status %#x",
	      status);
	check(parent_intact, "read() in the child leaves the parent's page alone", "");
	check(got == 16 && memcmp(read_target + PAGE - 8, "#!", 2) == 0,
	      "read() from a file into a shared page in the parent", "got %ld", (long)got);
}

static volatile int handler_ran;
static volatile unsigned long handler_sp;

static void usr1_handler(int signal)
{
	int here;
	handler_ran = signal;
	handler_sp = (unsigned long)&here;
}

/* A signal frame goes onto a sigaltstack the child shares with its parent: the kernel's
 * frame writer must break the share (and the parent's copy keep its bytes). */
static void test_signal_frame_on_a_shared_stack(void)
{
	memset(alternate_stack, 's', sizeof alternate_stack);
	struct linux_stack stack = {.sp = (uint64_t)alternate_stack,
	                            .size = sizeof alternate_stack};
	struct linux_sigaction action = {.handler = (uint64_t)usr1_handler, .flags = SA_ONSTACK};
	long set = syscall(SYS_sigaltstack, &stack, NULL);
	long installed = syscall(SYS_rt_sigaction, L_SIGUSR1, &action, NULL, 8);
	handler_ran = 0;
	pid_t pid = fork();
	if (pid == 0) {
		syscall(SYS_kill, getpid(), L_SIGUSR1);
		unsigned long low = (unsigned long)alternate_stack;
		bool on_it = handler_sp >= low && handler_sp < low + sizeof alternate_stack;
		_exit(handler_ran == L_SIGUSR1 && on_it ? 0 : 1);
	}
	int status = wait_for(pid);
	bool parent_intact = handler_ran == 0;
	for (size_t i = 0; i < sizeof alternate_stack; i++)
		parent_intact = parent_intact && alternate_stack[i] == 's';
	struct linux_sigaction default_action = {0};
	struct linux_stack disable = {.flags = 2 /* SS_DISABLE */};
	syscall(SYS_rt_sigaction, L_SIGUSR1, &default_action, NULL, 8);
	syscall(SYS_sigaltstack, &disable, NULL);
	check(set == 0 && installed == 0 && exited_with(status, 0),
	      "a signal frame on a shared sigaltstack: the handler runs on it", "status %#x",
	      status);
	check(parent_intact, "the child's signal frame does not show in the parent", "");
}

/* wait4 stores the status into the parent's page that the child shares (the stack
 * variable's page was written before fork, so it is copy-on-write there). */
static void test_wait_status_into_a_shared_page(void)
{
	static int status_word __attribute__((aligned(PAGE)));
	status_word = -1;
	pid_t pid = fork();
	if (pid == 0)
		_exit(7);
	pid_t got = waitpid(pid, &status_word, 0);
	check(got == pid && exited_with(status_word, 7), "wait4's status into a shared page",
	      "got %d status %#x", (int)got, status_word);
}

/* mprotect after fork: read-only and back to read-write in the parent must not give it
 * the page it shares with the child; the child still sees the old bytes. */
static void test_mprotect_after_fork(void)
{
	char *page = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int go[2];
	if (page == MAP_FAILED || pipe(go) != 0) {
		check(false, "mprotect after fork", "errno %d", errno);
		return;
	}
	page[0] = 'x';
	pid_t pid = fork();
	if (pid == 0) {
		char byte;
		close(go[1]);
		if (read(go[0], &byte, 1) != 1)
			_exit(3);
		_exit(page[0] == 'x' ? 0 : 1);
	}
	close(go[0]);
	int protected_ = mprotect(page, PAGE, PROT_READ);
	int opened = mprotect(page, PAGE, PROT_READ | PROT_WRITE);
	page[0] = 'y';
	if (write(go[1], "g", 1) != 1)
		page[0] = 0;
	close(go[1]);
	int status = wait_for(pid);
	check(protected_ == 0 && opened == 0 && page[0] == 'y' && exited_with(status, 0),
	      "mprotect read-write after fork does not open the shared page", "status %#x", status);
	munmap(page, PAGE);
}

/* fork copies no page: a child of a parent with 256 pages mapped takes far fewer than
 * 256 (page tables, its kernel stack and process), and its first store takes one. */
static void test_fork_shares_instead_of_copying(void)
{
	size_t bytes = 256 * PAGE;
	char *big = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int go[2], ready[2];
	if (big == MAP_FAILED || pipe(go) != 0 || pipe(ready) != 0) {
		check(false, "fork shares pages", "errno %d", errno);
		return;
	}
	memset(big, 1, bytes);
	unsigned long before = free_pages();
	pid_t pid = fork();
	if (pid == 0) {
		/* Everything the child touches on its way to the store below is touched
		 * (copied) before it says it is ready, so the store is the only copy after. */
		char byte;
		if (write(ready[1], "r", 1) != 1 || read(go[0], &byte, 1) != 1)
			_exit(3);
		big[0] = 2; /* one page copied */
		if (write(ready[1], "w", 1) != 1 || read(go[0], &byte, 1) != 1)
			_exit(4);
		_exit(0);
	}
	char byte = 0;
	bool talked = read(ready[0], &byte, 1) == 1;
	unsigned long after_fork = free_pages();
	talked = talked && write(go[1], "1", 1) == 1 && read(ready[0], &byte, 1) == 1;
	unsigned long after_store = free_pages();
	talked = talked && write(go[1], "2", 1) == 1;
	int status = wait_for(pid);
	check(talked && exited_with(status, 0) && before - after_fork < 64,
	      "fork of 256 mapped pages takes fewer than 64", "took %ld",
	      (long)(before - after_fork));
	check(after_fork - after_store == 1, "the child's first store copies one page", "took %ld",
	      (long)(after_fork - after_store));
	check(big[0] == 1, "the parent keeps its byte", "big[0] %d", big[0]);
	munmap(big, bytes);
	close(go[0]), close(go[1]), close(ready[0]), close(ready[1]);
}

/* Out of memory breaking the share: the parent maps more than half the free pages and
 * forks (cheap now); the child writes all of them, which cannot fit. The child is
 * killed with SIGKILL, the kernel goes on, the parent's bytes are intact, and once the
 * child is reaped and the mapping unmapped every page is back. */
static void test_out_of_memory_breaking_the_share(void)
{
	/* Map and unmap once first: munmap keeps emptied page tables until exit. */
	size_t bytes = (free_pages() / 2 + 256) * PAGE;
	char *big = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (big != MAP_FAILED)
		munmap(big, bytes);
	unsigned long before = free_pages();
	big = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (big == MAP_FAILED) {
		check(false, "out of memory breaking the share", "mmap errno %d", errno);
		return;
	}
	for (size_t i = 0; i < bytes; i += PAGE)
		big[i] = 'm';
	pid_t pid = fork();
	if (pid == 0) {
		for (size_t i = 0; i < bytes; i += PAGE)
			big[i] = 'k';
		_exit(0); /* not reached: there is no room for every copy */
	}
	int status = wait_for(pid);
	bool intact = true;
	for (size_t i = 0; i < bytes; i += PAGE)
		intact = intact && big[i] == 'm';
	munmap(big, bytes);
	unsigned long after = free_pages();
	check(pid > 0 && status >= 0 && WIFSIGNALED(status) && WTERMSIG(status) == L_SIGKILL,
	      "out of memory breaking the share: the child is killed by SIGKILL", "status %#x",
	      status);
	check(intact, "out of memory breaking the share: the parent's pages are intact", "");
	check(after == before, "out of memory breaking the share: no page lost",
	      "free pages %lu -> %lu", before, after);
}

/* Fork until the kernel refuses (EAGAIN at the process limit, or ENOMEM), every child
 * breaking one shared page and then waiting on a pipe; then let them all go and reap
 * them. Returns how many children there were; *error is fork's errno, *clean how many
 * exited 0. */
static int fork_until_refused(int *error, int *clean)
{
	static pid_t children[512];
	int go[2];
	*error = 0;
	*clean = 0;
	if (pipe(go) != 0) {
		*error = errno;
		return 0;
	}
	int count = 0;
	while (count < 512) {
		pid_t pid = fork();
		if (pid == 0) {
			char byte;
			close(go[1]);
			global_value = 5; /* a copy-on-write break in each child */
			_exit(read(go[0], &byte, 1) == 0 ? 0 : 1);
		}
		if (pid < 0) {
			*error = errno;
			break;
		}
		children[count++] = pid;
	}
	close(go[0]);
	close(go[1]); /* every child's read sees EOF now */
	for (int i = 0; i < count; i++)
		*clean += exited_with(wait_for(children[i]), 0);
	return count;
}

/* The first round grows the kernel heap to hold that many processes at once (it keeps
 * its pages for the next kmalloc: kernel/mm/heap.c); the second must give back every
 * page it took. */
static void test_fork_until_refused(void)
{
	int error, clean;
	int warm = fork_until_refused(&error, &clean);
	unsigned long before = free_pages();
	int count = fork_until_refused(&error, &clean);
	unsigned long after = free_pages();
	check(count > 0 && count == warm && (error == EAGAIN || error == ENOMEM),
	      "fork until refused: EAGAIN or ENOMEM", "%d then %d children, errno %d", warm, count,
	      error);
	check(clean == count, "fork until refused: every child exits 0", "%d of %d", clean, count);
	check(after == before, "fork until refused: no page lost", "free pages %lu -> %lu", before,
	      after);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	test_child_writes_stay_in_the_child();
	test_parent_writes_stay_in_the_parent();
	test_fork_of_fork();
	test_read_into_a_shared_page();
	test_signal_frame_on_a_shared_stack();
	test_wait_status_into_a_shared_page();
	test_mprotect_after_fork();
	test_fork_shares_instead_of_copying();
	test_out_of_memory_breaking_the_share();
	test_fork_until_refused();
	printf("test_cow: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
