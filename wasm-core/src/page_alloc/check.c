/*
 * check.c: the page allocator's part of sim_check, the invariant checker, in the spirit of DEBUG_VM. It recomputes every
 * list, count and tag from the frames and compares. Every walk is bounded by the number of
 * frames, so a corrupted list (a cycle, a dangling link) is reported, never followed forever.
 */

#include "base/frames.h"
#include "base/profile.h"
#include "base/state.h"
#include "base/textbuf.h"
#include "page_alloc/vmstat.h"
#include "page_alloc/page_alloc.h"
#include "page_alloc/pcp_index.h"
#include "page_alloc/zlc.h"

/* Record what is wrong in s->error and return SIM_ECORRUPT. */
static int fail(struct sim *s, const char *what, const struct zone *z, uint32_t pfn, int64_t got,
		int64_t want)
{
	struct textbuf tb;

	tb_init(&tb, s->error, sizeof s->error);
	tb_str(&tb, what);
	if (z) {
		tb_str(&tb, " node ");
		tb_int(&tb, z->node, 0);
		tb_str(&tb, " zone ");
		tb_int(&tb, z->idx, 0);
	}
	tb_str(&tb, " pfn 0x");
	tb_hex(&tb, pfn, 1);
	tb_got_want(&tb, got, want);
	return SIM_ECORRUPT;
}

/* Walk one free list: heads of the right order and type, aligned, inside the zone, linked both ways. */
static int check_free_list(struct sim *s, struct zone *z, int order, int mt, int64_t *pages)
{
	const struct free_area *area = &z->free_area[order];
	uint32_t pfn = area->head[mt], prev = PFN_NONE, n = 0;

	while (pfn != PFN_NONE) {
		const struct page *page;
		if (n > s->nr_frames)
			return fail(s, "free list cycle", z, pfn, n, area->count[mt]);
		if (!zone_has_pfn(z, pfn) || (pfn & ((1u << order) - 1)) ||
		    !zone_has_pfn(z, pfn + (1u << order) - 1))
			return fail(s, "free block outside its zone or misaligned", z, pfn, order,
				    0);
		page = zone_page(s, z, pfn);
		if (page->state != PG_BUDDY || page->order != order || page->list != mt)
			return fail(s, "frame on a free list is not PageBuddy of that order/type",
				    z, pfn, page->state, PG_BUDDY);
		if (page->prev != prev)
			return fail(s, "free list back link", z, pfn, page->prev, prev);
		prev = pfn;
		pfn = page->next;
		n++;
		*pages += 1 << order;
	}
	if (area->tail[mt] != prev)
		return fail(s, "free list tail", z, prev, area->tail[mt], prev);
	if (area->count[mt] != n)
		return fail(s, "free list count", z, area->head[mt], area->count[mt], n);
	return SIM_OK;
}

/* Every free list of a zone and the zone's free page counters. */
static int check_zone_free_lists(struct sim *s, struct zone *z, uint64_t *buddy_heads)
{
	int64_t free_pages = 0, blocks_pages = 0, highatomic = 0;

	for (int order = 0; order <= s->config.max_order; order++) {
		uint32_t nr_free = 0;
		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			int64_t pages = 0;
			int err = check_free_list(s, z, order, mt, &pages);
			if (err)
				return err;
			nr_free += z->free_area[order].count[mt];
			if (mt == MIGRATE_ISOLATE)
				continue;
			free_pages += pages;
			if (order >= s->config.pageblock_order)
				blocks_pages += pages;
			if (mt == MIGRATE_HIGHATOMIC)
				highatomic += pages;
		}
		if (z->free_area[order].nr_free != nr_free)
			return fail(s, "nr_free", z, 0, z->free_area[order].nr_free, nr_free);
		*buddy_heads += nr_free;
	}
	if (z->nr_free_pages != free_pages)
		return fail(s, "NR_FREE_PAGES", z, 0, z->nr_free_pages, free_pages);
	/* the zone counter and the CPUs' deltas add up to the exact count */
	if (z->vm_stat_free + vmstat_pending_free(s, z) != free_pages)
		return fail(s, "NR_FREE_PAGES counter + per-CPU deltas", z, 0,
			    z->vm_stat_free + vmstat_pending_free(s, z), free_pages);
	if (z->nr_free_pages_blocks != blocks_pages)
		return fail(s, "NR_FREE_PAGES_BLOCKS", z, 0, z->nr_free_pages_blocks, blocks_pages);
	if (z->nr_free_highatomic != highatomic)
		return fail(s, "nr_free_highatomic", z, 0, z->nr_free_highatomic, highatomic);
	return SIM_OK;
}

/* Every list of one pcp: frames of this CPU and pindex, and count equal to the pages listed. */
static int check_pcp(struct sim *s, struct zone *z, int cpu, uint64_t *pcp_heads)
{
	const struct per_cpu_pages *pcp = sim_pcp(s, cpu, z->node, z->idx);
	int nr_lists = profile_nr_pcp_lists(&s->profile);
	int64_t pages = 0;

	for (int pindex = 0; pindex < NR_PCP_LISTS_LIMIT; pindex++) {
		uint32_t pfn = pcp->head[pindex], prev = PFN_NONE, n = 0;
		int order = pindex < nr_lists ? pcp_pindex_to_order(s, pindex) : -1;

		if (pindex >= nr_lists && pfn != PFN_NONE && pcp->nr_blocks[pindex])
			return fail(s, "pcp list beyond the profile's lists", z, pfn, pindex,
				    nr_lists);
		while (pindex < nr_lists && pfn != PFN_NONE) {
			const struct page *page;
			if (n > s->nr_frames)
				return fail(s, "pcp list cycle", z, pfn, n, pcp->nr_blocks[pindex]);
			if (!zone_has_pfn(z, pfn))
				return fail(s, "pcp block outside its zone", z, pfn, cpu, 0);
			page = zone_page(s, z, pfn);
			if (page->state != PG_PCP || page->cpu != cpu || page->list != pindex ||
			    page->order != order)
				return fail(
					s,
					"frame on a pcp list is not a pcp block of that cpu/pindex/order",
					z, pfn, page->state, PG_PCP);
			if (page->prev != prev)
				return fail(s, "pcp list back link", z, pfn, page->prev, prev);
			prev = pfn;
			pfn = page->next;
			n++;
			pages += 1 << order;
		}
		if (pindex < nr_lists && pcp->tail[pindex] != prev)
			return fail(s, "pcp list tail", z, prev, pcp->tail[pindex], prev);
		if (pindex < nr_lists && pcp->nr_blocks[pindex] != n)
			return fail(s, "pcp list length", z, pcp->head[pindex],
				    pcp->nr_blocks[pindex], n);
		*pcp_heads += n;
	}
	if (pcp->count != pages)
		return fail(s, "pcp->count out of sync with its lists", z, 0, pcp->count, pages);
	return SIM_OK;
}

/*
 * Walk the frames of a zone block by block: every frame is a head or inside the block before it.
 * Counts the pages other subsystems own (PAGEF_OWNED) into *owned.
 */
static int check_frames(struct sim *s, struct zone *z, uint64_t *buddy_heads, uint64_t *pcp_heads,
			uint64_t *owned)
{
	uint32_t pfn = z->mem_pfn, end = z->mem_pfn + z->managed;

	while (pfn < end) {
		const struct page *page = zone_page(s, z, pfn);
		uint32_t size;
		if (page->state == PG_TAIL)
			return fail(s, "frame covered by no block", z, pfn, page->state, PG_BUDDY);
		if (page->order > s->config.max_order)
			return fail(s, "block order above MAX_PAGE_ORDER", z, pfn, page->order,
				    s->config.max_order);
		size = 1u << page->order;
		if (pfn & (size - 1) || pfn + size > end)
			return fail(s, "block misaligned or past the zone", z, pfn, page->order, 0);
		if (page->flags & PAGEF_OWNED) {
			/* page_alloc_owned hands out order-0 pages, and only their owner frees them */
			if (page->state != PG_ALLOCATED || page->order)
				return fail(s, "an owned page is not an allocated order-0 page", z,
					    pfn, page->state, PG_ALLOCATED);
			(*owned)++;
		}
		if (page->state == PG_BUDDY)
			(*buddy_heads)--;
		else if (page->state == PG_PCP)
			(*pcp_heads)--;
		/*
		 * a block never crosses a max-order boundary, so a materialised one's frames follow
		 * its head in its slab; a whole block's other frames are the shared clean tail,
		 * which frames_check verifies
		 */
		for (uint32_t i = 1; i < size && !block_is_whole(s, pfn >> s->config.max_order);
		     i++)
			if (page[i].state != PG_TAIL)
				return fail(s, "a head frame inside another block", z, pfn + i,
					    page[i].state, PG_TAIL);
		pfn += size;
	}
	if (*buddy_heads)
		return fail(s, "free lists and PageBuddy frames disagree", z, 0,
			    (int64_t)*buddy_heads, 0);
	if (*pcp_heads)
		return fail(s, "pcp lists and pcp frames disagree", z, 0, (int64_t)*pcp_heads, 0);
	return SIM_OK;
}

/* Live handles name allocated heads of their order. */
static int check_handles(struct sim *s)
{
	const struct handle *handles = sim_handles(s);

	for (uint32_t h = 0; h < s->config.max_handles; h++) {
		const struct handle *hd = &handles[h];
		const struct zone *z;
		const struct page *page;
		if (hd->pfn == PFN_NONE || hd->order == HANDLE_STREAM)
			continue;
		if (hd->node >= s->config.nr_nodes || hd->zone >= MAX_NR_ZONES)
			return fail(s, "handle names no zone", NULL, hd->pfn, h, 0);
		z = &sim_nodes(s)[hd->node].zones[hd->zone];
		if (!zone_has_pfn(z, hd->pfn))
			return fail(s, "handle pfn outside its zone", z, hd->pfn, h, 0);
		page = zone_page(s, z, hd->pfn);
		if (page->state != PG_ALLOCATED || page->order != hd->order)
			return fail(s, "handle does not name an allocated block of its order", z,
				    hd->pfn, page->state, PG_ALLOCATED);
		if (page->flags & PAGEF_OWNED)
			return fail(s, "handle names a page another subsystem owns", z, hd->pfn, h,
				    0);
	}
	return SIM_OK;
}

int page_alloc_check(struct sim *s)
{
	uint64_t owned = 0, held = 0;

	/* the pool and the per-block table first: every frame access below goes through them */
	if (frames_check(s))
		return SIM_ECORRUPT;
	for (int nid = 0; nid < s->config.nr_nodes; nid++) {
		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			struct zone *z = &sim_nodes(s)[nid].zones[zid];
			uint64_t buddy_heads = 0, pcp_heads = 0;
			int err;
			if (!zone_populated(z))
				continue;
			err = check_zone_free_lists(s, z, &buddy_heads);
			for (uint32_t cpu = 0; !err && cpu < s->nr_cpus; cpu++)
				err = check_pcp(s, z, (int)cpu, &pcp_heads);
			if (!err)
				err = check_frames(s, z, &buddy_heads, &pcp_heads, &owned);
			for (uint32_t pb = 0; !err && pb < z->nr_pageblocks; pb++) {
				uint8_t tag = sim_pageblocks(s)[z->pageblock_base + pb];
				if ((tag & 0x7) >= MIGRATE_ISOLATE || (tag & ~(PB_ISOLATE | 0x7)))
					err = fail(s, "pageblock tag", z, z->mem_pfn, tag, 0);
			}
			if (err)
				return err;
		}
	}
	/*
	 * a folio batch being gathered: one CPU's, handles of the table, captured blocks of a zone (a
	 * block freed since it joined is refused when the batch is freed, not a broken state)
	 */
	if (s->gather.nr > FOLIO_BATCH_SIZE || (s->gather.nr && s->gather.cpu >= s->nr_cpus))
		return fail(s, "folio batch being gathered", NULL, 0, s->gather.nr, s->gather.cpu);
	for (uint32_t i = 0; i < s->gather.nr; i++) {
		uint32_t ref = s->gather.ref[i];
		if (s->gather.captured[i] != FOLIO_HANDLE) {
			if (s->gather.captured[i] > s->config.max_order ||
			    pfn_to_zone_index(s, ref) < 0)
				return fail(s, "gathered captured block is in no zone", NULL, 0,
					    ref, i);
		} else if (ref >= s->config.max_handles) {
			return fail(s, "gathered handle is out of the table", NULL, 0, ref, i);
		}
	}
	/* every owned mark is a page some subsystem holds (each owner checks its pages carry it) */
	for (const struct subsystem *const *sub = sim_subsystems; *sub; sub++)
		if ((*sub)->owned_pages)
			held += (*sub)->owned_pages(s);
	if (owned != held)
		return fail(s, "owned pages differ from what the subsystems hold", NULL, 0,
			    (int64_t)owned, (int64_t)held);
	if (zlc_check(s))
		return SIM_ECORRUPT;
	return check_handles(s);
}
