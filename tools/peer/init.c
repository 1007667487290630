/* /init of the Linux peer's initramfs (tools/linux-peer.sh, `make peer`): runs the
 * benchmark binary Duplex runs, /bin/glibc/bench, with the words after `--` on the
 * kernel command line, says how it ended, and powers the machine off so that QEMU exits,
 * as Duplex does when its first program ends. Built with Debian's riscv64 glibc, static;
 * runs only on Linux (it is never packed into Duplex's archive).
 *
 * Linux hands init the command line's words after `--` as argv[1..] (init/main.c,
 * run_init_process), and its stdin/stdout/stderr are /dev/console, which the initramfs
 * provides as a device node. */
#include <stdio.h>
#include <sys/reboot.h>
#include <sys/wait.h>
#include <unistd.h>

#define BENCH "/bin/glibc/bench"

int main(int argc, char **argv)
{
	(void)argc;
	pid_t pid = fork();
	if (pid == 0) {
		argv[0] = BENCH;
		execv(BENCH, argv);
		perror("peer init: " BENCH);
		_exit(127);
	}
	int status = 0;
	if (pid < 0)
		perror("peer init: fork");
	else if (waitpid(pid, &status, 0) < 0)
		perror("peer init: waitpid");
	else if (WIFEXITED(status))
		printf("peer init: " BENCH " exited with status %d\n", WEXITSTATUS(status));
	else
		printf("peer init: " BENCH " killed by signal %d\n", WTERMSIG(status));
	fflush(stdout);
	sync();
	/* Linux's power-off on QEMU virt is the syscon-poweroff node over its test device;
	 * QEMU then exits with status 0. */
	reboot(RB_POWER_OFF);
	return 1;
}
