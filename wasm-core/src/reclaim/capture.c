/*
 * capture.c: the LRU lists of a machine booted in a captured state.
 *
 * zoneinfo counts each zone's pages on the four evictable lists (nr_zone_inactive_anon ...
 * nr_zone_active_file) but not which pages, nor their folio sizes. The model takes them out of
 * the zone's captured in-use memory (PAGEF_CAPTURED blocks, page_alloc/capture.c), from Movable
 * pageblocks first as user memory mostly sits there, as order-0 pages: a folio's size is in no
 * /proc file. Page cache comes clean and unmapped (the few dirty or mapped pages zoneinfo also
 * counts are left out), anonymous memory mapped; nothing is referenced yet. What stays captured
 * is kernel memory, which free_captured hands back.
 */
#include "reclaim/capture.h"

#include "base/state.h"
#include "page_alloc/capture.h"
#include "reclaim/lru.h"

/* The flags a captured page of list lru gets. */
static uint16_t captured_flags(int lru)
{
	uint16_t flags = is_active_lru(lru) ? PGL_ACTIVE : 0;

	if (!is_file_lru(lru))
		flags |= PGL_SWAPBACKED | PGL_MAPPED;
	return flags;
}

/*
 * Put up to need pages of the captured block (pfn, order) on list lru as order-0 pages: right
 * halves stay captured until the left part holds no more than need pages. Returns the pages taken.
 */
static uint32_t take(struct sim *s, struct zone *z, uint32_t pfn, int order, int lru, uint32_t need)
{
	int mt = zone_page(s, z, pfn)->list;
	uint32_t n;

	while (order > 0 && need < (1u << order)) {
		order--;
		capture_mark_in_use(s, z, pfn + (1u << order), order, mt);
	}
	n = 1u << order;
	for (uint32_t i = 0; i < n; i++) {
		struct page *page = zone_page(s, z, pfn + i);

		frame_changed(s, pfn + i);
		page->state = PG_ALLOCATED;
		page->order = 0;
		page->list = MIGRATE_MOVABLE; /* user memory: a movable request */
		page->flags = 0;
		page->cpu = 0;
		page->next = page->prev = PFN_NONE;
		page->lru_flags = captured_flags(lru);
		*frame_owner(s, pfn + i) = HANDLE_NONE;
		lru_account(s, z, page, 1);
		lru_link(s, z, pfn + i, 0);
	}
	return n;
}

int capture_lru(struct sim *s, const struct sim_op *op)
{
	struct zone *z;
	uint32_t need, end;
	int lru = (int)op->gfp;

	if (op->handle >= (uint32_t)s->config.nr_nodes * MAX_NR_ZONES || op->arg < 0 ||
	    op->gfp >= NR_LRU_LISTS)
		return SIM_EINVAL;
	z = sim_zone(s, (int)(op->handle / MAX_NR_ZONES), (int)(op->handle % MAX_NR_ZONES));
	if (!zone_populated(z) || !z->capture_laid_out)
		return SIM_EINVAL;
	need = (uint32_t)op->arg;
	end = z->mem_pfn + z->managed;
	for (int pass = 0; pass < 2 && need; pass++) {
		for (uint32_t pfn = z->mem_pfn; pfn < end && need;) {
			const struct page *page = zone_page(s, z, pfn);
			uint32_t size = 1u << page->order;

			if (page->state == PG_ALLOCATED && (page->flags & PAGEF_CAPTURED) &&
			    (pass || get_pageblock_migratetype(s, z, pfn) == MIGRATE_MOVABLE)) {
				uint32_t took = take(s, z, pfn, page->order, lru, need);
				need -= took;
				size = took;
			}
			pfn += size;
		}
	}
	return SIM_OK;
}
