/* From the kernel's initial stack to main() and back out through exit(). */
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"

const unsigned long *libc_auxv;

int main(int argc, char **argv, char **envp);

/* picolibc: run the constructors in .preinit_array and .init_array. */
void __libc_init_array(void);

void libc_start(long *stack) __attribute__((noreturn));

/* Called by _start (crt0.S) with the initial stack pointer: find argc, argv, envp and
 * the auxiliary vector, run constructors, call main and exit with its result. exit()
 * runs the destructors, which flush stdio (libc/stdio.c). */
void libc_start(long *stack)
{
	int argc = (int)stack[0];
	char **argv = (char **)&stack[1];
	char **envp = argv + argc + 1;
	char **scan = envp;

	while (*scan != NULL)
		scan++;
	libc_auxv = (const unsigned long *)(scan + 1);
	environ = envp;

	__libc_init_array();
	exit(main(argc, argv, envp));
}
