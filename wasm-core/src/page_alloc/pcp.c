/*
 * pcp.c: the per-CPU page lists (struct per_cpu_pages), docs/kernel/page_alloc/pcp.md (B.1-B.11).
 *
 * Why they exist: every buddy operation needs zone->lock, which all CPUs of a node share. Each
 * CPU keeps, per zone, a few lists of free blocks ("pcp lists", one per pindex = (migratetype,
 * order)) so that most allocations and frees touch only CPU-local data. The lists are filled
 * from the buddy in batches under one zone->lock hold (rmqueue_bulk) and emptied back in
 * batches (free_pcppages_bulk) once they hold `high` pages. Everything interesting is in how
 * many pages move per lock hold, and that is what changed between kernel versions:
 *
 *   <= 5.13     order-0 lists only; refill `batch`; drain `batch` once count >= high = 6 * batch.
 *   2016        Mel Gorman's posted series: + one shared list per order 1..3; high = 11 * batch;
 *               refill `batch` blocks; drain `batch` pages round-robin with batch_free weights.
 *   5.14-6.6    per-(type, order) lists; refill max(batch >> order, 2) blocks; high from the low
 *               watermark split over the node's CPUs (zone_highsize); drains scaled by free_factor.
 *   6.7-6.18    refills scale by alloc_factor (batch << 0..5) and `high` tunes itself between
 *               high_min and high_max: it grows while the zone has memory to spare, shrinks
 *               under pressure and decays by 1/8 a second when idle (decay_pcp_high).
 *
 * List discipline (B.2): frees and allocations use the head (cache-hot), refills append at the
 * tail in buddy order, bulk frees take the tail (coldest). Lists link frames by pfn.
 *
 * Counting: pcp->count is in base pages (an order-k block counts 2^k); refills ask for blocks.
 * Events carry the pcp owner's CPU; the zone lock (EV_ZONE_LOCK) is charged to the CPU that
 * really takes it, which differs for 6.x drain_all_pages draining remote CPUs' lists.
 */
#include "base/event.h"
#include "base/fast_path.h"
#include "base/lock.h"
#include "base/profile.h"
#include "base/state.h"
#include "base/textbuf.h"
#include "page_alloc/buddy.h"
#include "page_alloc/fallback.h"
#include "page_alloc/pcp.h"
#include "page_alloc/pcp_index.h"
#include "page_alloc/vocab.h"
#include "page_alloc/watermark.h"
#include "page_alloc/zone_lock.h"

#define PCP_CACHE_SLICE_PAGES \
	512		   /* modelled per-CPU data cache slice (2 MiB) for PCPF_FREE_HIGH_BATCH */
#define PCP_EXPIRE_TICKS 3 /* NUMA: "3 seconds idle till flush" */

/* ---- small helpers ------------------------------------------------------------------------ */

/* min of two ints. */
static int32_t imin(int32_t a, int32_t b)
{
	return a < b ? a : b;
}

/* max of two ints. */
static int32_t imax(int32_t a, int32_t b)
{
	return a > b ? a : b;
}

/* The kernel's clamp(v, lo, hi) = min(max(v, lo), hi): hi wins when lo > hi. */
static int32_t iclamp(int32_t v, int32_t lo, int32_t hi)
{
	return imin(imax(v, lo), hi);
}

/* rounddown_pow_of_two for v >= 1. */
static int32_t rounddown_pow_of_two(int32_t v)
{
	int32_t p = 1;
	while (p <= v / 2)
		p <<= 1;
	return p;
}

/* this CPU's pcp of z (this_cpu_ptr(zone->per_cpu_pageset)). */
static struct per_cpu_pages *zone_pcp(const struct sim *s, const struct zone *z, int cpu)
{
	return zone_cpu_pcp(s, z, cpu);
}

/* NR_PCP_LISTS as the kernel was built: the layout's lists, without the THP ones when THP is off. */
static int pcp_nr_lists(const struct sim *s)
{
	int n = profile_nr_pcp_lists(&s->profile);

	if (pcp_thp_order(s) >= 0)
		return n;
	switch (s->profile.pcp_layout) {
	case PCP_LAYOUT_5_14:
		return n - MIGRATE_PCPTYPES;
	case PCP_LAYOUT_6_0:
		return n - 1;
	case PCP_LAYOUT_6_10:
		return n - 2;
	default:
		return n;
	}
}

/* Whether the profile tunes high between high_min and high_max (6.7+). */
static int pcp_autotune(const struct sim *s)
{
	return s->profile.pcp_high_rule == PCP_HIGH_AUTOTUNE;
}

/* Set pcp->high, telling the UI when it moves (EV_PCP_HIGH). */
static FAST_PATH void pcp_set_high(struct sim *s, const struct zone *z, int cpu,
				   struct per_cpu_pages *pcp, int32_t high, int fn)
{
	if (pcp->high == high)
		return;
	ev_emit(s, EV_PCP_HIGH, fn, cpu, z, 0, 0, 0, pcp->high, high, pcp->count);
	pcp->high = high;
}

/*
 * Arm the NUMA expiry of a pcp holding another node's pages: activity re-arms the 3-tick
 * countdown. c is the pcp's CPU.
 */
static void pcp_touch(const struct zone *z, const struct cpu *c, struct per_cpu_pages *pcp)
{
	if (z->node != c->node)
		pcp->expire = PCP_EXPIRE_TICKS;
}

/* ---- list operations ------------------------------------------------------------------------ */

/*
 * list_add / list_add_tail of a free block to lists[pindex] of cpu's pcp; the frame (page, pfn's)
 * becomes PG_PCP. The free path passes the frame it has already found.
 */
static FAST_PATH void pcp_list_add_page(struct sim *s, const struct zone *z,
					struct per_cpu_pages *pcp, int cpu, int pindex,
					uint32_t pfn, struct page *page, int order, int to_tail)
{
	frame_changed(s, pfn);
	page->state = PG_PCP;
	page->order = (uint8_t)order;
	page->list = (uint8_t)pindex;
	page->cpu = (uint16_t)cpu;
	if (to_tail) {
		page->next = PFN_NONE;
		page->prev = pcp->tail[pindex];
		if (pcp->tail[pindex] != PFN_NONE)
			zone_page(s, z, pcp->tail[pindex])->next = pfn;
		else
			pcp->head[pindex] = pfn;
		pcp->tail[pindex] = pfn;
	} else {
		page->prev = PFN_NONE;
		page->next = pcp->head[pindex];
		if (pcp->head[pindex] != PFN_NONE)
			zone_page(s, z, pcp->head[pindex])->prev = pfn;
		else
			pcp->tail[pindex] = pfn;
		pcp->head[pindex] = pfn;
	}
	pcp->nr_blocks[pindex]++;
}

/* pcp_list_add_page for a block whose frame the caller has not looked up. */
static void pcp_list_add(struct sim *s, const struct zone *z, struct per_cpu_pages *pcp, int cpu,
			 int pindex, uint32_t pfn, int order, int to_tail)
{
	pcp_list_add_page(s, z, pcp, cpu, pindex, pfn, zone_page(s, z, pfn), order, to_tail);
}

/*
 * list_del of a block from its pcp list (the frame names the list); count is the caller's. Returns
 * the block's frame, so the allocation that takes it does not look it up again.
 */
static FAST_PATH struct page *pcp_list_del(struct sim *s, const struct zone *z,
					   struct per_cpu_pages *pcp, uint32_t pfn)
{
	struct page *page = zone_page(s, z, pfn);
	int pindex = page->list;

	if (page->prev != PFN_NONE)
		zone_page(s, z, page->prev)->next = page->next;
	else
		pcp->head[pindex] = page->next;
	if (page->next != PFN_NONE)
		zone_page(s, z, page->next)->prev = page->prev;
	else
		pcp->tail[pindex] = page->prev;
	page->next = page->prev = PFN_NONE;
	pcp->nr_blocks[pindex]--;
	return page;
}

/* ---- sizing: batch and high (B.3, B.4) ------------------------------------------------------------ */

/*
 * zone_batchsize: about a quarter of a thousandth of the zone, capped (1 MiB of pages since 5.12,
 * 512 KiB before), then rounded to 2^n - 1 "so that batches do not all land on the same cache
 * colour". 1 GiB or more: 256 / 4 = 64, 64 + 32 = 96 -> 64 - 1 = 63. A 3840-page DMA zone:
 * 3 / 4 = 0 -> 1 -> 1 - 1 = 0 (the caller makes it 1).
 */
int32_t pcp_zone_batchsize(const struct sim *s, const struct zone *z)
{
	int32_t cap = (int32_t)((1u << s->profile.batch_cap_kib_shift) >> PAGE_SHIFT);
	int32_t batch = (int32_t)(z->managed >> 10);

	if (batch > cap)
		batch = cap;
	batch /= 4;
	if (batch < 1)
		batch = 1;
	return rounddown_pow_of_two(batch + batch / 2) - 1;
}

/* Online CPUs of node nid, not counting `excl` (a CPU being hot(un)plugged is not in the node mask). */
static int32_t node_online_cpus(const struct sim *s, int nid, int excl)
{
	const struct node *n = &sim_nodes(s)[nid];
	int32_t nr = 0;

	for (int cpu = n->first_cpu; cpu < n->first_cpu + n->nr_cpus; cpu++)
		nr += sim_cpus(s)[cpu].online && cpu != excl;
	return nr;
}

/* zone_highsize with the CPU being hotplugged left out of the node's mask. */
static int32_t zone_highsize_excl(const struct sim *s, const struct zone *z, int32_t batch,
				  int cpu_online, int32_t fraction, int excl)
{
	int64_t total = fraction ? (int64_t)z->managed / fraction : wmark_pages(z, WMARK_LOW);
	int32_t nr_split_cpus = node_online_cpus(s, z->node, excl) + cpu_online;

	if (nr_split_cpus == 0) {
		/* a memory-only node: split over every online CPU */
		for (int nid = 0; nid < s->config.nr_nodes; nid++)
			nr_split_cpus += node_online_cpus(s, nid, excl);
		if (nr_split_cpus == 0)
			nr_split_cpus = 1;
	}
	if (total < 0)
		total = 0;
	return imax((int32_t)(total / nr_split_cpus), batch << 2);
}

int32_t pcp_zone_highsize(const struct sim *s, const struct zone *z, int32_t batch, int cpu_online,
			  int32_t fraction)
{
	return zone_highsize_excl(s, z, batch, cpu_online, fraction, -1);
}

/*
 * zone_set_pageset_high_and_batch + __zone_set_pageset_high_and_batch: new batch and limits into
 * the zone and every possible CPU's pcp. 6.7+ leaves pcp->high alone (it is clamped into the new
 * range at its next use); older kernels wrote high itself.
 */
static void zone_set_high_and_batch(struct sim *s, struct zone *z, int cpu_online, int excl)
{
	int32_t fraction = s->config.percpu_pagelist_high_fraction;
	int32_t batch = s->config.pcp_batch > 0 ? s->config.pcp_batch :
						  imax(1, pcp_zone_batchsize(s, z));
	int32_t high_min, high_max;

	switch (s->profile.pcp_high_rule) {
	case PCP_HIGH_6_BATCH:
	case PCP_HIGH_2016:
		if (fraction) {
			/* <= 5.13 read the same sysctl slot as vm.percpu_pagelist_fraction: high = managed / f */
			high_min = (int32_t)(z->managed / (uint32_t)fraction);
			if (s->config.pcp_batch <= 0)
				batch = iclamp(high_min / 4, 1, PAGE_SHIFT * 8);
		} else if (s->profile.pcp_high_rule == PCP_HIGH_6_BATCH) {
			high_min = 6 * batch;
		} else {
			/* 2016: room for a refill of every order-0 type plus one order-3 refill */
			high_min = batch * MIGRATE_PCPTYPES + (batch << PAGE_ALLOC_COSTLY_ORDER);
		}
		high_max = high_min;
		break;
	case PCP_HIGH_ZONE_HIGHSIZE:
		high_min = high_max = zone_highsize_excl(s, z, batch, cpu_online, fraction, excl);
		break;
	case PCP_HIGH_AUTOTUNE:
	default:
		if (fraction) {
			high_min = high_max =
				zone_highsize_excl(s, z, batch, cpu_online, fraction, excl);
		} else {
			high_min = zone_highsize_excl(s, z, batch, cpu_online, 0, excl);
			high_max = zone_highsize_excl(s, z, batch, cpu_online, 8, excl);
		}
		break;
	}
	z->pageset_batch = batch;
	z->pageset_high_min = high_min;
	z->pageset_high_max = high_max;
	for (uint32_t cpu = 0; cpu < s->nr_cpus; cpu++) {
		struct per_cpu_pages *pcp = zone_pcp(s, z, (int)cpu);
		pcp->batch = batch;
		pcp->high_min = high_min;
		pcp->high_max = high_max;
		if (!pcp_autotune(s)) {
			pcp_set_high(s, z, (int)cpu, pcp, high_min, FN_NONE);
			continue;
		}
		/* zone_pcp_update_cacheinfo: a cache slice larger than 3 batches lets free_high wait for a batch */
		if (PCP_CACHE_SLICE_PAGES > 3 * batch)
			pcp->flags |= PCPF_FREE_HIGH_BATCH;
		else
			pcp->flags &= (uint8_t)~PCPF_FREE_HIGH_BATCH;
	}
}

void pcp_zone_update(struct sim *s, struct zone *z, int cpu_online)
{
	if (zone_populated(z))
		zone_set_high_and_batch(s, z, cpu_online, -1);
}

/* per_cpu_pages_init: the boot pageset (high 0, batch 1: every free goes straight back). */
static void per_cpu_pages_init(struct per_cpu_pages *pcp)
{
	*pcp = (struct per_cpu_pages){ .batch = 1 };
	for (int i = 0; i < NR_PCP_LISTS_LIMIT; i++)
		pcp->head[i] = pcp->tail[i] = PFN_NONE;
}

void pcp_init_all(struct sim *s)
{
	for (uint32_t cpu = 0; cpu < s->nr_cpus; cpu++)
		for (int nid = 0; nid < s->config.nr_nodes; nid++)
			for (int zid = 0; zid < MAX_NR_ZONES; zid++)
				per_cpu_pages_init(sim_pcp(s, (int)cpu, nid, zid));
	/* setup_zone_pageset at boot: cpu_online 0, every boot CPU already in its node's mask */
	for (int nid = 0; nid < s->config.nr_nodes; nid++)
		for (int zid = 0; zid < MAX_NR_ZONES; zid++)
			pcp_zone_update(s, sim_zone(s, nid, zid), 0);
}

/* ---- giving pages back: free_pcppages_bulk (B.7) ------------------------------------------------- */

/*
 * The runaway the kernel cannot see: pcp->count says pages remain but every list is empty (the
 * 2016 pre-v5 count bug). The kernel's "find the next non-empty list" loop would spin forever
 * with interrupts off. We stop after one full lap, report it and freeze the simulation.
 */
static void pcp_runaway(struct sim *s, const struct zone *z, int cpu,
			const struct per_cpu_pages *pcp, int laps)
{
	struct textbuf tb;
	int32_t listed = 0;

	for (int i = 0; i < pcp_nr_lists(s); i++)
		listed += (int32_t)pcp->nr_blocks[i] << pcp_pindex_to_order(s, i);
	ev_emit(s, EV_RUNAWAY_LOOP, FN_FREE_PCPPAGES_BULK, cpu, z, 0, 0, 0, laps, pcp->count,
		listed);
	tb_init(&tb, s->error, sizeof s->error);
	tb_str(&tb, "free_pcppages_bulk: cpu ");
	tb_int(&tb, cpu, 0);
	tb_str(&tb, " pcp->count ");
	tb_int(&tb, pcp->count, 0);
	tb_str(&tb, " but its lists hold ");
	tb_int(&tb, listed, 0);
	tb_str(&tb, " pages: the kernel would spin forever here");
	tb_finish(&tb);
	s->frozen = 1;
}

/* Take the tail block of lists[pindex] back to the buddy (under the zone lock); returns its pages. */
static int32_t pcp_free_tail(struct sim *s, struct zone *z, int owner, int actor,
			     struct per_cpu_pages *pcp, int pindex)
{
	uint32_t pfn = pcp->tail[pindex];
	int order = pcp_pindex_to_order(s, pindex);
	int32_t nr_pages = 1 << order;
	int mt;

	pcp_list_del(s, z, pcp, pfn);
	pcp->count -= nr_pages;
	/* re-read the pageblock: it may have been claimed or isolated since the block was listed */
	mt = get_pageblock_migratetype(s, z, pfn);
	buddy_free_one_page(s, z, pfn, order, mt, actor, FN_FREE_PCPPAGES_BULK);
	ev_emit(s, EV_MM_PAGE_PCPU_DRAIN, FN_FREE_PCPPAGES_BULK, owner, z, pfn, order, mt, pindex,
		pcp->count, 0);
	return nr_pages;
}

/*
 * free_pcppages_bulk: return about `count` pages of owner's pcp of z to the buddy under one zone
 * lock hold taken by `actor`. `pindex` is the list to look at first (6.x: the list just freed to;
 * the 2016 series: the freed page's order-0 list); 5.13/5.14 always began after list 0.
 * 6.x drains each list it visits until count is done or the list is empty. <= 5.14 and 2016 go
 * round-robin taking batch_free entries per visit: 1, plus one for every empty list skipped on
 * the way (5.13/5.14 also carry over what a list that ran dry did not use), so fuller lists lose
 * more after empty ones; with one non-empty list left it gives everything. Either way count may overshoot below zero (one
 * order-3 block subtracts 8). Returns the pages freed; `fn` (the caller) tags EV_PCP_BULK_FREE.
 */
static int32_t free_pcppages_bulk(struct sim *s, struct zone *z, int owner, int actor,
				  int32_t count, int pindex, int fn)
{
	struct per_cpu_pages *pcp = zone_pcp(s, z, owner);
	int nr = pcp_nr_lists(s);
	int batch_free_rule = s->profile.pcp_drain_rule != PCP_DRAIN_REQUESTED_FIRST;
	int from_type = s->profile.pcp_drain_rule == PCP_DRAIN_BATCH_FREE_FROM_TYPE;
	int32_t freed = 0, blocks = 0, batch_free = 0;
	uint32_t guard = 0;
	int p;

	count = imin(count, pcp->count);
	if (count <= 0 || s->frozen)
		return 0;
	if (batch_free_rule && !from_type)
		pindex = 1 % nr; /* the merged kernels started at list 0 and pre-incremented */
	if (pindex < 0 || pindex >= nr)
		pindex = 0;
	p = pindex - 1; /* every search below pre-increments: pindex is seen first */
	ev_emit(s, EV_PCP_BULK_FREE, fn, owner, z, 0, 0, 0, count, pcp->count, pcp->high);
	zone_lock(s, z, actor);
	while (count > 0) {
		int visits = 0;
		/* the 2016 series restarted the weight at every list; the merged kernels carried it over */
		if (from_type)
			batch_free = 0;
		/* the next non-empty list, round-robin; a whole lap of empty lists is the runaway */
		do {
			p = p + 1 >= nr ? 0 : p + 1;
			batch_free++;
			if (++visits > nr)
				break;
		} while (pcp->head[p] == PFN_NONE);
		if (visits > nr || ++guard > s->nr_frames) {
			pcp_runaway(s, z, owner, pcp, visits);
			break;
		}
		if (!batch_free_rule) {
			do {
				int32_t n = pcp_free_tail(s, z, owner, actor, pcp, p);
				count -= n;
				freed += n;
				blocks++;
			} while (count > 0 && pcp->head[p] != PFN_NONE);
			continue;
		}
		/* only one list holds pages: take everything from it */
		if (batch_free == nr)
			batch_free = count;
		do {
			int32_t n = pcp_free_tail(s, z, owner, actor, pcp, p);
			count -= n;
			freed += n;
			blocks++;
		} while (count > 0 && --batch_free && pcp->head[p] != PFN_NONE);
	}
	pcp->last_pindex = (uint8_t)(p < 0 ? 0 : p);
	s->ev.pcp_bulk_frees++;
	s->ev.pcp_drain_pages += (uint64_t)freed;
	sim_cpus(s)[owner].pcp_drains++;
	zone_unlock(s, z, actor, blocks, freed);
	return freed;
}

int pcp_free_bulk(struct sim *s, struct zone *z, int cpu, int count, int pindex, int fn)
{
	return free_pcppages_bulk(s, z, cpu, cpu, count, pindex, fn);
}

/* ---- allocation (B.5) ------------------------------------------------------------------------- */

/*
 * nr_pcp_alloc (6.7+): how many blocks a refill asks for. Order 0 asks batch << alloc_factor and
 * bumps alloc_factor while the pcp has room, so a CPU allocating in bulk refills with 63, 126,
 * 252, ... 2016 pages per zone lock hold; a free halves alloc_factor again. While the zone is
 * above its high watermark, high grows by what is asked (a busy CPU earns a bigger cache).
 */
static int32_t nr_pcp_alloc(struct sim *s, struct zone *z, int cpu, struct per_cpu_pages *pcp,
			    int order)
{
	int32_t base = pcp->batch, high, b;

	pcp_set_high(s, z, cpu, pcp, iclamp(pcp->high, pcp->high_min, pcp->high_max),
		     FN_NR_PCP_ALLOC);
	high = pcp->high;
	if (high < base)
		return 1; /* boot pageset or a disabled pcp */
	b = order ? base : base << pcp->alloc_factor;
	if (pcp->high_min != pcp->high_max && !(z->flags & ZONE_BELOW_HIGH)) {
		pcp_set_high(s, z, cpu, pcp, imin(high + b, pcp->high_max), FN_NR_PCP_ALLOC);
		high = pcp->high;
	}
	if (!order) {
		int32_t max_nr = imax(high - pcp->count - base, base);
		if (b <= max_nr && pcp->alloc_factor < PCP_BATCH_SCALE_MAX)
			pcp->alloc_factor++;
		b = imin(b, max_nr);
	}
	if (b > 1)
		b = imax(b >> order, 2);
	return b;
}

/* Blocks one refill asks for under the profile. */
static int32_t pcp_refill_blocks(struct sim *s, struct zone *z, int cpu, struct per_cpu_pages *pcp,
				 int order)
{
	int32_t batch = pcp->batch;

	if (s->profile.alloc_factor_scaling)
		return nr_pcp_alloc(s, z, cpu, pcp, order);
	switch (s->profile.pcp_layout) {
	case PCP_LAYOUT_ORDER0:
	case PCP_LAYOUT_2016:
		return batch; /* batch blocks of the order: an order-3 refill moves 8 * batch pages */
	default:
		/* 5.14-6.6: scale by order so a refill moves about batch pages */
		return batch > 1 ? imax(batch >> order, 2) : batch;
	}
}

/* check_new_pages failed: bad_page() reports it and the block is leaked, on no list. */
static void pcp_leak_bad(struct sim *s, struct zone *z, int cpu, uint32_t pfn, int order, int mt)
{
	struct page *page = zone_page(s, z, pfn);

	frame_changed(s, pfn);
	page->state = PG_CORRUPT;
	page->order = (uint8_t)order;
	page->cpu = (uint16_t)cpu;
	page->next = page->prev = PFN_NONE;
	s->ev.bad_page++;
	ev_emit(s, EV_BAD_PAGE, FN_BAD_PAGE, cpu, z, pfn, order, mt, BAD_HWPOISON, 0, 0);
	ev_emit(s, EV_PAGE_LEAK, FN_CHECK_NEW_PAGES, cpu, z, pfn, order, mt, 0, 0, 0);
}

/*
 * rmqueue_bulk: up to `count` blocks of `order` from the buddy, appended at the list tail in the
 * order they come, under one zone lock hold. 6.18 keeps one rmqueue_mode across the loop, so
 * once a refill had to claim or steal it does not retry the cheaper stages for every block.
 * The sanity check of each block (check_pcp_refill in <= 5.x, check_new_pages at allocation
 * since) rejects a block marked bad. Returns the blocks the caller adds to pcp->count: the
 * listed ones, or with the pre-v5 2016 bug every block taken, the rejected one included.
 */
static int32_t rmqueue_bulk(struct sim *s, struct zone *z, int cpu, struct per_cpu_pages *pcp,
			    int order, int32_t count, int pindex, int mt, unsigned alloc_flags)
{
	int mode = RMQUEUE_NORMAL;
	int32_t taken = 0, listed = 0;

	zone_lock(s, z, cpu);
	for (int32_t i = 0; i < count; i++) {
		uint32_t pfn = rmqueue_with_fallback(s, z, order, mt, alloc_flags, &mode, cpu);
		struct page *page;
		if (pfn == PFN_NONE)
			break;
		taken++;
		page = zone_page(s, z, pfn);
		if (s->corrupt_pending == (uint32_t)cpu + 1) {
			page->flags |= PAGEF_HWPOISON;
			s->corrupt_pending = 0;
		}
		if (page->flags & PAGEF_HWPOISON) {
			pcp_leak_bad(s, z, cpu, pfn, order, mt);
			continue;
		}
		pcp_list_add(s, z, pcp, cpu, pindex, pfn, order, 1);
		listed++;
	}
	ev_emit(s, EV_PCP_REFILL, FN_RMQUEUE_BULK, cpu, z, 0, order, mt, count, taken,
		pcp->alloc_factor);
	s->ev.pcp_refill++;
	sim_cpus(s)[cpu].pcp_refills++;
	zone_unlock(s, z, cpu, taken, taken << order);
	return s->profile.pcp_count_fix ? listed : taken;
}

FAST_PATH uint32_t pcp_rmqueue(struct sim *s, struct zone *z, int cpu, struct cpu *c, int order,
			       int mt, unsigned alloc_flags)
{
	int pindex = pcp_order_to_pindex(s, mt, order);
	struct per_cpu_pages *pcp;
	struct page *page;
	uint32_t pfn;

	if (pindex < 0 || s->frozen)
		return PFN_NONE;
	pcp = zone_pcp(s, z, cpu);
	/* an allocation ends a run of frees: the free-side scaling backs off */
	if (pcp_autotune(s))
		pcp->free_count >>= 1;
	if (s->profile.free_factor)
		pcp->free_factor >>= 1;
	if (pcp->head[pindex] == PFN_NONE) {
		int32_t want = pcp_refill_blocks(s, z, cpu, pcp, order);
		int32_t got = rmqueue_bulk(s, z, cpu, pcp, order, want, pindex, mt, alloc_flags);
		pcp->count += got << order;
		if (pcp->head[pindex] == PFN_NONE)
			return PFN_NONE;
	}
	pfn = pcp->head[pindex];
	page = pcp_list_del(s, z, pcp, pfn);
	pcp->count -= 1 << order;
	/* (no frame_changed: rmqueue's caller, get_page_from_freelist, stamps it in prep_new_page) */
	page->state = PG_ALLOCATED;
	page->order = (uint8_t)order;
	page->list = (uint8_t)mt; /* PG_ALLOCATED keeps the allocation's migratetype */
	page->cpu = (uint16_t)cpu;
	pcp_touch(z, c, pcp);
	s->ev.pcp_hit++;
	c->pcp_hits++;
	c->clock_ns += COST_PCP_FAST_NS; /* cpu_charge */
	ev_emit_cpu(s, EV_PCP_HIT, FN_RMQUEUE_PCPLIST, c, cpu, z, pfn, order, mt, pindex,
		    pcp->count, 0);
	return pfn;
}

/* ---- freeing (B.6) -------------------------------------------------------------------------------- */

/*
 * nr_pcp_high (6.7+): the limit this free is measured against, adjusting pcp->high on the way.
 * free_high (a burst of high-order frees) shrinks high and forces a bulk free now; reclaim
 * pressure or a zone below its high watermark shrink it; a pcp that fills up while the zone is
 * comfortable raises it to hold at least one more batch of frees.
 */
static FAST_PATH int32_t nr_pcp_high(struct sim *s, struct zone *z, int cpu,
				     struct per_cpu_pages *pcp, int32_t batch, int free_high)
{
	int32_t high_min = pcp->high_min, high_max = pcp->high_max, high;

	pcp_set_high(s, z, cpu, pcp, iclamp(pcp->high, high_min, high_max), FN_NR_PCP_HIGH);
	high = pcp->high;
	if (!high)
		return 0;
	if (free_high) {
		pcp_set_high(s, z, cpu, pcp, imax(high - (batch << PCP_BATCH_SCALE_MAX), high_min),
			     FN_NR_PCP_HIGH);
		return 0;
	}
	if (z->flags & ZONE_RECLAIM_ACTIVE) {
		pcp_set_high(s, z, cpu, pcp, imax(high - imax(pcp->free_count, batch), high_min),
			     FN_NR_PCP_HIGH);
		return imin(batch << 2, pcp->high);
	}
	if (high_min == high_max)
		return high;
	if (z->flags & ZONE_BELOW_HIGH) {
		pcp_set_high(s, z, cpu, pcp, imax(high - imax(pcp->free_count, batch), high_min),
			     FN_NR_PCP_HIGH);
		return imax(pcp->count, high_min);
	}
	if (pcp->count >= high) {
		int32_t need_high = pcp->free_count + batch;
		if (pcp->high < need_high)
			pcp_set_high(s, z, cpu, pcp, iclamp(need_high, high_min, high_max),
				     FN_NR_PCP_HIGH);
	}
	return high;
}

/* nr_pcp_free (6.7+): pages to give back; the consecutive-free count scales it, leaving a batch. */
static int32_t nr_pcp_free(const struct per_cpu_pages *pcp, int32_t batch, int32_t high,
			   int free_high)
{
	if (free_high)
		return imin(pcp->count, batch << PCP_BATCH_SCALE_MAX);
	if (high < batch)
		return 1;
	return iclamp(pcp->free_count, batch, high - batch);
}

/* nr_pcp_free (5.14-6.6): batch << free_factor, the factor growing while it stays below high - batch. */
static int32_t nr_pcp_free_factor(struct per_cpu_pages *pcp, int32_t batch, int32_t high,
				  int free_high)
{
	int64_t b;

	if (free_high)
		return pcp->count;
	if (high < batch)
		return 1;
	b = (int64_t)batch << pcp->free_factor;
	if (b < high - batch && pcp->free_factor < 30)
		pcp->free_factor++;
	if (b > high - batch)
		b = high - batch;
	return imax((int32_t)b, imin(batch, high - batch));
}

/* free_one_page: straight to the buddy under the zone lock (isolated pageblocks, non-pcp orders). */
static void free_one_page(struct sim *s, struct zone *z, int cpu, uint32_t pfn, int order)
{
	zone_lock(s, z, cpu);
	buddy_free_pages_to_buddy(s, z, pfn, order, cpu, FN_FREE_ONE_PAGE);
	zone_unlock(s, z, cpu, 1, 1 << order);
}

/* free_frozen_page_commit (free_unref_page_commit before 6.14): list the block, then maybe bulk free. */
static FAST_PATH void free_commit(struct sim *s, struct zone *z, int cpu, struct cpu *c,
				  uint32_t pfn, struct page *page, int order, int mt, int pindex)
{
	struct per_cpu_pages *pcp = zone_pcp(s, z, cpu);
	int32_t batch = pcp->batch, high, to_free = -1;
	int free_high = 0;

	if (s->profile.alloc_factor_scaling)
		pcp->alloc_factor >>= 1;
	pcp_list_add_page(s, z, pcp, cpu, pindex, pfn, page, order, 0);
	pcp->count += 1 << order;

	switch (s->profile.pcp_high_rule) {
	case PCP_HIGH_AUTOTUNE:
		/* a run of order-1..3 frees (e.g. a process exiting) should not sit on the pcp */
		if (order >= 1 && order <= PAGE_ALLOC_COSTLY_ORDER) {
			int32_t threshold =
				batch +
				(s->profile.free_high_adds_high_min ? pcp->high_min / 2 : 0);
			free_high = pcp->free_count >= threshold &&
				    (pcp->flags & PCPF_PREV_FREE_HIGH_ORDER) &&
				    (!(pcp->flags & PCPF_FREE_HIGH_BATCH) || pcp->count >= batch);
			pcp->flags |= PCPF_PREV_FREE_HIGH_ORDER;
		} else {
			pcp->flags &= (uint8_t)~PCPF_PREV_FREE_HIGH_ORDER;
		}
		if (pcp->free_count < (batch << PCP_BATCH_SCALE_MAX))
			pcp->free_count = (int16_t)imin(pcp->free_count + (1 << order),
							INT16_MAX); /* short in the kernel too */
		high = nr_pcp_high(s, z, cpu, pcp, batch, free_high);
		if (pcp->count >= high)
			to_free = nr_pcp_free(pcp, batch, high, free_high);
		break;
	case PCP_HIGH_ZONE_HIGHSIZE:
		/* 5.19-6.6 free_high: any order-1..3 free after a free without an allocation between */
		free_high = s->profile.free_high_on_free_factor && pcp->free_factor && order >= 1 &&
			    order <= PAGE_ALLOC_COSTLY_ORDER;
		high = pcp->high;
		if (free_high)
			high = 0;
		else if (z->flags & ZONE_RECLAIM_ACTIVE)
			high = imin(batch << 2, high);
		if (pcp->count >= high)
			to_free = nr_pcp_free_factor(pcp, batch, high, free_high);
		break;
	default:
		/* <= 5.13 and 2016: exactly one batch once high is reached */
		high = pcp->high;
		if (pcp->count >= high)
			to_free = batch;
		break;
	}
	pcp_touch(z, c, pcp);
	c->pcp_frees++;
	c->clock_ns += COST_PCP_FAST_NS; /* cpu_charge */
	ev_emit_cpu(s, EV_PCP_FREE, FN_FREE_FROZEN_PAGE_COMMIT, c, cpu, z, pfn, order, mt, pindex,
		    pcp->count, high);
	if (to_free < 0)
		return;
	/* the 2016 series began at the freed page's order-0 list, 5.19+ at the list just freed to */
	free_pcppages_bulk(s, z, cpu, cpu, to_free,
			   s->profile.pcp_drain_rule == PCP_DRAIN_BATCH_FREE_FROM_TYPE ? mt :
											 pindex,
			   FN_FREE_FROZEN_PAGE_COMMIT);
	if (pcp_autotune(s) && (z->flags & ZONE_BELOW_HIGH) && !s->frozen &&
	    zone_watermark_ok(s, z, 0, wmark_pages(z, WMARK_HIGH), ZONE_MOVABLE, 0,
			      WMARK_CHECK_FREE_HIGH, cpu))
		z->flags &= ~(uint32_t)ZONE_BELOW_HIGH;
}

FAST_PATH void pcp_free_page(struct sim *s, struct zone *z, int cpu, struct cpu *c, uint32_t pfn,
			     struct page *page, int order)
{
	int mt = get_pageblock_migratetype(s, z, pfn);
	int pindex;

	if (s->frozen)
		return;
	if (mt >= MIGRATE_PCPTYPES) {
		/* an isolated block must not be reused through a pcp; HIGHATOMIC rides on MOVABLE */
		if (mt == MIGRATE_ISOLATE) {
			free_one_page(s, z, cpu, pfn, order);
			return;
		}
		mt = MIGRATE_MOVABLE;
	}
	pindex = pcp_order_to_pindex(s, mt, order);
	if (pindex < 0) {
		free_one_page(s, z, cpu, pfn, order);
		return;
	}
	free_commit(s, z, cpu, c, pfn, page, order, mt, pindex);
}

void pcp_free(struct sim *s, struct zone *z, int cpu, uint32_t pfn, int order)
{
	pcp_free_page(s, z, cpu, &sim_cpus(s)[cpu], pfn, zone_page(s, z, pfn), order);
}

/* ---- drains and time (B.8, B.9) ---------------------------------------------------------------- */

/*
 * drain_pages_zone: empty owner's pcp of z. 6.7+ does it in chunks of batch << 5 with the pcp lock
 * dropped between them (bounded latency); before, one free_pcppages_bulk of everything.
 */
static int32_t drain_pages_zone(struct sim *s, struct zone *z, int owner, int actor)
{
	struct per_cpu_pages *pcp = zone_pcp(s, z, owner);
	int32_t total = 0;
	uint8_t ctx;

	if (!pcp->count)
		return 0;
	/* spin_lock(&pcp->lock) (6.0+) or the interrupts drain_pages disabled (before) */
	ctx = pcp_lock_ctx(s, owner, 0);
	if (!pcp_autotune(s)) {
		total = free_pcppages_bulk(s, z, owner, actor, pcp->count, 0, FN_DRAIN_PAGES_ZONE);
	} else {
		/* every chunk frees at least one page or freezes the state */
		for (uint32_t i = 0; pcp->count > 0 && !s->frozen && i <= s->nr_frames; i++)
			total += free_pcppages_bulk(s, z, owner, actor,
						    imin(pcp->count,
							 pcp->batch << PCP_BATCH_SCALE_MAX),
						    0, FN_DRAIN_PAGES_ZONE);
	}
	pcp_unlock_ctx(s, owner, ctx);
	ev_emit(s, EV_DRAIN, FN_DRAIN_PAGES_ZONE, owner, z, 0, 0, 0, total, pcp->count, actor);
	return total;
}

void pcp_drain_pages_zone(struct sim *s, struct zone *z, int cpu)
{
	drain_pages_zone(s, z, cpu, cpu);
}

/* drain_pages: every populated zone of the machine for one CPU's lists. */
static int32_t drain_pages(struct sim *s, int owner, int actor)
{
	int32_t total = 0;

	for (int nid = 0; nid < s->config.nr_nodes && !s->frozen; nid++)
		for (int zid = 0; zid < MAX_NR_ZONES && !s->frozen; zid++)
			if (zone_populated(sim_zone(s, nid, zid)))
				total += drain_pages_zone(s, sim_zone(s, nid, zid), owner, actor);
	return total;
}

void pcp_drain_cpu(struct sim *s, int cpu)
{
	drain_pages(s, cpu, cpu);
}

/* Whether any pcp of cpu holds pages (drain_all_pages only visits those CPUs). */
static int cpu_has_pcp_pages(const struct sim *s, int cpu)
{
	for (int nid = 0; nid < s->config.nr_nodes; nid++)
		for (int zid = 0; zid < MAX_NR_ZONES; zid++)
			if (sim_pcp(s, cpu, nid, zid)->count)
				return 1;
	return 0;
}

/*
 * drain_all_pages(NULL): every online CPU with pages. With drain_remote_directly the caller
 * drains remote lists itself under their pcp spinlocks (so it takes every zone lock); before, each
 * CPU ran the drain as queued work and took the zone lock itself.
 */
void pcp_drain_all(struct sim *s, int cpu)
{
	int remote = s->profile.drain_remote_directly;
	int32_t total = 0, cpus = 0;

	for (uint32_t c = 0; c < s->nr_cpus && !s->frozen; c++) {
		if (!sim_cpus(s)[c].online || !cpu_has_pcp_pages(s, (int)c))
			continue;
		cpus++;
		total += drain_pages(s, (int)c, remote ? cpu : (int)c);
	}
	ev_emit(s, EV_DRAIN, FN_DRAIN_ALL_PAGES, cpu, NULL, 0, 0, 0, total, cpus, 0);
}

/* drain_zone_pages: the NUMA expiry drain, one batch of a remote node's pages. */
static void drain_zone_pages(struct sim *s, struct zone *z, int cpu, struct per_cpu_pages *pcp)
{
	int32_t to_drain = imin(pcp->count, pcp->batch), freed;
	uint8_t ctx;

	if (to_drain <= 0)
		return;
	ctx = pcp_lock_ctx(s, cpu, 0);
	freed = free_pcppages_bulk(s, z, cpu, cpu, to_drain, 0, FN_DRAIN_ZONE_PAGES);
	pcp_unlock_ctx(s, cpu, ctx);
	ev_emit(s, EV_DRAIN, FN_DRAIN_ZONE_PAGES, cpu, z, 0, 0, 0, freed, pcp->count, cpu);
}

/*
 * decay_pcp_high (6.7+): an idle pcp gives back what auto-tuning granted, high falling by at most
 * 1/8 per second (and never by more than batch << 5 below count, to bound the drain), then the
 * pages above the new high go back to the buddy.
 */
static void decay_pcp_high(struct sim *s, struct zone *z, int cpu, struct per_cpu_pages *pcp)
{
	int32_t to_drain;

	if (pcp->high > pcp->high_min) {
		int32_t high = imax(pcp->count - (pcp->batch << PCP_BATCH_SCALE_MAX),
				    pcp->high - (pcp->high >> 3));
		pcp_set_high(s, z, cpu, pcp, imax(high, pcp->high_min), FN_DECAY_PCP_HIGH);
	}
	to_drain = pcp->count - pcp->high;
	if (to_drain > 0) {
		uint8_t ctx = pcp_lock_ctx(s, cpu, 0);
		free_pcppages_bulk(s, z, cpu, cpu, to_drain, 0, FN_DECAY_PCP_HIGH);
		pcp_unlock_ctx(s, cpu, ctx);
	}
}

/*
 * vmstat_update's pcp part (refresh_cpu_vm_stats(do_pagesets)): for every populated zone, decay
 * (6.7+), then the NUMA expiry: local pcps are never expired; a remote node's pcp that saw no
 * activity for 3 ticks sheds one batch per tick.
 */
void pcp_vmstat_tick(struct sim *s, int cpu)
{
	for (int nid = 0; nid < s->config.nr_nodes && !s->frozen; nid++) {
		for (int zid = 0; zid < MAX_NR_ZONES && !s->frozen; zid++) {
			struct zone *z = sim_zone(s, nid, zid);
			struct per_cpu_pages *pcp = zone_pcp(s, z, cpu);
			if (!zone_populated(z))
				continue;
			if (pcp_autotune(s))
				decay_pcp_high(s, z, cpu, pcp);
			if (!pcp->expire || !pcp->count)
				continue;
			if (z->node == sim_cpus(s)[cpu].node) {
				pcp->expire = 0;
				continue;
			}
			if (--pcp->expire)
				continue;
			drain_zone_pages(s, z, cpu, pcp);
		}
	}
}

/* A surviving CPU to run the hotplug callback (the control CPU), or cpu itself if none. */
static int hotplug_actor(const struct sim *s, int cpu)
{
	for (uint32_t c = 0; c < s->nr_cpus; c++)
		if (sim_cpus(s)[c].online && (int)c != cpu)
			return (int)c;
	return cpu;
}

/* page_alloc_cpu_dead: drain the dead CPU's lists, then resize every zone's pcps without it. */
void pcp_cpu_dead(struct sim *s, int cpu)
{
	drain_pages(s, cpu, hotplug_actor(s, cpu));
	if (s->frozen)
		return;
	for (int nid = 0; nid < s->config.nr_nodes; nid++)
		for (int zid = 0; zid < MAX_NR_ZONES; zid++)
			if (zone_populated(sim_zone(s, nid, zid)))
				zone_set_high_and_batch(s, sim_zone(s, nid, zid), 0, cpu);
}

/* page_alloc_cpu_online: resize with cpu_online 1 (the new CPU is not in its node's mask yet). */
void pcp_cpu_online(struct sim *s, int cpu)
{
	for (int nid = 0; nid < s->config.nr_nodes; nid++)
		for (int zid = 0; zid < MAX_NR_ZONES; zid++)
			if (zone_populated(sim_zone(s, nid, zid)))
				zone_set_high_and_batch(s, sim_zone(s, nid, zid), 1, cpu);
}

void pcp_capture_block(struct sim *s, struct zone *z, int cpu, uint32_t pfn, int order, int pindex)
{
	struct per_cpu_pages *pcp = zone_pcp(s, z, cpu);

	pcp_list_add(s, z, pcp, cpu, pindex, pfn, order, 1);
	pcp->count += 1 << order;
}

void pcp_capture_high(struct sim *s, struct zone *z, int cpu, int32_t high)
{
	if (high > 0)
		zone_pcp(s, z, cpu)->high = high;
}
