/* The 16550 / DW APB UART model; see uart_model.h. Register facts as in the driver:
 * TI PC16550D datasheet (SNLS378C) and the Synopsys DW_apb_uart databook. */
#include "uart_model.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Register numbers (PC16550D table 2; DW register map for 31 and up). */
enum {
	REG_DATA = 0, /* RBR / THR / DLL */
	REG_IER = 1,  /* IER / DLM */
	REG_IIR = 2,  /* read IIR, write FCR */
	REG_LCR = 3,
	REG_MCR = 4,
	REG_LSR = 5,
	REG_MSR = 6,
	REG_SCR = 7,
	REG_USR = 31,
	REG_TFL = 32,
	REG_RFL = 33,
	REG_CPR = 61,
};

#define IER_RX_DATA     0x01
#define IER_TX_EMPTY    0x02
#define IER_LINE_STATUS 0x04
#define IER_MODEM       0x08
#define IER_DW_PTIME    0x80
#define LCR_DLAB        0x80
#define LSR_DR          0x01
#define LSR_OE          0x02
#define LSR_THRE        0x20
#define LSR_TEMT        0x40
#define USR_BUSY        0x01
#define USR_TFNF        0x02
#define USR_TFE         0x04
#define USR_RFNE        0x08
#define USR_RFF         0x10

static void violate(struct uart_model *model, const char *format, ...)
{
	char message[sizeof model->violation];
	va_list arguments;
	va_start(arguments, format);
	vsnprintf(message, sizeof message, format, arguments);
	va_end(arguments);
	if (model->violations++ == 0)
		memcpy(model->violation, message, sizeof message);
	if (model->violations <= 5 && !model->quiet)
		fprintf(stderr, "uart model: driver violation: %s\n", message);
	if (model->violations == UART_MODEL_STUCK_VIOLATIONS) {
		/* A driver that reads a register where there is none never sees THRE: it
		 * waits for ever. Fail now, saying why, instead of at the harness's timeout. */
		fprintf(stderr,
		        "uart model: FAIL: %u driver violations, the driver is stuck waiting on "
		        "a register it does not reach (first violation: %s); stopping here\n",
		        model->violations, model->violation);
		fflush(stdout);
		exit(1);
	}
}

static uint32_t fifo_capacity(const struct uart_model *model)
{
	return model->fifo_enabled ? model->fifo_depth : 1;
}

/* DW programmable THRE interrupt mode (IER.PTIME with FIFOs on, DW databook): the THRE
 * interrupt comes at or below the FCR TX empty trigger (bits 4-5: empty, 2, 1/4, 1/2
 * full), and LSR.THRE means "TX FIFO full". */
static bool ptime_active(const struct uart_model *model)
{
	return model->kind == UART_MODEL_DW_APB && model->fifo_enabled &&
	       (model->ier & IER_DW_PTIME);
}

uint32_t uart_model_tx_threshold(const struct uart_model *model)
{
	if (!ptime_active(model))
		return 0;
	switch ((model->last_fcr >> 4) & 3) {
	case 1:
		return 2;
	case 2:
		return model->fifo_depth / 4;
	case 3:
		return model->fifo_depth / 2;
	default:
		return 0;
	}
}

void uart_model_init(struct uart_model *model, enum uart_model_kind kind, uint32_t reg_shift,
                     uint32_t reg_io_width, uint32_t fifo_depth)
{
	memset(model, 0, sizeof *model);
	model->kind = kind;
	model->reg_shift = reg_shift;
	model->reg_io_width = reg_io_width;
	model->fifo_depth = fifo_depth;
	model->dw_fifo_status = kind == UART_MODEL_DW_APB;
}

bool uart_model_busy(const struct uart_model *model)
{
	return model->stuck_busy || model->busy_usr_reads > 0 || model->tx_count > 0 ||
	       model->shifting || model->rx_count > 0;
}

/* The character now at the top of the RX FIFO shows its errors in LSR (PC16550D: in FIFO
 * mode PE, FE and BI are revealed when their character reaches the top). */
static void reveal_top_errors(struct uart_model *model)
{
	if (model->rx_count > 0)
		model->lsr_errors |= model->rx_fifo[model->rx_head].errors;
}

static void clear_rx(struct uart_model *model)
{
	model->rx_head = model->rx_count = 0;
	model->timeout_pending = false;
}

static void clear_tx(struct uart_model *model)
{
	if (model->tx_count > 0)
		model->thre_pending = true; /* THR went empty */
	model->tx_head = model->tx_count = 0;
}

void uart_model_run_wire(struct uart_model *model, uint32_t characters)
{
	for (uint32_t i = 0; i < characters; i++) {
		if (model->shifting) {
			if (model->wire_length < UART_MODEL_WIRE_MAX)
				model->wire[model->wire_length++] = model->shift_register;
			model->shifting = false;
		}
		if (model->tx_count > 0) {
			model->shift_register = model->tx_fifo[model->tx_head];
			model->tx_head = (model->tx_head + 1) % UART_MODEL_MAX_FIFO;
			model->tx_count--;
			model->shifting = true;
			if (model->tx_count == uart_model_tx_threshold(model))
				model->thre_pending = true; /* THRE interrupt source */
		}
	}
}

void uart_model_drain(struct uart_model *model)
{
	while (model->tx_count > 0 || model->shifting)
		uart_model_run_wire(model, 1);
}

void uart_model_receive(struct uart_model *model, uint8_t byte, uint8_t errors)
{
	if (model->rx_count == fifo_capacity(model)) {
		model->lsr_errors |= LSR_OE; /* the new character is lost */
		return;
	}
	uint32_t slot = (model->rx_head + model->rx_count) % UART_MODEL_MAX_FIFO;
	model->rx_fifo[slot] = (struct uart_model_rx_entry){byte, errors};
	model->rx_count++;
	if (model->rx_count == 1)
		reveal_top_errors(model);
}

/* PC16550D table 4 priorities; the DW busy detect comes last (DW databook). The RX
 * timeout and RX data share the second level; the model shows the timeout when the
 * test armed it. */
uint8_t uart_model_interrupt_id(const struct uart_model *model)
{
	if ((model->ier & IER_LINE_STATUS) && model->lsr_errors)
		return 0x06;
	if ((model->ier & IER_RX_DATA) && model->timeout_pending && model->rx_count > 0)
		return 0x0c;
	if ((model->ier & IER_RX_DATA) && model->kind == UART_MODEL_DW_APB &&
	    model->dw_rx_timeout_stuck)
		return 0x0c; /* the DW quirk: a timeout with nothing to read */
	if ((model->ier & IER_RX_DATA) && model->rx_count > 0)
		return 0x04;
	if ((model->ier & IER_TX_EMPTY) && model->thre_pending)
		return 0x02;
	if ((model->ier & IER_MODEM) && (model->msr & 0x0f))
		return 0x00;
	if (model->kind == UART_MODEL_DW_APB && model->busy_detect_pending)
		return 0x07;
	return 0x01;
}

static uint8_t read_lsr(struct uart_model *model)
{
	uint8_t lsr = model->lsr_errors;
	if (model->rx_count > 0)
		lsr |= LSR_DR;
	if (ptime_active(model) ? model->tx_count == fifo_capacity(model) : model->tx_count == 0)
		lsr |= LSR_THRE;
	if (model->tx_count == 0 && !model->shifting)
		lsr |= LSR_TEMT;
	model->lsr_errors = 0; /* reading LSR clears OE, PE, FE, BI */
	return lsr;
}

static uint8_t read_rbr(struct uart_model *model)
{
	model->rbr_reads++;
	model->dw_rx_timeout_stuck = false; /* any RBR read clears the stuck timeout */
	if (model->rx_count == 0) {
		if (model->kind == UART_MODEL_DW_APB && model->dw_pslverr && model->fifo_enabled)
			violate(model, "RBR read with the RX FIFO empty and FIFOs on: APB error "
			               "response (PSLVERR_RESP_EN), a load access fault");
		return 0;
	}
	uint8_t byte = model->rx_fifo[model->rx_head].byte;
	model->rx_head = (model->rx_head + 1) % UART_MODEL_MAX_FIFO;
	model->rx_count--;
	model->timeout_pending = false;
	reveal_top_errors(model);
	return byte;
}

static uint32_t read_dw_register(struct uart_model *model, uint32_t reg)
{
	switch (reg) {
	case REG_USR: {
		uint32_t usr = uart_model_busy(model) ? USR_BUSY : 0;
		model->usr_reads++;
		model->busy_detect_pending = false; /* reading USR clears busy detect */
		if (model->busy_usr_reads > 0)
			model->busy_usr_reads--;
		if (model->dw_fifo_status) {
			if (model->tx_count < fifo_capacity(model))
				usr |= USR_TFNF;
			if (model->tx_count == 0)
				usr |= USR_TFE;
			if (model->rx_count > 0)
				usr |= USR_RFNE;
			if (model->rx_count == fifo_capacity(model))
				usr |= USR_RFF;
		}
		return usr;
	}
	case REG_TFL:
		return model->dw_fifo_status ? model->tx_count : 0;
	case REG_RFL:
		return model->dw_fifo_status ? model->rx_count : 0;
	case REG_CPR:
		return model->dw_cpr;
	default:
		violate(model, "read of unmodelled DW register %u", reg);
		return 0;
	}
}

static uint32_t read_register(struct uart_model *model, uint32_t reg)
{
	bool dlab = (model->lcr & LCR_DLAB) != 0;
	switch (reg) {
	case REG_DATA:
		return dlab ? model->dll : read_rbr(model);
	case REG_IER:
		return dlab ? model->dlm : model->ier;
	case REG_IIR: {
		model->iir_reads++;
		if (!model->in_acknowledge)
			violate(model, "register 2 read outside acknowledge (FCR is write-only)");
		uint8_t id = uart_model_interrupt_id(model);
		if (id == 0x02)
			model->thre_pending = false; /* reading IIR clears THRE */
		return id | (model->fifo_enabled ? 0xc0 : 0);
	}
	case REG_LCR:
		return model->lcr;
	case REG_MCR:
		return model->mcr;
	case REG_LSR:
		return read_lsr(model);
	case REG_MSR: {
		uint8_t msr = model->msr;
		model->msr &= 0xf0; /* reading MSR clears the delta bits */
		return msr;
	}
	case REG_SCR:
		return model->scr;
	default:
		if (model->kind == UART_MODEL_DW_APB)
			return read_dw_register(model, reg);
		violate(model, "read of register %u, a 16550 has 0-7", reg);
		return 0;
	}
}

static void write_thr(struct uart_model *model, uint8_t value)
{
	if (model->tx_count == fifo_capacity(model)) {
		violate(model, "THR write with the TX FIFO full (%u bytes): overrun",
		        model->tx_count);
		return;
	}
	model->tx_fifo[(model->tx_head + model->tx_count) % UART_MODEL_MAX_FIFO] = value;
	model->tx_count++;
	if (model->tx_count > model->max_tx_fill)
		model->max_tx_fill = model->tx_count;
	/* Writing THR clears the THRE interrupt (in PTIME mode only once the FIFO is above
	 * the threshold). */
	model->thre_pending =
	    ptime_active(model) && model->tx_count <= uart_model_tx_threshold(model);
}

static void write_fcr(struct uart_model *model, uint8_t value)
{
	model->last_fcr = value;
	/* PC16550D: FCR0 must be 1 for the other bits to be written; changing FCR0 empties
	 * both FIFOs. */
	bool enable = (value & 0x01) != 0;
	if (enable != model->fifo_enabled) {
		clear_rx(model);
		clear_tx(model);
		model->fifo_enabled = enable;
	}
	if (!enable)
		return;
	if (value & 0x02)
		clear_rx(model);
	if (value & 0x04)
		clear_tx(model);
}

static void write_lcr(struct uart_model *model, uint8_t value)
{
	uint32_t number = model->lcr_writes++;
	bool dropped = number < 32 && (model->drop_lcr_write_mask & (1u << number));
	if (model->kind == UART_MODEL_DW_APB && (dropped || uart_model_busy(model))) {
		model->lcr_writes_dropped++;
		model->busy_detect_pending = true;
		return;
	}
	model->lcr = value;
}

static bool divisor_write_dropped(struct uart_model *model, bool is_dll)
{
	if (model->kind != UART_MODEL_DW_APB)
		return false;
	bool dropped = false;
	if (is_dll) {
		uint32_t number = model->dll_writes++;
		dropped = number < 32 && (model->drop_divisor_write_mask & (1u << number));
	}
	if (dropped || uart_model_busy(model)) {
		model->divisor_writes_dropped++;
		return true;
	}
	return false;
}

static void write_register(struct uart_model *model, uint32_t reg, uint8_t value)
{
	bool dlab = (model->lcr & LCR_DLAB) != 0;
	switch (reg) {
	case REG_DATA:
		if (!dlab)
			write_thr(model, value);
		else if (!divisor_write_dropped(model, true))
			model->dll = value;
		return;
	case REG_IER:
		if (dlab) {
			if (!divisor_write_dropped(model, false))
				model->dlm = value;
			return;
		}
		if ((value & IER_DW_PTIME) &&
		    (model->kind != UART_MODEL_DW_APB || !model->dw_fifo_status))
			violate(model,
			        "IER write 0x%02x sets bit 7 (DW PTIME) on a UART whose TX "
			        "room could then come only from LSR.THRE (FIFO full)",
			        value);
		/* PTIME is writable only with THRE_MODE_USER (DW databook). */
		if (model->kind != UART_MODEL_DW_APB)
			value &= 0x0f;
		else if (!model->dw_thre_mode_user)
			value &= (uint8_t)~IER_DW_PTIME;
		/* Enabling ETBEI with THR empty (PTIME: at or below the threshold) raises the
		 * THRE interrupt (PC16550D; QEMU does it on this 0 -> 1 change only). */
		bool was_enabled = (model->ier & IER_TX_EMPTY) != 0;
		model->ier = value;
		if (!was_enabled && (value & IER_TX_EMPTY) &&
		    model->tx_count <= uart_model_tx_threshold(model))
			model->thre_pending = true;
		return;
	case REG_IIR:
		write_fcr(model, value);
		return;
	case REG_LCR:
		write_lcr(model, value);
		return;
	case REG_MCR:
		model->mcr = value;
		return;
	case REG_SCR:
		model->scr = value;
		return;
	default:
		violate(model, "write 0x%02x to register %u, which the model does not accept",
		        value, reg);
		return;
	}
}

/* Turn the driver's byte offset and width into a register number, checking both. */
static bool decode(struct uart_model *model, uint32_t offset, uint32_t width, uint32_t *reg)
{
	if (width != model->reg_io_width) {
		violate(model, "%u-byte access at offset %#x, reg-io-width is %u", width, offset,
		        model->reg_io_width);
		return false;
	}
	if (offset & ((1u << model->reg_shift) - 1)) {
		violate(model, "offset %#x is not a register with reg-shift %u", offset,
		        model->reg_shift);
		return false;
	}
	*reg = offset >> model->reg_shift;
	return true;
}

static void pass_time(struct uart_model *model)
{
	model->accesses++;
	if (model->auto_wire_every && model->accesses % model->auto_wire_every == 0)
		uart_model_run_wire(model, 1);
}

static uint32_t model_read(struct uart_16550 *state, uint32_t offset, uint32_t width)
{
	struct uart_model *model = state->access_context;
	uint32_t reg;
	pass_time(model);
	if (!decode(model, offset, width, &reg))
		return 0;
	return read_register(model, reg);
}

static void model_write(struct uart_16550 *state, uint32_t offset, uint32_t width, uint32_t value)
{
	struct uart_model *model = state->access_context;
	uint32_t reg;
	pass_time(model);
	if (value > 0xff)
		violate(model, "write of %#x to offset %#x: the registers are 8 bits", value,
		        offset);
	if (decode(model, offset, width, &reg))
		write_register(model, reg, (uint8_t)value);
}

void uart_model_attach(struct uart_model *model, struct uart_16550 *state)
{
	state->read_register = model_read;
	state->write_register = model_write;
	state->access_context = model;
}
