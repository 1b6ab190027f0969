/*
 * percpu.h: the percpu allocator (mm/percpu.c): what alloc_percpu() hands out and where it lives.
 *
 * Glossary (the kernel's words; docs/kernel/percpu.md explains them at length):
 *   unit         one possible CPU's copy of a chunk: an area at offset off exists at off inside
 *                every unit, so one allocation costs size bytes per CPU.
 *   group        the units of CPUs that are LOCAL_DISTANCE from each other (a NUMA node here).
 *   chunk        a run of unit_size bytes per unit. The first chunk is embedded at boot
 *                (static | reserved | dynamic areas); dynamic chunks are created when nothing
 *                fits and start unpopulated.
 *   populated    a chunk page is backed by page frames in every unit (percpu-vm.c).
 *   slot         chunks sit on slot lists by how much they can serve (free bytes up to 5.0,
 *                the contig hint since 5.1); allocation walks slots upwards from the request's.
 *   area map     (<= 4.13) int map[]: the sorted start offsets of the chunk's areas, bit 0 =
 *                in use, a sentinel unit_size|1 at map[map_used]; first fit from first_free,
 *                memmove on every split and merge; contig_hint in bytes.
 *   bitmap       (4.14+) alloc_map (a bit per 4 bytes in use), bound_map (a bit at each area's
 *                start and just after its end) and a pcpu_block_md of hints per page.
 *   block md     contig_hint(_start), scan_hint(_start) (5.1+), left_free, right_free,
 *                first_free, all in bits; the chunk keeps one for itself (chunk_md, 5.1+; 4.14:
 *                contig_bits, contig_bits_start, first_bit).
 *
 * Shape: everything lives in the percpu region of the arena (sim_subsystem_region): a struct
 * pcpu_state, then the chunk table, the per-chunk data (fixed stride), the percpu handles and,
 * for the area map, a pool of map[] entries that maps grow in. Lists are linked by chunk index.
 */
#ifndef BUDDYSCOPE_PERCPU_H
#define BUDDYSCOPE_PERCPU_H

#include "base/subsystem.h"
#include "base/types.h"

#define PCPU_NONE 0xffffffffu	 /* end of a chunk list; an empty handle */
#define PCPU_PAGE_SIZE 4096	 /* PAGE_SIZE */
#define PCPU_MIN_ALLOC_SIZE 4	 /* bitmap granule: one bit per 4 bytes (PCPU_MIN_ALLOC_SHIFT 2) */
#define PCPU_BLOCK_BITS 1024	 /* PCPU_BITMAP_BLOCK_BITS: one metadata block per page */
#define PCPU_MIN_UNIT_SIZE 32768 /* the largest request, and the smallest unit */
#define PCPU_SLOT_BASE_SHIFT 5	 /* slot 1 holds 1..15 bytes ... (fls(size) - 5 + 2) */
#define PCPU_SLOT_FAIL_THRESHOLD 3  /* 5.1+: a chunk failing a fit in a slot below this goes to 0 */
#define PCPU_EMPTY_POP_PAGES_LOW 2  /* fewer empty populated pages schedule the balance work */
#define PCPU_EMPTY_POP_PAGES_HIGH 4 /* ... which populates up to this many */
#define PCPU_DFL_MAP_ALLOC 16	    /* area map: entries of a new dynamic chunk's map */
#define PCPU_EARLY_MAP_ALLOC \
	128 /* area map: the first chunk's static map (PERCPU_DYNAMIC_EARLY_SLOTS) */
#define PCPU_ATOMIC_MAP_MARGIN_LOW 32  /* area map: atomic requests queue an extension below this */
#define PCPU_ATOMIC_MAP_MARGIN_HIGH 64 /* area map: spare entries a sleeping request ensures */
#define PCPU_DYNAMIC_RESERVE (28 << 10)	   /* x86-64 dyn request (PERCPU_DYNAMIC_RESERVE) */
#define PCPU_DYNAMIC_EARLY_SIZE (20 << 10) /* the least dynamic area (6.18; 12 KiB in 4.14) */
#define PCPU_ATOM_SIZE (2u << 20)	   /* x86-64 embeds the first chunk in PMD_SIZE atoms */
#define PCPU_DEFAULT_STATIC_SIZE 185560	   /* the live 6.18 machine's static percpu bytes */
#define PCPU_MAX_STATIC_SIZE (16u << 20)   /* the model's bound on a configured static size */
#define PCPU_MAX_SLOTS 32		   /* slot lists at most (unit sizes up to 2^27) */
#define PCPU_MAX_CHUNKS 8192		   /* chunk table entries at most */
#define PCPU_MAP_CLASSES 24		   /* power-of-two map block sizes 2^0 .. 2^23 entries */

/* struct pcpu_block_md: the hints of one page of a chunk, or of the whole chunk; all in bits */
struct pcpu_block_md {
	int32_t scan_hint;	   /* 5.1+: a known free run before the contig hint; 0 = none */
	int32_t scan_hint_start;   /* its start */
	int32_t contig_hint;	   /* the largest known free run */
	int32_t contig_hint_start; /* its start */
	int32_t left_free;	   /* free bits at the block's start */
	int32_t right_free;	   /* free bits at the block's end */
	int32_t first_free;	   /* the first free bit */
	int32_t nr_bits; /* bits it covers (1024 for a page; the map's bits for chunk_md) */
};

/* One chunk of the table: its list links, its counters and its allocator's chunk-wide state. */
struct pcpu_chunk {
	uint32_t prev, next;	    /* slot list links by chunk index; PCPU_NONE ends */
	uint32_t nr_pages;	    /* pages per unit */
	uint32_t nr_populated;	    /* pages backed in every unit */
	int32_t nr_empty_pop_pages; /* populated pages holding no allocated byte */
	int32_t free_bytes;	    /* free bytes (area map: free_size) */
	int32_t start_offset; /* first chunk: bytes before the served region (pre-allocated) */
	int32_t end_offset;   /* first chunk: bytes after it (pre-allocated) */
	uint32_t base_offset; /* byte offset of the chunk's start inside a unit's address range */
	uint32_t base_page;   /* first chunk: its first page in the unit (for addresses) */
	uint8_t in_use;	      /* the table entry holds a chunk */
	uint8_t slot;	      /* the slot list it is on */
	uint8_t immutable;    /* the first and reserved chunks: never (de)populated or freed */
	uint8_t isolated;     /* 5.14+: on the to_depopulate list */
	uint8_t reserved;     /* the reserved chunk: serves reserved requests only */
	uint8_t map_extend_queued; /* area map: an atomic request queued an extension */
	uint16_t pad;
	struct pcpu_block_md
		chunk_md; /* bitmap: the chunk's hints (4.14 uses contig and first_free only) */
	/* area map */
	int32_t contig_hint; /* bytes: at least the largest free area */
	int32_t map_used;    /* areas; map[map_used] is the sentinel */
	int32_t map_alloc;   /* entries the map can hold */
	int32_t first_free;  /* map index to start the first-fit walk at */
	uint32_t map_block;  /* the map's entries in the pool (entry index) */
	uint32_t gap_start;  /* the model's gap buffer: logical index where the gap sits */
	uint32_t gap_len;    /* entries in the gap (map_alloc - map_used - 1) */
	/* percpu_stats */
	uint32_t nr_alloc;	 /* live areas */
	uint32_t max_alloc_size; /* the largest area ever allocated, bytes */
};

/* What the model counts: the work of the kernel's allocator, per phase (alloc, free, balance). */
struct pcpu_work {
	uint64_t ops;		  /* requests in this phase */
	uint64_t entries_scanned; /* area map entries walked by first fit */
	uint64_t bytes_memmoved;  /* bytes the kernel's memmove of map[] moves */
	uint64_t bytes_memcpyd;	  /* bytes the kernel copies to grow a map */
	uint64_t probes;	  /* binary-search probes of map[] */
	uint64_t words_scanned;	  /* bitmap words read by bit searches */
	uint64_t blocks_visited;  /* pcpu_block_md visited by fits and refreshes */
	uint64_t block_refreshes; /* pcpu_block_refresh_hint calls */
	uint64_t chunk_refreshes; /* pcpu_chunk_refresh_hint calls */
	uint64_t pages_populated; /* chunk pages populated (each maps nr_cpus frames) */
	uint64_t pages_depopulated;
	uint64_t chunks_created;
	uint64_t chunks_destroyed;
	uint64_t relocations;  /* chunks moved between slot lists */
	uint64_t bytes_zeroed; /* bytes the allocation clears, every unit */
};

enum pcpu_phase { PCPU_PHASE_ALLOC, PCPU_PHASE_FREE, PCPU_PHASE_BALANCE, NR_PCPU_PHASES };

/* A percpu handle: the area an alloc put there. */
struct pcpu_handle {
	uint32_t chunk; /* chunk index, PCPU_NONE when empty */
	int32_t off;	/* the area's byte offset in the chunk */
	int32_t size;	/* the rounded size the request asked for (what percpu_free prints) */
	int32_t cpu;	/* the allocating CPU */
};

/* The percpu allocator's whole state: the header of its arena region. */
struct pcpu_state {
	/* geometry: pcpu_build_alloc_info and pcpu_setup_first_chunk */
	uint32_t static_size, reserved_size, dyn_size; /* s, r, d of the boot line */
	uint32_t unit_size, atom_size, alloc_size; /* u; the embedding atom; units per alloc * u */
	uint32_t size_sum;			   /* page-aligned static + reserved + dyn */
	uint32_t nr_units, nr_groups, upa;	   /* units (CPUs rounded up per group) */
	uint32_t unit_pages;			   /* pages of a dynamic chunk */
	uint32_t nr_slots;			   /* slot lists */
	uint32_t free_slot;			   /* completely free chunks */
	uint32_t sidelined_slot;     /* 5.14+: depopulated chunks waiting; PCPU_NONE before */
	uint32_t to_depopulate_slot; /* 5.14+: isolated chunks; PCPU_NONE before */
	uint32_t map_bits;	     /* bits of a dynamic chunk's bitmaps */
	/* the arena */
	uint32_t max_chunks;   /* chunk table entries */
	uint32_t chunks_off;   /* struct pcpu_chunk[max_chunks], from the region's start */
	uint32_t data_off;     /* per-chunk data, chunk_stride bytes each */
	uint32_t chunk_stride; /* bytes of one chunk's data */
	uint32_t handles_off;  /* struct pcpu_handle[config.percpu_handles] */
	uint32_t pool_off;     /* area map entries (int32_t) */
	uint32_t pool_entries; /* entries in the pool */
	uint32_t pool_bump;    /* entries handed out from the pool's start */
	uint32_t pool_free
		[PCPU_MAP_CLASSES]; /* freed map blocks by size class, linked through entry 0 */
	/* data offsets inside one chunk's data */
	uint32_t d_populated, d_pages_used, d_pfns, d_alloc_map, d_bound_map, d_md_blocks;
	/* chunks */
	uint32_t first_chunk;	 /* pcpu_first_chunk: serves the dynamic area */
	uint32_t reserved_chunk; /* pcpu_reserved_chunk, PCPU_NONE without a reserved area */
	uint32_t unused_chunks;	 /* table entries holding no chunk, linked by next */
	uint32_t slot_head[PCPU_MAX_SLOTS], slot_tail[PCPU_MAX_SLOTS];
	int32_t nr_empty_pop_pages; /* pcpu_nr_empty_pop_pages: not the reserved or isolated chunks */
	uint32_t nr_populated;	    /* pcpu_nr_populated: pages counted by /proc/meminfo */
	uint8_t balance_pending;    /* pcpu_schedule_balance_work was called */
	uint8_t atomic_alloc_failed;
	uint8_t pad[6];
	/* /sys/kernel/debug/percpu_stats (mm/percpu-stats.c) */
	uint64_t nr_alloc, nr_dealloc;
	uint32_t nr_cur_alloc, nr_max_alloc;
	uint32_t nr_chunks, nr_max_chunks;
	uint32_t min_alloc_size, max_alloc_size;
	struct pcpu_work work[NR_PCPU_PHASES];
};

/* The percpu region of s (NULL when the arena has none). */
static inline struct pcpu_state *pcpu_state(const struct sim *s)
{
	extern const struct subsystem percpu_subsystem;
	return (struct pcpu_state *)sim_subsystem_region(s, &percpu_subsystem);
}

/* Chunk i of the table. */
static inline struct pcpu_chunk *pcpu_chunk(struct pcpu_state *ps, uint32_t i)
{
	return (struct pcpu_chunk *)((char *)ps + ps->chunks_off) + i;
}

/* The base of chunk i's data. */
static inline char *pcpu_chunk_data(struct pcpu_state *ps, uint32_t i)
{
	return (char *)ps + ps->data_off + (size_t)i * ps->chunk_stride;
}

/* Chunk i's populated bitmap (one bit per page). */
static inline uint64_t *pcpu_populated(struct pcpu_state *ps, uint32_t i)
{
	return (uint64_t *)(pcpu_chunk_data(ps, i) + ps->d_populated);
}

/* Chunk i's allocated bytes per page (the model's count behind nr_empty_pop_pages). */
static inline uint16_t *pcpu_pages_used(struct pcpu_state *ps, uint32_t i)
{
	return (uint16_t *)(pcpu_chunk_data(ps, i) + ps->d_pages_used);
}

/* Chunk i's page frames: [page * nr_cpus + cpu], PFN_NONE when unpopulated. */
static inline uint32_t *pcpu_pfns(struct pcpu_state *ps, uint32_t i)
{
	return (uint32_t *)(pcpu_chunk_data(ps, i) + ps->d_pfns);
}

/* Chunk i's alloc_map (bitmap allocator). */
static inline uint64_t *pcpu_alloc_map(struct pcpu_state *ps, uint32_t i)
{
	return (uint64_t *)(pcpu_chunk_data(ps, i) + ps->d_alloc_map);
}

/* Chunk i's bound_map (bitmap allocator). */
static inline uint64_t *pcpu_bound_map(struct pcpu_state *ps, uint32_t i)
{
	return (uint64_t *)(pcpu_chunk_data(ps, i) + ps->d_bound_map);
}

/* Chunk i's md_blocks, one per page (bitmap allocator). */
static inline struct pcpu_block_md *pcpu_md_blocks(struct pcpu_state *ps, uint32_t i)
{
	return (struct pcpu_block_md *)(pcpu_chunk_data(ps, i) + ps->d_md_blocks);
}

/* The percpu handle table. */
static inline struct pcpu_handle *pcpu_handles(struct pcpu_state *ps)
{
	return (struct pcpu_handle *)((char *)ps + ps->handles_off);
}

/* The area map entry pool. */
static inline int32_t *pcpu_pool(struct pcpu_state *ps)
{
	return (int32_t *)((char *)ps + ps->pool_off);
}

/* Bits of chunk c's bitmaps (pcpu_chunk_map_bits). */
static inline int pcpu_chunk_map_bits(const struct pcpu_chunk *c)
{
	return (int)(c->nr_pages * (PCPU_PAGE_SIZE / PCPU_MIN_ALLOC_SIZE));
}

/* Whether page p of chunk i is populated. */
static inline int pcpu_page_populated(struct pcpu_state *ps, uint32_t i, uint32_t p)
{
	return (int)((pcpu_populated(ps, i)[p / 64] >> (p % 64)) & 1);
}

/* ---- geometry.c ---- */

/* pcpu_build_alloc_info for cfg: fills the geometry fields of ps; 0, or -1 if cfg cannot boot. */
int pcpu_geometry(const struct sim_config *cfg, struct pcpu_state *ps);

/* The percpu region's bytes for cfg (struct subsystem.arena_bytes); lays out ps's offsets too when ps != NULL. */
uint64_t pcpu_layout(const struct sim_config *cfg, struct pcpu_state *ps);

/* ---- chunk.c ---- */

/* __pcpu_size_to_slot: max(fls(size) - 5 + 2, 1). */
int pcpu_size_to_slot_raw(int size);

/* pcpu_size_to_slot: the free slot for a whole unit, else the raw slot. */
int pcpu_size_to_slot(const struct pcpu_state *ps, int size);

/* pcpu_chunk_slot of the profile: by free bytes (<= 5.0) or by contig hint (5.1+). */
int pcpu_chunk_slot(const struct sim *s, struct pcpu_state *ps, const struct pcpu_chunk *c);

/* pcpu_chunk_relocate: move chunk ci to the slot it now belongs in (oslot: where it was, -1 new). */
void pcpu_chunk_relocate(struct sim *s, struct pcpu_state *ps, uint32_t ci, int oslot, int cpu,
			 int phase);

/* pcpu_chunk_move: put chunk ci at the tail of slot's list (5.1+ relegation, isolation). */
void pcpu_chunk_move(struct pcpu_state *ps, uint32_t ci, int slot);

/* pcpu_create_chunk: a new empty dynamic chunk on the free slot; PCPU_NONE when the table is full. */
uint32_t pcpu_create_chunk(struct sim *s, struct pcpu_state *ps, int cpu, int phase);

/* pcpu_destroy_chunk: depopulate and drop an empty dynamic chunk. */
void pcpu_destroy_chunk(struct sim *s, struct pcpu_state *ps, uint32_t ci, int cpu, int phase);

/* pcpu_populate_chunk: back pages [rs, re) of every unit; 0, or -1 when the page allocator failed (nothing kept). */
int pcpu_populate(struct sim *s, struct pcpu_state *ps, uint32_t ci, int rs, int re, int cpu,
		  int phase);

/* pcpu_depopulate_chunk: give pages [rs, re) of every unit back. */
void pcpu_depopulate(struct sim *s, struct pcpu_state *ps, uint32_t ci, int rs, int re, int cpu,
		     int phase);

/* Account bytes [off, off + size) of chunk ci as allocated (delta > 0) or freed (< 0), per page. */
void pcpu_account_pages(struct pcpu_state *ps, uint32_t ci, int off, int size, int delta);

/* pcpu_balance_workfn: destroy extra free chunks, depopulate, populate to the target. */
void pcpu_balance_work(struct sim *s, struct pcpu_state *ps, int cpu);

/* ---- area_map.c (<= 4.13) ---- */

/* A new chunk's map: one free area of size bytes after a used head of head bytes (0: none). */
int pcpu_map_init(struct pcpu_state *ps, struct pcpu_chunk *c, int head, int size, int alloc);

/* Drop a chunk's map back to the pool. */
void pcpu_map_release(struct pcpu_state *ps, struct pcpu_chunk *c);

/* Entry i of a chunk's map (logical index, the sentinel is map[map_used]). */
int32_t pcpu_map_get(struct pcpu_state *ps, const struct pcpu_chunk *c, uint32_t i);

/* pcpu_need_to_extend: the map size to grow to before allocating, or 0. */
int pcpu_need_to_extend(struct pcpu_state *ps, struct pcpu_chunk *c, int is_atomic);

/* pcpu_extend_area_map: grow the map to new_alloc entries; 0, or -1 when the pool is exhausted. */
int pcpu_extend_area_map(struct sim *s, struct pcpu_state *ps, uint32_t ci, int new_alloc, int cpu,
			 int phase);

/* pcpu_alloc_area (area map): first fit of size at align; the offset, or -1 (hint updated). */
int pcpu_area_alloc(struct sim *s, struct pcpu_state *ps, uint32_t ci, int size, int align,
		    int pop_only, int cpu);

/* pcpu_free_area (area map): free the area starting at off; its size, or -1 when none starts there. */
int pcpu_area_free(struct sim *s, struct pcpu_state *ps, uint32_t ci, int off, int cpu);

/* ---- bitmap.c (4.14+) ---- */

/* pcpu_init_md_blocks and an empty bitmap for a chunk of nr_pages (start/end offsets pre-allocated). */
void pcpu_bitmap_init(struct sim *s, struct pcpu_state *ps, uint32_t ci);

/* pcpu_find_block_fit: the bit offset to search from, or -1. */
int pcpu_find_block_fit(struct sim *s, struct pcpu_state *ps, uint32_t ci, int bits, int align,
			int pop_only, int phase);

/* pcpu_alloc_area (bitmap): the byte offset, or -1. */
int pcpu_bitmap_alloc(struct sim *s, struct pcpu_state *ps, uint32_t ci, int bits, int align,
		      int start, int cpu);

/* pcpu_free_area (bitmap): free the area at off; its size in bytes, or -1 when none starts there. */
int pcpu_bitmap_free(struct sim *s, struct pcpu_state *ps, uint32_t ci, int off, int cpu);

/* Whether chunk ci is completely free (slot-independent). */
int pcpu_chunk_empty(struct sim *s, struct pcpu_state *ps, uint32_t ci);

/* ---- text.c ---- */

/* The boot line "percpu: Embedded N pages/cpu sS rR dD uU" (no newline) into buf; its length. */
size_t pcpu_boot_line(const struct sim *s, char *buf, size_t cap);

/* /sys/kernel/debug/percpu_stats as mm/percpu-stats.c prints it; the length it needs. */
size_t pcpu_stats_render(struct sim *s, char *buf, size_t cap);

/* The "Percpu:" line of /proc/meminfo with newline; the length it needs. */
size_t pcpu_meminfo_line(const struct sim *s, char *buf, size_t cap);

/* ---- check.c ---- */

/* The percpu part of sim_check: bitmaps, boundary bits, hints, area maps, lists and counters. */
int percpu_check(struct sim *s);

/* The pages its chunks hold from the page allocator (the subsystem's owned_pages hook). */
uint64_t percpu_owned_pages(const struct sim *s);

/* Virtual nanoseconds of one phase's work: the documented weighted sum (docs/kernel/percpu.md). */
uint64_t pcpu_work_ns(const struct pcpu_work *w);

/* The percpu allocator's entry points for the base (percpu/ops.c). */
extern const struct subsystem percpu_subsystem;

#endif
