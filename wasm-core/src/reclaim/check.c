/*
 * check.c: reclaim's part of sim_check. Every LRU list is walked (bounded by the frame count):
 * its blocks are allocated heads of the node whose flags name this list, linked both ways; the
 * lists' block and page counts, the zones' LRU counts and the node's anon/file/mapped/dirty
 * figures equal what the frames say; a block's owner handle names it back; and no frame claims
 * to be on an LRU list that does not hold it. With memory cgroups every memcg's lists are walked:
 * each block's owner slot names that memcg, each memcg's per-zone counts equal its blocks, and
 * the node's counts are the sums.
 */
#include "base/state.h"
#include "base/textbuf.h"
#include "reclaim/lru.h"
#include "reclaim/memcg.h"
#include "reclaim/reclaim.h"

/* Report a mismatch in s->error; returns SIM_ECORRUPT. */
static int fail(struct sim *s, const char *what, int nid, uint32_t pfn, int64_t got, int64_t want)
{
	struct textbuf tb;

	tb_init(&tb, s->error, sizeof s->error);
	tb_str(&tb, what);
	tb_str(&tb, " node ");
	tb_int(&tb, nid, 0);
	tb_str(&tb, " pfn 0x");
	tb_hex(&tb, pfn, 1);
	tb_got_want(&tb, got, want);
	return SIM_ECORRUPT;
}

/* What the frames of one node add up to. */
struct lru_tally {
	int64_t pages[NR_LRU_LISTS], zone_pages[MAX_NR_ZONES][NR_LRU_LISTS];
	int64_t anon, file, mapped, dirty, zone_dirty[MAX_NR_ZONES];
	int64_t zone_file[MAX_NR_ZONES], zone_mapped[MAX_NR_ZONES];
	uint64_t blocks;
};

/* Walk one list of memcg (-1: the node's own lists), tallying its blocks. */
static int check_list(struct sim *s, int nid, int memcg, int lru, struct lru_tally *t)
{
	const struct lruvec *lv = lru_lists(s, nid, memcg);
	uint32_t pfn = lv->head[lru], prev = PFN_NONE, n = 0;
	int64_t zone_pages[MAX_NR_ZONES] = { 0 };

	while (pfn != PFN_NONE) {
		struct zone *z = lru_page_zone(s, nid, pfn);
		const struct page *page;
		uint32_t owner;
		int64_t pages;

		if (!z)
			return fail(s, "LRU block outside its node", nid, pfn, lru, -1);
		if (++n > s->nr_frames)
			return fail(s, "LRU list does not end", nid, pfn, n, s->nr_frames);
		page = zone_page(s, z, pfn);
		if (page->state != PG_ALLOCATED)
			return fail(s, "LRU block is not allocated", nid, pfn, page->state,
				    PG_ALLOCATED);
		if (!(page->lru_flags & PGL_LRU) || page_lru(page) != lru)
			return fail(s, "LRU block flags name another list", nid, pfn,
				    page->lru_flags & PGL_LRU ? page_lru(page) : -1, lru);
		if (page->prev != prev)
			return fail(s, "LRU back link", nid, pfn, page->prev, prev);
		/* an extent (reclaim/lru.h): a whole block of the root, never the tail */
		if ((page->flags & PAGEF_EXTENT) &&
		    (!block_is_whole(s, pfn >> s->config.max_order) ||
		     page->order != s->config.max_order || page->cpu >= page->order ||
		     page->next == PFN_NONE))
			return fail(s, "LRU extent not a whole block inside its list", nid, pfn,
				    page->order, page->cpu);
		owner = *frame_owner(s, pfn);
		if (memcg >= 0 && memcg_of_owner(owner) != memcg)
			return fail(s, "LRU block charged to another memcg", nid, pfn,
				    memcg_of_owner(owner), memcg);
		if (owner != HANDLE_NONE && memcg_of_owner(owner) == 0 &&
		    (owner >= s->config.max_handles || sim_handles(s)[owner].pfn != pfn))
			return fail(s, "LRU block's owner handle names another block", nid, pfn,
				    owner, -1);
		pages = (int64_t)1 << page->order;
		t->pages[lru] += pages;
		t->zone_pages[zone_idx(z)][lru] += pages;
		zone_pages[zone_idx(z)] += pages;
		if (page->lru_flags & PGL_SWAPBACKED) {
			t->anon += pages;
		} else {
			t->file += pages;
			t->zone_file[zone_idx(z)] += pages;
			if (page->lru_flags & PGL_MAPPED) {
				t->mapped += pages;
				t->zone_mapped[zone_idx(z)] += pages;
			}
			if (page->lru_flags & PGL_DIRTY) {
				t->dirty += pages;
				t->zone_dirty[zone_idx(z)] += pages;
			}
		}
		t->blocks++;
		prev = pfn;
		pfn = page->next;
	}
	if (lv->tail[lru] != prev)
		return fail(s, "LRU list tail", nid, prev, lv->tail[lru], prev);
	if (lv->nr_blocks[lru] != n)
		return fail(s, "LRU block count", nid, prev, lv->nr_blocks[lru], n);
	if (memcg >= 0) {
		int64_t sum = 0;

		for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
			int64_t want = memcg_lruvec(s, nid, memcg)->zone_size[zid][lru];
			if (want != zone_pages[zid])
				return fail(s, "memcg zone LRU page count", nid, (uint32_t)zid,
					    want, zone_pages[zid]);
			sum += zone_pages[zid];
		}
		if (lv->nr_pages[lru] != sum)
			return fail(s, "memcg LRU page count", nid, (uint32_t)memcg,
				    lv->nr_pages[lru], sum);
	}
	return SIM_OK;
}

/* Walk every list of node nid: the node's, or each memcg's (whose block counts sum to the node's). */
static int check_node_lists(struct sim *s, int nid, struct lru_tally *t)
{
	int err = SIM_OK;

	if (!memcg_enabled(s)) {
		for (int lru = 0; lru < NR_LRU_LISTS && !err; lru++)
			err = check_list(s, nid, -1, lru, t);
		return err;
	}
	for (int lru = 0; lru < NR_LRU_LISTS && !err; lru++) {
		uint64_t before = t->blocks;
		const struct lruvec *node = &sim_nodes(s)[nid].lruvec;

		if (node->head[lru] != PFN_NONE || node->tail[lru] != PFN_NONE)
			return fail(s, "node LRU list used beside memcg lists", nid,
				    node->head[lru], lru, -1);
		for (int memcg = 0; memcg < memcg_count(s) && !err; memcg++)
			err = check_list(s, nid, memcg, lru, t);
		if (!err && node->nr_blocks[lru] != t->blocks - before)
			return fail(s, "node LRU block count", nid, 0, node->nr_blocks[lru],
				    (int64_t)(t->blocks - before));
	}
	return err;
}

/* Whether the node's counters equal its tally. */
static int check_counts(struct sim *s, int nid, const struct lru_tally *t)
{
	const struct node *n = &sim_nodes(s)[nid];
	const struct lruvec *lv = &n->lruvec;

	for (int lru = 0; lru < NR_LRU_LISTS; lru++) {
		if (lv->nr_pages[lru] != t->pages[lru])
			return fail(s, "LRU page count", nid, 0, lv->nr_pages[lru], t->pages[lru]);
		for (int zid = 0; zid < MAX_NR_ZONES; zid++)
			if (n->zones[zid].nr_zone_lru[lru] != t->zone_pages[zid][lru])
				return fail(s, "zone LRU page count", nid, (uint32_t)zid,
					    n->zones[zid].nr_zone_lru[lru],
					    t->zone_pages[zid][lru]);
	}
	for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
		const struct zone *z = &n->zones[zid];

		if (z->nr_zone_write_pending != t->zone_dirty[zid])
			return fail(s, "zone write-pending count", nid, (uint32_t)zid,
				    z->nr_zone_write_pending, t->zone_dirty[zid]);
		/* zone_reclaim's inputs before 4.8 */
		if (z->nr_zone_file_pages != t->zone_file[zid])
			return fail(s, "zone file page count", nid, (uint32_t)zid,
				    z->nr_zone_file_pages, t->zone_file[zid]);
		if (z->nr_zone_file_mapped != t->zone_mapped[zid])
			return fail(s, "zone mapped file page count", nid, (uint32_t)zid,
				    z->nr_zone_file_mapped, t->zone_mapped[zid]);
	}
	/* one node reclaim at a time, and none between ops */
	if (n->reclaim_locked)
		return fail(s, "node reclaim lock held between ops", nid, 0, n->reclaim_locked, 0);
	if (lv->nr_anon != t->anon)
		return fail(s, "anonymous page count", nid, 0, lv->nr_anon, t->anon);
	if (lv->nr_file != t->file)
		return fail(s, "file page count", nid, 0, lv->nr_file, t->file);
	if (lv->nr_mapped != t->mapped)
		return fail(s, "mapped file page count", nid, 0, lv->nr_mapped, t->mapped);
	if (lv->nr_dirty != t->dirty)
		return fail(s, "dirty page count", nid, 0, lv->nr_dirty, t->dirty);
	return SIM_OK;
}

int reclaim_check(struct sim *s)
{
	uint64_t blocks = 0, flagged = 0, awake = 0;

	for (int nid = 0; nid < s->config.nr_nodes; nid++) {
		struct lru_tally t = { 0 };

		/* a napping kswapd is counted too (both while a wakeup ends its nap) */
		awake += (sim_nodes(s)[nid].kswapd_awake != 0) +
			 (sim_nodes(s)[nid].kswapd.napping != 0);
		int err = SIM_OK;

		err = check_node_lists(s, nid, &t);
		if (!err)
			err = check_counts(s, nid, &t);
		if (err)
			return err;
		blocks += t.blocks;
	}
	/* a whole block is on a list only as an extent, its head the only frame flagged */
	for (uint32_t b = 0; b < s->nr_frame_stamps; b++) {
		uint32_t first = b << s->config.max_order, n = 1u << s->config.max_order;
		if (block_is_whole(s, b)) {
			flagged += (frame_at(s, first)->lru_flags & PGL_LRU) != 0;
			continue;
		}
		for (uint32_t i = 0; i < n; i++)
			if (frame_at(s, first + i)->lru_flags & PGL_LRU)
				flagged++;
	}
	if (flagged != blocks)
		return fail(s, "frames flagged on an LRU list", 0, 0, (int64_t)flagged,
			    (int64_t)blocks);
	/* the base runs the op_done hooks only while it counts an awake kswapd */
	if (awake != s->nr_awake_workers)
		return fail(s, "awake kswapds", 0, 0, (int64_t)s->nr_awake_workers, (int64_t)awake);
	if (s->nr_swap_free < 0 || s->nr_swap_free > (int64_t)s->config.swap_pages)
		return fail(s, "free swap", 0, 0, s->nr_swap_free, s->config.swap_pages);
	return SIM_OK;
}
