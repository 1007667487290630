/* test_fs: the file-system calls — the mount table, tmpfs at /tmp, symbolic links, the
 * working directory — and their Linux errno values, with raw system calls (the kernel's
 * -errno, Linux numbers). Built with picolibc and with glibc.
 *
 * Prints one line per check, "ok NAME" or "FAIL NAME: DETAIL", then
 * "test_fs: N passed, M failed"; exits 0 only if nothing failed. Every run of a mode
 * makes the same checks, so the count shows that none was skipped.
 *   test_fs          everything but a full tmpfs (any budget of at least 64 pages)
 *   test_fs full     fill tmpfs to ENOSPC and count the pages it gives back (boot with
 *                    a small budget: tmpfs.pages=64)
 *   test_fs empty    a tmpfs with no budget (tmpfs.pages=0): ENOSPC for everything
 *   test_fs child-cwd DIR   (run by the first mode) exit 0 if the working directory is DIR
 *   test_fs child-append FILE ID   (run by the first mode) append ID's records to FILE
 *   test_fs child-churn DIR   (run by the first mode) make, rename and remove in DIR */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>

#include <duplex.h>

#include "check.h"

#define SELF DUPLEX_BIN_DIR "/test_fs"

/* Linux errno values. */
#define LINUX_ENOENT       2
#define LINUX_EBADF        9
#define LINUX_EACCES       13
#define LINUX_EFAULT       14
#define LINUX_EBUSY        16
#define LINUX_EEXIST       17
#define LINUX_EXDEV        18
#define LINUX_ENOTDIR      20
#define LINUX_EISDIR       21
#define LINUX_EINVAL       22
#define LINUX_ENOSPC       28
#define LINUX_EROFS        30
#define LINUX_ERANGE       34
#define LINUX_ENAMETOOLONG 36
#define LINUX_ENOTEMPTY    39
#define LINUX_ELOOP        40

/* Linux values for raw calls (include/uapi/asm-generic/fcntl.h, linux/fcntl.h, fs.h). */
#define LINUX_AT_FDCWD            (-100)
#define LINUX_AT_SYMLINK_NOFOLLOW 0x100
#define LINUX_AT_REMOVEDIR        0x200
#define LINUX_O_RDONLY            0
#define LINUX_O_WRONLY            1
#define LINUX_O_RDWR              2
#define LINUX_O_CREAT             0100
#define LINUX_O_EXCL              0200
#define LINUX_O_TRUNC             01000
#define LINUX_O_APPEND            02000
#define LINUX_O_DIRECTORY         0200000
#define LINUX_O_NOFOLLOW          0400000
#define LINUX_S_IFMT              0170000
#define LINUX_S_IFDIR             0040000
#define LINUX_S_IFREG             0100000
#define LINUX_S_IFLNK             0120000
#define LINUX_RENAME_NOREPLACE    1
#define LINUX_RENAME_EXCHANGE     2
#define LINUX_SEEK_SET            0
#define LINUX_SEEK_END            2
#define LINUX_F_OK                0
#define LINUX_X_OK                1
#define LINUX_W_OK                2
#define LINUX_R_OK                4
#define LINUX_UTIME_NOW           ((1l << 30) - 1l)
#define LINUX_UTIME_OMIT          ((1l << 30) - 2l)
#define LINUX_DT_DIR              4
#define LINUX_DT_REG              8
#define LINUX_DT_LNK              10

#define PAGE_SIZE 4096
/* A user address no call may accept (nothing maps it). */
#define UNMAPPED_ADDRESS 0x20000000L

/* ------------------------------------------------------------------ helpers */

static long open_at(const char *path, long flags, long mode)
{
	return syscall4(SYS_openat, LINUX_AT_FDCWD, (long)path, flags, mode);
}

static long stat_at(const char *path, struct linux_stat *status, long flags)
{
	return syscall4(SYS_newfstatat, LINUX_AT_FDCWD, (long)path, (long)status, flags);
}

static long make_directory(const char *path)
{
	return syscall3(SYS_mkdirat, LINUX_AT_FDCWD, (long)path, 0755);
}

static long remove_name(const char *path, long flags)
{
	return syscall3(SYS_unlinkat, LINUX_AT_FDCWD, (long)path, flags);
}

static long rename_to(const char *from, const char *to, long flags)
{
	return syscall5(SYS_renameat2, LINUX_AT_FDCWD, (long)from, LINUX_AT_FDCWD, (long)to, flags);
}

static long access_at(const char *path, long mode, long flags)
{
	return syscall4(SYS_faccessat2, LINUX_AT_FDCWD, (long)path, mode, flags);
}

/* Make `path` hold exactly `text`; returns 0 or the failing call's -errno. */
static long write_file(const char *path, const char *text)
{
	long fd = open_at(path, LINUX_O_WRONLY | LINUX_O_CREAT | LINUX_O_TRUNC, 0644);
	if (fd < 0)
		return fd;
	long length = (long)strlen(text);
	long wrote = syscall3(SYS_write, fd, (long)text, length);
	syscall1(SYS_close, fd);
	return wrote == length ? 0 : (wrote < 0 ? wrote : -1);
}

/* Read up to size-1 bytes of `path` into `buffer` (NUL-terminated): the length or -errno. */
static long read_file(const char *path, char *buffer, long size)
{
	long fd = open_at(path, LINUX_O_RDONLY, 0);
	if (fd < 0)
		return fd;
	long got = 0, piece;
	while (got < size - 1 &&
	       (piece = syscall3(SYS_read, fd, (long)buffer + got, size - 1 - got)) > 0)
		got += piece; /* a read returns at most 4 KiB */
	syscall1(SYS_close, fd);
	buffer[got] = 0;
	return got;
}

/* A check that `path` holds `want`. */
static void expect_content(const char *name, const char *path, const char *want)
{
	char buffer[256];
	long got = read_file(path, buffer, sizeof buffer);
	check(got >= 0 && strcmp(buffer, want) == 0, name, "read %ld: \"%s\", want \"%s\"", got,
	      got >= 0 ? buffer : "", want);
}

/* The working directory (getcwd) into `buffer`: the raw result. */
static long current_directory(char *buffer, long size)
{
	return syscall2(SYS_getcwd, (long)buffer, size);
}

/* A check that the working directory is `want`. */
static void expect_cwd(const char *name, const char *want)
{
	char buffer[256];
	long got = current_directory(buffer, sizeof buffer);
	check(got == (long)strlen(want) + 1 && strcmp(buffer, want) == 0, name,
	      "getcwd %ld \"%s\", want \"%s\"", got, got > 0 ? buffer : "", want);
}

/* Start `argv[0]` and wait: the raw wait status, or the negative errno of spawn. */
static long run(char *const argv[])
{
	char *envp[] = {0};
	long pid = syscall3(SYS_spawn, (long)argv[0], (long)argv, (long)envp);
	if (pid < 0)
		return pid;
	int status = 0;
	long waited = syscall4(SYS_wait4, pid, (long)&status, 0, 0);
	return waited == pid ? status : -1;
}

/* getdents64 records of directory `path`: does it list `name` with type `type`? Returns
 * 1 if so, 0 if not, -errno if the directory cannot be read. *entries counts them all. */
static long lists(const char *path, const char *name, int type, int *entries)
{
	long fd = open_at(path, LINUX_O_RDONLY | LINUX_O_DIRECTORY, 0);
	if (fd < 0)
		return fd;
	static char buffer[4096] __attribute__((aligned(8)));
	long found = 0;
	*entries = 0;
	for (;;) {
		long got = syscall3(SYS_getdents64, fd, (long)buffer, sizeof buffer);
		if (got <= 0) {
			if (got < 0)
				found = got;
			break;
		}
		for (long at = 0; at < got;) {
			unsigned short length;
			memcpy(&length, buffer + at + 16, sizeof length);
			unsigned char record_type = (unsigned char)buffer[at + 18];
			const char *record_name = buffer + at + 19;
			(*entries)++;
			if (strcmp(record_name, name) == 0 && record_type == type)
				found = 1;
			at += length;
		}
	}
	syscall1(SYS_close, fd);
	return found;
}

/* Free pages, from sysinfo (freeram, in units of mem_unit = one page on Duplex). Exact
 * once every child is reaped: wait4 reports a child only after its kernel stack is back
 * (process_wait), so nothing of it is still on its way to being freed. */
static long free_pages(void)
{
	long info[16] = {0}; /* uptime, loads[3], totalram, freeram, ... */
	return syscall1(SYS_sysinfo, (long)info) == 0 ? info[5] : -1;
}

/* ------------------------------------------------------------------ files */

static void test_create_read_write(void)
{
	expect("mkdirat /tmp/t", make_directory("/tmp/t"), 0);
	expect_error("mkdirat existing EEXIST", make_directory("/tmp/t"), LINUX_EEXIST);
	long fd = open_at("/tmp/t/a", LINUX_O_WRONLY | LINUX_O_CREAT, 0644);
	check(fd >= 0, "O_CREAT makes a file", "openat %ld", fd);
	expect("write to a new file", syscall3(SYS_write, fd, (long)"hello", 5), 5);
	struct linux_stat status;
	expect("fstat a tmpfs file", syscall2(SYS_fstat, fd, (long)&status), 0);
	check(status.size == 5 && status.mode == (LINUX_S_IFREG | 0644) && status.links == 1 &&
	          status.blocks == 8 && status.times[4] * 1000000000l + status.times[5] > 0,
	      "fstat: size, mode, links, blocks, ctime", "size %ld mode %o links %u blocks %ld",
	      (long)status.size, status.mode, status.links, (long)status.blocks);
	syscall1(SYS_close, fd);
	expect_error("O_CREAT|O_EXCL of an existing file EEXIST",
	             open_at("/tmp/t/a", LINUX_O_WRONLY | LINUX_O_CREAT | LINUX_O_EXCL, 0644),
	             LINUX_EEXIST);
	expect_content("read back", "/tmp/t/a", "hello");

	fd = open_at("/tmp/t/a", LINUX_O_RDONLY, 0);
	char two[3] = {0};
	long moved = syscall3(SYS_lseek, fd, 1, LINUX_SEEK_SET);
	long got = syscall3(SYS_read, fd, (long)two, 2);
	check(moved == 1 && got == 2 && memcmp(two, "el", 2) == 0, "lseek then read",
	      "lseek %ld read %ld", moved, got);
	expect("lseek SEEK_END is the size", syscall3(SYS_lseek, fd, 0, LINUX_SEEK_END), 5);
	expect_error("write to an O_RDONLY file EBADF", syscall3(SYS_write, fd, (long)"x", 1),
	             LINUX_EBADF);
	syscall1(SYS_close, fd);

	fd = open_at("/tmp/t/a", LINUX_O_WRONLY | LINUX_O_APPEND, 0);
	syscall3(SYS_lseek, fd, 0, LINUX_SEEK_SET);
	expect("O_APPEND write", syscall3(SYS_write, fd, (long)" world", 6), 6);
	syscall1(SYS_close, fd);
	expect_content("O_APPEND writes at the end", "/tmp/t/a", "hello world");

	fd = open_at("/tmp/t/a", LINUX_O_RDWR | LINUX_O_TRUNC, 0);
	syscall2(SYS_fstat, fd, (long)&status);
	check(fd >= 0 && status.size == 0 && status.blocks == 0, "O_TRUNC empties the file",
	      "fd %ld size %ld blocks %ld", fd, (long)status.size, (long)status.blocks);
	syscall3(SYS_write, fd, (long)"abcdef", 6);
	expect("ftruncate shorter", syscall2(SYS_ftruncate, fd, 3), 0);
	expect("ftruncate longer (a hole)", syscall2(SYS_ftruncate, fd, 3 * PAGE_SIZE), 0);
	char page[8];
	syscall3(SYS_lseek, fd, 0, LINUX_SEEK_SET);
	got = syscall3(SYS_read, fd, (long)page, sizeof page);
	check(got == 8 && memcmp(page, "abc\0\0\0\0\0", 8) == 0,
	      "bytes past a truncation read as zeros", "read %ld", got);
	syscall2(SYS_fstat, fd, (long)&status);
	check(status.size == 3 * PAGE_SIZE && status.blocks == 8, "a hole takes no pages",
	      "size %ld blocks %ld", (long)status.size, (long)status.blocks);
	syscall3(SYS_lseek, fd, 2 * PAGE_SIZE, LINUX_SEEK_SET);
	syscall3(SYS_write, fd, (long)"z", 1);
	syscall2(SYS_fstat, fd, (long)&status);
	expect("a write into a hole takes one page", (long)status.blocks, 16);
	expect_error("ftruncate negative EINVAL", syscall2(SYS_ftruncate, fd, -1), LINUX_EINVAL);
	syscall1(SYS_close, fd);
	fd = open_at("/tmp/t/a", LINUX_O_RDONLY, 0);
	expect_error("ftruncate read-only EINVAL", syscall2(SYS_ftruncate, fd, 0), LINUX_EINVAL);
	syscall1(SYS_close, fd);
	expect_error("ftruncate bad fd EBADF", syscall2(SYS_ftruncate, 99, 0), LINUX_EBADF);
	expect("truncate by path", syscall2(SYS_truncate, (long)"/tmp/t/a", 1), 0);
	expect_content("truncate kept the first byte", "/tmp/t/a", "a");
	expect_error("truncate an archive file EROFS", syscall2(SYS_truncate, (long)"/etc/motd", 0),
	             LINUX_EROFS);
	expect_error("truncate a directory EISDIR", syscall2(SYS_truncate, (long)"/tmp/t", 0),
	             LINUX_EISDIR);
}

static void test_name_errors(void)
{
	expect_error("O_CREAT in a missing directory ENOENT",
	             open_at("/tmp/none/x", LINUX_O_WRONLY | LINUX_O_CREAT, 0644), LINUX_ENOENT);
	expect_error("O_CREAT below a file ENOTDIR",
	             open_at("/tmp/t/a/x", LINUX_O_WRONLY | LINUX_O_CREAT, 0644), LINUX_ENOTDIR);
	expect_error("O_CREAT on the archive EROFS",
	             open_at("/etc/new", LINUX_O_WRONLY | LINUX_O_CREAT, 0644), LINUX_EROFS);
	expect_error("mkdirat on the archive EROFS", make_directory("/etc/new"), LINUX_EROFS);
	expect_error("mkdirat an archive name EEXIST", make_directory("/bin/sh"), LINUX_EEXIST);
	expect_error("write-open a tmpfs directory EISDIR", open_at("/tmp/t", LINUX_O_WRONLY, 0),
	             LINUX_EISDIR);
	expect_error("O_DIRECTORY of a tmpfs file ENOTDIR",
	             open_at("/tmp/t/a", LINUX_O_RDONLY | LINUX_O_DIRECTORY, 0), LINUX_ENOTDIR);
	char long_name[300] = "/tmp/";
	memset(long_name + 5, 'n', 256);
	expect_error("a 256-byte name ENAMETOOLONG", make_directory(long_name), LINUX_ENAMETOOLONG);
	memset(long_name + 5, 'n', 255);
	long_name[5 + 255] = 0;
	expect("a 255-byte name is allowed", make_directory(long_name), 0);
	expect("and removed", remove_name(long_name, LINUX_AT_REMOVEDIR), 0);
	expect_error("mkdirat bad pointer EFAULT",
	             syscall3(SYS_mkdirat, LINUX_AT_FDCWD, UNMAPPED_ADDRESS, 0755), LINUX_EFAULT);
	expect_error("unlinkat bad pointer EFAULT",
	             syscall3(SYS_unlinkat, LINUX_AT_FDCWD, UNMAPPED_ADDRESS, 0), LINUX_EFAULT);
	expect_error("renameat2 bad pointer EFAULT",
	             syscall5(SYS_renameat2, LINUX_AT_FDCWD, (long)"/tmp/t/a", LINUX_AT_FDCWD,
	                      UNMAPPED_ADDRESS, 0),
	             LINUX_EFAULT);
	expect_error("mkdirat relative to a file fd ENOTDIR",
	             syscall3(SYS_mkdirat, 0, (long)"x", 0755), LINUX_ENOTDIR);
}

static void test_listing(void)
{
	make_directory("/tmp/t/sub");
	int entries;
	long found = lists("/tmp/t", "a", LINUX_DT_REG, &entries);
	check(found == 1 && entries == 4, "getdents64 lists a tmpfs file (after . and ..)",
	      "found %ld entries %d", found, entries);
	expect("getdents64 lists .", lists("/tmp/t", ".", LINUX_DT_DIR, &entries), 1);
	expect("getdents64 lists ..", lists("/tmp/t", "..", LINUX_DT_DIR, &entries), 1);
	expect("the archive lists .. too", lists("/etc", "..", LINUX_DT_DIR, &entries), 1);
	long fd = open_at("/tmp/t", LINUX_O_RDONLY | LINUX_O_DIRECTORY, 0);
	char record[24] __attribute__((aligned(8)));
	long first = syscall3(SYS_getdents64, fd, (long)record, sizeof record);
	bool dot = first == 24 && strcmp(record + 19, ".") == 0;
	long second = syscall3(SYS_getdents64, fd, (long)record, sizeof record);
	bool dot_dot = second == 24 && strcmp(record + 19, "..") == 0;
	int64_t next;
	memcpy(&next, record + 8, sizeof next);
	check(dot && dot_dot && next == 2, "one record at a time: . then .. (d_off 2)",
	      "first %ld second %ld d_off %ld", first, second, (long)next);
	syscall1(SYS_close, fd);
	expect("getdents64 lists a tmpfs directory", lists("/tmp/t", "sub", LINUX_DT_DIR, &entries),
	       1);
	expect("/ lists the mount point tmp", lists("/", "tmp", LINUX_DT_DIR, &entries), 1);
	expect("/ lists the mount point dev", lists("/", "dev", LINUX_DT_DIR, &entries), 1);
	expect("/dev lists null", lists("/dev", "null", 2, &entries), 1);
	expect("/etc lists a symbolic link", lists("/etc", "motd-link", LINUX_DT_LNK, &entries), 1);
	struct linux_stat tmp, etc, sub;
	stat_at("/tmp/t", &tmp, 0);
	stat_at("/etc", &etc, 0);
	stat_at("/tmp/t/sub", &sub, 0);
	check(tmp.links == 3 && sub.links == 2, "directory link counts (2 + subdirectories)",
	      "/tmp/t %u, sub %u", tmp.links, sub.links);
	check(tmp.device != etc.device && tmp.inode != sub.inode,
	      "tmpfs has its own st_dev and inode numbers", "dev %lu %lu",
	      (unsigned long)tmp.device, (unsigned long)etc.device);
}

static void test_unlink(void)
{
	write_file("/tmp/t/gone", "x");
	expect("unlinkat a file", remove_name("/tmp/t/gone", 0), 0);
	expect_error("it is gone", open_at("/tmp/t/gone", LINUX_O_RDONLY, 0), LINUX_ENOENT);
	expect_error("unlinkat a missing name ENOENT", remove_name("/tmp/t/gone", 0), LINUX_ENOENT);
	expect_error("unlinkat a directory EISDIR", remove_name("/tmp/t/sub", 0), LINUX_EISDIR);
	expect_error("AT_REMOVEDIR of a file ENOTDIR", remove_name("/tmp/t/a", LINUX_AT_REMOVEDIR),
	             LINUX_ENOTDIR);
	expect_error("AT_REMOVEDIR of a non-empty directory ENOTEMPTY",
	             remove_name("/tmp/t", LINUX_AT_REMOVEDIR), LINUX_ENOTEMPTY);
	expect_error("AT_REMOVEDIR of a mount point EBUSY", remove_name("/tmp", LINUX_AT_REMOVEDIR),
	             LINUX_EBUSY);
	expect_error("AT_REMOVEDIR of \".\" EINVAL",
	             remove_name("/tmp/t/sub/.", LINUX_AT_REMOVEDIR), LINUX_EINVAL);
	expect_error("unlinkat on the archive EROFS", remove_name("/etc/motd", 0), LINUX_EROFS);
	expect_error("unlinkat unknown flags EINVAL", remove_name("/tmp/t/a", 1), LINUX_EINVAL);
	make_directory("/tmp/t/empty");
	expect("AT_REMOVEDIR of an empty directory",
	       remove_name("/tmp/t/empty", LINUX_AT_REMOVEDIR), 0);

	write_file("/tmp/t/open", "still here");
	long fd = open_at("/tmp/t/open", LINUX_O_RDONLY, 0);
	remove_name("/tmp/t/open", 0);
	char buffer[16] = {0};
	long got = syscall3(SYS_read, fd, (long)buffer, sizeof buffer - 1);
	struct linux_stat status;
	syscall2(SYS_fstat, fd, (long)&status);
	check(got == 10 && strcmp(buffer, "still here") == 0 && status.links == 0,
	      "an unlinked open file stays readable, with 0 links", "read %ld links %u", got,
	      status.links);
	syscall1(SYS_close, fd);
}

static void test_rename(void)
{
	write_file("/tmp/t/r1", "one");
	write_file("/tmp/t/r2", "two");
	expect("renameat2 to a new name", rename_to("/tmp/t/r1", "/tmp/t/r3", 0), 0);
	expect_error("the old name is gone", open_at("/tmp/t/r1", LINUX_O_RDONLY, 0), LINUX_ENOENT);
	expect_content("the new name has the bytes", "/tmp/t/r3", "one");
	expect_error("RENAME_NOREPLACE over a file EEXIST",
	             rename_to("/tmp/t/r3", "/tmp/t/r2", LINUX_RENAME_NOREPLACE), LINUX_EEXIST);
	expect("renameat2 over a file replaces it", rename_to("/tmp/t/r3", "/tmp/t/r2", 0), 0);
	expect_content("the replaced file has the new bytes", "/tmp/t/r2", "one");
	expect("rename to itself", rename_to("/tmp/t/r2", "/tmp/t/r2", 0), 0);
	expect_error("a missing source ENOENT", rename_to("/tmp/t/r1", "/tmp/t/r4", 0),
	             LINUX_ENOENT);
	expect_error("a directory over a file ENOTDIR", rename_to("/tmp/t/sub", "/tmp/t/r2", 0),
	             LINUX_ENOTDIR);
	expect_error("a file over a directory EISDIR", rename_to("/tmp/t/r2", "/tmp/t/sub", 0),
	             LINUX_EISDIR);
	write_file("/tmp/t/sub/inner", "i");
	make_directory("/tmp/t/d2");
	expect_error("a directory over a non-empty one ENOTEMPTY",
	             rename_to("/tmp/t/d2", "/tmp/t/sub", 0), LINUX_ENOTEMPTY);
	expect_error("a directory into itself EINVAL", rename_to("/tmp/t/sub", "/tmp/t/sub/x", 0),
	             LINUX_EINVAL);
	expect("a directory moves with its contents", rename_to("/tmp/t/sub", "/tmp/t/d2/moved", 0),
	       0);
	expect_content("its file moved too", "/tmp/t/d2/moved/inner", "i");
	rename_to("/tmp/t/d2/moved", "/tmp/t/sub", 0);
	expect_error("across file systems EXDEV", rename_to("/tmp/t/r2", "/etc/r2", 0),
	             LINUX_EXDEV);
	expect_error("within the archive EROFS", rename_to("/etc/motd", "/etc/m2", 0), LINUX_EROFS);
	expect_error("unknown flags EINVAL", rename_to("/tmp/t/r2", "/tmp/t/r5", 8), LINUX_EINVAL);
	expect_error(
	    "NOREPLACE|EXCHANGE EINVAL",
	    rename_to("/tmp/t/r2", "/tmp/t/r5", LINUX_RENAME_NOREPLACE | LINUX_RENAME_EXCHANGE),
	    LINUX_EINVAL);
	expect_error("a mount point EBUSY", rename_to("/tmp", "/tmp2", 0), LINUX_EBUSY);
	expect("RENAME_EXCHANGE of a file and a directory",
	       rename_to("/tmp/t/r2", "/tmp/t/sub", LINUX_RENAME_EXCHANGE), 0);
	expect_content("the names swapped", "/tmp/t/r2/inner", "i");
	expect_content("both ways", "/tmp/t/sub", "one");
	rename_to("/tmp/t/r2", "/tmp/t/sub", LINUX_RENAME_EXCHANGE);
	expect_error("RENAME_EXCHANGE with a missing name ENOENT",
	             rename_to("/tmp/t/r2", "/tmp/t/r9", LINUX_RENAME_EXCHANGE), LINUX_ENOENT);
	expect_error("RENAME_EXCHANGE into itself EINVAL",
	             rename_to("/tmp/t/sub", "/tmp/t/sub/inner", LINUX_RENAME_EXCHANGE),
	             LINUX_EINVAL);
}

/* Records the appending children write: "ID:NNNNN\n", 8 bytes. */
#define APPENDERS      4
#define APPEND_RECORDS 1000
#define RECORD_SIZE    8

/* One appending child: APPEND_RECORDS records to `path`, each one write. */
static int append_records(const char *path, const char *id)
{
	long fd = open_at(path, LINUX_O_WRONLY | LINUX_O_APPEND, 0);
	if (fd < 0)
		return 1;
	for (int i = 0; i < APPEND_RECORDS; i++) {
		char record[RECORD_SIZE + 1];
		snprintf(record, sizeof record, "%c:%05d\n", id[0], i);
		if (syscall3(SYS_write, fd, (long)record, RECORD_SIZE) != RECORD_SIZE)
			return 1;
	}
	syscall1(SYS_close, fd);
	return 0;
}

/* Four processes (on as many harts as there are) append to one file at once: with
 * O_APPEND every record lands whole, none overwrites another, and each writer's records
 * stay in its order. */
static void test_concurrent_appends(void)
{
	static char log[APPENDERS * APPEND_RECORDS * RECORD_SIZE + 1];
	write_file("/tmp/t/log", "");
	long pids[APPENDERS];
	char ids[APPENDERS][2];
	for (int i = 0; i < APPENDERS; i++) {
		ids[i][0] = (char)('A' + i), ids[i][1] = 0;
		char *argv[] = {SELF, "child-append", "/tmp/t/log", ids[i], 0};
		char *envp[] = {0};
		pids[i] = syscall3(SYS_spawn, (long)SELF, (long)argv, (long)envp);
	}
	int ok = 0;
	for (int i = 0; i < APPENDERS; i++) {
		int status = -1;
		if (pids[i] > 0 && syscall4(SYS_wait4, pids[i], (long)&status, 0, 0) == pids[i] &&
		    status == 0)
			ok++;
	}
	expect("four appenders ran", ok, APPENDERS);
	long got = read_file("/tmp/t/log", log, sizeof log);
	expect("every record arrived", got, (long)sizeof log - 1);
	int next[APPENDERS] = {0}, bad = 0;
	for (long at = 0; at + RECORD_SIZE <= got; at += RECORD_SIZE) {
		int writer = log[at] - 'A', number = 0;
		for (int d = 2; d < 7; d++)
			number = number * 10 + (log[at + d] - '0');
		if (writer < 0 || writer >= APPENDERS || log[at + 1] != ':' ||
		    log[at + 7] != '\n' || number != next[writer]++)
			bad++;
	}
	expect("each record whole and in its writer's order", bad, 0);
	remove_name("/tmp/t/log", 0);
}

static void test_access_mode_times(void)
{
	expect("faccessat F_OK",
	       syscall3(SYS_faccessat, LINUX_AT_FDCWD, (long)"/tmp/t/a", LINUX_F_OK), 0);
	expect_error("faccessat missing ENOENT",
	             syscall3(SYS_faccessat, LINUX_AT_FDCWD, (long)"/tmp/t/none", LINUX_F_OK),
	             LINUX_ENOENT);
	expect("R_OK|W_OK on tmpfs", access_at("/tmp/t/a", LINUX_R_OK | LINUX_W_OK, 0), 0);
	expect_error("W_OK on the archive EROFS", access_at("/etc/motd", LINUX_W_OK, 0),
	             LINUX_EROFS);
	expect("W_OK on a device", access_at("/dev/null", LINUX_W_OK, 0), 0);
	expect("X_OK on a program", access_at("/bin/sh", LINUX_X_OK, 0), 0);
	expect("X_OK on a directory", access_at("/etc", LINUX_X_OK, 0), 0);
	expect_error("X_OK without an x bit EACCES", access_at("/tmp/t/a", LINUX_X_OK, 0),
	             LINUX_EACCES);
	expect_error("faccessat2 bad mode EINVAL", access_at("/tmp/t/a", 8, 0), LINUX_EINVAL);
	expect_error("faccessat2 bad flags EINVAL", access_at("/tmp/t/a", 0, 1), LINUX_EINVAL);
	expect_error("faccessat2 follows a loop ELOOP", access_at("/etc/loop", 0, 0), LINUX_ELOOP);
	expect("faccessat2 AT_SYMLINK_NOFOLLOW sees the link",
	       access_at("/etc/loop", 0, LINUX_AT_SYMLINK_NOFOLLOW), 0);

	expect("fchmodat", syscall3(SYS_fchmodat, LINUX_AT_FDCWD, (long)"/tmp/t/a", 0751), 0);
	struct linux_stat status;
	stat_at("/tmp/t/a", &status, 0);
	expect("fchmodat sets the bits", status.mode, LINUX_S_IFREG | 0751);
	expect("X_OK after chmod", access_at("/tmp/t/a", LINUX_X_OK, 0), 0);
	long fd = open_at("/tmp/t/a", LINUX_O_RDONLY, 0);
	expect("fchmod", syscall2(SYS_fchmod, fd, 0640), 0);
	syscall2(SYS_fstat, fd, (long)&status);
	expect("fchmod sets the bits", status.mode, LINUX_S_IFREG | 0640);
	syscall2(SYS_fchmod, fd, 0751);
	syscall1(SYS_close, fd);
	fd = open_at("/etc/motd", LINUX_O_RDONLY, 0);
	expect_error("fchmod an archive file EROFS", syscall2(SYS_fchmod, fd, 0600), LINUX_EROFS);
	syscall1(SYS_close, fd);
	expect_error("fchmod bad fd EBADF", syscall2(SYS_fchmod, 99, 0600), LINUX_EBADF);
	expect_error("fchmodat on the archive EROFS",
	             syscall3(SYS_fchmodat, LINUX_AT_FDCWD, (long)"/etc/motd", 0600), LINUX_EROFS);
	expect_error("fchmodat missing ENOENT",
	             syscall3(SYS_fchmodat, LINUX_AT_FDCWD, (long)"/tmp/t/none", 0600),
	             LINUX_ENOENT);

	long times[4] = {100, 5, 200, 6};
	expect("utimensat sets both times",
	       syscall4(SYS_utimensat, LINUX_AT_FDCWD, (long)"/tmp/t/a", (long)times, 0), 0);
	stat_at("/tmp/t/a", &status, 0);
	check(status.times[0] == 100 && status.times[1] == 5 && status.times[2] == 200 &&
	          status.times[3] == 6,
	      "stat shows them", "atime %ld.%ld mtime %ld.%ld", (long)status.times[0],
	      (long)status.times[1], (long)status.times[2], (long)status.times[3]);
	long omit_now[4] = {0, LINUX_UTIME_OMIT, 0, LINUX_UTIME_NOW};
	syscall4(SYS_utimensat, LINUX_AT_FDCWD, (long)"/tmp/t/a", (long)omit_now, 0);
	stat_at("/tmp/t/a", &status, 0);
	check(status.times[0] == 100 && status.times[2] * 1000000000l + status.times[3] > 200,
	      "UTIME_OMIT keeps, UTIME_NOW sets", "atime %ld mtime %ld", (long)status.times[0],
	      (long)status.times[2]);
	fd = open_at("/tmp/t/a", LINUX_O_RDONLY, 0);
	expect("futimens (NULL path)", syscall4(SYS_utimensat, fd, 0, (long)times, 0), 0);
	syscall1(SYS_close, fd);
	stat_at("/tmp/t/a", &status, 0);
	expect("futimens set the time", (long)status.times[2], 200);
	long bad[4] = {0, 1000000000, 0, 0};
	expect_error("utimensat bad nanoseconds EINVAL",
	             syscall4(SYS_utimensat, LINUX_AT_FDCWD, (long)"/tmp/t/a", (long)bad, 0),
	             LINUX_EINVAL);
	expect_error("utimensat on the archive EROFS",
	             syscall4(SYS_utimensat, LINUX_AT_FDCWD, (long)"/etc/motd", 0, 0), LINUX_EROFS);
	expect_error("utimensat bad times pointer EFAULT",
	             syscall4(SYS_utimensat, LINUX_AT_FDCWD, (long)"/tmp/t/a", UNMAPPED_ADDRESS, 0),
	             LINUX_EFAULT);
}

static void test_working_directory(void)
{
	expect_cwd("getcwd starts at /", "/");
	expect("chdir /tmp/t", syscall1(SYS_chdir, (long)"/tmp/t"), 0);
	expect_cwd("getcwd after chdir", "/tmp/t");
	expect_content("a relative open starts at the cwd", "a", "a");
	expect("a relative mkdirat", syscall3(SYS_mkdirat, LINUX_AT_FDCWD, (long)"rel", 0755), 0);
	struct linux_stat status;
	expect("it is where the cwd is", stat_at("/tmp/t/rel", &status, 0), 0);
	expect("a relative unlinkat", remove_name("rel", LINUX_AT_REMOVEDIR), 0);
	expect("chdir ..", syscall1(SYS_chdir, (long)".."), 0);
	expect_cwd("getcwd after chdir ..", "/tmp");
	expect_error("chdir to a file ENOTDIR", syscall1(SYS_chdir, (long)"t/a"), LINUX_ENOTDIR);
	expect_error("chdir to a missing name ENOENT", syscall1(SYS_chdir, (long)"none"),
	             LINUX_ENOENT);
	expect_error("chdir bad pointer EFAULT", syscall1(SYS_chdir, UNMAPPED_ADDRESS),
	             LINUX_EFAULT);
	char small[4];
	expect_error("getcwd too small ERANGE", current_directory(small, sizeof small),
	             LINUX_ERANGE);
	expect_error("getcwd size 0 ERANGE", current_directory(small, 0), LINUX_ERANGE);
	expect_error("getcwd bad buffer EFAULT", syscall2(SYS_getcwd, UNMAPPED_ADDRESS, 64),
	             LINUX_EFAULT);
	long etc = open_at("/etc", LINUX_O_RDONLY | LINUX_O_DIRECTORY, 0);
	expect("fchdir to /etc", syscall1(SYS_fchdir, etc), 0);
	expect_cwd("getcwd after fchdir", "/etc");
	syscall1(SYS_close, etc);
	long file = open_at("/etc/motd", LINUX_O_RDONLY, 0);
	expect_error("fchdir to a file ENOTDIR", syscall1(SYS_fchdir, file), LINUX_ENOTDIR);
	syscall1(SYS_close, file);
	expect_error("fchdir bad fd EBADF", syscall1(SYS_fchdir, 99), LINUX_EBADF);

	syscall1(SYS_chdir, (long)"/tmp/t");
	char *child[] = {SELF, "child-cwd", "/tmp/t", 0};
	expect("a spawned child starts in its parent's cwd", run(child), 0);
	syscall1(SYS_chdir, (long)"/bin");
	char *relative[] = {"true", 0};
	expect("spawn resolves a relative program from the cwd", run(relative), 0);
	syscall1(SYS_chdir, (long)"/");
}

static void test_symlinks(void)
{
	char target[64] = {0};
	expect("readlinkat an archive link",
	       syscall4(SYS_readlinkat, LINUX_AT_FDCWD, (long)"/etc/motd-link", (long)target,
	                sizeof target),
	       9);
	check(memcmp(target, "/etc/motd", 9) == 0, "readlinkat gives the target", "\"%s\"", target);
	expect("readlinkat cuts at the buffer",
	       syscall4(SYS_readlinkat, LINUX_AT_FDCWD, (long)"/etc/motd-link", (long)target, 4),
	       4);
	expect_error("readlinkat of a file EINVAL",
	             syscall4(SYS_readlinkat, LINUX_AT_FDCWD, (long)"/etc/motd", (long)target, 64),
	             LINUX_EINVAL);
	char motd[256], through_link[256];
	long direct = read_file("/etc/motd", motd, sizeof motd);
	long linked = read_file("/etc/motd-link", through_link, sizeof through_link);
	check(direct > 0 && linked == direct && strcmp(motd, through_link) == 0,
	      "open follows an absolute link", "direct %ld, through the link %ld", direct, linked);
	expect_error("a link to itself ELOOP", open_at("/etc/loop", LINUX_O_RDONLY, 0),
	             LINUX_ELOOP);
	expect_error("O_NOFOLLOW of a link ELOOP",
	             open_at("/etc/motd-link", LINUX_O_RDONLY | LINUX_O_NOFOLLOW, 0), LINUX_ELOOP);
	struct linux_stat status;
	stat_at("/etc/motd-link", &status, LINUX_AT_SYMLINK_NOFOLLOW);
	check((status.mode & LINUX_S_IFMT) == LINUX_S_IFLNK && status.size == 9,
	      "newfstatat AT_SYMLINK_NOFOLLOW stats the link", "mode %o size %ld", status.mode,
	      (long)status.size);
	stat_at("/etc/motd-link", &status, 0);
	expect("newfstatat follows it otherwise", status.mode & LINUX_S_IFMT, LINUX_S_IFREG);
	char *hello[] = {"/etc/hello-link", 0};
	expect("spawn through a relative link (an applet name)", run(hello), 0);

	expect("symlinkat on tmpfs",
	       syscall3(SYS_symlinkat, (long)"a", LINUX_AT_FDCWD, (long)"/tmp/t/la"), 0);
	expect_content("a tmpfs link is followed", "/tmp/t/la", "a");
	expect("readlinkat a tmpfs link",
	       syscall4(SYS_readlinkat, LINUX_AT_FDCWD, (long)"/tmp/t/la", (long)target, 64), 1);
	expect_error("symlinkat over a name EEXIST",
	             syscall3(SYS_symlinkat, (long)"a", LINUX_AT_FDCWD, (long)"/tmp/t/la"),
	             LINUX_EEXIST);
	expect_error("symlinkat on the archive EROFS",
	             syscall3(SYS_symlinkat, (long)"a", LINUX_AT_FDCWD, (long)"/etc/la"),
	             LINUX_EROFS);
	expect_error("symlinkat empty target ENOENT",
	             syscall3(SYS_symlinkat, (long)"", LINUX_AT_FDCWD, (long)"/tmp/t/le"),
	             LINUX_ENOENT);
	int entries;
	expect("getdents64 types a tmpfs link", lists("/tmp/t", "la", LINUX_DT_LNK, &entries), 1);
	expect("O_CREAT|O_EXCL of a link EEXIST",
	       open_at("/tmp/t/la", LINUX_O_WRONLY | LINUX_O_CREAT | LINUX_O_EXCL, 0644),
	       -LINUX_EEXIST);
	expect("a link to a directory",
	       syscall3(SYS_symlinkat, (long)"/tmp/t", LINUX_AT_FDCWD, (long)"/tmp/dl"), 0);
	expect_content("a path goes through it", "/tmp/dl/a", "a");
	syscall1(SYS_chdir, (long)"/tmp/dl/sub/..");
	expect_cwd("chdir through it lands in the target", "/tmp/t");
	syscall1(SYS_chdir, (long)"/");
	expect("unlinkat removes the link", remove_name("/tmp/dl", 0), 0);
	expect("not what it points at", stat_at("/tmp/t", &status, 0), 0);
	expect("a dangling link",
	       syscall3(SYS_symlinkat, (long)"new", LINUX_AT_FDCWD, (long)"/tmp/t/dang"), 0);
	long fd = open_at("/tmp/t/dang", LINUX_O_WRONLY | LINUX_O_CREAT, 0644);
	syscall1(SYS_close, fd);
	expect("O_CREAT through a dangling link makes its target",
	       stat_at("/tmp/t/new", &status, 0), 0);
}

/* One churning child: in its own directory, CHURN_ROUNDS times make a file, write it,
 * rename it, make and remove a directory, and remove the file. */
#define CHURN_ROUNDS 100
static int churn(const char *directory)
{
	char file[64], moved[64], sub[64];
	snprintf(file, sizeof file, "%s/f", directory);
	snprintf(moved, sizeof moved, "%s/g", directory);
	snprintf(sub, sizeof sub, "%s/d", directory);
	if (make_directory(directory) != 0)
		return 1;
	for (int i = 0; i < CHURN_ROUNDS; i++) {
		if (write_file(file, "churn churn churn") != 0 || rename_to(file, moved, 0) != 0 ||
		    make_directory(sub) != 0 || remove_name(sub, LINUX_AT_REMOVEDIR) != 0 ||
		    remove_name(moved, 0) != 0)
			return 2;
	}
	return remove_name(directory, LINUX_AT_REMOVEDIR) == 0 ? 0 : 3;
}

/* Four churning children at once: every one succeeds and leaves nothing behind. */
static void test_concurrent_churn(void)
{
	long pids[APPENDERS];
	char directories[APPENDERS][16];
	for (int i = 0; i < APPENDERS; i++) {
		snprintf(directories[i], sizeof directories[i], "/tmp/c%d", i);
		char *argv[] = {SELF, "child-churn", directories[i], 0};
		char *envp[] = {0};
		pids[i] = syscall3(SYS_spawn, (long)SELF, (long)argv, (long)envp);
	}
	int ok = 0;
	for (int i = 0; i < APPENDERS; i++) {
		int status = -1;
		if (pids[i] > 0 && syscall4(SYS_wait4, pids[i], (long)&status, 0, 0) == pids[i] &&
		    status == 0)
			ok++;
	}
	expect("four churning children succeeded", ok, APPENDERS);
	int gone = 0;
	for (int i = 0; i < APPENDERS; i++) {
		struct linux_stat status;
		gone += stat_at(directories[i], &status, 0) == -LINUX_ENOENT;
	}
	expect("they left nothing behind", gone, APPENDERS);
}

/* Copy `from` to `to` (created 0755): 0 or -errno. */
static long copy_file(const char *from, const char *to)
{
	static char buffer[4096];
	long in = open_at(from, LINUX_O_RDONLY, 0);
	long out = open_at(to, LINUX_O_WRONLY | LINUX_O_CREAT | LINUX_O_TRUNC, 0755);
	long got, result = in < 0 ? in : out;
	while (result >= 0 && (got = syscall3(SYS_read, in, (long)buffer, sizeof buffer)) > 0)
		result = syscall3(SYS_write, out, (long)buffer, got) == got ? 0 : -1;
	syscall1(SYS_close, in);
	syscall1(SYS_close, out);
	return result < 0 ? result : 0;
}

/* A program copied onto tmpfs runs from there; the copy the loader needs is given back. */
static void test_programs_on_tmpfs(void)
{
	expect("copy /bin/true to tmpfs", copy_file("/bin/true", "/tmp/t/true"), 0);
	char *argv[] = {"/tmp/t/true", 0};
	expect("spawn a program from tmpfs", run(argv), 0);
	long before = free_pages();
	run(argv);
	expect("its loading copy is freed", free_pages(), before);
	write_file("/tmp/t/text", "not a program\n");
	char *text[] = {"/tmp/t/text", 0};
	/* Linux's execve: no x bit EACCES (fs/exec.c may_open), an x bit but no program
	 * ENOEXEC. */
	expect_error("spawn a text file without an x bit EACCES", run(text), LINUX_EACCES);
	syscall3(SYS_fchmodat, LINUX_AT_FDCWD, (long)"/tmp/t/text", 0755);
	expect_error("spawn an executable text file ENOEXEC", run(text), 8);
	char *directory[] = {"/tmp/t", 0};
	expect_error("spawn a directory EACCES", run(directory), LINUX_EACCES);
	remove_name("/tmp/t/true", 0);
	remove_name("/tmp/t/text", 0);
}

/* Remove what the checks made, so pages can be counted afterwards. */
static void clean_up(void)
{
	static const char *const files[] = {"/tmp/t/a",  "/tmp/t/r2",   "/tmp/t/sub/inner",
	                                    "/tmp/t/la", "/tmp/t/dang", "/tmp/t/new"};
	for (unsigned i = 0; i < sizeof files / sizeof files[0]; i++)
		remove_name(files[i], 0);
	remove_name("/tmp/t/sub", LINUX_AT_REMOVEDIR);
	remove_name("/tmp/t/d2", LINUX_AT_REMOVEDIR);
	expect("everything removed", remove_name("/tmp/t", LINUX_AT_REMOVEDIR), 0);
}

/* ------------------------------------------------------------------ a full tmpfs */

/* Write 4 KiB pieces into `path` until a write fails: the pieces written, *error the
 * failing write's result. */
static long fill(const char *path, long *error)
{
	static char piece[PAGE_SIZE];
	memset(piece, 'f', sizeof piece);
	long fd = open_at(path, LINUX_O_WRONLY | LINUX_O_CREAT | LINUX_O_TRUNC, 0644);
	if (fd < 0) {
		*error = fd;
		return 0;
	}
	long pieces = 0;
	for (;;) {
		long wrote = syscall3(SYS_write, fd, (long)piece, sizeof piece);
		if (wrote != (long)sizeof piece) {
			*error = wrote;
			break;
		}
		pieces++;
	}
	syscall1(SYS_close, fd);
	return pieces;
}

static void test_full(void)
{
	long error;
	long warm = fill("/tmp/big", &error);
	remove_name("/tmp/big", 0); /* the first round grows the kernel heap once */
	long before = free_pages();
	long pieces = fill("/tmp/big", &error);
	long during = free_pages();
	expect_error("a full tmpfs ENOSPC", error, LINUX_ENOSPC);
	check(pieces > 32 && pieces < 64 && pieces == warm, "the budget holds 32..63 pages of data",
	      "%ld pieces (first round %ld)", pieces, warm);
	check(before - during >= pieces, "the data took pages", "before %ld during %ld", before,
	      during);
	long fd = open_at("/tmp/other", LINUX_O_WRONLY | LINUX_O_CREAT, 0644);
	expect_error("another file's first byte ENOSPC", syscall3(SYS_write, fd, (long)"x", 1),
	             LINUX_ENOSPC);
	syscall1(SYS_close, fd);
	remove_name("/tmp/other", 0);
	expect("unlinkat the full file", remove_name("/tmp/big", 0), 0);
	expect("its pages are back", free_pages(), before);

	long made = 0;
	char name[32];
	for (;; made++) {
		snprintf(name, sizeof name, "/tmp/d%ld", made);
		error = make_directory(name);
		if (error)
			break;
	}
	expect_error("directories until ENOSPC", error, LINUX_ENOSPC);
	for (long i = 0; i < made; i++) {
		snprintf(name, sizeof name, "/tmp/d%ld", i);
		remove_name(name, LINUX_AT_REMOVEDIR);
	}
	check(made > 100, "the budget counts directories too", "%ld made", made);
	expect("tmpfs is usable again", write_file("/tmp/again", "ok"), 0);
	remove_name("/tmp/again", 0);
	test_concurrent_churn();
	expect("after four churning processes the budget holds as much", fill("/tmp/big", &error),
	       pieces);
	remove_name("/tmp/big", 0);
	/* Counted again: the directories grew the kernel heap, which keeps its pages. The
	 * churning children are reaped, so their last pages (the kernel stack a child gives
	 * back on another hart after its exit) are back: a loaded 4-hart run once counted 4
	 * pages fewer here than after the close, when wait4 reported a child earlier. */
	before = free_pages();
	long after_open = open_at("/tmp/held", LINUX_O_RDWR | LINUX_O_CREAT, 0644);
	fill("/tmp/held", &error);
	long held = free_pages();
	remove_name("/tmp/held", 0);
	expect("an unlinked open file keeps its pages", free_pages(), held);
	syscall1(SYS_close, after_open);
	expect("the last close returns them", free_pages(), before);
}

/* With tmpfs.pages=0 nothing fits, and nothing breaks. */
static void test_no_budget(void)
{
	expect_error("no budget: mkdirat ENOSPC", make_directory("/tmp/x"), LINUX_ENOSPC);
	expect_error("no budget: O_CREAT ENOSPC",
	             open_at("/tmp/x", LINUX_O_WRONLY | LINUX_O_CREAT, 0644), LINUX_ENOSPC);
	int entries;
	long found = lists("/tmp", "x", LINUX_DT_REG, &entries);
	check(found == 0 && entries == 2, "no budget: /tmp stays empty (. and ..)",
	      "found %ld entries %d", found, entries);
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "child-cwd") == 0) {
		char buffer[256];
		long got = current_directory(buffer, sizeof buffer);
		return got > 0 && strcmp(buffer, argv[2]) == 0 ? 0 : 1;
	}
	if (argc == 3 && strcmp(argv[1], "child-churn") == 0)
		return churn(argv[2]);
	if (argc == 4 && strcmp(argv[1], "child-append") == 0)
		return append_records(argv[2], argv[3]);
	if (argc == 2 && strcmp(argv[1], "full") == 0) {
		test_full();
	} else if (argc == 2 && strcmp(argv[1], "empty") == 0) {
		test_no_budget();
	} else {
		test_create_read_write();
		test_name_errors();
		test_listing();
		test_unlink();
		test_rename();
		test_concurrent_appends();
		test_concurrent_churn();
		test_access_mode_times();
		test_working_directory();
		test_symlinks();
		test_programs_on_tmpfs();
		clean_up();
	}
	printf("test_fs: %d passed, %d failed\n", passed, failed);
	return failed == 0 ? 0 : 1;
}
