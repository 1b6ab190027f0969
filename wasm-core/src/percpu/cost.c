/*
 * cost.c: virtual time from counts. The model never measures a millisecond: each phase's time is
 * a weighted sum of the work the kernel's allocator does, with weights of an x86-64 server of
 * 2017 (docs/kernel/percpu.md lists and explains them). Seed 002 is reproduced by the shape the
 * counts give (which allocator, size and free order costs more), not by these constants.
 */
#include "percpu/percpu.h"

/* Weights in picoseconds per unit of work. */
enum {
	W_OP = 60000,	     /* a request: locks, lookups, the tracepoint */
	W_ENTRY = 2000,	     /* an area map entry read by first fit */
	W_MEMMOVE_BYTE = 62, /* memmove at 16 bytes per ns */
	W_MEMCPY_BYTE = 62,  /* memcpy of a growing map, same rate */
	W_PROBE = 3000,	     /* a binary-search probe (a likely cache miss in a big map) */
	W_WORD = 1000,	     /* a 64-bit bitmap word read by a bit search */
	W_BLOCK = 1000,	     /* a pcpu_block_md visited */
	W_REFRESH = 10000,   /* a block or chunk refresh's fixed cost */
	W_PAGE = 1000000,    /* populating or depopulating a chunk page in every unit */
	W_CHUNK = 20000000,  /* creating or destroying a chunk (vmalloc area, metadata) */
	W_RELOCATE = 5000,   /* moving a chunk between slot lists */
	W_ZERO_BYTE = 62,    /* clearing the new area in every unit */
};

uint64_t pcpu_work_ns(const struct pcpu_work *w)
{
	uint64_t ps = w->ops * W_OP + w->entries_scanned * W_ENTRY +
		      w->bytes_memmoved * W_MEMMOVE_BYTE + w->bytes_memcpyd * W_MEMCPY_BYTE +
		      w->probes * W_PROBE + w->words_scanned * W_WORD +
		      w->blocks_visited * W_BLOCK +
		      (w->block_refreshes + w->chunk_refreshes) * W_REFRESH +
		      (w->pages_populated + w->pages_depopulated) * W_PAGE +
		      (w->chunks_created + w->chunks_destroyed) * W_CHUNK +
		      w->relocations * W_RELOCATE + w->bytes_zeroed * W_ZERO_BYTE;

	return ps / 1000;
}
