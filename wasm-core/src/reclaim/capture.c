/*
 * capture.c: the LRU lists of a machine booted in a captured state.
 *
 * zoneinfo counts each zone's pages on the four evictable lists (nr_zone_inactive_anon ...
 * nr_zone_active_file) but not which pages, nor their folio sizes. The model takes them out of
 * the zone's captured in-use memory (PAGEF_CAPTURED blocks, page_alloc/capture.c), from Movable
 * pageblocks first as user memory mostly sits there, as order-0 pages: a folio's size is in no
 * /proc file. Page cache comes clean and unmapped (the few dirty or mapped pages zoneinfo also
 * counts are left out), anonymous memory mapped; nothing is referenced yet. What stays captured
 * is kernel memory, which free_captured hands back. A whole captured block of the largest order
 * that a list's pages fill becomes one LRU extent (reclaim/lru.h), not 2^max_order frames.
 *
 * A capture with an lru-state file (scripts/capture/lru-state.c: /proc/kpageflags and
 * /proc/kpagecgroup) says more: each folio's order, list and memory cgroup. Those folios come in
 * whole (capture_lru_folios), charged to their memcg through the owner slot (reclaim/memcg.h).
 */
#include "reclaim/capture.h"

#include "base/state.h"
#include "page_alloc/capture.h"
#include "reclaim/lru.h"
#include "reclaim/memcg.h"
#include "reclaim/vmscan.h"

/* The flags a captured page of list lru gets. */
static uint16_t captured_flags(int lru)
{
	uint16_t flags = is_active_lru(lru) ? PGL_ACTIVE : 0;

	if (!is_file_lru(lru))
		flags |= PGL_SWAPBACKED | PGL_MAPPED;
	return flags;
}

/*
 * Put up to need pages of the captured block (pfn, order) on list lru as folios of forder
 * (<= order), charged to owner (HANDLE_NONE: the root): right halves stay captured until the left
 * part holds no more than need pages. Returns the pages taken.
 */
static uint32_t take(struct sim *s, struct zone *z, uint32_t pfn, int order, int forder, int lru,
		     uint32_t need, uint32_t owner)
{
	int mt = zone_page(s, z, pfn)->list;
	uint32_t n;

	frame_materialised(s, pfn); /* folios need their frames (a whole block is split here) */

	while (order > forder && need < (1u << order)) {
		order--;
		capture_mark_in_use(s, z, pfn + (1u << order), order, mt);
	}
	n = 1u << order;
	for (uint32_t i = 0; i < n; i += 1u << forder) {
		struct page *page = zone_page(s, z, pfn + i);

		for (uint32_t j = 0; j < (1u << forder); j++)
			frame_changed(s, pfn + i + j);
		page->state = PG_ALLOCATED;
		page->order = (uint8_t)forder;
		page->list = MIGRATE_MOVABLE; /* user memory: a movable request */
		page->flags = 0;
		page->cpu = 0;
		page->next = page->prev = PFN_NONE;
		page->lru_flags = captured_flags(lru);
		for (uint32_t j = 1; j < (1u << forder); j++)
			zone_page(s, z, pfn + i + j)->state = PG_TAIL;
		*frame_owner(s, pfn + i) = owner;
		lru_account(s, z, page, 1);
		lru_link(s, z, pfn + i, 0);
	}
	return n;
}

/*
 * Whether the captured block headed by page, at pfn, becomes an LRU extent (reclaim/lru.h) rather
 * than its folios: a whole block of the largest order (base/frames.h) that the folios fill, of the
 * root (a whole block's owner slot is HANDLE_NONE), under per-node LRU reclaim (<= 4.7 zone
 * reclaim walks past other zones' blocks from the tail, where only folios may be met).
 */
static int extent_fits(const struct sim *s, uint32_t pfn, const struct page *page, int forder,
		       uint64_t need, uint32_t owner)
{
	const int max_order = s->config.max_order;

	return page->order == max_order && forder < max_order &&
	       block_is_whole(s, pfn >> max_order) && need >= (1ull << max_order) &&
	       owner == HANDLE_NONE && s->profile.node_reclaim_per_node;
}

/* The captured block (pfn, max order) becomes an LRU extent of folios of forder on list lru. */
static uint32_t make_extent(struct sim *s, struct zone *z, uint32_t pfn, int forder, int lru)
{
	struct page *head = zone_page(s, z, pfn); /* the whole block's head, in the table */

	frame_changed(s, pfn);
	head->state = PG_ALLOCATED;
	head->list = MIGRATE_MOVABLE; /* user memory: a movable request */
	head->flags = PAGEF_EXTENT;
	head->cpu = (uint16_t)forder;
	head->next = head->prev = PFN_NONE;
	head->lru_flags = captured_flags(lru);
	lru_account(s, z, head, 1);
	lru_link(s, z, pfn, 0);
	return 1u << s->config.max_order;
}

/*
 * Place need pages of list lru as folios of order forder owned by owner, carved from captured
 * in-use blocks of zone z: Movable pageblocks first (user memory), then any. A whole captured
 * block the folios fill becomes an extent; the rest get frames. Returns the pages no captured
 * block could hold. Each pass starts at its pageblock type's capture cursor (base/types.h) and
 * moves it past what holds no captured block any more, so a list placed in many small ops (its
 * folio orders interleaved: web/core/capture-ops.ts) does not scan the zone from its start each
 * time.
 */
static uint64_t place_captured(struct sim *s, struct zone *z, int forder, int lru, uint64_t need,
			       uint32_t owner)
{
	uint32_t end = z->mem_pfn + z->managed;

	for (int pass = 0; pass < 2 && need; pass++) {
		uint32_t *cursor = &z->capture_cursor[pass ? MIGRATE_TYPES : MIGRATE_MOVABLE];
		int prefix =
			1; /* nothing captured of the pass's type seen yet: the cursor follows */

		if (*cursor < z->mem_pfn)
			*cursor = z->mem_pfn;
		for (uint32_t pfn = *cursor; pfn < end && need;) {
			const struct page *page = zone_page(s, z, pfn);
			uint32_t size = 1u << page->order;
			int captured =
				page->state == PG_ALLOCATED && (page->flags & PAGEF_CAPTURED) &&
				(pass || get_pageblock_migratetype(s, z, pfn) == MIGRATE_MOVABLE);

			if (captured && page->order >= forder) {
				uint32_t want = need > UINT32_MAX ? UINT32_MAX : (uint32_t)need;
				uint32_t took = extent_fits(s, pfn, page, forder, need, owner) ?
							make_extent(s, z, pfn, forder, lru) :
							take(s, z, pfn, page->order, forder, lru,
							     want, owner);
				need -= took;
				size = took; /* the right halves take left stay captured: seen next */
				captured = 0;
			}
			if (prefix && !captured)
				*cursor = pfn + size;
			else
				prefix = 0;
			pfn += size;
		}
	}
	return need;
}

int capture_lru(struct sim *s, const struct sim_op *op)
{
	struct zone *z;

	if (op->handle >= (uint32_t)s->config.nr_nodes * MAX_NR_ZONES || op->arg < 0)
		return SIM_EINVAL;
	if (op->gfp == CAPTURE_LRU_REFAULTS) {
		/* workingset activations since reclaim last ran: its next scan ages active lists */
		if (op->arg > (DEACTIVATE_ANON | DEACTIVATE_FILE))
			return SIM_EINVAL;
		sim_nodes(s)[op->handle / MAX_NR_ZONES].refaults_moved = (uint8_t)op->arg;
		return SIM_OK;
	}
	if (op->gfp >= NR_LRU_LISTS)
		return SIM_EINVAL;
	z = sim_zone(s, (int)(op->handle / MAX_NR_ZONES), (int)(op->handle % MAX_NR_ZONES));
	if (!zone_populated(z) || !z->capture_laid_out)
		return SIM_EINVAL;
	place_captured(s, z, 0, (int)op->gfp, (uint64_t)op->arg, HANDLE_NONE);
	/* single pages stand for folios of sizes no file gave: kswapd's cost per folio would be
	 * counted for each page (kswapd.h) */
	sim_nodes(s)[zone_to_nid(z)].kswapd.unpaced = 1;
	return SIM_OK;
}

int capture_lru_folios(struct sim *s, const struct sim_op *op)
{
	struct zone *z;
	uint64_t need;
	int lru = (int)(op->gfp % NR_LRU_LISTS), memcg = (int)(op->gfp / NR_LRU_LISTS);
	int forder = op->order;

	if (op->handle >= (uint32_t)s->config.nr_nodes * MAX_NR_ZONES || op->arg < 0 ||
	    forder > s->config.max_order || (memcg && memcg >= memcg_count(s)))
		return SIM_EINVAL;
	z = sim_zone(s, (int)(op->handle / MAX_NR_ZONES), (int)(op->handle % MAX_NR_ZONES));
	if (!zone_populated(z) || !z->capture_laid_out)
		return SIM_EINVAL;
	need = place_captured(s, z, forder, lru, (uint64_t)op->arg << forder,
			      memcg ? MEMCG_OWNER_BASE + (uint32_t)memcg : HANDLE_NONE);
	/* folios no captured block could hold are reported with the zone's unplaced pages */
	if (need)
		z->capture_unplaced += (uint32_t)(need > UINT32_MAX ? UINT32_MAX : need);
	return SIM_OK;
}
