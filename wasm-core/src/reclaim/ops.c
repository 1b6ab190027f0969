/*
 * ops.c: reclaim's ops (an allocation for anonymous memory or page cache, a later use of it),
 * the flusher, and reclaim's hooks for the base and the page allocator.
 */
#include "base/event.h"
#include "base/state.h"
#include "page_alloc/page_alloc.h"
#include "reclaim/capture.h"
#include "reclaim/kswapd.h"
#include "reclaim/lru.h"
#include "reclaim/memcg.h"
#include "reclaim/node_reclaim.h"
#include "reclaim/reclaim.h"
#include "reclaim/vmscan.h"
#include "reclaim/vocab.h"

/* Steps kswapd may take at a tick (each at least one round): enough for several full loops. */
#define KSWAPD_STEPS_PER_TICK (4 * (DEF_PRIORITY + 1))

/* The flags a new block gets for what it is for (the fault or read that brought it in). */
static uint16_t purpose_flags(const struct sim *s, int purpose)
{
	switch (purpose) {
	case PURPOSE_ANON:
		/* a fault maps it (accessed bit set); 5.9+ start it inactive */
		return (uint16_t)(PGL_SWAPBACKED | PGL_MAPPED | PGL_YOUNG |
				  (s->profile.lru_anon_starts_active ? PGL_ACTIVE : 0));
	case PURPOSE_FILE:
		/* read(2): added to the inactive list, then folio_mark_accessed sets PG_referenced */
		return PGL_REFERENCED;
	case PURPOSE_FILE_DIRTY:
		return PGL_DIRTY; /* write(2): dirty until written back */
	default:
		return PGL_MAPPED | PGL_YOUNG; /* a fault on a file mapping */
	}
}

/* OP_LRU_ALLOC: allocate as OP_ALLOC does, then put the block on its node's LRU (folio_add_lru). */
static int op_lru_alloc(struct sim *s, const struct sim_op *op)
{
	struct handle *hd;
	struct zone *z;
	struct page *page;
	int err;

	if (op->arg <= PURPOSE_NONE || op->arg >= NR_PURPOSES)
		return SIM_EINVAL;
	err = page_alloc_alloc_op(s, op);
	if (err)
		return err;
	hd = &sim_handles(s)[op->handle];
	z = &sim_nodes(s)[hd->node].zones[hd->zone];
	page = zone_page(s, z, hd->pfn);
	page->lru_flags = purpose_flags(s, op->arg);
	*frame_owner(s, hd->pfn) = op->handle;
	lru_account(s, z, page, 1);
	lru_link(s, z, hd->pfn, 0);
	ev_emit(s, EV_LRU_INSERTION, FN_FOLIO_ADD_LRU, op->cpu, z, hd->pfn, hd->order,
		page_lru(page), op->arg, 0, 0);
	return SIM_OK;
}

/*
 * OP_MARK_ACCESSED: a mapped block gets its accessed bit; page cache is marked accessed, and a second
 * use while referenced moves it to the active list (folio_mark_accessed). A block reclaim took
 * is not read back (refaults are not modelled); a block on no LRU has nothing to mark.
 */
static int op_touch(struct sim *s, const struct sim_op *op)
{
	struct handle *hd;
	struct zone *z;
	struct page *page;

	if (op->handle >= s->config.max_handles)
		return sim_report_bad(s, op->cpu, 0, 0, BAD_HANDLE, SIM_EBADHANDLE);
	hd = &sim_handles(s)[op->handle];
	if (hd->order == HANDLE_STREAM || (hd->pfn == PFN_NONE && hd->gone == HANDLE_HELD))
		return sim_report_bad(s, op->cpu, 0, 0, BAD_HANDLE, SIM_EBADHANDLE);
	if (hd->pfn == PFN_NONE)
		return SIM_OK;
	z = &sim_nodes(s)[hd->node].zones[hd->zone];
	page = zone_page(s, z, hd->pfn);
	if (!(page->lru_flags & PGL_LRU))
		return SIM_OK;
	if (page->lru_flags & PGL_MAPPED) {
		page->lru_flags |= PGL_YOUNG;
		return SIM_OK;
	}
	if (!(page->lru_flags & PGL_REFERENCED)) {
		page->lru_flags |= PGL_REFERENCED;
		return SIM_OK;
	}
	if (page->lru_flags & PGL_ACTIVE)
		return SIM_OK;
	ev_emit(s, EV_LRU_ACTIVATE, FN_FOLIO_MARK_ACCESSED, op->cpu, z, hd->pfn, hd->order,
		page_lru(page), 0, 0, 0);
	lru_unlink(s, z, hd->pfn);
	page->lru_flags =
		(uint16_t)((page->lru_flags | PGL_ACTIVE | PGL_WORKINGSET) & ~PGL_REFERENCED);
	lru_link(s, z, hd->pfn, 0);
	s->ev.pgactivate += 1u << page->order;
	return SIM_OK;
}

static int reclaim_apply(struct sim *s, const struct sim_op *op)
{
	switch (op->kind) {
	case OP_LRU_ALLOC:
		return op_lru_alloc(s, op);
	case OP_MARK_ACCESSED:
		return op_touch(s, op);
	case OP_CAPTURE_LRU:
		return capture_lru(s, op);
	case OP_MEMCG:
		return memcg_declare(s, op);
	case OP_CAPTURE_LRU_FOLIOS:
		return capture_lru_folios(s, op);
	case OP_CLOCK:
		if (op->arg < 0)
			return SIM_EINVAL;
		kswapd_clock(s, op->arg);
		return SIM_OK;
	case OP_KSWAPD_CPU:
		/* the scheduler's choice, which the model does not make: kswapd's frees go to this
		 * CPU's lists (the CPU was checked by sim_apply) */
		sim_nodes(s)[sim_cpus(s)[op->cpu].node].kswapd_cpu = (uint16_t)(op->cpu + 1);
		return SIM_OK;
	default:
		return SIM_ENOTMINE;
	}
}

/*
 * The flusher at a vmstat tick: every dirty block of the node's file lists is written back (the
 * kernel writes data older than dirty_expire_centisecs, 30 s, every 5 s; the model writes all of
 * it, at once). A block reclaim had marked goes to the inactive tail (folio_rotate_reclaimable).
 */
static void writeback_lists(struct sim *s, int nid, int memcg, int64_t *cleaned, int64_t *rotated)
{
	struct lruvec *lv = lru_lists(s, nid, memcg);

	for (int lru = LRU_INACTIVE_FILE; lru <= LRU_ACTIVE_FILE; lru++) {
		uint32_t pfn = lv->head[lru], budget = lv->nr_blocks[lru];

		while (budget-- && pfn != PFN_NONE) {
			struct zone *z = lru_page_zone(s, nid, pfn);
			struct page *page;
			uint32_t next;

			if (!z)
				break;
			page = zone_page(s, z, pfn);
			next = page->next;
			if (page->lru_flags & PGL_DIRTY) {
				lru_account(s, z, page, -1);
				page->lru_flags &= (uint16_t)~PGL_DIRTY;
				lru_account(s, z, page, 1);
				*cleaned += (int64_t)1 << page->order;
				if (page->lru_flags & PGL_RECLAIM) {
					lru_unlink(s, z, pfn);
					page->lru_flags &= (uint16_t) ~(PGL_RECLAIM | PGL_ACTIVE);
					lru_link(s, z, pfn, 1);
					*rotated += (int64_t)1 << page->order;
					s->ev.pgrotated += 1u << page->order;
				}
			}
			pfn = next;
		}
	}
}

/* The flusher's pass over node nid: its lists, or every memcg's. */
static void writeback_node(struct sim *s, int nid)
{
	int64_t cleaned = 0, rotated = 0;

	if (!sim_nodes(s)[nid].lruvec.nr_dirty)
		return;
	if (!memcg_enabled(s))
		writeback_lists(s, nid, -1, &cleaned, &rotated);
	else
		for (int memcg = 0; memcg < memcg_count(s); memcg++)
			writeback_lists(s, nid, memcg, &cleaned, &rotated);
	if (cleaned)
		ev_emit(s, EV_WRITEBACK, FN_WB_WORKFN, kswapd_cpu(s, nid),
			&sim_nodes(s)[nid].zones[ZONE_NORMAL], 0, 0, 0, (int32_t)cleaned,
			(int32_t)rotated, 0);
}

/* Boot: every LRU list empty; kswapd asked for nothing yet. */
static void reclaim_boot(struct sim *s)
{
	for (int nid = 0; nid < s->config.nr_nodes; nid++) {
		struct node *n = &sim_nodes(s)[nid];
		for (int lru = 0; lru < NR_LRU_LISTS; lru++)
			n->lruvec.head[lru] = n->lruvec.tail[lru] = PFN_NONE;
		n->kswapd_highest_zoneidx = MAX_NR_ZONES;
		n->kswapd.highest_zoneidx = MAX_NR_ZONES - 1;
	}
	memcg_boot(s);
}

/* Between ops: each awake kswapd runs its next round; a napping one sees whether its nap ran out. */
static void reclaim_op_done(struct sim *s)
{
	for (int nid = 0; nid < s->config.nr_nodes; nid++)
		if (sim_nodes(s)[nid].kswapd_awake || sim_nodes(s)[nid].kswapd.napping)
			kswapd_step(s, nid);
}

/* A vmstat interval: the flusher writes dirty page cache back, then kswapd finishes its work. */
static void reclaim_tick_end(struct sim *s)
{
	for (int nid = 0; nid < s->config.nr_nodes; nid++) {
		writeback_node(s, nid);
		kswapd_run(s, nid, KSWAPD_STEPS_PER_TICK);
	}
}

/* page_alloc's release hook: the owner frees an LRU block, which leaves its list first. */
static void reclaim_release(struct sim *s, struct zone *z, uint32_t pfn)
{
	lru_unlink(s, z, pfn);
	lru_forget(s, z, pfn, HANDLE_HELD);
}

const struct page_alloc_reclaim reclaim_for_page_alloc = {
	.release = reclaim_release,
	.expand = lru_extent_expand,
	.try_to_free_pages = try_to_free_pages,
	.zone_reclaimable_pages = zone_reclaimable_pages,
	.node_reclaim = node_reclaim,
};

const struct subsystem reclaim_subsystem = {
	.name = "reclaim",
	.arena_bytes = memcg_arena_bytes,
	.boot = reclaim_boot,
	.apply = reclaim_apply,
	.tick_end = reclaim_tick_end,
	.op_done = reclaim_op_done,
	.check = reclaim_check,
};
