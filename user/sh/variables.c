/* Shell variables. An exported variable lives in the environment (picolibc's setenv and
 * environ), which programs get at execve; the others live in a small table here. A
 * variable is exported by `export`, or by coming from the environment the shell was
 * started with. `export NAME` of an unset variable marks it, so that its first
 * assignment exports it (as POSIX says). Never sleeps. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sh.h"

#define MAX_VARIABLES 32

/* Unexported variables, and names marked for export while unset (value NULL). */
static struct {
	char *name;
	char *value;
} table[MAX_VARIABLES];

static int find(const char *name)
{
	for (int i = 0; i < MAX_VARIABLES; i++)
		if (table[i].name && strcmp(table[i].name, name) == 0)
			return i;
	return -1;
}

static void forget(int i)
{
	free(table[i].name);
	free(table[i].value);
	table[i].name = table[i].value = NULL;
}

static int out_of_memory(const char *name)
{
	fprintf(stderr, "sh: %s: no room for another variable\n", name);
	return -1;
}

/* Export `name` with `value`, taking it out of the table. */
static int to_environment(const char *name, const char *value)
{
	if (setenv(name, value, 1) != 0)
		return out_of_memory(name);
	int i = find(name);
	if (i >= 0)
		forget(i);
	return 0;
}

/* The value of `name`, or NULL if it is unset. Called by expand.c and builtins.c. */
const char *var_get(const char *name)
{
	int i = find(name);
	return i >= 0 ? table[i].value : getenv(name);
}

/* NAME=VALUE, for a variable already exported or marked: into the environment; else
 * into the table. 0, or -1 after saying there is no room. */
int var_set(const char *name, const char *value)
{
	int i = find(name);
	if (getenv(name) || (i >= 0 && !table[i].value))
		return to_environment(name, value);
	if (i < 0) {
		for (i = 0; i < MAX_VARIABLES && table[i].name; i++)
			continue;
		if (i == MAX_VARIABLES)
			return out_of_memory(name);
		table[i].name = strdup(name);
		if (!table[i].name)
			return out_of_memory(name);
	}
	char *copy = strdup(value);
	if (!copy)
		return out_of_memory(name);
	free(table[i].value);
	table[i].value = copy;
	return 0;
}

/* "NAME=VALUE" (an assignment word, expanded) to var_set. */
int var_assign(const char *assignment)
{
	char name[LINE_SIZE];
	const char *equals = strchr(assignment, '=');
	snprintf(name, sizeof name, "%.*s", (int)(equals - assignment), assignment);
	return var_set(name, equals + 1);
}

/* export NAME=VALUE (value given) or export NAME (value NULL): into the environment, or
 * marked if unset. Called by builtins.c, and by run.c in a child for `NAME=VALUE cmd`. */
int var_export(const char *name, const char *value)
{
	if (!value)
		value = var_get(name);
	if (value)
		return to_environment(name, value);
	if (find(name) >= 0)
		return 0;
	int i = 0;
	while (i < MAX_VARIABLES && table[i].name)
		i++;
	if (i == MAX_VARIABLES || !(table[i].name = strdup(name)))
		return out_of_memory(name);
	return 0;
}

/* unset NAME: from the table and the environment. */
int var_unset(const char *name)
{
	int i = find(name);
	if (i >= 0)
		forget(i);
	unsetenv(name);
	return 0;
}

/* `export` alone: every exported variable as a line that would set it again,
 * export NAME='VALUE' (a ' inside written '\''). */
void var_print_exported(void)
{
	for (char **entry = environ; entry && *entry; entry++) {
		const char *equals = strchr(*entry, '=');
		if (!equals)
			continue;
		printf("export %.*s='", (int)(equals - *entry), *entry);
		for (const char *c = equals + 1; *c; c++)
			fputs(*c == '\'' ? "'\\''" : (char[]){*c, '\0'}, stdout);
		puts("'");
	}
}
