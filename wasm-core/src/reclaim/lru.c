/*
 * lru.c: linking blocks into their node's LRU lists and counting them (mm/swap.c's
 * lruvec_add_folio and lruvec_del_folio, include/linux/mm_inline.h), the list-size rules
 * reclaim reads (lruvec_lru_size, inactive_is_low in mm/vmscan.c), and the captured LRU extents
 * that stand for many folios until reclaim reaches them (lru.h).
 */
#include "reclaim/lru.h"

#include "base/state.h"
#include "reclaim/memcg.h"

int page_lru(const struct page *page)
{
	int lru = (page->lru_flags & PGL_SWAPBACKED) ? LRU_INACTIVE_ANON : LRU_INACTIVE_FILE;
	return lru + ((page->lru_flags & PGL_ACTIVE) ? 1 : 0);
}

struct zone *lru_page_zone(struct sim *s, int nid, uint32_t pfn)
{
	for (int zid = 0; zid < MAX_NR_ZONES; zid++)
		if (zone_has_pfn(&sim_nodes(s)[nid].zones[zid], pfn))
			return &sim_nodes(s)[nid].zones[zid];
	return NULL;
}

/* The frame of an LRU block of node nid, or NULL when no zone of the node holds pfn. */
static struct page *node_page(struct sim *s, int nid, uint32_t pfn)
{
	struct zone *z = lru_page_zone(s, nid, pfn);
	return z ? zone_page(s, z, pfn) : NULL;
}

struct zone *lru_page_zone_near(struct sim *s, int nid, uint32_t pfn, struct zone *near)
{
	if (near && zone_has_pfn(near, pfn))
		return near;
	return lru_page_zone(s, nid, pfn);
}

/* node_page for a list neighbour of a block of zone near (lru_page_zone_near); NULL for none. */
static struct page *near_page(struct sim *s, int nid, struct zone *near, uint32_t pfn)
{
	struct zone *z = pfn == PFN_NONE ? NULL : lru_page_zone_near(s, nid, pfn, near);

	return z ? zone_page(s, z, pfn) : NULL;
}

struct lruvec *lru_lists(const struct sim *s, int nid, int memcg)
{
	return memcg < 0 ? (struct lruvec *)&sim_nodes(s)[nid].lruvec :
			   &memcg_lruvec(s, nid, memcg)->lists;
}

int lru_block_memcg(const struct sim *s, uint32_t pfn)
{
	return memcg_enabled(s) ? memcg_of_owner(*frame_owner(s, pfn)) : -1;
}

/*
 * A block's pages join (sign 1) or leave (-1) list lru of memcg on node nid: the memcg's own
 * counts (mz->lru_zone_size) and the node's, which are its totals over every memcg.
 */
static void count_memcg(struct sim *s, int nid, int memcg, int zid, int lru, int64_t pages,
			int sign)
{
	struct lruvec *node = &sim_nodes(s)[nid].lruvec;

	if (memcg < 0)
		return;
	memcg_lruvec(s, nid, memcg)->zone_size[zid][lru] += sign * pages;
	node->nr_pages[lru] += sign * pages;
	node->nr_blocks[lru] = (uint32_t)((int64_t)node->nr_blocks[lru] + sign);
}

/* Whether the LRU block at pfn is an extent. */
static int is_extent(const struct page *page)
{
	return page->state == PG_ALLOCATED && (page->flags & PAGEF_EXTENT);
}

void lru_extent_expand(struct sim *s, struct zone *z, uint32_t pfn)
{
	int nid = zone_to_nid(z), memcg = lru_block_memcg(s, pfn);
	struct lruvec *lv = lru_lists(s, nid, memcg);
	struct page *head = frame_materialised(s, pfn), *other;
	int forder = head->cpu, lru;
	uint32_t n, step, prev, last;

	/* a corrupted extent or an exhausted frame budget: sim_check or the freeze reports it */
	if (s->frozen || !is_extent(head) || forder >= head->order ||
	    head->order != s->config.max_order)
		return;
	lru = page_lru(head);
	n = 1u << (head->order - forder);
	step = 1u << forder;
	prev = head->prev;
	last = pfn + (n - 1) * step;
	/* folio i sits between folio i + 1 (nearer the head) and folio i - 1 (nearer the tail) */
	for (uint32_t i = 1; i < n; i++) {
		uint32_t at = pfn + i * step;
		struct page *folio = frame_at(s, at);

		frame_changed(s, at);
		folio->state = PG_ALLOCATED;
		folio->order = (uint8_t)forder;
		folio->list = head->list;
		folio->flags = 0;
		folio->cpu = 0;
		folio->lru_flags = head->lru_flags;
		folio->next = at - step;
		folio->prev = at == last ? prev : at + step;
	}
	frame_changed(s, pfn);
	head->order = (uint8_t)forder;
	head->flags = 0;
	head->cpu = 0;
	if (n > 1)
		head->prev = pfn + step;
	other = prev == PFN_NONE ? NULL : node_page(s, nid, prev);
	if (other)
		other->next = last;
	else
		lv->head[lru] = last;
	/* the same pages on the list as more blocks (count_memcg keeps the node's block totals) */
	lv->nr_blocks[lru] += n - 1;
	if (memcg >= 0)
		sim_nodes(s)[nid].lruvec.nr_blocks[lru] += n - 1;
}

/* An extent that became the tail of its list becomes its folios: reclaim takes from the tail. */
static void tail_not_extent(struct sim *s, int nid, const struct lruvec *lv, int lru)
{
	uint32_t tail = lv->tail[lru];
	struct zone *z = tail == PFN_NONE ? NULL : lru_page_zone(s, nid, tail);

	if (z && is_extent(zone_page(s, z, tail)))
		lru_extent_expand(s, z, tail);
}

void lru_link(struct sim *s, struct zone *z, uint32_t pfn, int to_tail)
{
	int nid = zone_to_nid(z), memcg = lru_block_memcg(s, pfn);
	struct lruvec *lv = lru_lists(s, nid, memcg);
	struct page *page = zone_page(s, z, pfn), *other;
	int lru = page_lru(page);
	int64_t pages = (int64_t)1 << page->order;

	page->lru_flags |= PGL_LRU;
	if (to_tail) {
		page->prev = lv->tail[lru];
		page->next = PFN_NONE;
		other = near_page(s, nid, z, page->prev);
		if (other)
			other->next = pfn;
		else
			lv->head[lru] = pfn;
		lv->tail[lru] = pfn;
	} else {
		page->next = lv->head[lru];
		page->prev = PFN_NONE;
		other = near_page(s, nid, z, page->next);
		if (other)
			other->prev = pfn;
		else
			lv->tail[lru] = pfn;
		lv->head[lru] = pfn;
	}
	lv->nr_pages[lru] += pages;
	lv->nr_blocks[lru]++;
	z->nr_zone_lru[lru] += pages;
	count_memcg(s, nid, memcg, zone_idx(z), lru, pages, 1);
	if (lv->tail[lru] == pfn && is_extent(page))
		lru_extent_expand(s, z, pfn);
}

void lru_unlink(struct sim *s, struct zone *z, uint32_t pfn)
{
	int nid = zone_to_nid(z), memcg = lru_block_memcg(s, pfn);
	struct lruvec *lv = lru_lists(s, nid, memcg);
	struct page *page = zone_page(s, z, pfn), *other;
	int lru;
	int64_t pages;

	/* only folios leave a list: an extent becomes its folios, the one at pfn leaves */
	if (is_extent(page)) {
		lru_extent_expand(s, z, pfn);
		page = zone_page(s, z, pfn);
		if (s->frozen)
			return;
	}
	lru = page_lru(page);
	pages = (int64_t)1 << page->order;

	other = near_page(s, nid, z, page->prev);
	if (other)
		other->next = page->next;
	else
		lv->head[lru] = page->next;
	other = near_page(s, nid, z, page->next);
	if (other)
		other->prev = page->prev;
	else
		lv->tail[lru] = page->prev;
	page->next = page->prev = PFN_NONE;
	page->lru_flags &= (uint16_t)~PGL_LRU;
	lv->nr_pages[lru] -= pages;
	lv->nr_blocks[lru]--;
	z->nr_zone_lru[lru] -= pages;
	count_memcg(s, nid, memcg, zone_idx(z), lru, pages, -1);
	tail_not_extent(s, nid, lv, lru);
}

void lru_account(struct sim *s, struct zone *z, const struct page *page, int sign)
{
	struct lruvec *lv = &sim_nodes(s)[zone_to_nid(z)].lruvec;
	int64_t pages = sign * ((int64_t)1 << page->order);

	if (page->lru_flags & PGL_SWAPBACKED) {
		lv->nr_anon += pages;
		return;
	}
	lv->nr_file += pages;
	z->nr_zone_file_pages += pages;
	if (page->lru_flags & PGL_MAPPED) {
		lv->nr_mapped += pages;
		z->nr_zone_file_mapped += pages;
	}
	if (page->lru_flags & PGL_DIRTY) {
		lv->nr_dirty += pages;
		z->nr_zone_write_pending += pages;
	}
}

void lru_forget(struct sim *s, struct zone *z, uint32_t pfn, int how)
{
	struct page *page = zone_page(s, z, pfn);
	uint32_t *owner = frame_owner(s, pfn);

	lru_account(s, z, page, -1);
	page->lru_flags = 0;
	if (*owner != HANDLE_NONE && *owner < s->config.max_handles && how) {
		struct handle *hd = &sim_handles(s)[*owner];
		hd->pfn = PFN_NONE;
		hd->gone = (uint8_t)how;
	}
	*owner = HANDLE_NONE;
}

int64_t lru_size(const struct sim *s, int nid, int memcg, int lru, int idx)
{
	int64_t n = 0;

	for (int zid = 0; zid <= idx && zid < MAX_NR_ZONES; zid++)
		n += memcg < 0 ? sim_nodes(s)[nid].zones[zid].nr_zone_lru[lru] :
				 memcg_lruvec(s, nid, memcg)->zone_size[zid][lru];
	return n;
}

/* int_sqrt: the integer square root (at most 32 steps). */
static uint64_t int_sqrt(uint64_t x)
{
	uint64_t r = 0;

	for (int bit = 31; bit >= 0; bit--) {
		uint64_t t = r | ((uint64_t)1 << bit);
		if (t * t <= x)
			r = t;
	}
	return r;
}

/*
 * inactive_is_low: the kernel keeps the inactive list at least 1/(1 + ratio) of a type's pages,
 * ratio = sqrt(10 * GiB of the type) (1 under a GiB): 1 GiB -> 3, 10 GiB -> 10, 100 GiB -> 31.
 */
int inactive_is_low(const struct sim *s, int nid, int memcg, int inactive_lru)
{
	/* the root's figures are hierarchical: the node's totals */
	const struct lruvec *lv = lru_lists(s, nid, memcg > 0 ? memcg : -1);
	int64_t inactive = lv->nr_pages[inactive_lru], active = lv->nr_pages[inactive_lru + 1];
	uint64_t gb = (uint64_t)(inactive + active) >> (30 - PAGE_SHIFT);
	uint64_t ratio = gb ? int_sqrt(10 * gb) : 1;

	return (uint64_t)inactive * ratio < (uint64_t)active;
}
