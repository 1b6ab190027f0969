/*
 * state.h: reaching the arrays of the arena and the frames behind pfns. Inline, because every
 * list operation goes through them.
 */
#ifndef BUDDYSCOPE_STATE_H
#define BUDDYSCOPE_STATE_H

#include "base/types.h"

/*
 * Frames materialised on demand. Memory is cut into max-order blocks (2^max_order pfns, aligned,
 * from pfn 0). A block that is one thing from end to end is *whole*: only its head says anything,
 * and that head lives in the per-block table (sim_block_heads). Three things are (base/frames.h):
 * a block free at the largest order, captured in-use memory of the largest order
 * (PAGEF_CAPTURED), and an LRU extent (PAGEF_EXTENT). Once something splits, allocates or frees
 * inside it, the block gets a slab of 2^max_order struct page records from the pool
 * (base/frames.c), found through the per-block table (sim_block_frames); the slab goes back when
 * the block merges whole again (or the capture lays a whole block over it). Every
 * frame access goes through frame_at: one table load more than a flat array, no branch taken on
 * the common (materialised) path beyond the test of that load.
 */

/*
 * The per-block table sits right after the header (machine.c lays it out there), so its address
 * is a constant. An entry is where the block's frames are: the byte offset that, added to
 * pfn * sizeof(struct page) in 32-bit arithmetic, gives pfn's record in its slab (so a lookup is
 * one load, one compare and one multiply-add); BLOCK_WHOLE for a whole block.
 */
#define SIM_BLOCK_FRAMES_OFF ((sizeof(struct sim) + 7) & ~(size_t)7)

/* The nodes, struct node [config.nr_nodes] (sized by the machine, so a small one copies little). */
static inline struct node *sim_nodes(const struct sim *s)
{
	return (struct node *)((char *)s + s->nodes_off);
}

/* The CPUs, struct cpu [nr_cpus]. */
static inline struct cpu *sim_cpus(const struct sim *s)
{
	return (struct cpu *)((char *)s + s->cpus_off);
}

/* The per-block table of where frames are. */
static inline uint32_t *sim_block_frames(const struct sim *s)
{
	return (uint32_t *)((char *)s + SIM_BLOCK_FRAMES_OFF);
}

/* Whether the max-order block `block` is whole: only its head exists (free, captured or an extent). */
static inline int block_is_whole(const struct sim *s, uint32_t block)
{
	return sim_block_frames(s)[block] == BLOCK_WHOLE;
}

/* Per max-order block: the head frame of a whole block (unused while it has a slab). */
static inline struct page *sim_block_heads(const struct sim *s)
{
	return (struct page *)((char *)s + s->block_heads_off);
}

/* The frame of pfn: its slab's record, or for a whole block its head in the table and, for every
 * other pfn of it, a shared clean tail that nobody may write (frame_materialised first). */
static inline struct page *frame_at(const struct sim *s, uint32_t pfn)
{
	const uint32_t base = sim_block_frames(s)[pfn >> s->config.max_order];

	if (__builtin_expect(base != BLOCK_WHOLE, 1))
		return (struct page *)((char *)s +
				       (uint32_t)(base + pfn * (uint32_t)sizeof(struct page)));
	if (pfn & ((1u << s->config.max_order) - 1))
		return (struct page *)&s->whole_tail;
	return &sim_block_heads(s)[pfn >> s->config.max_order];
}

/* The LRU owner slot of pfn's frame (the handle holding the LRU block headed there, or HANDLE_NONE);
 * a whole block's frames share one slot that always says HANDLE_NONE (nobody writes it). */
static inline uint32_t *frame_owner(const struct sim *s, uint32_t pfn)
{
	const uint32_t shift = s->config.max_order;
	/* the record's index in the pool is its index among the slabs' frames */
	size_t index = (size_t)(frame_at(s, pfn) - (struct page *)((char *)s + s->pool_off));

	if (block_is_whole(s, pfn >> shift))
		return (uint32_t *)&s->whole_owner;
	return (uint32_t *)((char *)s + s->pool_owners_off) + index;
}

/* The frame of pfn to write any field of, its block materialised first if whole (base/frames.c). */
struct page *frame_materialised(struct sim *s, uint32_t pfn);

/* The pageblock tag array (migratetype | PB_ISOLATE). */
static inline uint8_t *sim_pageblocks(const struct sim *s)
{
	return (uint8_t *)((char *)s + s->pageblocks_off);
}

/* The frame stamps: per max-order block of pfns, the history digest of the last op that changed it. */
static inline uint64_t *sim_frame_stamps(const struct sim *s)
{
	return (uint64_t *)((char *)s + s->frame_stamps_off);
}

/*
 * The group stamps: per FRAME_STAMP_GROUP max-order blocks (machine.def), the history digest of
 * the last change to any of them. A reader comparing a whole machine's stamps (the memory map's
 * overview: 262,144 blocks on 1 TiB) skips each group whose stamp it has seen.
 */
static inline uint64_t *sim_frame_group_stamps(const struct sim *s)
{
	return (uint64_t *)((char *)s + s->frame_group_stamps_off);
}

/* Group stamps for nr_frame_stamps block stamps: one per started group. */
static inline uint32_t frame_stamp_groups(uint32_t nr_frame_stamps)
{
	return (nr_frame_stamps + FRAME_STAMP_GROUP - 1) / FRAME_STAMP_GROUP;
}

/*
 * A frame's state, order, list or cpu at pfn was written: stamp its max-order block with the
 * history digest, which names the op sequence so far. Two states whose stamps of a block are equal
 * reached that block's last such write through the same ops, so (the core being deterministic)
 * its frames hold the same of those four: a map of memory repaints only blocks whose stamps differ
 * from those it painted (frame_class.h), after a step, a restore or a different branch alike.
 * Complete because a frame's class comes from the head of the block covering it, and blocks never
 * cross a max-order boundary. List links (next, prev) are not stamped: a neighbour's list
 * operation rewrites them from another block, and no class depends on them. The block's group is
 * stamped too: equal group stamps mean, by the same argument, that none of its blocks differ.
 */
static inline void frame_changed(struct sim *s, uint32_t pfn)
{
	uint32_t block = pfn >> s->config.max_order;

	if (block < s->nr_frame_stamps) {
		sim_frame_stamps(s)[block] = s->history;
		sim_frame_group_stamps(s)[block / FRAME_STAMP_GROUP] = s->history;
	}
}

/* The handle table. */
static inline struct handle *sim_handles(const struct sim *s)
{
	return (struct handle *)((char *)s + s->handles_off);
}

/* The event buffer. */
static inline struct sim_event *sim_event_buf(const struct sim *s)
{
	return (struct sim_event *)((char *)s + s->events_off);
}

/* The zone of (node, zone index). */
static inline struct zone *sim_zone(struct sim *s, int nid, int zid)
{
	return &sim_nodes(s)[nid].zones[zid];
}

/* Whether a zone has managed pages (populated_zone). */
static inline int zone_populated(const struct zone *z)
{
	return z->managed != 0;
}

/* Whether pfn is one of z's materialised frames. */
static inline int zone_has_pfn(const struct zone *z, uint32_t pfn)
{
	return pfn >= z->mem_pfn && pfn - z->mem_pfn < z->managed;
}

/* The frame of a pfn known to be in z (frame_at: whole blocks read as their head and clean tails). */
static inline struct page *zone_page(const struct sim *s, const struct zone *z, uint32_t pfn)
{
	(void)z;
	return frame_at(s, pfn);
}

/* Index of the zone holding pfn as node * MAX_NR_ZONES + zone, or -1 when no zone manages it. */
int pfn_to_zone_index(const struct sim *s, uint32_t pfn);

/* The pageblock tag byte of a pfn in z. */
static inline uint8_t *pageblock_tag(const struct sim *s, const struct zone *z, uint32_t pfn)
{
	uint32_t shift = s->config.pageblock_order;
	return &sim_pageblocks(s)[z->pageblock_base + ((pfn >> shift) - (z->mem_pfn >> shift))];
}

/* get_pageblock_migratetype: the pageblock's type (ISOLATE when the isolate bit is set). */
static inline int get_pageblock_migratetype(const struct sim *s, const struct zone *z, uint32_t pfn)
{
	uint8_t tag = *pageblock_tag(s, z, pfn);
	return (tag & PB_ISOLATE) ? MIGRATE_ISOLATE : (tag & 0x7);
}

/*
 * set_pageblock_migratetype: retag the pageblock holding pfn (keeps the isolate bit); the captured
 * blocks in it now count for mt, so mt's CAPTURE_FREE scans must look here again.
 */
static inline void set_pageblock_migratetype(const struct sim *s, struct zone *z, uint32_t pfn,
					     int mt)
{
	uint8_t *tag = pageblock_tag(s, z, pfn);
	uint32_t start = pfn & ~(s->pageblock_nr_pages - 1);

	*tag = (uint8_t)((*tag & PB_ISOLATE) | (mt & 0x7));
	if (mt >= 0 && mt < MIGRATE_TYPES) {
		if (start < z->capture_cursor[mt])
			z->capture_cursor[mt] = start;
		if (start < z->capture_lru_cursor[mt])
			z->capture_lru_cursor[mt] = start;
	}
}

/*
 * The pcp of (cpu, node, zone), a populated zone: records exist for the machine's CPUs times its
 * populated zones only (a 64-node, 1024-CPU machine would need 65 MiB for every (CPU, node, zone)),
 * laid out [cpu][pcp_slot], the slots numbering the populated zones node by node; every unpopulated
 * zone shares the last slot of a CPU, which stays empty (nothing is ever freed into such a zone).
 */
static inline struct per_cpu_pages *sim_pcp(const struct sim *s, int cpu, int nid, int zid)
{
	struct per_cpu_pages *base = (struct per_cpu_pages *)((char *)s + s->pcp_off);
	return &base[(size_t)cpu * s->nr_pcp_zones + sim_nodes(s)[nid].zones[zid].pcp_slot];
}

/* The pcp of (cpu, z): sim_pcp without the zone lookup (this_cpu_ptr(zone->per_cpu_pageset)). */
static inline struct per_cpu_pages *zone_cpu_pcp(const struct sim *s, const struct zone *z, int cpu)
{
	struct per_cpu_pages *base = (struct per_cpu_pages *)((char *)s + s->pcp_off);
	return &base[(size_t)cpu * s->nr_pcp_zones + z->pcp_slot];
}

/* min/low/high/promo_wmark_pages: the watermark including the boost. */
static inline int64_t wmark_pages(const struct zone *z, int which)
{
	return (int64_t)z->_watermark[which] + z->watermark_boost;
}

/* Index of z inside its node (zone_idx). */
static inline int zone_idx(const struct zone *z)
{
	return z->idx;
}

/* The node of z (zone_to_nid). */
static inline int zone_to_nid(const struct zone *z)
{
	return z->node;
}

/* Next value of the seeded random stream (xorshift64*). */
static inline uint64_t sim_random(struct sim *s)
{
	uint64_t x = s->rng;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	s->rng = x;
	return x * 0x2545F4914F6CDD1DULL;
}

#endif
