/*
 * capture.c: a zone booted into a captured state instead of with all its memory free.
 *
 * What /proc shows is counts, not places: per order and migratetype how many free blocks
 * (pagetypeinfo; buddyinfo sums the types; zoneinfo only gives the free pages), per type how many
 * pageblocks, per CPU how many pages sit on the pcp lists and the list's high. The layout is ours:
 * the pageblocks of each type form one run (UNMOVABLE, RECLAIMABLE, HIGHATOMIC, then MOVABLE), and
 * in each run the free blocks are placed as densely as the buddy rules allow, largest first,
 * every free block's buddy kept in use so that nothing would merge; the rest of the run is in
 * use, as allocated blocks no handle holds (PAGEF_CAPTURED), of the run's type; those of the
 * largest order stay whole (base/frames.h: a head, no frames) until something splits or frees
 * them, so in-use memory costs the model nothing per page. Without
 * pageblock counts, free memory is MOVABLE and a pageblock holding no free page is UNMOVABLE.
 * pcp blocks are carved out of in-use memory (of pageblocks of the list's type first), list by list
 * as the ops name them: zoneinfo's count does not say which lists held the pages, so the caller
 * decides (web/workload/captured-state.ts). docs/model-notes.md says so.
 */
#include "base/frames.h"
#include "base/state.h"
#include "page_alloc/buddy.h"
#include "page_alloc/page_alloc.h"
#include "page_alloc/capture.h"
#include "page_alloc/pcp.h"
#include "page_alloc/pcp_index.h"
#include "page_alloc/reclaim_hook.h"

/* the pageblock runs, low pfns first */
static const int run_order[] = { MIGRATE_UNMOVABLE, MIGRATE_RECLAIMABLE, MIGRATE_HIGHATOMIC,
				 MIGRATE_MOVABLE };

/* One run being filled. */
struct fill {
	struct sim *s;
	struct zone *z;
	int mt;		/* the free lists and the pageblocks of the run */
	int in_use_mt;	/* the migratetype of in-use blocks here */
	uint32_t *want; /* free blocks still to place, per order */
};

/* The zone an op's handle field names, or NULL. */
static struct zone *op_zone(struct sim *s, uint32_t index)
{
	if (index >= (uint32_t)s->config.nr_nodes * MAX_NR_ZONES)
		return NULL;
	return sim_zone(s, (int)(index / MAX_NR_ZONES), (int)(index % MAX_NR_ZONES));
}

/* Whether the buddy of (pfn, order) is a free block of that order: placing here would merge
 * (below MAX_PAGE_ORDER: blocks of the largest order never merge). */
static int buddy_is_free(const struct sim *s, const struct zone *z, uint32_t pfn, int order)
{
	uint32_t buddy = pfn ^ (1u << order);
	const struct page *page;

	if (!zone_has_pfn(z, buddy))
		return 0;
	page = zone_page(s, z, buddy);
	return page->state == PG_BUDDY && page->order == order;
}

/* Whether any free block of order <= order is still to be placed. */
static int wants_upto(const struct fill *f, int order)
{
	for (int o = 0; o <= order; o++)
		if (f->want[o])
			return 1;
	return 0;
}

void capture_mark_in_use(struct sim *s, const struct zone *z, uint32_t pfn, int order, int mt)
{
	/*
	 * a block of the largest order is whole (base/frames.h): its head is all it costs until
	 * something splits or frees it; a smaller one needs its block's frames
	 */
	const int whole = order == s->config.max_order;
	struct page *page = whole ? frame_at(s, pfn) : frame_materialised(s, pfn);

	(void)z;
	frame_changed(s, pfn);
	page->state = PG_ALLOCATED;
	page->order = (uint8_t)order;
	page->list = (uint8_t)mt;
	page->flags = PAGEF_CAPTURED;
	page->cpu = 0;
	page->next = page->prev = PFN_NONE;
	page->lru_flags = 0;
	if (whole && !block_is_whole(s, pfn >> s->config.max_order))
		frames_make_whole(s, pfn);
}

/*
 * Fill the naturally aligned block (pfn, order): a free block if one of this order is wanted and
 * its buddy is not free, else its halves in turn, else (nothing smaller wanted) one in-use block.
 * Recursion depth is at most max_order + 1.
 */
static void fill_block(struct fill *f, uint32_t pfn, int order)
{
	if (f->want[order] &&
	    (order == f->s->config.max_order || !buddy_is_free(f->s, f->z, pfn, order))) {
		buddy_add_to_free_list(f->s, f->z, pfn, order, f->mt, 1);
		f->want[order]--;
		return;
	}
	if (order == 0 || !wants_upto(f, order - 1)) {
		capture_mark_in_use(f->s, f->z, pfn, order, f->in_use_mt);
		return;
	}
	frame_materialised(f->s, pfn); /* split: the halves' heads must exist */
	fill_block(f, pfn, order - 1);
	fill_block(f, pfn + (1u << (order - 1)), order - 1);
}

/* Fill [start, end) with the largest aligned blocks that fit. */
static void fill_run(struct fill *f, uint32_t start, uint32_t end)
{
	uint64_t pfn = start;

	while (pfn < end) {
		int order = f->s->config.max_order;
		while (order > 0 && (pfn & ((1ull << order) - 1)))
			order--;
		while (order > 0 && pfn + (1ull << order) > end)
			order--;
		/*
		 * a run ends at a pageblock boundary: a block smaller than the largest order placed
		 * here is part of a max-order block, which may still be whole (base/frames.h)
		 */
		if (order < f->s->config.max_order)
			frame_materialised(f->s, (uint32_t)pfn);
		fill_block(f, (uint32_t)pfn, order);
		pfn += 1ull << order;
	}
}

/* Empty the zone's lists and make every frame a tail again, before a layout. */
static void reset_zone(struct sim *s, struct zone *z)
{
	for (int order = 0; order < NR_PAGE_ORDERS_LIMIT; order++) {
		struct free_area *area = &z->free_area[order];
		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			area->head[mt] = area->tail[mt] = PFN_NONE;
			area->count[mt] = 0;
		}
		area->nr_free = 0;
	}
	z->nr_free_pages = z->nr_free_pages_blocks = 0;
	z->nr_free_highatomic = z->nr_reserved_highatomic = 0;
	for (uint32_t i = 0; i < z->managed; i++) {
		uint32_t pfn = z->mem_pfn + i;
		struct page *page = zone_page(s, z, pfn);
		frame_changed(s, pfn);
		page->state = PG_TAIL;
		page->order = 0;
		page->list = 0;
		page->flags = 0;
		page->cpu = 0;
		page->next = page->prev = PFN_NONE;
		/* a whole block (base/frames.h): its head is all there is, the rest are tails */
		if (block_is_whole(s, pfn >> s->config.max_order))
			i += (1u << s->config.max_order) - 1;
	}
}

/* Whether the zone holds only free and captured memory, so a layout loses nothing of a workload. */
static int zone_untouched(const struct sim *s, const struct zone *z)
{
	for (uint32_t i = 0; i < z->managed; i++) {
		const struct page *page = zone_page(s, z, z->mem_pfn + i);
		/* a whole block (base/frames.h) is free: its other frames are tails */
		if (block_is_whole(s, (z->mem_pfn + i) >> s->config.max_order))
			i += (1u << s->config.max_order) - 1;
		if (page->state == PG_PCP || page->state == PG_CORRUPT ||
		    (page->state == PG_ALLOCATED && !(page->flags & PAGEF_CAPTURED)))
			return 0;
	}
	return 1;
}

/*
 * Without pageblock counts: a pageblock holding a free page is MOVABLE, one without is
 * UNMOVABLE, and its in-use blocks take its type. Walks the blocks head to head.
 */
static void tag_by_free_pages(struct sim *s, struct zone *z)
{
	uint32_t end = z->mem_pfn + z->managed, pfn;

	for (pfn = z->mem_pfn; pfn < end; pfn += 1u << s->config.pageblock_order)
		set_pageblock_migratetype(s, z, pfn, MIGRATE_UNMOVABLE);
	for (pfn = z->mem_pfn; pfn < end;) {
		const struct page *page = zone_page(s, z, pfn);
		uint32_t size = 1u << page->order;
		if (page->state == PG_BUDDY)
			for (uint32_t p = pfn; p < pfn + size && p < end;
			     p += 1u << s->config.pageblock_order)
				set_pageblock_migratetype(s, z, p, MIGRATE_MOVABLE);
		pfn += size;
	}
	for (pfn = z->mem_pfn; pfn < end;) {
		struct page *page = zone_page(s, z, pfn);
		if (page->state == PG_ALLOCATED)
			page->list = (uint8_t)get_pageblock_migratetype(s, z, pfn);
		pfn += 1u << page->order;
	}
}

/* The pageblocks each run gets: the captured counts fitted to the zone's pageblocks. */
static void run_blocks(const struct zone *z, uint32_t blocks[MIGRATE_TYPES])
{
	uint32_t left = z->nr_pageblocks;

	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		blocks[mt] = 0;
	/* isolated pageblocks are MOVABLE ones under isolation: the model boots none isolated */
	for (int i = 0; i < 3; i++) {
		int mt = run_order[i];
		blocks[mt] = z->capture_blocks[mt] < left ? z->capture_blocks[mt] : left;
		left -= blocks[mt];
	}
	blocks[MIGRATE_MOVABLE] = left;
}

/* Lay the zone out from the recorded counts. */
static int capture_layout(struct sim *s, struct zone *z)
{
	uint32_t want[MIGRATE_TYPES][NR_PAGE_ORDERS_LIMIT], blocks[MIGRATE_TYPES];
	uint32_t end = z->mem_pfn + z->managed, pfn = z->mem_pfn,
		 pb_order = s->config.pageblock_order;
	uint32_t pb_first = z->mem_pfn >> pb_order, pb_done = 0, any_blocks = 0;
	uint64_t unplaced = 0;

	if (!zone_populated(z) || !zone_untouched(s, z))
		return SIM_EINVAL;
	for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
		any_blocks += z->capture_blocks[mt];
		for (int order = 0; order < NR_PAGE_ORDERS_LIMIT; order++)
			want[mt][order] =
				order <= s->config.max_order ? z->capture_free[order][mt] : 0;
	}
	reset_zone(s, z);
	if (!any_blocks) {
		struct fill f = { s, z, MIGRATE_MOVABLE, MIGRATE_MOVABLE, want[MIGRATE_MOVABLE] };
		fill_run(&f, z->mem_pfn, end);
		tag_by_free_pages(s, z);
	} else {
		run_blocks(z, blocks);
		for (int i = 0; i < 4; i++) {
			int mt = run_order[i];
			uint64_t run_end = (uint64_t)(pb_first + pb_done + blocks[mt]) << pb_order;
			struct fill f = { s, z, mt,
					  mt == MIGRATE_HIGHATOMIC ? MIGRATE_UNMOVABLE : mt,
					  want[mt] };
			if (i == 3 || run_end > end)
				run_end = end;
			if (!blocks[mt] || run_end <= pfn)
				continue;
			for (uint64_t p = pfn; p < run_end; p += 1u << pb_order)
				set_pageblock_migratetype(s, z, (uint32_t)p, mt);
			fill_run(&f, pfn, (uint32_t)run_end);
			pb_done += blocks[mt];
			pfn = (uint32_t)run_end;
		}
		z->nr_reserved_highatomic = (int64_t)blocks[MIGRATE_HIGHATOMIC] << pb_order;
	}
	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		for (int order = 0; order <= s->config.max_order; order++)
			unplaced += (uint64_t)want[mt][order] << order;
	z->capture_unplaced = unplaced > UINT32_MAX ? UINT32_MAX : (uint32_t)unplaced;
	/* the captured counter is exact: no CPU holds a delta of this zone's free pages yet */
	for (uint32_t cpu = 0; cpu < s->nr_cpus; cpu++)
		sim_pcp(s, (int)cpu, z->node, z->idx)->vm_stat_diff = 0;
	z->vm_stat_free = z->nr_free_pages;
	z->capture_laid_out = 1;
	return SIM_OK;
}

/* A captured block's free through the allocator's free path (the pcp-locked one: FREE_PCP_LOCKED). */
static void free_block(struct sim *s, struct zone *z, int cpu, uint32_t pfn, int order, int locked)
{
	if (locked)
		page_free_pcp_locked(s, cpu, z, pfn, order);
	else
		page_free(s, cpu, z, pfn, order);
}

/*
 * Where a CAPTURE_FREE scan for pageblock type mt (MIGRATE_TYPES: any) goes after pfn's block of
 * `order`: the next block, or past the whole pageblock when it is of another type.
 */
static uint32_t scan_next(const struct sim *s, const struct zone *z, uint32_t pfn, int order,
			  int mt)
{
	uint32_t next = pfn + (1u << order), pb_end = (pfn | (s->pageblock_nr_pages - 1)) + 1;

	if (mt < MIGRATE_TYPES && get_pageblock_migratetype(s, z, pfn) != mt && pb_end > next)
		return pb_end;
	return next;
}

/*
 * A scan's cursor moves to next while everything scanned so far can serve no later free of its
 * type (*prefix); a block that still might (`kept`) holds it there.
 */
static void scan_cursor(uint32_t *cursor, int *prefix, int kept, uint32_t next)
{
	if (*prefix && !kept)
		*cursor = next;
	else
		*prefix = 0;
}

/* Whether the captured block at pfn waits in the folio batch g (NULL: none) already. */
static int gathered(const struct folio_gather *g, uint32_t pfn)
{
	for (uint32_t i = 0; g && i < g->nr && i < FOLIO_BATCH_SIZE; i++)
		if (g->captured[i] != FOLIO_HANDLE && g->ref[i] == pfn)
			return 1;
	return 0;
}

/*
 * The first captured in-use block of at least `order` in z from a pageblock of type mt (any type
 * when mt is MIGRATE_TYPES), not one the batch g holds, split down to `order` and still captured;
 * PFN_NONE if none. The kernel frees a block to the pcp list of its pageblock's type
 * (free_frozen_pages), so the type decides which list the free lands on. The scan starts at mt's
 * cursor and moves it past what holds no such block (a gathered block holds it: a batch refused
 * leaves the block captured, for a later free).
 */
static uint32_t pick_in_zone(struct sim *s, struct zone *z, int order, int mt,
			     const struct folio_gather *g)
{
	uint32_t end = z->mem_pfn + z->managed, next;
	uint32_t *cursor = &z->capture_cursor[mt];
	int prefix = 1;

	if (*cursor < z->mem_pfn)
		*cursor = z->mem_pfn;
	for (uint32_t pfn = *cursor; pfn < end; pfn = next) {
		struct page *page = zone_page(s, z, pfn);
		int of_type = mt == MIGRATE_TYPES || get_pageblock_migratetype(s, z, pfn) == mt;
		int captured = of_type && page->state == PG_ALLOCATED &&
			       (page->flags & PAGEF_CAPTURED);
		next = scan_next(s, z, pfn, page->order, mt);
		if (captured && page->order >= order && !gathered(g, pfn)) {
			int j = page->order, block_mt = page->list;
			/* a whole block is split here, or stays whole till it is freed (base/frames.h) */
			if (j > order) {
				page = frame_materialised(s, pfn);
				while (j > order) {
					j--;
					capture_mark_in_use(s, z, pfn + (1u << j), j, block_mt);
				}
				page->order = (uint8_t)order;
			}
			return pfn;
		}
		scan_cursor(cursor, &prefix, captured, next);
	}
	return PFN_NONE;
}

/*
 * An order-0 LRU page of a pageblock of type mt that no handle owns: user memory the capture
 * counted on the LRU (reclaim/capture.c), which the kernel frees too (a file's page cache
 * truncated, an exiting task's anonymous memory); PFN_NONE if none. A captured free whose block
 * the trace saw reach the MOVABLE list is most likely such a page: the capture keeps little else
 * there. The page may be charged to any memory cgroup (its owner slot names the memcg, above
 * every handle): on a machine with memcgs the root's lists hold next to nothing, and the tasks
 * whose memory goes live in cgroups of their own. (A page a folio batch gathered has left its
 * list: no scan meets it here.)
 */
static uint32_t pick_lru_in_zone(struct sim *s, struct zone *z, int mt)
{
	uint32_t end = z->mem_pfn + z->managed, next;
	uint32_t *cursor = &z->capture_lru_cursor[mt];
	int prefix = 1;

	if (*cursor < z->mem_pfn)
		*cursor = z->mem_pfn;
	for (uint32_t pfn = *cursor; pfn < end; pfn = next) {
		const struct page *page = zone_page(s, z, pfn);
		int of_type = get_pageblock_migratetype(s, z, pfn) == mt;
		int in_use = of_type && page->state == PG_ALLOCATED;
		int unowned = in_use && page->order == 0 && (page->lru_flags & PGL_LRU) &&
			      *frame_owner(s, pfn) >= s->config.max_handles;
		if (unowned)
			return pfn;
		if (in_use && (page->flags & PAGEF_EXTENT) && page->cpu == 0) {
			/* an LRU extent of order-0 folios (base/frames.h): its folios made, the first
			 * of them is this pfn's, taken on the next pass */
			page_alloc_reclaim->expand(s, z, pfn);
			next = pfn;
			continue;
		}
		next = scan_next(s, z, pfn, page->order, mt);
		scan_cursor(cursor, &prefix, 0, next);
	}
	return PFN_NONE;
}

/* The laid-out zone whose span holds the kernel's pfn, or NULL. */
static const struct zone *zone_spanning(struct sim *s, uint32_t kernel_pfn)
{
	for (int nid = 0; nid < s->config.nr_nodes; nid++)
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			const struct zone *z = sim_zone(s, nid, zid);
			if (zone_populated(z) && z->capture_laid_out &&
			    kernel_pfn >= z->start_pfn && kernel_pfn - z->start_pfn < z->spanned)
				return z;
		}
	return NULL;
}

/*
 * The block a trace's free of memory allocated before it takes: memory the capture showed in
 * use. Which block is not known (the model's layout is its own), so the first captured in-use
 * block of at least that order, split down to it: in the zone that spans the kernel's pfn when
 * one does and still has such a block (the free pages of each zone then move as the kernel's
 * did), else in the highest laid-out zone that has one; within the zone, from a pageblock of the
 * type the trace showed (type = migratetype + 1, 0 when unknown) while one is left, so the free
 * reaches the pcp list the kernel's reached, an unowned LRU page of that type (*lru set) when no
 * captured block of it is left, else a captured block of any type; none that g holds. Returns
 * the block's zone (*pfn its head), or NULL when nothing is left.
 */
static struct zone *capture_pick(struct sim *s, int order, uint32_t kernel_pfn, uint32_t type,
				 const struct folio_gather *g, uint32_t *pfn, int *lru)
{
	const struct zone *only = zone_spanning(s, kernel_pfn);

	*lru = 0;
	for (int pass = only ? 0 : 1; pass < 2; pass++)
		for (int nid = 0; nid < s->config.nr_nodes; nid++)
			for (int zid = MAX_NR_ZONES - 1; zid >= 0; zid--) {
				struct zone *z = sim_zone(s, nid, zid);
				if (!zone_populated(z) || !z->capture_laid_out ||
				    (!pass && z != only))
					continue;
				*pfn = type ? pick_in_zone(s, z, order, (int)type - 1, g) :
					      PFN_NONE;
				if (*pfn == PFN_NONE && type && order == 0) {
					*pfn = pick_lru_in_zone(s, z, (int)type - 1);
					*lru = *pfn != PFN_NONE;
				}
				if (*pfn == PFN_NONE)
					*pfn = pick_in_zone(s, z, order, MIGRATE_TYPES, g);
				if (*pfn != PFN_NONE)
					return z;
			}
	return NULL;
}

/*
 * CAPTURE_FREE: the block capture_pick takes goes through the allocator's free path on the CPU,
 * as the kernel's free went. arg's FREE_PCP_LOCKED bit: the free came while the CPU's pcp lock was
 * held (page_alloc.h).
 */
static int capture_free(struct sim *s, int cpu, int order, uint32_t kernel_pfn, uint32_t type,
			int locked)
{
	struct zone *z;
	uint32_t pfn;
	int lru;

	if (order < 0 || order > s->config.max_order || type > MIGRATE_TYPES)
		return SIM_EINVAL;
	z = capture_pick(s, order, kernel_pfn, type, NULL, &pfn, &lru);
	if (!z)
		return SIM_EINVAL;
	/* no longer captured: the free path's block, with its frames (base/frames.h) */
	if (!lru) {
		struct page *page = frame_materialised(s, pfn);

		if (s->frozen)
			return SIM_ECORRUPT; /* the frame budget ran out: nothing more is written */
		page->flags = 0;
	}
	free_block(s, z, cpu, pfn, order, locked);
	return SIM_OK;
}

int capture_gather(struct sim *s, int order, uint32_t kernel_pfn, uint32_t type,
		   const struct folio_gather *g, uint32_t *pfn)
{
	struct zone *z;
	int lru;

	if (order < 0 || order > s->config.max_order || type > MIGRATE_TYPES)
		return SIM_EINVAL;
	z = capture_pick(s, order, kernel_pfn, type, g, pfn, &lru);
	if (!z)
		return SIM_EINVAL;
	if (lru) {
		/*
		 * folios_put_refs takes a folio off its LRU list as its last reference goes, before
		 * the batch is freed: off the list, no reclaim meets it; captured memory till then
		 */
		page_alloc_reclaim->release(s, z, *pfn);
		zone_page(s, z, *pfn)->flags |= PAGEF_CAPTURED;
	}
	return SIM_OK;
}

int capture_zone(struct sim *s, const struct sim_op *op)
{
	struct zone *z;
	uint32_t mt = op->gfp;

	if (op->order == CAPTURE_FREE)
		return capture_free(s, op->cpu, op->arg & ~FREE_PCP_LOCKED, op->handle, op->gfp,
				    !!(op->arg & FREE_PCP_LOCKED));
	z = op_zone(s, op->handle);
	if (!z || !zone_populated(z) || op->arg < 0)
		return SIM_EINVAL;
	if (op->order == CAPTURE_LAYOUT)
		return capture_layout(s, z);
	if (op->order == CAPTURE_BOOST) {
		/* zoneinfo's "boost": fallbacks raised it and kswapd has not reclaimed it away yet */
		z->watermark_boost = op->arg;
		return SIM_OK;
	}
	if (mt >= MIGRATE_TYPES || z->capture_laid_out)
		return SIM_EINVAL;
	if (op->order == CAPTURE_PAGEBLOCKS) {
		z->capture_blocks[mt] = (uint32_t)op->arg;
		return SIM_OK;
	}
	if (op->order > s->config.max_order)
		return SIM_EINVAL;
	z->capture_free[op->order][mt] = (uint32_t)op->arg;
	return SIM_OK;
}

/*
 * Take up to need blocks of `order` out of the captured in-use block (pfn, j) onto list pindex of
 * cpu's pcp, each with its buddy left in use, so that draining them later merges nothing, as
 * with the layout's free blocks (a real machine's pcp pages come back from everywhere; the
 * capture shows its free memory fragmented): split off right halves (staying in use) until the
 * left part holds no more pairs than need, then the lower block of each pair. Returns the blocks
 * taken.
 */
static uint32_t carve(struct sim *s, struct zone *z, int cpu, uint32_t pfn, int j, int order,
		      int pindex, uint32_t need)
{
	int mt = zone_page(s, z, pfn)->list;
	uint32_t pairs;

	if (j == order) {
		frame_materialised(s, pfn); /* a pcp block is never whole (base/frames.h) */
		zone_page(s, z, pfn)->flags &= (uint8_t)~PAGEF_CAPTURED;
		pcp_capture_block(s, z, cpu, pfn, order, pindex);
		return 1;
	}
	while (j > order + 1 && need < (1u << (j - order - 1))) {
		j--;
		capture_mark_in_use(s, z, pfn + (1u << j), j, mt);
	}
	pairs = 1u << (j - order - 1);
	for (uint32_t i = 0; i < pairs; i++) {
		uint32_t base = pfn + (i << (order + 1));
		capture_mark_in_use(s, z, base + (1u << order), order, mt);
		/* the pages become free pcp blocks: no longer captured memory */
		capture_mark_in_use(s, z, base, order, mt);
		zone_page(s, z, base)->flags = 0;
		pcp_capture_block(s, z, cpu, base, order, pindex);
	}
	return pairs;
}

int capture_pcp(struct sim *s, const struct sim_op *op)
{
	struct zone *z = op_zone(s, op->handle);
	int order = op->order, mt = (int)op->gfp, pindex;
	uint32_t need, end;

	if (!z || !z->capture_laid_out || op->arg < 0)
		return SIM_EINVAL;
	if (order == CAPTURE_PCP_HIGH) {
		pcp_capture_high(s, z, op->cpu, op->arg);
		return SIM_OK;
	}
	if (op->gfp >= MIGRATE_PCPTYPES || order > s->config.max_order ||
	    !pcp_allowed_order(s, order))
		return SIM_EINVAL;
	pindex = pcp_order_to_pindex(s, mt, order);
	need = (uint32_t)op->arg;
	end = z->mem_pfn + z->managed;
	/* pageblocks of the list's type first, as the lists mostly hold; then any in-use memory */
	for (int pass = 0; pass < 2 && need; pass++) {
		for (uint32_t pfn = z->mem_pfn; pfn < end && need;) {
			const struct page *page = zone_page(s, z, pfn);
			uint32_t size = 1u << page->order;
			if (page->state == PG_ALLOCATED && (page->flags & PAGEF_CAPTURED) &&
			    page->order >= order &&
			    (pass || get_pageblock_migratetype(s, z, pfn) == mt)) {
				int j = page->order;
				uint32_t took = carve(s, z, op->cpu, pfn, j, order, pindex, need);
				need -= took;
				/* what carve took spans twice its pages (each kept its buddy) */
				size = j == order ? size : took << (order + 1);
			}
			pfn += size;
		}
	}
	z->capture_unplaced += need << order;
	return SIM_OK;
}
