/* Duplex additions to picolibc's <sched.h>: sched_yield() and CPU affinity.
 *
 * cpu_set_t holds one bit per hart. Duplex has at most 64 harts, so it is one unsigned
 * long: the 8 bytes the kernel reads and writes. */
#ifndef DUPLEX_SCHED_H
#define DUPLEX_SCHED_H

#include_next <sched.h>

#define CPU_SETSIZE 64

typedef struct {
	unsigned long bits; /* bit N = hart N */
} cpu_set_t;

#define CPU_ZERO(set)         ((set)->bits = 0)
#define CPU_SET(cpu, set)     ((set)->bits |= 1UL << (cpu))
#define CPU_CLR(cpu, set)     ((set)->bits &= ~(1UL << (cpu)))
#define CPU_ISSET(cpu, set)   (((set)->bits >> (cpu)) & 1)
#define CPU_COUNT(set)        __builtin_popcountl((set)->bits)
#define CPU_EQUAL(set1, set2) ((set1)->bits == (set2)->bits)

/* Let another ready task run on this hart. Always 0. */
int sched_yield(void);
/* Restrict process `pid` (0 = the caller) to the harts in *set. 0, or -1 with errno
 * (EINVAL: no existing hart in the set). */
int sched_setaffinity(pid_t pid, size_t set_size, const cpu_set_t *set);
/* Store process `pid`'s hart set in *set. 0, or -1 with errno. */
int sched_getaffinity(pid_t pid, size_t set_size, cpu_set_t *set);

#endif
