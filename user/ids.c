/* ids: print this process's ids and its terminal's foreground group, one line:
 *
 *   ids pid 7 pgid 7 sid 1 foreground 7 parent 2 parent-pgid 2
 *
 * A job-control check at the shell's prompt (tests/test_sh_jobs.py): run in the
 * foreground, a job leads a group of its own (pgid == pid), other than its shell's
 * (parent-pgid), and that group has the terminal (foreground); run with &, the
 * foreground stays the shell's group. foreground is that of the first of descriptors 0,
 * 1 and 2 that is a terminal (0 may be a pipe), -1 if none is. */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	pid_t parent = getppid(), foreground = -1;
	for (int fd = 0; fd < 3 && foreground < 0; fd++)
		foreground = tcgetpgrp(fd);
	printf("ids pid %d pgid %d sid %d foreground %d parent %d parent-pgid %d\n", (int)getpid(),
	       (int)getpgrp(), (int)getsid(0), (int)foreground, (int)parent, (int)getpgid(parent));
	return 0;
}
