/* fpcheck: the kernel keeps each program's floating-point registers its own
 * (tests/test_glibc.py). Built for the hard-float ABI (rv64imafdc, lp64d; user/user.mk).
 *
 *   fpcheck clean         run `fpcheck fresh` twice, one after the other
 *   fpcheck fresh         pin to hart 0; there f0..f31 and fcsr must be 0 (a new
 *                         program's FPU state); then leave every register and the
 *                         rounding mode set, so that the program after this one would
 *                         see them if the kernel leaked them. Prints "FPCHECK-CLEAN ok"
 *                         or what was not zero.
 *   fpcheck pair ROUNDS   start two `fpcheck hold` children on hart 0 and wait for them
 *   fpcheck hold SEED ROUNDS
 *                         pin to hart 0, fill f0..f31 and fcsr.frm with values made from
 *                         SEED, then ROUNDS times: check that every register still holds
 *                         its value, add f30 to f31 (a running sum), and look at the
 *                         time. Counts "gaps", rounds between which more than
 *                         GAP_TICKS passed: the times another task had the hart.
 *                         Prints "FPCHECK-HOLD seed=S start", then
 *                         "FPCHECK-HOLD seed=S rounds=R gaps=G sum=OK|BAD bad_round=B".
 *
 * Everything a round checks stays in registers inside one asm block: compiled C between
 * rounds could use the registers itself. */
#include <duplex.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Far longer than one round (about a hundred instructions), far shorter than the
 * scheduler's 10 ms slice at any timebase QEMU or the D1 use (10 MHz, 24 MHz). */
#define GAP_TICKS 5000

/* f0..f31 as stored by fsd, and fcsr. */
struct fp_registers {
	uint64_t f[32];
	uint64_t fcsr;
};

#define FP_REGISTER_LIST                                                                           \
	"0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31"

static void read_registers(struct fp_registers *out)
{
	__asm__ volatile(".irp n," FP_REGISTER_LIST "\n"
	                 "fsd f\\n, \\n*8(%0)\n"
	                 ".endr\n"
	                 "frcsr t0\n"
	                 "sd t0, 32*8(%0)\n"
	                 :
	                 : "r"(out)
	                 : "t0", "memory");
}

static void write_registers(const struct fp_registers *in)
{
	__asm__ volatile(".irp n," FP_REGISTER_LIST "\n"
	                 "fld f\\n, \\n*8(%0)\n"
	                 ".endr\n"
	                 "ld t0, 32*8(%0)\n"
	                 "fscsr t0\n"
	                 :
	                 : "r"(in)
	                 : "t0", "memory", "f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8",
	                   "f9", "f10", "f11", "f12", "f13", "f14", "f15", "f16", "f17", "f18",
	                   "f19", "f20", "f21", "f22", "f23", "f24", "f25", "f26", "f27", "f28",
	                   "f29", "f30", "f31");
}

static int pin_to_hart0(void)
{
	cpu_set_t hart0;
	CPU_ZERO(&hart0);
	CPU_SET(0, &hart0);
	if (sched_setaffinity(0, sizeof hart0, &hart0) != 0) {
		perror("fpcheck: sched_setaffinity");
		return -1;
	}
	return 0;
}

static int check_fresh(void)
{
	if (pin_to_hart0() != 0)
		return 1;
	struct fp_registers now;
	read_registers(&now); /* first: nothing else has touched the FPU yet */
	int bad = 0;
	for (int i = 0; i < 32; i++) {
		if (now.f[i]) {
			printf("FPCHECK-CLEAN bad f%d=%#llx\n", i, (unsigned long long)now.f[i]);
			bad++;
		}
	}
	if (now.fcsr) {
		printf("FPCHECK-CLEAN bad fcsr=%#llx\n", (unsigned long long)now.fcsr);
		bad++;
	}
	/* Leave a mess for whoever comes next: every register, frm = 3 (round up), flags. */
	struct fp_registers mess;
	for (int i = 0; i < 32; i++)
		mess.f[i] = 0x4000000000000000ull + (uint64_t)i; /* about 2.0 */
	mess.fcsr = (3 << 5) | 0x1f;
	write_registers(&mess);
	if (!bad)
		printf("FPCHECK-CLEAN ok\n");
	return bad ? 1 : 0;
}

/* The asm loop of `hold`. expected->f[0..29] stay constant, f30 is the increment, f31
 * the running sum; returns the round where a register or fcsr changed (0: none) and
 * stores the final sum and the gap count. */
static long hold_rounds(const struct fp_registers *expected, long rounds, uint64_t *final_sum,
                        long *gaps)
{
	long bad_round = 0;
	long gap_count = 0;
	uint64_t sum;
	__asm__ volatile(
	    /* a0 = expected, a1 = rounds left, a2 = round number, a3 = last time */
	    "mv a0, %[expected]\n"
	    "mv a1, %[rounds]\n"
	    "li a2, 0\n"
	    ".irp n," FP_REGISTER_LIST "\n"
	    "fld f\\n, \\n*8(a0)\n"
	    ".endr\n"
	    "ld t0, 32*8(a0)\n"
	    "fscsr t0\n"
	    "rdtime a3\n"
	    "1:\n"
	    "addi a2, a2, 1\n"
	    ".irp "
	    "n,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,"
	    "30\n"
	    "fmv.x.d t0, f\\n\n"
	    "ld t1, \\n*8(a0)\n"
	    "bne t0, t1, 3f\n"
	    ".endr\n"
	    "frcsr t0\n"
	    "ld t1, 32*8(a0)\n"
	    "bne t0, t1, 3f\n"
	    "fadd.d f31, f31, f30\n"
	    "rdtime t0\n"
	    "sub t1, t0, a3\n"
	    "mv a3, t0\n"
	    "li t2, %[gap]\n"
	    "bltu t1, t2, 2f\n"
	    "addi %[gaps], %[gaps], 1\n"
	    "2:\n"
	    "addi a1, a1, -1\n"
	    "bnez a1, 1b\n"
	    "j 4f\n"
	    "3:\n"
	    "mv %[bad], a2\n"
	    "4:\n"
	    "fmv.x.d %[sum], f31\n"
	    : [bad] "+r"(bad_round), [gaps] "+r"(gap_count), [sum] "=r"(sum)
	    : [expected] "r"(expected), [rounds] "r"(rounds), [gap] "i"(GAP_TICKS)
	    : "a0", "a1", "a2", "a3", "t0", "t1", "t2", "memory", "f0", "f1", "f2", "f3", "f4",
	      "f5", "f6", "f7", "f8", "f9", "f10", "f11", "f12", "f13", "f14", "f15", "f16", "f17",
	      "f18", "f19", "f20", "f21", "f22", "f23", "f24", "f25", "f26", "f27", "f28", "f29",
	      "f30", "f31");
	*final_sum = sum;
	*gaps = gap_count;
	return bad_round;
}

static int hold(int seed, long rounds)
{
	if (pin_to_hart0() != 0)
		return 1;
	/* Doubles that differ per seed and per register; the increment and the start of the
	 * sum are small integers, so every partial sum is exact. */
	struct fp_registers expected;
	for (int i = 0; i < 30; i++) {
		double value = seed * 1000.0 + i + 0.25;
		memcpy(&expected.f[i], &value, sizeof value);
	}
	double increment = seed, start = seed * 7.0;
	memcpy(&expected.f[30], &increment, sizeof increment);
	memcpy(&expected.f[31], &start, sizeof start);
	expected.fcsr = (uint64_t)(seed % 5) << 5; /* frm: a rounding mode per seed, no flags */

	printf("FPCHECK-HOLD seed=%d start\n", seed);
	uint64_t sum_bits;
	long gaps;
	long bad_round = hold_rounds(&expected, rounds, &sum_bits, &gaps);
	double sum, want = start + (double)rounds * increment;
	memcpy(&sum, &sum_bits, sizeof sum);
	printf("FPCHECK-HOLD seed=%d rounds=%ld gaps=%ld sum=%s bad_round=%ld\n", seed, rounds,
	       gaps, !bad_round && sum == want ? "OK" : "BAD", bad_round);
	return bad_round || sum != want;
}

static pid_t start(char *argv[])
{
	fflush(stdout);
	pid_t child = spawn("/bin/fpcheck", argv, NULL);
	if (child < 0)
		perror("fpcheck: spawn");
	return child;
}

/* 0 if `child` exited with status 0. */
static int reap(pid_t child)
{
	int status;
	return child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) &&
	               WEXITSTATUS(status) == 0
	           ? 0
	           : 1;
}

static int clean_twice(void)
{
	char *argv[] = {"fpcheck", "fresh", NULL};
	int failures = reap(start(argv));
	failures += reap(start(argv));
	printf("FPCHECK-CLEAN failures=%d\n", failures);
	return failures != 0;
}

static int pair(char *rounds)
{
	char *argv1[] = {"fpcheck", "hold", "1", rounds, NULL};
	char *argv2[] = {"fpcheck", "hold", "2", rounds, NULL};
	pid_t first = start(argv1), second = start(argv2);
	int failures = reap(first) + reap(second);
	printf("FPCHECK-PAIR failures=%d\n", failures);
	return failures != 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "clean") == 0)
		return clean_twice();
	if (argc == 2 && strcmp(argv[1], "fresh") == 0)
		return check_fresh();
	if (argc == 3 && strcmp(argv[1], "pair") == 0)
		return pair(argv[2]);
	if (argc == 4 && strcmp(argv[1], "hold") == 0)
		return hold(atoi(argv[2]), atol(argv[3]));
	fprintf(stderr, "usage: fpcheck clean | fresh | pair ROUNDS | hold SEED ROUNDS\n");
	return 2;
}
