/*
 * fallback.c: what the buddy allocator does when a migratetype's own lists are empty.
 *
 * Grouping pages by mobility keeps unmovable, movable and reclaimable allocations in separate
 * pageblocks, so that whole pageblocks can later be emptied by migration (compaction). When a
 * type runs out, it must borrow from another type (the fallback table,
 * docs/kernel/page_alloc/buddy.md#a8-fallback-table). Borrowing
 * a single block pollutes the lender's pageblock ("mixed" pageblock); so the allocator prefers to
 * take over ("claim") a whole pageblock when it is large, or when at least half of it is free or
 * already holds pages of the borrower's kind. It starts with the largest free blocks, which most
 * likely sit in mostly empty pageblocks.
 *
 *   6.18 (FALLBACK_CLAIM_STEAL_6_18): __rmqueue_claim scans MAX_PAGE_ORDER down and only claims;
 *        a pageblock that fails the half-full test is left alone and the scan goes on. Only if no
 *        claim works does __rmqueue_steal take the smallest single block (not under
 *        ALLOC_NOFRAGMENT).
 *   6.12 (FALLBACK_STEAL_6_12): __rmqueue_fallback takes the first (largest) block found and
 *        either claims its pageblock or, failing the test, takes that one piece anyway; small
 *        movable requests that cannot claim take the smallest foreign block instead.
 *   5.0-6.9 (FALLBACK_MOVE_RETRY_5_0): the same choice of block, but before the half-full test
 *        every free block of the pageblock moves to the requester's lists, and stays there even
 *        when the pageblock keeps its type; a block that may not claim moves alone. __rmqueue
 *        then retries the requester's own lists, which now hold what was moved.
 *   4.9 (FALLBACK_MOVE_EXPAND_4_9): no alike-page counting and no boost: the pageblock's free
 *        blocks move when the order allows it, the pageblock changes type when they make half of
 *        it, and the block found is split on the requester's lists directly (no retry).
 *
 * Every claim attempt below a pageblock also raises the zone's watermark boost (boost_watermark),
 * so kswapd reclaims a little more and future fallbacks become less likely.
 *
 * The high-order atomic reserve (MIGRATE_HIGHATOMIC,
 * docs/kernel/page_alloc/buddy.md#a12-high-order-atomic-reserve) turns the pageblock of a
 * successful high-order atomic allocation into a reserve only such requests may use (up to about
 * 1% of the zone), and gives reserves back when an allocation is about to fail.
 *
 * The model has no LRU: an allocated block counts as "movable" for the alike-page test when the
 * allocation's migratetype (page.list of a PG_ALLOCATED head) was MOVABLE.
 */
#include "page_alloc/fallback.h"

#include "base/event.h"
#include "base/state.h"
#include "base/textbuf.h"
#include "page_alloc/buddy.h"
#include "page_alloc/vocab.h"
#include "page_alloc/zone_lock.h"

/* fallbacks[]: which types a pcp type borrows from, in order (mm/page_alloc.c [6.12, 6.18]). */
static const int8_t fallbacks[MIGRATE_PCPTYPES][MIGRATE_PCPTYPES - 1] = {
	[MIGRATE_UNMOVABLE] = { MIGRATE_RECLAIMABLE, MIGRATE_MOVABLE },
	[MIGRATE_MOVABLE] = { MIGRATE_RECLAIMABLE, MIGRATE_UNMOVABLE },
	[MIGRATE_RECLAIMABLE] = { MIGRATE_UNMOVABLE, MIGRATE_MOVABLE },
};

int fallback_type(int mt, int i)
{
	/* HIGHATOMIC and ISOLATE have no fallbacks */
	if (mt < 0 || mt >= MIGRATE_PCPTYPES || i < 0 || i >= MIGRATE_PCPTYPES - 1)
		return -1;
	return fallbacks[mt][i];
}

int fallback_may_claim(const struct sim *s, int order, int start_mt)
{
	int pageblock_order = s->config.pageblock_order;

	/* a block of a whole pageblock or more is claimed outright */
	if (order >= pageblock_order)
		return 1;
	/* above half a pageblock's order the pageblock is likely to hold more free pages */
	if (order >= pageblock_order / 2)
		return 1;
	/*
	 * Unmovable and reclaimable pages in a movable pageblock fragment it for good, so they
	 * always try to take the whole pageblock; a movable page can be migrated away later.
	 * (page_group_by_mobility_disabled is not modelled: grouping is always on.)
	 */
	return start_mt == MIGRATE_UNMOVABLE || start_mt == MIGRATE_RECLAIMABLE;
}

/* get_page_from_free_area: the head of free_area[order].free_list[mt] if it is a sound PageBuddy frame. */
static uint32_t free_list_head(const struct sim *s, const struct zone *z, int order, int mt)
{
	uint32_t pfn = z->free_area[order].head[mt];
	const struct page *page;

	/* a sound head is aligned to its order and its block lies inside the zone */
	if (pfn == PFN_NONE || (pfn & ((1u << order) - 1)) || !zone_has_pfn(z, pfn) ||
	    !zone_has_pfn(z, pfn + (1u << order) - 1))
		return PFN_NONE;
	page = zone_page(s, z, pfn);
	if (page->state != PG_BUDDY || page->order != order || page->list != mt)
		return PFN_NONE; /* corrupted: sim_check reports it */
	return pfn;
}

/* find_suitable_fallback without the claim gate: the first fallback type with a block at order, or -1. */
static int find_fallback(const struct sim *s, const struct zone *z, int order, int start_mt)
{
	if (z->free_area[order].nr_free == 0)
		return -1;
	for (int i = 0; i < MIGRATE_PCPTYPES - 1; i++) {
		int fallback_mt = fallbacks[start_mt][i];
		if (free_list_head(s, z, order, fallback_mt) != PFN_NONE)
			return fallback_mt;
	}
	return -1;
}

/*
 * prep_move_freepages_block: the start of pfn's pageblock, or PFN_NONE when the pageblock is not
 * wholly inside the zone's frames (the kernel refuses pageblocks straddling the zone span).
 */
static uint32_t pageblock_in_zone(const struct sim *s, const struct zone *z, uint32_t pfn)
{
	uint32_t start = pfn & ~(s->pageblock_nr_pages - 1);

	if (!zone_has_pfn(z, start) || !zone_has_pfn(z, start + s->pageblock_nr_pages - 1))
		return PFN_NONE;
	return start;
}

/* Frames a walk steps over at a frame: the whole block at a sound head, one frame otherwise. */
static uint32_t walk_step(const struct sim *s, const struct page *page)
{
	if (page->state == PG_TAIL || page->order > s->config.max_order)
		return 1;
	return 1u << page->order;
}

/*
 * The counting half of prep_move_freepages_block: free pages (PageBuddy blocks) and movable pages
 * in the pageblock at start. The kernel visits every frame; we hop over whole blocks, which
 * counts the same pages (a movable folio's tails are movable too). At most pageblock_nr_pages steps.
 */
static void count_pageblock(const struct sim *s, const struct zone *z, uint32_t start,
			    int32_t *free_pages, int32_t *movable_pages)
{
	uint32_t end = start + s->pageblock_nr_pages, pfn = start;

	*free_pages = *movable_pages = 0;
	while (pfn < end) {
		const struct page *page = zone_page(s, z, pfn);
		uint32_t step = walk_step(s, page);
		uint32_t in_block = step < end - pfn ? step : end - pfn;

		if (page->state == PG_BUDDY)
			*free_pages += (int32_t)in_block;
		else if (page->state == PG_ALLOCATED && page->list == MIGRATE_MOVABLE)
			*movable_pages += (int32_t)in_block;
		/* pcp blocks are neither PageBuddy nor on an LRU: the kernel counts them as neither */
		pfn += step;
	}
}

/*
 * __move_freepages_block + set_pageblock_migratetype: every free block in the pageblock at start
 * moves to new_mt's lists (at the tail) and the pageblock is retagged. Returns pages moved.
 */
static int32_t move_freepages_block(struct sim *s, struct zone *z, uint32_t start, int new_mt,
				    int *blocks)
{
	uint32_t end = start + s->pageblock_nr_pages, pfn = start;
	int32_t moved = 0;

	*blocks = 0;
	while (pfn < end) {
		struct page *page = zone_page(s, z, pfn);
		uint32_t step = walk_step(s, page);

		if (page->state == PG_BUDDY && page->order <= s->config.max_order) {
			buddy_move_to_free_list(s, z, pfn, new_mt);
			moved += (int32_t)step;
			(*blocks)++;
		}
		pfn += step;
	}
	set_pageblock_migratetype(s, z, start, new_mt);
	return moved;
}

/* change_pageblock_range: retag the 2^(order - pageblock_order) pageblocks of a block at pfn. */
static void change_pageblock_range(struct sim *s, struct zone *z, uint32_t pfn, int order, int mt)
{
	uint32_t nr = 1u << (order - s->config.pageblock_order);

	for (uint32_t i = 0; i < nr; i++)
		set_pageblock_migratetype(s, z, pfn + i * s->pageblock_nr_pages, mt);
}

int fallback_boost_watermark(struct sim *s, struct zone *z, int cpu)
{
	int64_t factor = s->config.watermark_boost_factor, high = z->_watermark[WMARK_HIGH];
	int64_t pageblock_nr_pages = s->pageblock_nr_pages, max_boost, old = z->watermark_boost;

	/* boost_watermark arrived in 5.0 */
	if (!factor || !s->profile.watermark_boost)
		return 0;
	/* small zones: a boost could push them straight into OOM */
	if (pageblock_nr_pages * 4 > (int64_t)z->managed)
		return 0;
	/* mult_frac(high, factor, 10000) */
	max_boost = (high / 10000) * factor + ((high % 10000) * factor) / 10000;
	/* an unset high watermark (very early boot) means reclaim could not satisfy a boost */
	if (!max_boost)
		return 0;
	if (max_boost < pageblock_nr_pages)
		max_boost = pageblock_nr_pages;
	z->watermark_boost = (int32_t)(old + pageblock_nr_pages < max_boost ?
					       old + pageblock_nr_pages :
					       max_boost);
	ev_emit(s, EV_WMARK_BOOST, FN_BOOST_WATERMARK, cpu, z, 0, 0, 0, (int32_t)old,
		z->watermark_boost, 0);
	return 1;
}

/* trace_mm_page_alloc_extfrag: a fallback allocation and whether it took the pageblock over. */
static void emit_extfrag(struct sim *s, struct zone *z, int fn, int cpu, uint32_t pfn, int order,
			 int fallback_order, int start_mt, int fallback_mt)
{
	int fragmenting = fallback_order < s->config.pageblock_order;
	int change_ownership = start_mt == get_pageblock_migratetype(s, z, pfn);

	s->ev.extfrag++;
	ev_emit(s, EV_MM_PAGE_ALLOC_EXTFRAG, fn, cpu, z, pfn, order, start_mt, fallback_order,
		fallback_mt, fragmenting | change_ownership << 1);
}

/* One claim decision: pfn = pageblock, a = free + alike pages (-1: not countable), c = claimed. */
static void emit_claim(struct sim *s, struct zone *z, int fn, int cpu, uint32_t pfn, int order,
		       int new_mt, int old_mt, int32_t pages, int claimed)
{
	if (claimed)
		s->ev.pageblock_claimed++;
	ev_emit(s, EV_PAGEBLOCK_CLAIM, fn, cpu, z, pfn, order, new_mt, pages, old_mt, claimed);
}

/*
 * Take a free block of a whole pageblock or more: retag all its pageblocks to start_mt and split
 * it on start_mt's lists (the ">= pageblock_order" branch of try_to_claim_block and
 * steal_suitable_fallback). Returns the allocated head.
 */
static uint32_t claim_whole(struct sim *s, struct zone *z, uint32_t pfn, int current_order,
			    int order, int start_mt, int block_mt, int fn, int cpu)
{
	buddy_del_from_free_list(s, z, pfn);
	change_pageblock_range(s, z, pfn, current_order, start_mt);
	emit_claim(s, z, fn, cpu, pfn, current_order, start_mt, block_mt,
		   (int32_t)1 << current_order, 1);
	buddy_expand(s, z, pfn, order, current_order, start_mt, cpu);
	return pfn;
}

/*
 * The half-full test of try_to_claim_block / steal_suitable_fallback for the pageblock holding a
 * block of block_mt: if free + alike pages reach half a pageblock, move its free blocks to
 * start_mt and retag it. Returns 1 if claimed, 0 if not, -1 if the pageblock leaves the zone.
 */
static int claim_pageblock(struct sim *s, struct zone *z, uint32_t pfn, int order, int start_mt,
			   int block_mt, int fn, int cpu)
{
	uint32_t start = pageblock_in_zone(s, z, pfn);
	int32_t free_pages, movable_pages, alike_pages;
	int blocks;

	if (start == PFN_NONE) {
		emit_claim(s, z, fn, cpu, pfn & ~(s->pageblock_nr_pages - 1), order, start_mt,
			   block_mt, -1, 0);
		return -1;
	}
	count_pageblock(s, z, start, &free_pages, &movable_pages);
	if (start_mt == MIGRATE_MOVABLE)
		alike_pages = movable_pages;
	else if (block_mt == MIGRATE_MOVABLE)
		/* unmovable/reclaimable into a movable block: every non-movable page is alike */
		alike_pages = (int32_t)s->pageblock_nr_pages - (free_pages + movable_pages);
	else
		/* unmovable vs reclaimable: we cannot tell their non-movable pages apart */
		alike_pages = 0;
	/* half a pageblock: 1 << (pageblock_order - 1), written so pageblock_order 0 gives 0 */
	if (free_pages + alike_pages >= (int32_t)(s->pageblock_nr_pages >> 1)) {
		move_freepages_block(s, z, start, start_mt, &blocks);
		emit_claim(s, z, fn, cpu, start, order, start_mt, block_mt,
			   free_pages + alike_pages, 1);
		return 1;
	}
	emit_claim(s, z, fn, cpu, start, order, start_mt, block_mt, free_pages + alike_pages, 0);
	return 0;
}

/* 6.18 try_to_claim_block: claim the block's pageblock and allocate from start_mt's lists, or PFN_NONE. */
static uint32_t try_to_claim_block(struct sim *s, struct zone *z, uint32_t pfn, int current_order,
				   int order, int start_mt, int block_mt, unsigned alloc_flags,
				   int cpu)
{
	if (current_order >= s->config.pageblock_order)
		return claim_whole(s, z, pfn, current_order, order, start_mt, block_mt,
				   FN_TRY_TO_CLAIM_BLOCK, cpu);
	/* more reclaim pressure now makes the next fallback less likely; kswapd is woken after the alloc */
	if (fallback_boost_watermark(s, z, cpu) && (alloc_flags & ALLOC_KSWAPD))
		z->flags |= ZONE_BOOSTED_WATERMARK;
	if (claim_pageblock(s, z, pfn, order, start_mt, block_mt, FN_TRY_TO_CLAIM_BLOCK, cpu) != 1)
		return PFN_NONE;
	/* the claimed pageblock's free blocks are ours now; the smallest fitting one may be elsewhere */
	return buddy_rmqueue_smallest(s, z, order, start_mt, cpu);
}

/* The lowest order a fallback may take blocks from: whole pageblocks only under ALLOC_NOFRAGMENT. */
static int fallback_min_order(const struct sim *s, int order, unsigned alloc_flags)
{
	if (order < s->config.pageblock_order && (alloc_flags & ALLOC_NOFRAGMENT))
		return s->config.pageblock_order;
	return order;
}

uint32_t fallback_rmqueue_claim(struct sim *s, struct zone *z, int order, int start_mt,
				unsigned alloc_flags, int cpu)
{
	int min_order = fallback_min_order(s, order, alloc_flags);

	if (start_mt < 0 || start_mt >= MIGRATE_PCPTYPES || order < 0)
		return PFN_NONE;
	/* largest first: a big free block hints at a mostly free pageblock */
	for (int current_order = s->config.max_order; current_order >= min_order; current_order--) {
		int fallback_mt;
		uint32_t pfn, page;

		/* find_suitable_fallback(claimable): orders too small to claim end the scan (-2) */
		if (!fallback_may_claim(s, current_order, start_mt))
			break;
		fallback_mt = find_fallback(s, z, current_order, start_mt);
		if (fallback_mt < 0)
			continue;
		pfn = free_list_head(s, z, current_order, fallback_mt);
		page = try_to_claim_block(s, z, pfn, current_order, order, start_mt, fallback_mt,
					  alloc_flags, cpu);
		if (page != PFN_NONE) {
			emit_extfrag(s, z, FN___RMQUEUE_CLAIM, cpu, page, order, current_order,
				     start_mt, fallback_mt);
			return page;
		}
		/* 6.18: a pageblock not worth claiming is left alone; smaller orders are tried next */
	}
	return PFN_NONE;
}

uint32_t fallback_rmqueue_steal(struct sim *s, struct zone *z, int order, int start_mt, int cpu)
{
	if (start_mt < 0 || start_mt >= MIGRATE_PCPTYPES || order < 0)
		return PFN_NONE;
	/* smallest first: pollute as little of the lender's pageblock as possible */
	for (int current_order = order; current_order <= s->config.max_order; current_order++) {
		int fallback_mt = find_fallback(s, z, current_order, start_mt);
		uint32_t pfn;

		if (fallback_mt < 0)
			continue;
		pfn = free_list_head(s, z, current_order, fallback_mt);
		/* page_del_and_expand on the lender's lists: the pageblock keeps its type */
		buddy_del_from_free_list(s, z, pfn);
		buddy_expand(s, z, pfn, order, current_order, fallback_mt, cpu);
		emit_extfrag(s, z, FN___RMQUEUE_STEAL, cpu, pfn, order, current_order, start_mt,
			     fallback_mt);
		return pfn;
	}
	return PFN_NONE;
}

/*
 * 6.12 steal_suitable_fallback: claim the pageblock when allowed and worth it, then allocate from
 * start_mt's lists; otherwise take exactly the requested piece of this block on its own type.
 */
static uint32_t steal_suitable_fallback(struct sim *s, struct zone *z, uint32_t pfn,
					int current_order, int order, int start_mt,
					unsigned alloc_flags, int whole_block, int cpu)
{
	int block_mt = get_pageblock_migratetype(s, z, pfn);

	/* a race in the kernel; kept so a reserve's accounting can never leak into another type */
	if (block_mt != MIGRATE_HIGHATOMIC) {
		if (current_order >= s->config.pageblock_order)
			return claim_whole(s, z, pfn, current_order, order, start_mt, block_mt,
					   FN_STEAL_SUITABLE_FALLBACK, cpu);
		if (fallback_boost_watermark(s, z, cpu) && (alloc_flags & ALLOC_KSWAPD))
			z->flags |= ZONE_BOOSTED_WATERMARK;
		if (whole_block && claim_pageblock(s, z, pfn, order, start_mt, block_mt,
						   FN_STEAL_SUITABLE_FALLBACK, cpu) == 1)
			return buddy_rmqueue_smallest(s, z, order, start_mt, cpu);
	}
	/* single_page: the rest of the block goes back on the lender's lists */
	buddy_del_from_free_list(s, z, pfn);
	buddy_expand(s, z, pfn, order, current_order, block_mt, cpu);
	return pfn;
}

uint32_t fallback_rmqueue_6_12(struct sim *s, struct zone *z, int order, int start_mt,
			       unsigned alloc_flags, int cpu)
{
	int min_order = fallback_min_order(s, order, alloc_flags);
	int current_order, fallback_mt = -1, can_steal = 0;
	uint32_t pfn, page;

	if (start_mt < 0 || start_mt >= MIGRATE_PCPTYPES || order < 0)
		return PFN_NONE;
	/* largest first, as in 6.18's claim stage */
	for (current_order = s->config.max_order; current_order >= min_order; current_order--) {
		fallback_mt = find_fallback(s, z, current_order, start_mt);
		if (fallback_mt >= 0)
			break;
	}
	if (fallback_mt < 0)
		return PFN_NONE;
	can_steal = fallback_may_claim(s, current_order, start_mt);
	/*
	 * A movable request that may not claim would only borrow: better break the smallest
	 * foreign block than a large one, which keeps large blocks for those who can claim.
	 */
	if (!can_steal && start_mt == MIGRATE_MOVABLE && current_order > order) {
		for (current_order = order; current_order <= s->config.max_order; current_order++) {
			fallback_mt = find_fallback(s, z, current_order, start_mt);
			if (fallback_mt >= 0)
				break;
		}
		if (fallback_mt < 0)
			return PFN_NONE; /* cannot happen: a larger block was just seen */
		can_steal = fallback_may_claim(s, current_order, start_mt);
	}
	pfn = free_list_head(s, z, current_order, fallback_mt);
	page = steal_suitable_fallback(s, z, pfn, current_order, order, start_mt, alloc_flags,
				       can_steal, cpu);
	if (page == PFN_NONE)
		return PFN_NONE;
	emit_extfrag(s, z, FN___RMQUEUE_FALLBACK, cpu, page, order, current_order, start_mt,
		     fallback_mt);
	return page;
}

/* ---- 5.0 to 6.9, and 4.9: move the pageblock's free pages first ------------------------------- */

/*
 * move_freepages_block as 4.9 to 6.9 had it: every free block from the pageblock's start (or from
 * pfn itself when the zone begins inside the pageblock) to its end moves to mt's lists, at the
 * tail (5.10+) or the head (4.9), and the pageblock keeps its tag. *movable (when asked for)
 * counts the allocated pages migration could move. Returns the pages moved: 0 when the pageblock
 * runs past the zone's end, where nothing moves.
 */
static int32_t move_freepages_block_old(struct sim *s, struct zone *z, uint32_t pfn, int mt,
					int fallback_order, int cpu, int32_t *movable)
{
	uint32_t start = pfn & ~(s->pageblock_nr_pages - 1);
	uint32_t end = start + s->pageblock_nr_pages - 1, at;
	int32_t moved = 0, movable_pages = 0;
	int blocks = 0;

	if (movable)
		*movable = 0;
	if (!zone_has_pfn(z, start))
		start = pfn;
	if (!zone_has_pfn(z, end))
		return 0;
	/* at most pageblock_nr_pages steps: each visits one frame or hops a whole block */
	for (at = start; at <= end;) {
		struct page *page = zone_page(s, z, at);
		uint32_t step = walk_step(s, page);
		uint32_t in_block = step < end + 1 - at ? step : end + 1 - at;

		if (page->state == PG_BUDDY && page->order <= s->config.max_order) {
			buddy_move_to_free_list_at(s, z, at, mt, s->profile.move_freepages_to_tail);
			moved += (int32_t)step;
			blocks++;
		} else if (page->state == PG_ALLOCATED && page->list == MIGRATE_MOVABLE) {
			/* PageLRU or __PageMovable: the model's movable allocations */
			movable_pages += (int32_t)in_block;
		}
		at += step;
	}
	if (movable)
		*movable = movable_pages;
	ev_emit(s, EV_MOVE_FREEPAGES_BLOCK, FN_MOVE_FREEPAGES_BLOCK, cpu, z, start, fallback_order,
		mt, moved, blocks, movable ? movable_pages : -1);
	return moved;
}

/*
 * 5.0-6.9 steal_suitable_fallback: the block at pfn (order current_order) ends up on start_mt's
 * lists; with it, when whole_block, every free block of its pageblock, and the pageblock changes
 * type when free + alike pages reach half of it.
 */
static void steal_and_move(struct sim *s, struct zone *z, uint32_t pfn, int current_order,
			   int start_mt, unsigned alloc_flags, int whole_block, int cpu)
{
	int old_mt = get_pageblock_migratetype(s, z, pfn), claimed;
	int32_t free_pages, movable_pages, alike_pages;

	/* a race in the kernel; kept so a reserve's accounting can never leak into another type */
	if (old_mt == MIGRATE_HIGHATOMIC)
		goto single_page;
	if (current_order >= s->config.pageblock_order) {
		/* take ownership of every pageblock the block covers, then move the block alone */
		change_pageblock_range(s, z, pfn, current_order, start_mt);
		emit_claim(s, z, FN_STEAL_SUITABLE_FALLBACK, cpu, pfn, current_order, start_mt,
			   old_mt, (int32_t)1 << current_order, 1);
		goto single_page;
	}
	/* more reclaim pressure now makes the next fallback less likely; kswapd is woken after */
	if (fallback_boost_watermark(s, z, cpu) && (alloc_flags & ALLOC_KSWAPD))
		z->flags |= ZONE_BOOSTED_WATERMARK;
	if (!whole_block)
		goto single_page;
	free_pages =
		move_freepages_block_old(s, z, pfn, start_mt, current_order, cpu, &movable_pages);
	if (!free_pages) {
		/* the pageblock runs past the zone: nothing moved, take the block alone */
		emit_claim(s, z, FN_STEAL_SUITABLE_FALLBACK, cpu,
			   pfn & ~(s->pageblock_nr_pages - 1), current_order, start_mt, old_mt, -1,
			   0);
		goto single_page;
	}
	if (start_mt == MIGRATE_MOVABLE)
		alike_pages = movable_pages;
	else if (old_mt == MIGRATE_MOVABLE)
		alike_pages = (int32_t)s->pageblock_nr_pages - (free_pages + movable_pages);
	else
		alike_pages = 0;
	/* the free pages stay on start_mt's lists whether or not the pageblock changes type */
	claimed = free_pages + alike_pages >= (int32_t)(s->pageblock_nr_pages >> 1);
	if (claimed)
		set_pageblock_migratetype(s, z, pfn, start_mt);
	emit_claim(s, z, FN_STEAL_SUITABLE_FALLBACK, cpu, pfn & ~(s->pageblock_nr_pages - 1),
		   current_order, start_mt, old_mt, free_pages + alike_pages, claimed);
	return;
single_page:
	buddy_move_to_free_list_at(s, z, pfn, start_mt, s->profile.move_freepages_to_tail);
}

/* The first order at or above `from` with a fallback block, as find_smallest scans; -1 if none. */
static int smallest_fallback_order(const struct sim *s, const struct zone *z, int from,
				   int start_mt, int *fallback_mt)
{
	for (int current_order = from; current_order <= s->config.max_order; current_order++) {
		*fallback_mt = find_fallback(s, z, current_order, start_mt);
		if (*fallback_mt >= 0)
			return current_order;
	}
	return -1;
}

/*
 * 5.0-6.9 __rmqueue_fallback: choose a foreign block (largest first; the smallest for a movable
 * request that may not claim) and move it, and maybe its pageblock's free blocks, to start_mt's
 * lists. 1 if something moved, so __rmqueue retries its own lists.
 */
static int rmqueue_fallback_move(struct sim *s, struct zone *z, int order, int start_mt,
				 unsigned alloc_flags, int cpu)
{
	int pageblock_order = s->config.pageblock_order, min_order = order;
	int current_order, fallback_mt = -1, can_steal;
	uint32_t pfn;

	/*
	 * Under ALLOC_NOFRAGMENT only whole pageblocks may be taken. Before ~6.0 the floor applied
	 * to every request, so one above pageblock order scans below its own order too.
	 */
	if ((alloc_flags & ALLOC_NOFRAGMENT) &&
	    (order < pageblock_order || !s->profile.nofragment_small_orders_only))
		min_order = pageblock_order;
	for (current_order = s->config.max_order; current_order >= min_order; current_order--) {
		fallback_mt = find_fallback(s, z, current_order, start_mt);
		if (fallback_mt >= 0)
			break;
	}
	if (fallback_mt < 0)
		return 0;
	can_steal = fallback_may_claim(s, current_order, start_mt);
	/* a movable request that may not claim breaks the smallest foreign block instead */
	if (!can_steal && start_mt == MIGRATE_MOVABLE && current_order > order) {
		current_order = smallest_fallback_order(s, z, order, start_mt, &fallback_mt);
		if (current_order < 0)
			return 0; /* cannot happen: a larger block was just seen */
		can_steal = fallback_may_claim(s, current_order, start_mt);
	}
	pfn = free_list_head(s, z, current_order, fallback_mt);
	steal_and_move(s, z, pfn, current_order, start_mt, alloc_flags, can_steal, cpu);
	/* the block's pfn, before __rmqueue splits whatever it takes next */
	emit_extfrag(s, z, FN___RMQUEUE_FALLBACK, cpu, pfn, order, current_order, start_mt,
		     fallback_mt);
	return 1;
}

/*
 * The retry loop of 5.0-6.9 __rmqueue. Each fallback moves at least one block off another type's
 * lists onto ours for good, so the loop ends after at most as many passes as there are free
 * blocks; a sound zone has fewer free blocks than managed pages.
 */
static uint32_t rmqueue_move_retry(struct sim *s, struct zone *z, int order, int mt,
				   unsigned alloc_flags, int cpu)
{
	for (uint64_t pass = 0; pass <= z->managed; pass++) {
		uint32_t pfn = buddy_rmqueue_smallest(s, z, order, mt, cpu);

		if (pfn != PFN_NONE)
			return pfn;
		if (!rmqueue_fallback_move(s, z, order, mt, alloc_flags, cpu))
			return PFN_NONE;
	}
	ev_emit(s, EV_RUNAWAY_LOOP, FN___RMQUEUE, cpu, z, 0, order, mt,
		(int32_t)(z->managed > INT32_MAX ? INT32_MAX : z->managed), 0, 0);
	{
		struct textbuf tb;

		tb_init(&tb, s->error, sizeof s->error);
		tb_str(&tb, "__rmqueue: fallbacks kept moving blocks without serving the request");
		tb_finish(&tb);
	}
	s->frozen = 1;
	return PFN_NONE;
}

/* 4.9 steal_suitable_fallback: take the pageblock outright, or move its free pages and retag at half. */
static void steal_4_9(struct sim *s, struct zone *z, uint32_t pfn, int current_order, int start_mt,
		      int cpu)
{
	int old_mt = get_pageblock_migratetype(s, z, pfn);
	int32_t pages;

	if (current_order >= s->config.pageblock_order) {
		change_pageblock_range(s, z, pfn, current_order, start_mt);
		emit_claim(s, z, FN_STEAL_SUITABLE_FALLBACK, cpu, pfn, current_order, start_mt,
			   old_mt, (int32_t)1 << current_order, 1);
		return;
	}
	/* no alike pages yet (5.0): only the free pages moved count toward half a pageblock */
	pages = move_freepages_block_old(s, z, pfn, start_mt, current_order, cpu, NULL);
	if (pages >= (int32_t)(s->pageblock_nr_pages >> 1)) {
		set_pageblock_migratetype(s, z, pfn, start_mt);
		emit_claim(s, z, FN_STEAL_SUITABLE_FALLBACK, cpu,
			   pfn & ~(s->pageblock_nr_pages - 1), current_order, start_mt, old_mt,
			   pages, 1);
		return;
	}
	emit_claim(s, z, FN_STEAL_SUITABLE_FALLBACK, cpu, pfn & ~(s->pageblock_nr_pages - 1),
		   current_order, start_mt, old_mt, pages ? pages : -1, 0);
}

/*
 * 4.9 __rmqueue_fallback: the largest foreign block; its pageblock's free pages move to start_mt
 * when the order allows a steal; the block itself is split on start_mt's lists either way.
 */
static uint32_t rmqueue_fallback_4_9(struct sim *s, struct zone *z, int order, int start_mt,
				     int cpu)
{
	for (int current_order = s->config.max_order; current_order >= order; current_order--) {
		int fallback_mt = find_fallback(s, z, current_order, start_mt);
		uint32_t pfn;

		if (fallback_mt < 0)
			continue;
		pfn = free_list_head(s, z, current_order, fallback_mt);
		if (fallback_may_claim(s, current_order, start_mt))
			steal_4_9(s, z, pfn, current_order, start_mt, cpu);
		buddy_del_from_free_list(s, z, pfn);
		/* the halves go to the requester's lists even when the pageblock stayed foreign */
		buddy_expand(s, z, pfn, order, current_order, start_mt, cpu);
		emit_extfrag(s, z, FN___RMQUEUE_FALLBACK, cpu, pfn, order, current_order, start_mt,
			     fallback_mt);
		return pfn;
	}
	return PFN_NONE;
}

/*
 * The most pages a zone may reserve for high-order atomics, or -1 for none: ~1% of the zone
 * rounded up to pageblocks, nothing if 1% is under a pageblock (highatomic_limit_rounded), or
 * before that 1% plus one pageblock.
 */
static int64_t highatomic_limit(const struct sim *s, const struct zone *z)
{
	int64_t one_percent = z->managed / 100, pageblock_nr_pages = s->pageblock_nr_pages;

	if (!s->profile.highatomic_limit_rounded)
		return one_percent + pageblock_nr_pages;
	if (one_percent < pageblock_nr_pages)
		return -1;
	return (one_percent + pageblock_nr_pages - 1) / pageblock_nr_pages * pageblock_nr_pages;
}

/* The CPU whose clock pays for the zone lock: a bad cpu argument is charged to CPU 0. */
static int lock_cpu(const struct sim *s, int cpu)
{
	return cpu >= 0 && (uint32_t)cpu < s->nr_cpus ? cpu : 0;
}

void highatomic_reserve_pageblock(struct sim *s, struct zone *z, uint32_t pfn, int order, int cpu)
{
	int64_t limit = highatomic_limit(s, z);
	int mt, blocks = 0;
	int32_t pages = 0;

	if (limit < 0 || z->nr_reserved_highatomic >= limit)
		return;
	if (order < 0 || order > s->config.max_order || (pfn & ((1u << order) - 1)) ||
	    !zone_has_pfn(z, pfn) || !zone_has_pfn(z, pfn + (1u << order) - 1))
		return;
	cpu = lock_cpu(s, cpu);
	zone_lock(s, z, cpu);
	/* the kernel checks the limit again under the lock; in the model nothing ran in between */
	mt = get_pageblock_migratetype(s, z, pfn);
	/* only normal pageblocks: HIGHATOMIC already is one, ISOLATE is being taken away */
	if (mt < MIGRATE_PCPTYPES && !s->profile.highatomic_whole_range) {
		/*
		 * 6.9 and earlier: retag pfn's own pageblock, count one pageblock, and move its free
		 * blocks; a pageblock running past the zone's end is retagged and counted, moving nothing
		 */
		z->nr_reserved_highatomic += s->pageblock_nr_pages;
		set_pageblock_migratetype(s, z, pfn, MIGRATE_HIGHATOMIC);
		pages = move_freepages_block_old(s, z, pfn, MIGRATE_HIGHATOMIC, order, cpu, NULL);
		ev_emit(s, EV_HIGHATOMIC_RESERVE, FN_RESERVE_HIGHATOMIC_PAGEBLOCK, cpu, z,
			pfn & ~(s->pageblock_nr_pages - 1), order, MIGRATE_HIGHATOMIC,
			(int32_t)z->nr_reserved_highatomic, mt, pages);
	} else if (mt < MIGRATE_PCPTYPES) {
		if (order < s->config.pageblock_order) {
			uint32_t start = pageblock_in_zone(s, z, pfn);
			if (start != PFN_NONE) {
				pages = move_freepages_block(s, z, start, MIGRATE_HIGHATOMIC,
							     &blocks);
				z->nr_reserved_highatomic += s->pageblock_nr_pages;
				ev_emit(s, EV_HIGHATOMIC_RESERVE, FN_RESERVE_HIGHATOMIC_PAGEBLOCK,
					cpu, z, start, order, MIGRATE_HIGHATOMIC,
					(int32_t)z->nr_reserved_highatomic, mt, pages);
			}
		} else {
			/* the allocated block covers whole pageblocks: retag them all */
			change_pageblock_range(s, z, pfn, order, MIGRATE_HIGHATOMIC);
			z->nr_reserved_highatomic += (int64_t)1 << order;
			ev_emit(s, EV_HIGHATOMIC_RESERVE, FN_RESERVE_HIGHATOMIC_PAGEBLOCK, cpu, z,
				pfn, order, MIGRATE_HIGHATOMIC, (int32_t)z->nr_reserved_highatomic,
				mt, 0);
		}
	}
	zone_unlock(s, z, cpu, blocks, pages);
}

/*
 * 6.9 and earlier: the smallest free HIGHATOMIC block's pageblock goes back to mt, counting one
 * pageblock off the reserve (only when that pageblock still is HIGHATOMIC); an order walk that
 * moves nothing goes on to the next order. 1 if done.
 */
static int unreserve_zone_old(struct sim *s, struct zone *z, int mt, int cpu, int *blocks,
			      int32_t *moved)
{
	*blocks = 0;
	*moved = 0;
	for (int order = 0; order <= s->config.max_order; order++) {
		uint32_t pfn = free_list_head(s, z, order, MIGRATE_HIGHATOMIC);

		if (pfn == PFN_NONE)
			continue;
		if (get_pageblock_migratetype(s, z, pfn) == MIGRATE_HIGHATOMIC)
			z->nr_reserved_highatomic -= s->pageblock_nr_pages <
								     z->nr_reserved_highatomic ?
							     s->pageblock_nr_pages :
							     z->nr_reserved_highatomic;
		/* only pfn's own pageblock is retagged, even under a bigger block */
		set_pageblock_migratetype(s, z, pfn, mt);
		*moved = move_freepages_block_old(s, z, pfn, mt, order, cpu, NULL);
		if (!*moved)
			continue;
		*blocks = 1;
		ev_emit(s, EV_HIGHATOMIC_UNRESERVE, FN_UNRESERVE_HIGHATOMIC_PAGEBLOCK, cpu, z, pfn,
			order, mt, (int32_t)z->nr_reserved_highatomic, MIGRATE_HIGHATOMIC, *moved);
		return 1;
	}
	return 0;
}

/* The unreserve of one zone (lock held): give back the pageblock of its smallest free HIGHATOMIC block; 1 if done. */
static int unreserve_zone(struct sim *s, struct zone *z, int mt, int cpu, int *blocks,
			  int32_t *moved)
{
	*blocks = 0;
	*moved = 0;
	if (!s->profile.highatomic_whole_range)
		return unreserve_zone_old(s, z, mt, cpu, blocks, moved);
	for (int order = 0; order <= s->config.max_order; order++) {
		uint32_t pfn = free_list_head(s, z, order, MIGRATE_HIGHATOMIC);
		int64_t size = (int64_t)1 << order;

		if (pfn == PFN_NONE)
			continue;
		if (size < s->pageblock_nr_pages)
			size = s->pageblock_nr_pages;
		/* a drain racing with the unreserve could have added pages: never underflow */
		if (size > z->nr_reserved_highatomic)
			size = z->nr_reserved_highatomic;
		z->nr_reserved_highatomic -= size;
		/* straight to the caller's type, no claim heuristics: the caller needs the pages */
		if (order < s->config.pageblock_order) {
			uint32_t start = pageblock_in_zone(s, z, pfn);
			if (start == PFN_NONE)
				continue; /* reserving it succeeded, so the kernel WARNs here */
			*moved = move_freepages_block(s, z, start, mt, blocks);
		} else {
			buddy_move_to_free_list(s, z, pfn, mt);
			change_pageblock_range(s, z, pfn, order, mt);
			*moved = (int32_t)1 << order;
			*blocks = 1;
		}
		ev_emit(s, EV_HIGHATOMIC_UNRESERVE, FN_UNRESERVE_HIGHATOMIC_PAGEBLOCK, cpu, z, pfn,
			order, mt, (int32_t)z->nr_reserved_highatomic, MIGRATE_HIGHATOMIC, *moved);
		return 1;
	}
	return 0;
}

int highatomic_unreserve_pageblock(struct sim *s, int nid, int highest_zoneidx, int mt, int force,
				   int cpu)
{
	const struct node *n;

	if (nid < 0 || nid >= s->config.nr_nodes || mt < 0 || mt >= MIGRATE_PCPTYPES)
		return 0;
	n = &sim_nodes(s)[nid];
	cpu = lock_cpu(s, cpu);
	for (int i = 0; i < n->zonelist_len && i < MAX_NUMNODES * MAX_NR_ZONES; i++) {
		int znid = n->zonelist[i][0], zid = n->zonelist[i][1], done, blocks;
		int32_t moved;
		struct zone *z;

		if (znid >= s->config.nr_nodes || zid >= MAX_NR_ZONES || zid > highest_zoneidx)
			continue;
		z = &sim_nodes(s)[znid].zones[zid];
		if (!zone_populated(z))
			continue;
		/* keep one pageblock of reserve unless the allocation is about to OOM */
		if (!force && z->nr_reserved_highatomic <= s->pageblock_nr_pages)
			continue;
		zone_lock(s, z, cpu);
		done = unreserve_zone(s, z, mt, cpu, &blocks, &moved);
		zone_unlock(s, z, cpu, blocks, moved);
		if (done)
			return 1;
	}
	return 0;
}

/* ---- __rmqueue: the order in which the stages are tried ---------------------------------------- */

uint32_t rmqueue_with_fallback(struct sim *s, struct zone *z, int order, int mt,
			       unsigned alloc_flags, int *mode, int cpu)
{
	int local_mode = RMQUEUE_NORMAL;
	uint32_t pfn;

	if (order < 0 || order > s->config.max_order || mt < 0 || mt >= MIGRATE_PCPTYPES)
		return PFN_NONE;
	if (!mode)
		mode = &local_mode;
	if (*mode < RMQUEUE_NORMAL || *mode > RMQUEUE_STEAL)
		*mode = RMQUEUE_NORMAL;

	if (s->profile.fallback_rule == FALLBACK_MOVE_RETRY_5_0) {
		pfn = rmqueue_move_retry(s, z, order, mt, alloc_flags, cpu);
		buddy_trace_zone_locked(s, z, pfn, order, mt, FN___RMQUEUE, cpu);
		return pfn;
	}
	if (s->profile.fallback_rule == FALLBACK_MOVE_EXPAND_4_9) {
		pfn = buddy_rmqueue_smallest(s, z, order, mt, cpu);
		if (pfn == PFN_NONE)
			pfn = rmqueue_fallback_4_9(s, z, order, mt, cpu);
		buddy_trace_zone_locked(s, z, pfn, order, mt, FN___RMQUEUE, cpu);
		return pfn;
	}
	if (s->profile.fallback_rule == FALLBACK_STEAL_6_12) {
		/* 6.12 __rmqueue: own list, then one fallback pass that claims or steals (no CMA here) */
		pfn = buddy_rmqueue_smallest(s, z, order, mt, cpu);
		if (pfn == PFN_NONE)
			pfn = fallback_rmqueue_6_12(s, z, order, mt, alloc_flags, cpu);
		return pfn;
	}

	/*
	 * 6.18 __rmqueue: stages of growing fragmentation risk. rmqueue_bulk keeps *mode across its
	 * loop, so a refill that had to steal goes on stealing without searching the emptier
	 * stages again. Each stage falls through to the next riskier one (switch fallthrough in
	 * the kernel; stages are ordered, so "at or before this stage" says the same).
	 */
	if (*mode == RMQUEUE_NORMAL) {
		pfn = buddy_rmqueue_smallest(s, z, order, mt, cpu);
		if (pfn != PFN_NONE)
			return pfn;
	}
	/* RMQUEUE_CMA: only for ALLOC_CMA requests, and the model has no CMA area */
	if (*mode <= RMQUEUE_CLAIM) {
		pfn = fallback_rmqueue_claim(s, z, order, mt, alloc_flags, cpu);
		if (pfn != PFN_NONE) {
			/* the claimed pageblock refilled our own lists: back to normal */
			*mode = RMQUEUE_NORMAL;
			return pfn;
		}
	}
	if (*mode <= RMQUEUE_STEAL && !(alloc_flags & ALLOC_NOFRAGMENT)) {
		pfn = fallback_rmqueue_steal(s, z, order, mt, cpu);
		if (pfn != PFN_NONE) {
			*mode = RMQUEUE_STEAL;
			return pfn;
		}
	}
	return PFN_NONE;
}

uint32_t rmqueue_buddy(struct sim *s, struct zone *z, int order, int mt, unsigned alloc_flags,
		       int cpu)
{
	uint32_t pfn = PFN_NONE;

	if (order < 0 || order > s->config.max_order)
		return PFN_NONE;
	/* high-order atomic requests may use the reserve first */
	if (alloc_flags & ALLOC_HIGHATOMIC) {
		pfn = buddy_rmqueue_smallest(s, z, order, MIGRATE_HIGHATOMIC, cpu);
		/* before 5.19 rmqueue traced this block itself, with the request's migratetype */
		buddy_trace_zone_locked(s, z, pfn, order, mt, FN_RMQUEUE_BUDDY, cpu);
	}
	if (pfn == PFN_NONE) {
		int mode = RMQUEUE_NORMAL;
		unsigned last_resort = s->profile.highatomic_last_resort >= 2 ?
					       ALLOC_OOM | ALLOC_NON_BLOCK :
				       s->profile.highatomic_last_resort == 1 ? ALLOC_OOM :
										0;
		pfn = rmqueue_with_fallback(s, z, order, mt, alloc_flags, &mode, cpu);
		/*
		 * Failing an OOM-killer (6.0+) or atomic (6.10+) allocation now is worse than
		 * failing a future high-order atomic one: let them have the reserve, even at order 0.
		 */
		if (pfn == PFN_NONE && (alloc_flags & last_resort))
			pfn = buddy_rmqueue_smallest(s, z, order, MIGRATE_HIGHATOMIC, cpu);
	}
	return pfn;
}
