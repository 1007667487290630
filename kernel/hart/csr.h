/* Access to RISC-V supervisor CSRs and a few instructions (privileged spec 1.12,
 * chapter 4). Header-only; every function is safe in any context. */
#ifndef DUPLEX_HART_CSR_H
#define DUPLEX_HART_CSR_H

#include <stdint.h>

#define SSTATUS_SIE  (1ul << 1)
#define SSTATUS_SPIE (1ul << 5)
#define SSTATUS_SPP  (1ul << 8)
#define SSTATUS_SUM  (1ul << 18)

#define SIE_SSIE (1ul << 1) /* software (IPI) */
#define SIE_STIE (1ul << 5) /* timer */
#define SIE_SEIE (1ul << 9) /* external (PLIC) */

#define SCAUSE_INTERRUPT (1ul << 63)
#define IRQ_S_SOFTWARE   1
#define IRQ_S_TIMER      5
#define IRQ_S_EXTERNAL   9

#define SATP_MODE_SV39 (8ul << 60)

#define csr_read(name)                                                                             \
	({                                                                                         \
		uint64_t csr_value_;                                                               \
		__asm__ volatile("csrr %0, " #name : "=r"(csr_value_));                            \
		csr_value_;                                                                        \
	})
#define csr_write(name, value) __asm__ volatile("csrw " #name ", %0" ::"rK"(value) : "memory")
#define csr_set(name, bits)    __asm__ volatile("csrs " #name ", %0" ::"rK"(bits) : "memory")
#define csr_clear(name, bits)  __asm__ volatile("csrc " #name ", %0" ::"rK"(bits) : "memory")

/* Sstc's stimecmp (CSR 0x14d) is unknown to binutils 2.40's rv64imac, so name it by number. */
#define CSR_STIMECMP 0x14d

static inline uint64_t read_time(void)
{
	uint64_t ticks;
	__asm__ volatile("rdtime %0" : "=r"(ticks));
	return ticks;
}

static inline void interrupts_enable(void)
{
	csr_set(sstatus, SSTATUS_SIE);
}

static inline void interrupts_disable(void)
{
	csr_clear(sstatus, SSTATUS_SIE);
}

static inline int interrupts_enabled(void)
{
	return (csr_read(sstatus) & SSTATUS_SIE) != 0;
}

static inline void wait_for_interrupt(void)
{
	__asm__ volatile("wfi" ::: "memory");
}

static inline void cpu_relax(void)
{
	/* Zihintpause `pause`, encoded as a FENCE hint so older assemblers accept it; it is a
	 * plain fence on harts without Zihintpause. */
	__asm__ volatile(".4byte 0x0100000f" ::: "memory");
}

#endif
