/* trace= on the command line and /bin/trace's -e: class names to a mask, in the style
 * of kernel/cmdline/ (pure code, no locks, no allocation, any context). */
#include "kernel/trace/trace.h"

#include "kernel/lib/string.h"

static const struct {
	const char *name;
	uint32_t mask;
} classes[] = {
    {"console", TRACE_CONSOLE},
    {"sched", TRACE_SCHED},
    {"irq", TRACE_IRQ},
    {"syscall", TRACE_SYSCALL},
    {"wire", TRACE_WIRE},
    {"all", TRACE_ALL},
    {"off", 0},
};

/* The class named by the `length` bytes at `word`; false if there is none. */
static bool class_named(const char *word, size_t length, uint32_t *mask)
{
	for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++) {
		if (strlen(classes[i].name) == length &&
		    strncmp(classes[i].name, word, length) == 0) {
			*mask = classes[i].mask;
			return true;
		}
	}
	return false;
}

bool trace_parse_classes(const char *text, uint32_t *mask, const char **bad)
{
	*mask = 0;
	while (*text) {
		size_t length = 0;
		while (text[length] && text[length] != ',')
			length++;
		uint32_t bits;
		if (length && !class_named(text, length, &bits)) {
			*bad = text;
			*mask = 0;
			return false;
		}
		if (length)
			*mask |= bits;
		text += length;
		if (*text == ',')
			text++;
	}
	return true;
}
