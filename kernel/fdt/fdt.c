/* Flattened device tree reader (devicetree-specification v0.4, chapter 5).
 *
 * The blob comes from firmware and may be wrong, so every read is checked against the
 * block bounds that fdt_open() validated: a bad blob makes these functions return -1 or
 * NULL, never fault. Every loop moves strictly forward through the structure block (or,
 * in fdt_parent(), strictly deeper), so no input can make one run forever.
 *
 * Multi-byte values are read one byte at a time: that needs no alignment and is
 * big-endian on any host.
 *
 * Everything here is pure: no allocation, no locks, no sleeping. */
#include "kernel/fdt/fdt.h"
#include "kernel/lib/string.h"

/* Tokens of the structure block (spec 5.4.1). */
enum {
	FDT_BEGIN_NODE = 1,
	FDT_END_NODE = 2,
	FDT_PROP = 3,
	FDT_NOP = 4,
	FDT_END = 9,
};

#define FDT_HEADER_SIZE_V16  36 /* version 17 added size_dt_struct */
#define FDT_HEADER_SIZE_V17  40
#define FDT_LAST_KNOWN       17 /* the newest layout this reader understands */
#define FDT_MEMRESERVE_ENTRY 16 /* two big-endian u64: address, size */
#define FDT_MAX_CELLS        4  /* larger #address-cells/#size-cells are malformed */

/* Header field offsets (spec 5.2). */
enum {
	HEADER_MAGIC = 0,
	HEADER_TOTAL_SIZE = 4,
	HEADER_STRUCT_OFFSET = 8,
	HEADER_STRINGS_OFFSET = 12,
	HEADER_MEMRESERVE_OFFSET = 16,
	HEADER_VERSION = 20,
	HEADER_LAST_COMPATIBLE = 24,
	HEADER_STRINGS_SIZE = 32,
	HEADER_STRUCT_SIZE = 36,
};

/* Big-endian u32 at any alignment. Called by everything below; never sleeps. */
static uint32_t read_be32(const uint8_t *bytes)
{
	return (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 |
	       (uint32_t)bytes[3];
}

/* Big-endian u64 at any alignment (memory reservation entries). Called by
 * fdt_memreserve(); never sleeps. */
static uint64_t read_be64(const uint8_t *bytes)
{
	return (uint64_t)read_be32(bytes) << 32 | read_be32(bytes + 4);
}

/* Round a structure-block offset up to the next token boundary. */
static uint32_t align_to_token(uint32_t offset)
{
	return (offset + 3) & ~3u;
}

/* True if `offset` starts a NUL-terminated string inside the strings block.
 * Called by read_token() for property names; never sleeps. */
static bool valid_string_offset(const struct fdt *fdt, uint32_t offset)
{
	if (offset >= fdt->strings_size)
		return false;
	uint32_t room = fdt->strings_size - offset;
	return strnlen(fdt->strings + offset, room) < room;
}

/* Decode the token at structure-block offset `offset`, checking that it and its payload
 * (node name, property header, value and name) lie inside the blob. Returns the token
 * and sets *next to the offset of the following token, or returns -1.
 * Called by every walker in this file; never sleeps, no lock. */
static int read_token(const struct fdt *fdt, int offset, int *next)
{
	uint32_t size = fdt->structs_size;

	if (offset < 0 || (offset & 3) != 0 || size < 4 || (uint32_t)offset > size - 4)
		return -1;
	uint32_t token = read_be32(fdt->structs + offset);
	uint32_t after = (uint32_t)offset + 4;

	switch (token) {
	case FDT_BEGIN_NODE: {
		uint32_t room = size - after;
		size_t name_length = strnlen((const char *)fdt->structs + after, room);
		if (name_length == room)
			return -1; /* the name runs off the end of the block */
		after = align_to_token(after + (uint32_t)name_length + 1);
		break;
	}
	case FDT_PROP: {
		if (size - after < 8)
			return -1;
		uint32_t value_length = read_be32(fdt->structs + after);
		uint32_t name_offset = read_be32(fdt->structs + after + 4);
		after += 8;
		if (value_length > size - after || !valid_string_offset(fdt, name_offset))
			return -1;
		after = align_to_token(after + value_length);
		break;
	}
	case FDT_END_NODE:
	case FDT_NOP:
	case FDT_END:
		break;
	default:
		return -1;
	}
	/* fdt_open() capped the block below INT32_MAX, so this cannot overflow. */
	*next = (int)after;
	return (int)token;
}

/* Offset of the first token at or after `offset` that is not a NOP; whether that token
 * is valid is for the caller's read_token() to say. Called by node_at(); never sleeps. */
static int skip_nops(const struct fdt *fdt, int offset)
{
	int next;

	while (read_token(fdt, offset, &next) == FDT_NOP)
		offset = next;
	return offset;
}

/* Offset just past the END_NODE that closes `node`, or -1 if the subtree is malformed.
 * Called by fdt_next_sibling() and fdt_parent(); never sleeps. */
static int node_end(const struct fdt *fdt, int node)
{
	int offset, depth = 1;

	if (read_token(fdt, node, &offset) != FDT_BEGIN_NODE)
		return -1;
	while (depth > 0) {
		int next;
		int token = read_token(fdt, offset, &next);
		if (token == FDT_BEGIN_NODE)
			depth++;
		else if (token == FDT_END_NODE)
			depth--;
		else if (token != FDT_PROP && token != FDT_NOP)
			return -1; /* FDT_END or garbage inside a node */
		offset = next;
	}
	return offset;
}

/* The node starting at `offset` once NOPs are skipped, or -1 if something else is
 * there (the parent's END_NODE, say). Called by fdt_next_sibling() and fdt_parent(),
 * with the end of a node; never sleeps. */
static int node_at(const struct fdt *fdt, int offset)
{
	int next;

	if (offset < 0)
		return -1;
	offset = skip_nops(fdt, offset);
	return read_token(fdt, offset, &next) == FDT_BEGIN_NODE ? offset : -1;
}

/* The node that follows `after` in document order (-1: the root), or -1.
 * Called by fdt_next_compatible() and fdt_node_by_phandle(); never sleeps. */
static int next_node(const struct fdt *fdt, int after)
{
	int offset, token;

	if (after < 0)
		return fdt_root(fdt);
	if (read_token(fdt, after, &offset) != FDT_BEGIN_NODE)
		return -1;
	for (;;) {
		int next;
		token = read_token(fdt, offset, &next);
		if (token == FDT_BEGIN_NODE)
			return offset;
		if (token != FDT_PROP && token != FDT_NOP && token != FDT_END_NODE)
			return -1;
		offset = next;
	}
}

/* Property `name` of `node`, where `name` is `name_length` bytes and need not be
 * NUL-terminated (alias lookups pass a piece of a path). Returns the value and sets
 * *length, or NULL. Called by fdt_prop() and fdt_path(); never sleeps. */
static const void *find_property(const struct fdt *fdt, int node, const char *name,
                                 size_t name_length, uint32_t *length)
{
	int offset, next, token;

	if (read_token(fdt, node, &offset) != FDT_BEGIN_NODE)
		return NULL;
	/* Properties come before the first child (spec 5.4.2), so stop at any other token. */
	while ((token = read_token(fdt, offset, &next)) == FDT_PROP || token == FDT_NOP) {
		if (token == FDT_PROP) {
			const uint8_t *header = fdt->structs + offset + 4;
			const char *property_name = fdt->strings + read_be32(header + 4);
			/* read_token() checked that property_name is terminated in bounds. */
			if (strncmp(property_name, name, name_length) == 0 &&
			    property_name[name_length] == '\0') {
				if (length)
					*length = read_be32(header);
				return header + 8;
			}
		}
		offset = next;
	}
	return NULL;
}

/* Child of `node` named by the path component `component` (`length` bytes): an exact
 * match, or a match up to the unit address when the component has none.
 * Called by walk_path(); never sleeps. */
static int find_child(const struct fdt *fdt, int node, const char *component, size_t length)
{
	bool has_unit_address = false;

	for (size_t i = 0; i < length; i++)
		if (component[i] == '@')
			has_unit_address = true;
	for (int child = fdt_first_child(fdt, node); child >= 0;
	     child = fdt_next_sibling(fdt, child)) {
		const char *name = fdt_node_name(fdt, child);
		if (!name || strncmp(name, component, length) != 0)
			continue;
		if (name[length] == '\0' || (name[length] == '@' && !has_unit_address))
			return child;
	}
	return -1;
}

/* Follow the '/'-separated components of `path` down from `node`. Empty components
 * ("//", a trailing '/') are skipped. Called by fdt_path(); never sleeps. */
static int walk_path(const struct fdt *fdt, int node, const char *path)
{
	while (node >= 0 && *path != '\0') {
		size_t length = 0;
		while (path[length] != '\0' && path[length] != '/')
			length++;
		if (length > 0)
			node = find_child(fdt, node, path, length);
		path += length;
		if (*path == '/')
			path++;
	}
	return node;
}

/* Cell counts that apply to `node`'s "reg", read once from its parent.
 * Called by fdt_address_cells(), fdt_size_cells() and fdt_reg(); never sleeps. */
static void reg_cells(const struct fdt *fdt, int node, int *address_cells, int *size_cells)
{
	int parent = fdt_parent(fdt, node);
	uint32_t value;

	*address_cells = 2; /* spec 2.3.5 defaults */
	*size_cells = 1;
	if (parent < 0)
		return;
	if (fdt_prop_u32(fdt, parent, "#address-cells", &value))
		*address_cells = value <= FDT_MAX_CELLS ? (int)value : -1;
	if (fdt_prop_u32(fdt, parent, "#size-cells", &value))
		*size_cells = value <= FDT_MAX_CELLS ? (int)value : -1;
}

/* Validate the header and the placement of the three blocks. Called by the boot hart
 * (platform_from_fdt()) and tests; never sleeps. The blob must be 4-byte aligned so
 * that callers may treat property values as arrays of uint32_t cells. */
int fdt_open(struct fdt *fdt, const void *blob)
{
	const uint8_t *bytes = blob;

	memset(fdt, 0, sizeof(*fdt));
	if (!bytes || ((uintptr_t)bytes & 3) != 0 || read_be32(bytes) != FDT_MAGIC)
		return -1;
	uint32_t total_size = read_be32(bytes + HEADER_TOTAL_SIZE);
	/* Read nothing past the first 8 bytes until the blob claims to hold a header. */
	if (total_size < FDT_HEADER_SIZE_V16 || total_size > INT32_MAX)
		return -1;
	uint32_t version = read_be32(bytes + HEADER_VERSION);
	uint32_t last_compatible = read_be32(bytes + HEADER_LAST_COMPATIBLE);
	if (version < 16 || last_compatible > FDT_LAST_KNOWN)
		return -1;
	uint32_t header_size = version >= 17 ? FDT_HEADER_SIZE_V17 : FDT_HEADER_SIZE_V16;
	if (total_size < header_size)
		return -1;

	uint32_t struct_offset = read_be32(bytes + HEADER_STRUCT_OFFSET);
	uint32_t strings_offset = read_be32(bytes + HEADER_STRINGS_OFFSET);
	uint32_t strings_size = read_be32(bytes + HEADER_STRINGS_SIZE);
	uint32_t memreserve_offset = read_be32(bytes + HEADER_MEMRESERVE_OFFSET);
	uint32_t struct_size;
	if (version >= 17)
		struct_size = read_be32(bytes + HEADER_STRUCT_SIZE);
	else if (struct_offset <= total_size)
		struct_size = total_size - struct_offset; /* v16 has no size field */
	else
		return -1;

	/* 64-bit sums: a 32-bit offset plus size must not wrap to look in bounds. */
	if ((struct_offset & 3) != 0 || struct_offset < header_size ||
	    (uint64_t)struct_offset + struct_size > total_size)
		return -1;
	if (strings_offset < header_size || (uint64_t)strings_offset + strings_size > total_size)
		return -1;
	if ((memreserve_offset & 7) != 0 || memreserve_offset < header_size ||
	    (uint64_t)memreserve_offset + FDT_MEMRESERVE_ENTRY > total_size)
		return -1;

	fdt->blob = bytes;
	fdt->total_size = total_size;
	fdt->structs = bytes + struct_offset;
	fdt->structs_size = struct_size;
	fdt->strings = (const char *)bytes + strings_offset;
	fdt->strings_size = strings_size;
	fdt->memreserve = bytes + memreserve_offset;
	return 0;
}

/* Called by boot code that must know how much memory the blob spans before trusting
 * it (e.g. to reserve it); reads only the first 8 bytes. Never sleeps. */
uint32_t fdt_total_size(const void *blob)
{
	const uint8_t *bytes = blob;

	if (!bytes || read_be32(bytes) != FDT_MAGIC)
		return 0;
	return read_be32(bytes + HEADER_TOTAL_SIZE);
}

/* Called by platform_from_fdt(); never sleeps. The block has no size of its own: it
 * ends at an all-zero entry, and we never look past the blob's total size. */
int fdt_memreserve(const struct fdt *fdt, int index, uint64_t *base, uint64_t *size)
{
	if (index < 0 || !fdt->memreserve)
		return -1;
	uint64_t offset = (uint64_t)(fdt->memreserve - fdt->blob);
	for (int i = 0; offset + FDT_MEMRESERVE_ENTRY <= fdt->total_size;
	     i++, offset += FDT_MEMRESERVE_ENTRY) {
		uint64_t entry_base = read_be64(fdt->blob + offset);
		uint64_t entry_size = read_be64(fdt->blob + offset + 8);
		if (entry_base == 0 && entry_size == 0)
			return -1;
		if (i == index) {
			*base = entry_base;
			*size = entry_size;
			return 0;
		}
	}
	return -1;
}

/* Any caller; never sleeps. The root is the first token of the block, NOPs aside. */
int fdt_root(const struct fdt *fdt)
{
	return node_at(fdt, 0);
}

/* Any caller; never sleeps. NULL if `node` is not a node. */
const char *fdt_node_name(const struct fdt *fdt, int node)
{
	int next;

	if (read_token(fdt, node, &next) != FDT_BEGIN_NODE)
		return NULL;
	return (const char *)fdt->structs + node + 4;
}

/* Any caller; never sleeps. */
int fdt_first_child(const struct fdt *fdt, int node)
{
	int offset, next, token;

	if (read_token(fdt, node, &offset) != FDT_BEGIN_NODE)
		return -1;
	while ((token = read_token(fdt, offset, &next)) == FDT_PROP || token == FDT_NOP)
		offset = next;
	return token == FDT_BEGIN_NODE ? offset : -1;
}

/* Any caller; never sleeps. */
int fdt_next_sibling(const struct fdt *fdt, int node)
{
	return node_at(fdt, node_end(fdt, node));
}

/* Any caller; never sleeps. The blob has no parent links, so descend from the root
 * into whichever child's subtree spans `node`. */
int fdt_parent(const struct fdt *fdt, int node)
{
	int parent = fdt_root(fdt);

	if (parent < 0 || node <= parent)
		return -1;
	for (;;) {
		int child = fdt_first_child(fdt, parent);
		int end = -1;
		for (; child >= 0; child = node_at(fdt, end)) {
			if (child == node)
				return parent;
			if (node < child)
				return -1; /* between nodes: not the start of one */
			end = node_end(fdt, child);
			if (end < 0 || node < end)
				break;
		}
		/* Either no child spans `node` (it is not the start of a node, or the tree
		 * is broken), or `node` lies inside this child's subtree: look there. */
		if (child < 0 || end < 0)
			return -1;
		parent = child;
	}
}

/* Any caller; never sleeps. An alias may be followed by more components
 * ("serial0/child"); its value must itself be an absolute path. */
int fdt_path(const struct fdt *fdt, const char *path)
{
	int root = fdt_root(fdt);

	if (root < 0 || !path)
		return -1;
	if (path[0] == '/')
		return walk_path(fdt, root, path);

	size_t alias_length = 0;
	while (path[alias_length] != '\0' && path[alias_length] != '/')
		alias_length++;
	if (alias_length == 0)
		return -1;
	int aliases = walk_path(fdt, root, "/aliases");
	uint32_t length;
	const char *target = find_property(fdt, aliases, path, alias_length, &length);
	if (!target || length == 0 || target[0] != '/' || strnlen(target, length) == length)
		return -1;
	return walk_path(fdt, walk_path(fdt, root, target), path + alias_length);
}

/* Any caller; never sleeps. */
int fdt_next_compatible(const struct fdt *fdt, int after, const char *compatible)
{
	for (int node = next_node(fdt, after); node >= 0; node = next_node(fdt, node))
		if (fdt_stringlist_contains(fdt, node, "compatible", compatible))
			return node;
	return -1;
}

/* Any caller; never sleeps. 0 and 0xffffffff are never valid phandles. */
int fdt_node_by_phandle(const struct fdt *fdt, uint32_t phandle)
{
	if (phandle == 0 || phandle == 0xffffffffu)
		return -1;
	for (int node = next_node(fdt, -1); node >= 0; node = next_node(fdt, node)) {
		uint32_t value;
		if ((fdt_prop_u32(fdt, node, "phandle", &value) ||
		     fdt_prop_u32(fdt, node, "linux,phandle", &value)) &&
		    value == phandle)
			return node;
	}
	return -1;
}

/* Any caller; never sleeps. */
const void *fdt_prop(const struct fdt *fdt, int node, const char *name, uint32_t *len)
{
	return find_property(fdt, node, name, strlen(name), len);
}

/* Any caller; never sleeps. *value is left alone when this returns false. */
bool fdt_prop_u32(const struct fdt *fdt, int node, const char *name, uint32_t *value)
{
	uint32_t length;
	const uint8_t *data = fdt_prop(fdt, node, name, &length);

	if (!data || length < 4)
		return false;
	*value = read_be32(data);
	return true;
}

/* Any caller; never sleeps. For a string list this is the first string. */
const char *fdt_prop_string(const struct fdt *fdt, int node, const char *name)
{
	uint32_t length;
	const char *data = fdt_prop(fdt, node, name, &length);

	if (!data || length == 0 || strnlen(data, length) == length)
		return NULL;
	return data;
}

/* Any caller; never sleeps. An unterminated tail of the list is ignored. */
bool fdt_stringlist_contains(const struct fdt *fdt, int node, const char *name, const char *value)
{
	uint32_t length;
	const char *data = fdt_prop(fdt, node, name, &length);

	if (!data)
		return false;
	while (length > 0) {
		size_t string_length = strnlen(data, length);
		if (string_length == length)
			return false;
		if (strcmp(data, value) == 0)
			return true;
		data += string_length + 1;
		length -= (uint32_t)string_length + 1;
	}
	return false;
}

/* Any caller; never sleeps. More than two cells keep only the low 64 bits. */
uint64_t fdt_read_cells(const uint32_t *cells, int count)
{
	const uint8_t *bytes = (const uint8_t *)cells;
	uint64_t value = 0;

	for (int i = 0; i < count; i++)
		value = value << 32 | read_be32(bytes + 4 * i);
	return value;
}

/* Any caller; never sleeps. -1 if the parent's value is absurd. */
int fdt_address_cells(const struct fdt *fdt, int node)
{
	int address_cells, size_cells;

	reg_cells(fdt, node, &address_cells, &size_cells);
	return address_cells;
}

/* Any caller; never sleeps. -1 if the parent's value is absurd. */
int fdt_size_cells(const struct fdt *fdt, int node)
{
	int address_cells, size_cells;

	reg_cells(fdt, node, &address_cells, &size_cells);
	return size_cells;
}

/* Any caller; never sleeps. Only 1- or 2-cell addresses and 0- to 2-cell sizes fit
 * in a uint64_t; anything else (a PCI address, say) is reported as absent. */
int fdt_reg(const struct fdt *fdt, int node, int index, uint64_t *base, uint64_t *size)
{
	int address_cells, size_cells;
	uint32_t length;

	reg_cells(fdt, node, &address_cells, &size_cells);
	if (index < 0 || address_cells < 1 || address_cells > 2 || size_cells < 0 || size_cells > 2)
		return -1;
	const uint32_t *reg = fdt_prop(fdt, node, "reg", &length);
	uint32_t entry_cells = (uint32_t)(address_cells + size_cells);
	if (!reg || (uint32_t)index >= length / (4 * entry_cells))
		return -1;
	const uint32_t *entry = reg + (uint32_t)index * entry_cells;
	*base = fdt_read_cells(entry, address_cells);
	*size = fdt_read_cells(entry + address_cells, size_cells);
	return 0;
}

/* Any caller; never sleeps. A status that is present but unreadable counts as
 * disabled: better to ignore a device than to drive one firmware meant to hide. */
bool fdt_node_reserved(const struct fdt *fdt, int node)
{
	const char *status = fdt_prop_string(fdt, node, "status");
	return status && strcmp(status, "reserved") == 0;
}

bool fdt_node_enabled(const struct fdt *fdt, int node)
{
	uint32_t length;

	if (!fdt_prop(fdt, node, "status", &length))
		return true;
	const char *status = fdt_prop_string(fdt, node, "status");
	return status && (strcmp(status, "okay") == 0 || strcmp(status, "ok") == 0);
}
