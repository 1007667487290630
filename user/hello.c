/* hello: the smallest C program, "hello, world" through printf. Built with picolibc and
 * with glibc (/bin/glibc/hello), the first thing to try with a new C library. */
#include <stdio.h>

int main(void)
{
	printf("hello, world\n");
	return 0;
}
