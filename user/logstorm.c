/* logstorm: kernel log lines while the console is flooded, for tests/test_log.py.
 *
 *   logstorm FLOODERS BYTES FAULTERS   parent: starts FLOODERS flooders that each write
 *                                      BYTES bytes of text in 4096-byte writes, lets
 *                                      them fill the console, then starts FAULTERS
 *                                      faulters one after another (each killed by
 *                                      SIGSEGV, which the kernel reports in its log)
 *                                      while the flood goes on; waits for everyone
 *                                      and prints
 *                                      "LOGSTORM faulters=N killed=K flooders=F ok=G"
 *   logstorm -f ID BYTES               one flooder
 *   logstorm -s                        one faulter: loads from address 0 at once,
 *                                      without writing first (a write would wait
 *                                      behind the flood, and so would the fault)
 *
 * Exits 0 when every faulter died of SIGSEGV and every flooder wrote everything. The
 * kill reports themselves are the kernel's: the host counts them on the wire. */
#include <duplex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_CHILDREN 16
#define PIECE        4096
#define SETTLE_NS    2000000 /* let the flooders queue output before the first fault */

static char *const no_env[] = {0};

/* One flooder: BYTES bytes of "<ID:offset> ..." lines, one 4096-byte write at a time. */
static int flood(int id, long bytes)
{
	static char piece[PIECE];
	for (long done = 0; done < bytes; done += PIECE) {
		int length = snprintf(piece, sizeof piece, "<flood %d:%ld>", id, done);
		memset(piece + length, 'f', sizeof piece - (size_t)length - 1);
		piece[sizeof piece - 1] = '\n';
		if (write(1, piece, sizeof piece) != (ssize_t)sizeof piece)
			return 1;
	}
	return 0;
}

static pid_t start(char *const argv[])
{
	pid_t pid = spawn(argv[0], argv, no_env);
	if (pid < 0)
		fprintf(stderr, "logstorm: cannot start %s\n", argv[0]);
	return pid;
}

/* Page 0 is never mapped: the kernel kills us with SIGSEGV. */
static int fault(void)
{
	return (int)*(volatile long *)0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "-s") == 0)
		return fault();
	if (argc == 4 && strcmp(argv[1], "-f") == 0)
		return flood(atoi(argv[2]), atol(argv[3]));
	if (argc != 4) {
		fprintf(stderr, "usage: logstorm FLOODERS BYTES FAULTERS\n");
		return 2;
	}
	int flooders = atoi(argv[1]), faulters = atoi(argv[3]);
	if (flooders < 0 || faulters < 0 || flooders + faulters > MAX_CHILDREN) {
		fprintf(stderr, "logstorm: at most %d children\n", MAX_CHILDREN);
		return 2;
	}
	pid_t flooder_pids[MAX_CHILDREN];
	for (int i = 0; i < flooders; i++) {
		char id[12];
		snprintf(id, sizeof id, "%d", i);
		char *flood_argv[] = {"/bin/logstorm", "-f", id, argv[2], 0};
		flooder_pids[i] = start(flood_argv);
	}
	struct timespec settle = {0, SETTLE_NS};
	nanosleep(&settle, 0);
	int killed = 0;
	for (int i = 0; i < faulters; i++) {
		char *fault_argv[] = {"/bin/logstorm", "-s", 0};
		pid_t pid = start(fault_argv);
		int status = 0;
		if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) &&
		    WTERMSIG(status) == SIGSEGV)
			killed++;
	}
	int ok = 0;
	for (int i = 0; i < flooders; i++) {
		int status = 0;
		if (flooder_pids[i] > 0 &&
		    waitpid(flooder_pids[i], &status, 0) == flooder_pids[i] && WIFEXITED(status) &&
		    WEXITSTATUS(status) == 0)
			ok++;
	}
	printf("LOGSTORM faulters=%d killed=%d flooders=%d ok=%d\n", faulters, killed, flooders,
	       ok);
	return killed == faulters && ok == flooders ? 0 : 1;
}
