/* Host tests of the PLIC's S-mode access check (drivers/irqchip/plic_access.c) against a
 * model of the T-Head C906 PLIC's permission bit: with PLIC_CTRL's S_PER clear, S-mode
 * writes to the priority registers are lost and reads give 0; with it set (OpenSBI's
 * fdt_irqchip_plic.c does, for thead,c900-plic) they behave as the RISC-V PLIC
 * specification's. Whether the real C906 ignores a refused access, as modelled, or
 * faults is not known here (docs/boards/lichee-rv-d1.md, "The PLIC"). The model keeps 5
 * priority bits; any width of at least 1 passes the check. */
#include <string.h>

#include "check.h"
#include "drivers/irqchip/plic_access.h"

#define SOURCES       176
#define PRIORITY_MASK 0x1fu

struct plic_model {
	bool s_mode_allowed; /* PLIC_CTRL.S_PER */
	bool reads_allowed;  /* a variant: reads work, writes are lost */
	uint32_t priority[SOURCES];
	int reads, writes;
	uint32_t last_offset_written;
	bool other_register_touched;
};

static struct plic_model *model_of(struct plic_registers *plic)
{
	return plic->access_context;
}

static bool is_priority(uint32_t offset, uint32_t *source)
{
	*source = offset / 4;
	return offset % 4 == 0 && *source > 0 && *source < SOURCES;
}

static uint32_t model_read(struct plic_registers *plic, uint32_t offset)
{
	struct plic_model *model = model_of(plic);
	uint32_t source;
	model->reads++;
	if (!is_priority(offset, &source)) {
		model->other_register_touched = true;
		return 0;
	}
	return model->s_mode_allowed || model->reads_allowed ? model->priority[source] : 0;
}

static void model_write(struct plic_registers *plic, uint32_t offset, uint32_t value)
{
	struct plic_model *model = model_of(plic);
	uint32_t source;
	model->writes++;
	model->last_offset_written = offset;
	if (!is_priority(offset, &source)) {
		model->other_register_touched = true;
		return;
	}
	if (model->s_mode_allowed)
		model->priority[source] = value & PRIORITY_MASK;
}

static struct plic_registers registers_of(struct plic_model *model)
{
	return (struct plic_registers){
	    .read_register = model_read, .write_register = model_write, .access_context = model};
}

static void test_access_granted(void)
{
	struct plic_model model = {.s_mode_allowed = true};
	model.priority[1] = 7; /* whatever firmware left */
	struct plic_registers plic = registers_of(&model);
	uint32_t wrote = 99, read_back = 99;
	CHECK(plic_s_mode_writes_reach(&plic, 1, &wrote, &read_back));
	CHECK_EQ_U64(model.priority[1], 0); /* left masked */
	CHECK_EQ_U64(model.writes, 2);
	CHECK_EQ_U64(model.reads, 2);
	CHECK(!model.other_register_touched);
	CHECK_EQ_U64(wrote, 99); /* untouched on success */
}

static void test_refused_is_reported(void)
{
	struct plic_model model = {.s_mode_allowed = false};
	struct plic_registers plic = registers_of(&model);
	uint32_t wrote = 99, read_back = 99;
	CHECK(!plic_s_mode_writes_reach(&plic, 1, &wrote, &read_back));
	CHECK_EQ_U64(wrote, 1);
	CHECK_EQ_U64(read_back, 0);
	CHECK_EQ_U64(model.last_offset_written, 4); /* source 1's priority, set back to 0 */
	CHECK(!model.other_register_touched);
}

/* Writes lost but reads working, over a priority firmware left at 1: the first probe
 * passes by accident, the second (0) does not. */
static void test_lost_writes_over_a_set_priority(void)
{
	struct plic_model model = {.s_mode_allowed = false, .reads_allowed = true};
	model.priority[1] = 1;
	struct plic_registers plic = registers_of(&model);
	uint32_t wrote = 99, read_back = 99;
	CHECK(!plic_s_mode_writes_reach(&plic, 1, &wrote, &read_back));
	CHECK_EQ_U64(wrote, 0);
	CHECK_EQ_U64(read_back, 1);
}

int main(void)
{
	RUN(test_access_granted);
	RUN(test_refused_is_reported);
	RUN(test_lost_writes_over_a_set_priority);
	return check_summary();
}
