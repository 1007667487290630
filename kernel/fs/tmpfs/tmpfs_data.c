/* The bytes of a tmpfs file: an index of page pointers, grown as the file does, each
 * page allocated on first write (see tmpfs_node.h). Called with tmpfs.lock held. */
#include "kernel/fs/tmpfs/tmpfs_node.h"

#include "kernel/lib/errno.h"
#include "kernel/lib/string.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/page.h"

/* Largest file: Linux's MAX_LFS_FILESIZE is larger, but an index of 2^28 pointers is
 * already more than any budget allows. */
#define FILE_SIZE_MAX (1ull << 40)

uint64_t tmpfs_data_read(const struct tmpfs_node *node, uint64_t offset, void *buffer,
                         uint64_t length)
{
	if (offset >= node->size)
		return 0;
	if (length > node->size - offset)
		length = node->size - offset;
	uint8_t *out = buffer;
	for (uint64_t done = 0; done < length;) {
		uint64_t at = offset + done, index = at / PAGE_SIZE, within = at % PAGE_SIZE;
		uint64_t take = PAGE_SIZE - within;
		if (take > length - done)
			take = length - done;
		const uint8_t *page = index < node->page_slots ? node->pages[index] : 0;
		if (page)
			memcpy(out + done, page + within, take);
		else
			memset(out + done, 0, take); /* a hole */
		done += take;
	}
	return length;
}

/* Make the index hold at least `slots` entries. */
static int grow_index(struct tmpfs *fs, struct tmpfs_node *node, uint64_t slots)
{
	if (slots <= node->page_slots)
		return 0;
	uint64_t want = node->page_slots ? node->page_slots * 2 : 8;
	if (want < slots)
		want = slots;
	uint64_t added = (want - node->page_slots) * sizeof node->pages[0];
	if (!tmpfs_charge(fs, added))
		return -ENOSPC;
	uint8_t **pages = kzalloc(want * sizeof pages[0]);
	if (!pages) {
		tmpfs_refund(fs, added);
		return -ENOMEM;
	}
	if (node->page_slots)
		memcpy(pages, node->pages, node->page_slots * sizeof pages[0]);
	kfree(node->pages);
	node->pages = pages;
	node->page_slots = want;
	return 0;
}

long tmpfs_data_write(struct tmpfs *fs, struct tmpfs_node *node, uint64_t offset, const void *data,
                      uint64_t length)
{
	if (offset >= FILE_SIZE_MAX || length > FILE_SIZE_MAX - offset)
		return -EFBIG;
	int error = grow_index(fs, node, (offset + length + PAGE_SIZE - 1) / PAGE_SIZE);
	if (error)
		return error;
	const uint8_t *in = data;
	uint64_t done = 0;
	while (done < length) {
		uint64_t at = offset + done, index = at / PAGE_SIZE, within = at % PAGE_SIZE;
		uint64_t take = PAGE_SIZE - within;
		if (take > length - done)
			take = length - done;
		if (!node->pages[index]) {
			if (!tmpfs_charge(fs, PAGE_SIZE)) {
				error = -ENOSPC;
				break;
			}
			node->pages[index] = page_alloc_pages(1); /* zeroed */
			if (!node->pages[index]) {
				tmpfs_refund(fs, PAGE_SIZE);
				error = -ENOMEM;
				break;
			}
		}
		memcpy(node->pages[index] + within, in + done, take);
		done += take;
	}
	if (done == 0 && length)
		return error;
	if (offset + done > node->size)
		node->size = offset + done;
	return (long)done;
}

int tmpfs_data_truncate(struct tmpfs *fs, struct tmpfs_node *node, uint64_t size)
{
	if (size > FILE_SIZE_MAX)
		return -EFBIG;
	uint64_t keep = (size + PAGE_SIZE - 1) / PAGE_SIZE; /* pages still (partly) inside */
	for (uint64_t index = keep; index < node->page_slots; index++) {
		if (node->pages[index]) {
			page_free_pages(node->pages[index], 1);
			node->pages[index] = 0;
			tmpfs_refund(fs, PAGE_SIZE);
		}
	}
	/* What lies past the new end in its last page reads as zeros if the file grows. */
	if (size % PAGE_SIZE && keep - 1 < node->page_slots && node->pages[keep - 1])
		memset(node->pages[keep - 1] + size % PAGE_SIZE, 0, PAGE_SIZE - size % PAGE_SIZE);
	if (size == 0 && node->page_slots) { /* an empty file keeps no index */
		tmpfs_refund(fs, node->page_slots * sizeof node->pages[0]);
		kfree(node->pages);
		node->pages = 0;
		node->page_slots = 0;
	}
	node->size = size;
	return 0;
}
