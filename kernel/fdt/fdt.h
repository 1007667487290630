/* A small reader for flattened device trees (DTB, devicetree-specification v0.4,
 * chapter 5 "Flattened Devicetree (DTB) Format").
 *
 * Pure code: it reads a blob in memory and never allocates, locks or sleeps, so any
 * caller may use it at any time, and host unit tests link it directly.
 * Nodes are named by their offset into the structure block (an int >= 0);
 * functions return a negative value for "not found" or "malformed". */
#ifndef DUPLEX_FDT_H
#define DUPLEX_FDT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FDT_MAGIC 0xd00dfeedu

struct fdt {
	const uint8_t *blob;
	uint32_t total_size;
	const uint8_t *structs; /* structure block */
	uint32_t structs_size;
	const char *strings; /* strings block */
	uint32_t strings_size;
	const uint8_t *memreserve; /* memory reservation block */
};

/* Check the header (magic, version >= 16, block bounds inside totalsize) and fill *fdt.
 * Returns 0 or -1. */
int fdt_open(struct fdt *fdt, const void *blob);

/* Size in bytes claimed by the header of the blob at `blob`, or 0 if the magic is wrong. */
uint32_t fdt_total_size(const void *blob);

/* Memory reservation block entry `index`: 0 and *base and *size set, or -1 past the end. */
int fdt_memreserve(const struct fdt *fdt, int index, uint64_t *base, uint64_t *size);

int fdt_root(const struct fdt *fdt);
/* Node name including any unit address ("serial@10000000"); "" for the root. */
const char *fdt_node_name(const struct fdt *fdt, int node);
/* First child / next sibling of a node, or -1. */
int fdt_first_child(const struct fdt *fdt, int node);
int fdt_next_sibling(const struct fdt *fdt, int node);
/* Parent of a node (found by a scan from the root), or -1 for the root. */
int fdt_parent(const struct fdt *fdt, int node);

/* Node at an absolute path such as "/soc/serial@10000000" or "/chosen"; a path
 * component without a unit address matches a node name with one ("/cpus/cpu" matches
 * "cpu@0"). An alias name (no leading '/') is resolved through /aliases. -1 if absent. */
int fdt_path(const struct fdt *fdt, const char *path);

/* Next node after `after` (document order; pass -1 to start) whose "compatible"
 * string list contains `compatible`, or -1. */
int fdt_next_compatible(const struct fdt *fdt, int after, const char *compatible);
/* Node whose "phandle" (or "linux,phandle") equals `phandle`, or -1. */
int fdt_node_by_phandle(const struct fdt *fdt, uint32_t phandle);

/* Property value and length in bytes, or NULL if the node lacks it. */
const void *fdt_prop(const struct fdt *fdt, int node, const char *name, uint32_t *len);
/* Read a single big-endian u32 property; false if absent or shorter than 4 bytes, and
 * then *value is left untouched (so callers may preload a default). */
bool fdt_prop_u32(const struct fdt *fdt, int node, const char *name, uint32_t *value);
/* A property holding a NUL-terminated string; NULL if absent or not terminated. */
const char *fdt_prop_string(const struct fdt *fdt, int node, const char *name);
/* True if the string-list property `name` contains `value` exactly. */
bool fdt_stringlist_contains(const struct fdt *fdt, int node, const char *name, const char *value);
/* Big-endian number of `cells` 32-bit cells (1 or 2) at cells[0]. */
uint64_t fdt_read_cells(const uint32_t *cells, int count);

/* #address-cells / #size-cells that apply to `node`'s reg (read from its parent;
 * spec defaults 2 and 1). */
int fdt_address_cells(const struct fdt *fdt, int node);
int fdt_size_cells(const struct fdt *fdt, int node);
/* Entry `index` of the node's "reg" property: 0 and *base and *size set, or -1. */
int fdt_reg(const struct fdt *fdt, int node, int index, uint64_t *base, uint64_t *size);
/* True if the node has no "status" or status is "okay"/"ok". */
bool fdt_node_enabled(const struct fdt *fdt, int node);
/* True if status is "reserved": the device is there but left to firmware (devicetree
 * specification v0.4, 2.3.4 "status"). */
bool fdt_node_reserved(const struct fdt *fdt, int node);

#endif
