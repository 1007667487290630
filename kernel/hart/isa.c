/* Instruction-set letters common to every hart; see isa.h. */
#include "kernel/hart/isa.h"

static uint64_t common_letters;

static uint64_t letter_bit(char letter)
{
	return 1ull << (letter - 'a');
}

void isa_set_letters(uint64_t letters)
{
	common_letters = letters;
}

bool isa_has(char letter)
{
	return letter >= 'a' && letter <= 'z' && (common_letters & letter_bit(letter));
}

uint64_t isa_hwcap(void)
{
	static const char reported[] = "imafdcv";
	uint64_t mask = 0;
	for (const char *c = reported; *c; c++)
		mask |= letter_bit(*c);
	return common_letters & mask;
}
