/* The kernel log's record store; see log_buffer.h. */
#include "kernel/log/log_buffer.h"

#include "kernel/lib/string.h"

void log_buffer_init(struct log_buffer *buffer, struct log_slot *slots, uint32_t capacity)
{
	buffer->slots = slots;
	buffer->capacity = capacity;
	buffer->first = 0;
	buffer->next = 0;
}

int log_buffer_shrink(struct log_buffer *buffer, uint32_t capacity)
{
	if (capacity == 0 || capacity > buffer->capacity || buffer->next > buffer->capacity)
		return -1;
	/* Nothing has wrapped, so record n is in slot n: keep the newest `capacity`, moved
	 * down to slot n % capacity (never above its old slot, so in order is safe). */
	if (buffer->next - buffer->first > capacity)
		buffer->first = buffer->next - capacity;
	for (uint64_t n = buffer->first; n < buffer->next; n++) {
		if (n % capacity != n)
			buffer->slots[n % capacity] = buffer->slots[n];
	}
	buffer->capacity = capacity;
	return 0;
}

uint64_t log_buffer_append(struct log_buffer *buffer, const char *text, size_t length)
{
	if (length > LOG_LINE_MAX)
		length = LOG_LINE_MAX;
	if (length == 0)
		return buffer->next;
	if (buffer->next - buffer->first == buffer->capacity)
		buffer->first++;
	struct log_slot *slot = &buffer->slots[buffer->next % buffer->capacity];
	memcpy(slot->text, text, length);
	slot->length = (uint16_t)length;
	return buffer->next++;
}

size_t log_buffer_get(const struct log_buffer *buffer, uint64_t number, char *out)
{
	if (number < buffer->first || number >= buffer->next)
		return 0;
	const struct log_slot *slot = &buffer->slots[number % buffer->capacity];
	if (out)
		memcpy(out, slot->text, slot->length);
	return slot->length;
}
