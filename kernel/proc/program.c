/* The program loader behind spawn and execve; see program.h. */
#include "kernel/proc/program.h"

#include <stdbool.h>

#include "kernel/fs/file_system.h"
#include "kernel/hart/isa.h"
#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/layout.h"
#include "kernel/mm/page_pool.h"
#include "kernel/proc/elf.h"
#include "kernel/proc/process.h"
#include "kernel/random/random.h"

/* Auxiliary-vector types (Linux include/uapi/linux/auxvec.h). */
#define AT_NULL    0
#define AT_PHDR    3
#define AT_PHENT   4
#define AT_PHNUM   5
#define AT_PAGESZ  6
#define AT_ENTRY   9
#define AT_UID     11
#define AT_EUID    12
#define AT_GID     13
#define AT_EGID    14
#define AT_HWCAP   16
#define AT_CLKTCK  17
#define AT_SECURE  23
#define AT_RANDOM  25
#define AUXV_PAIRS 14 /* the pairs build_stack writes, AT_NULL included */
/* sysconf(_SC_CLK_TCK): the unit of times() and /proc on Linux (USER_HZ). */
#define USER_HZ 100

/* Linux fs/binfmt_script.c reads the first BINPRM_BUF_SIZE (256) bytes for the `#!`
 * line, and fs/exec.c gives up after 5 levels of interpreters (ELOOP); a script's
 * interpreter here may itself be a script up to that depth too. */
#define SCRIPT_LINE_MAX   256
#define SCRIPT_DEPTH_MAX  5

/* Lay out argc, argv, envp and auxv on the new stack (RISC-V psABI / Linux): returns
 * the stack pointer, or 0 on -E2BIG/-ENOMEM (*error set). */
static uint64_t build_stack(struct address_space *space, const struct elf_image *image,
                            char *const argv[], char *const envp[], int *error)
{
	int argc = 0, envc = 0;
	size_t strings = 0;
	while (argv && argv[argc]) {
		strings += strlen(argv[argc]) + 1;
		if (++argc > PROCESS_MAX_ARGS)
			break;
	}
	while (envp && envp[envc]) {
		strings += strlen(envp[envc]) + 1;
		if (++envc > PROCESS_MAX_ARGS)
			break;
	}
	if (argc > PROCESS_MAX_ARGS || envc > PROCESS_MAX_ARGS || strings > PROCESS_ARGS_SIZE) {
		*error = -E2BIG;
		return 0;
	}
	size_t words = 1 + (size_t)argc + 1 + (size_t)envc + 1 + 2 * AUXV_PAIRS;
	uint64_t strings_at = USER_STACK_TOP - strings;
	uint64_t random_at = (strings_at - 16) & ~15ull;
	uint64_t sp = (random_at - words * 8) & ~15ull;

	uint64_t *table = kmalloc(words * 8);
	if (!table) {
		*error = -ENOMEM;
		return 0;
	}
	size_t w = 0;
	uint64_t cursor = strings_at;
	table[w++] = (uint64_t)argc;
	char *const *lists[2] = {argv, envp};
	int counts[2] = {argc, envc};
	for (int list = 0; list < 2; list++) {
		for (int i = 0; i < counts[list]; i++) {
			size_t length = strlen(lists[list][i]) + 1;
			table[w++] = cursor;
			address_space_load(space, cursor, lists[list][i], length);
			cursor += length;
		}
		table[w++] = 0;
	}
	/* Every program runs as root (uid 0) and nothing is set-uid: AT_SECURE 0. */
	const uint64_t auxv[AUXV_PAIRS][2] = {
	    {AT_PHDR, image->program_headers},
	    {AT_PHENT, image->program_header_size},
	    {AT_PHNUM, image->program_header_count},
	    {AT_PAGESZ, PAGE_SIZE},
	    {AT_ENTRY, image->entry},
	    {AT_UID, 0},
	    {AT_EUID, 0},
	    {AT_GID, 0},
	    {AT_EGID, 0},
	    {AT_HWCAP, isa_hwcap()},
	    {AT_CLKTCK, USER_HZ},
	    {AT_SECURE, 0},
	    {AT_RANDOM, random_at},
	    {AT_NULL, 0},
	};
	memcpy(&table[w], auxv, sizeof auxv);
	uint8_t random[16];
	random_bytes(random, sizeof random);
	address_space_load(space, random_at, random, sizeof random);
	address_space_load(space, sp, table, words * 8);
	kfree(table);
	return sp;
}

/* Find the file execve would run, on any file system, relative to `base` (the caller's
 * working directory): Linux's errno values for the path (ENOENT, ENOTDIR, ELOOP), EACCES
 * for a directory, a device or a file without an execute bit (fs/exec.c do_open_execat,
 * may_open). On success the caller releases *file with fs_program_release. */
static int find_executable(const char *base, const char *path, struct fs_program *file)
{
	int error = fs_access(base, path, FS_ACCESS_EXECUTE, true);
	return error ? error : fs_program(base, path, file);
}

/* A `#!` line, as Linux's load_script reads it: the interpreter path and at most one
 * optional argument (the rest of the line, spaces inside kept, trailing ones dropped). */
struct script_line {
	char text[SCRIPT_LINE_MAX + 1];
	char *interpreter;
	char *argument; /* NULL when there is none */
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Parse the start of `file` as a `#!` line. Returns 1 (a script, *line filled), 0 (not
 * a script), or -ENOEXEC (a `#!` line without an interpreter, or one that does not fit
 * in SCRIPT_LINE_MAX bytes: Linux refuses a truncated interpreter name too). */
static int parse_script_line(const struct fs_program *file, struct script_line *line)
{
	if (file->size < 2 || file->data[0] != '#' || file->data[1] != '!')
		return 0;
	size_t size = file->size < SCRIPT_LINE_MAX ? (size_t)file->size : SCRIPT_LINE_MAX;
	size_t end = 2;
	while (end < size && file->data[end] != '\n')
		end++;
	if (end == size && size < file->size)
		return -ENOEXEC;
	memcpy(line->text, file->data + 2, end - 2);
	char *text = line->text;
	char *stop = text + (end - 2);
	*stop = 0;
	while (stop > text && (is_blank(stop[-1]) || stop[-1] == '\r'))
		*--stop = 0;
	while (is_blank(*text))
		text++;
	if (!*text)
		return -ENOEXEC;
	line->interpreter = text;
	while (*text && !is_blank(*text))
		text++;
	line->argument = 0;
	if (*text) {
		*text++ = 0;
		while (is_blank(*text))
			text++;
		if (*text)
			line->argument = text;
	}
	return 1;
}

/* Load the ELF program `file` into program->space (created here). */
static int load_elf(const struct fs_program *file, char *const argv[], char *const envp[],
                    struct program *program)
{
	int error = elf_check(file->data, file->size);
	if (error)
		return error;
	if (!address_space_create(&program->space))
		return -ENOMEM;
	struct elf_image image;
	error = elf_load(&program->space, file->data, file->size, &image);
	/* One unmapped guard page stays below the stack and one above it. */
	if (!error && !address_space_map(&program->space, USER_STACK_TOP - USER_STACK_SIZE,
	                                 USER_STACK_SIZE, USER_READ | USER_WRITE))
		error = -ENOMEM;
	if (!error) {
		program->entry = image.entry;
		program->stack_pointer = build_stack(&program->space, &image, argv, envp, &error);
	}
	if (error)
		address_space_destroy(&program->space);
	return error;
}

static int load(const char *base, const char *path, char *const argv[], char *const envp[],
                struct program *program, int depth);

/* Run script `file` (at `path`) by its interpreter: argv becomes interpreter, [argument],
 * path, argv[1...] (Linux load_script: the script's own argv[0] is replaced by its path). */
static int load_script(const char *base, const char *path, const struct script_line *line,
                       char *const argv[], char *const envp[], struct program *program,
                       int depth)
{
	int argc = 0;
	while (argv && argv[argc] && argc <= PROCESS_MAX_ARGS)
		argc++;
	if (argc > PROCESS_MAX_ARGS)
		return -E2BIG;
	char **new_argv = kmalloc(sizeof(char *) * (size_t)(argc + 4));
	if (!new_argv)
		return -ENOMEM;
	int n = 0;
	new_argv[n++] = line->interpreter;
	if (line->argument)
		new_argv[n++] = line->argument;
	new_argv[n++] = (char *)path;
	for (int i = 1; i < argc; i++)
		new_argv[n++] = argv[i];
	new_argv[n] = 0;
	int error = load(base, line->interpreter, new_argv, envp, program, depth + 1);
	kfree(new_argv);
	return error;
}

static int load(const char *base, const char *path, char *const argv[], char *const envp[],
                struct program *program, int depth)
{
	if (depth > SCRIPT_DEPTH_MAX)
		return -ELOOP;
	struct fs_program file;
	int error = find_executable(base, path, &file);
	if (error)
		return error;
	struct script_line *line = kmalloc(sizeof *line);
	if (!line) {
		fs_program_release(&file);
		return -ENOMEM;
	}
	int script = parse_script_line(&file, line);
	if (script > 0) {
		fs_program_release(&file); /* the line is copied; the interpreter is loaded next */
		error = load_script(base, path, line, argv, envp, program, depth);
	} else {
		error = script < 0 ? script : load_elf(&file, argv, envp, program);
		fs_program_release(&file); /* the loader copied what it needs */
	}
	kfree(line);
	return error;
}

int program_load(const char *base, const char *path, char *const argv[], char *const envp[],
                 struct program *program)
{
	int error = load(base, path, argv, envp, program, 0);
	if (error)
		return error;
	const char *name = path;
	for (const char *c = path; *c; c++) {
		if (*c == '/')
			name = c + 1;
	}
	size_t length = strnlen(name, PROGRAM_NAME_MAX - 1);
	memset(program->name, 0, sizeof program->name);
	memcpy(program->name, name, length);
	return 0;
}
