/*
 * node_reclaim.c: zone_reclaim (mm/vmscan.c [3.0]) and node_reclaim (mm/vmscan.c [4.9, 6.18]).
 *
 * With zone_reclaim_mode set, an allocation whose zone is below its watermark first tries to free
 * memory on that zone's node before it falls back to another node. The checks come in a fixed
 * order: FULL (nothing worth scanning) when the reclaimable page cache is at most
 * min_unmapped_pages and reclaimable slab at most min_slab_pages, or (up to ~4.11) when kswapd
 * has found the node unreclaimable; NOSCAN when the request may not sleep, when the node has
 * CPUs of its own and is not the allocating CPU's node, or when another task is already
 * reclaiming it. Otherwise it scans at priority 4, then 3, 2, 1, 0, stopping as soon as it has
 * 2^order pages: SUCCESS if it got them, SOME (and zone_reclaim_failed) if not.
 *
 * "Reclaimable page cache" depends on the mode: with RECLAIM_UNMAP every file page, otherwise
 * only the unmapped ones (file LRU pages less the mapped ones); without RECLAIM_WRITE the dirty
 * ones are taken off too. What the scan may free follows the same bits: without RECLAIM_UNMAP a
 * mapped page is looked at and kept, without RECLAIM_WRITE so is a dirty one. So a node whose LRU
 * is mostly mapped page cache, with a little more than min_unmapped_pages unmapped somewhere in
 * it, is scanned five times over (1/16 + 1/8 + 1/4 + 1/2 + 1 = 1.9375 of each list) for little
 * or nothing: the stall seed 001 is about.
 *
 * Up to 4.7 the LRU lists were per zone, so zone_reclaim scanned the zone's own pages against the
 * zone's own min_unmapped_pages (present * ratio / 100); from 4.8 node_reclaim scans the node's
 * lists up to the request's zone against the node's sum (managed * ratio / 100 per zone). The
 * model keeps one LRU per node and, for the older kernels, scans only the zone's blocks on it
 * (scan_control.only_zone), which is the zone's own list in the node list's order.
 */
#include "reclaim/node_reclaim.h"

#include "base/event.h"
#include "base/state.h"
#include "page_alloc/gfp.h"
#include "page_alloc/reclaim_hook.h"
#include "page_alloc/watermark.h"
#include "reclaim/lru.h"
#include "reclaim/vmscan.h"
#include "reclaim/vocab.h"

int64_t node_pagecache_reclaimable(const struct sim *s, const struct zone *z)
{
	const struct node *n = &sim_nodes(s)[zone_to_nid(z)];
	int per_node = s->profile.node_reclaim_per_node;
	int mode = s->config.zone_reclaim_mode;
	int64_t file_lru, mapped, file_pages, dirty, nr, delta = 0;

	if (per_node) {
		file_lru =
			n->lruvec.nr_pages[LRU_INACTIVE_FILE] + n->lruvec.nr_pages[LRU_ACTIVE_FILE];
		mapped = n->lruvec.nr_mapped;
		file_pages = n->lruvec.nr_file;
		dirty = n->lruvec.nr_dirty;
	} else {
		file_lru = z->nr_zone_lru[LRU_INACTIVE_FILE] + z->nr_zone_lru[LRU_ACTIVE_FILE];
		mapped = z->nr_zone_file_mapped;
		file_pages = z->nr_zone_file_pages;
		dirty = z->nr_zone_write_pending;
	}
	/* with RECLAIM_UNMAP every file page counts, otherwise the unmapped ones */
	if (mode & RECLAIM_UNMAP)
		nr = file_pages;
	else
		nr = file_lru > mapped ? file_lru - mapped : 0;
	/* without RECLAIM_WRITE dirty pages cannot be freed */
	if (!(mode & RECLAIM_WRITE))
		delta += dirty;
	if (delta > nr)
		delta = nr;
	return nr - delta;
}

/* The scan of __zone_reclaim / __node_reclaim: priority 4 down to 0 until 2^order pages came back. */
static int64_t reclaim_scan(struct sim *s, int cpu, struct zone *z, uint32_t gfp, int order,
			    int64_t reclaimable, int64_t min_unmapped, int *priority)
{
	int per_node = s->profile.node_reclaim_per_node;
	int mode = s->config.zone_reclaim_mode;
	int64_t nr_pages = (int64_t)1 << order;
	struct scan_control sc = {
		.nr_to_reclaim = nr_pages > SWAP_CLUSTER_MAX ? nr_pages : SWAP_CLUSTER_MAX,
		.gfp = gfp,
		.order = order,
		.priority = NODE_RECLAIM_PRIORITY,
		.reclaim_idx = per_node ? gfp_zone(gfp) : zone_idx(z),
		.cpu = cpu,
		.may_swap = 1,
		.may_unmap = (mode & RECLAIM_UNMAP) != 0,
		.may_writepage = (mode & RECLAIM_WRITE) != 0,
		.only_zone = (int8_t)(per_node ? -1 : zone_idx(z)),
	};

	*priority = sc.priority;
	/* (slab is not modelled: reclaimable slab is 0, never above min_slab_pages) */
	if (reclaimable <= min_unmapped)
		return 0;
	do {
		*priority = sc.priority;
		shrink_node(s, zone_to_nid(z), &sc);
	} while (sc.nr_reclaimed < nr_pages && --sc.priority >= 0 && !s->frozen);
	return sc.nr_reclaimed;
}

/* Whether the node has an online CPU (node_state(nid, N_CPU)). */
static int node_has_cpus(const struct sim *s, int nid)
{
	const struct node *n = &sim_nodes(s)[nid];

	for (int c = n->first_cpu; c < n->first_cpu + n->nr_cpus; c++)
		if (sim_cpus(s)[c].online)
			return 1;
	return 0;
}

int node_reclaim(struct sim *s, int cpu, struct zone *z, uint32_t gfp, int order)
{
	int nid = zone_to_nid(z), per_node = s->profile.node_reclaim_per_node;
	struct node *n = &sim_nodes(s)[nid];
	int fn = per_node ? FN_NODE_RECLAIM : FN_ZONE_RECLAIM;
	int64_t reclaimable = node_pagecache_reclaimable(s, z);
	int64_t min_unmapped = per_node ? n->min_unmapped_pages : z->min_unmapped_pages;
	int64_t min_slab = per_node ? n->min_slab_pages : z->min_slab_pages;
	int64_t slab = 0; /* NR_SLAB_RECLAIMABLE: slab is not modelled */
	uint64_t scanned_before = s->ev.pgscan_direct;
	int64_t reclaimed = 0;
	int result, why, priority = NODE_RECLAIM_PRIORITY;

	s->ev.node_reclaim_calls++;
	if (reclaimable <= min_unmapped && slab <= min_slab) {
		result = NODE_RECLAIM_FULL;
		why = NRW_LITTLE_CACHE;
	} else if (s->profile.node_reclaim_full_when_unreclaimable && wmark_node_unreclaimable(n)) {
		result = NODE_RECLAIM_FULL;
		why = NRW_UNRECLAIMABLE;
	} else if (!(gfp & __GFP_DIRECT_RECLAIM)) {
		result = NODE_RECLAIM_NOSCAN;
		why = NRW_CANNOT_BLOCK;
	} else if (node_has_cpus(s, nid) && nid != sim_cpus(s)[cpu].node) {
		result = NODE_RECLAIM_NOSCAN;
		why = NRW_REMOTE_WITH_CPUS;
	} else if (n->reclaim_locked) {
		result = NODE_RECLAIM_NOSCAN;
		why = NRW_LOCKED;
	} else {
		/* ZONE_RECLAIM_LOCKED / PGDAT_RECLAIM_LOCKED: one reclaimer at a time */
		n->reclaim_locked = 1;
		ev_emit(s, EV_NODE_RECLAIM_BEGIN, fn, cpu, z, 0, order, 0, (int32_t)gfp, 0, 0);
		reclaimed =
			reclaim_scan(s, cpu, z, gfp, order, reclaimable, min_unmapped, &priority);
		n->reclaim_locked = 0;
		ev_emit(s, EV_NODE_RECLAIM_END, fn, cpu, z, 0, order, 0, (int32_t)reclaimed,
			(int32_t)(s->ev.pgscan_direct - scanned_before), priority);
		result = reclaimed >= ((int64_t)1 << order) ? NODE_RECLAIM_SUCCESS :
							      NODE_RECLAIM_SOME;
		why = NRW_SCANNED;
		if (result == NODE_RECLAIM_SUCCESS)
			s->ev.zone_reclaim_success++;
		else
			s->ev.zone_reclaim_failed++;
	}
	ev_emit(s, EV_NODE_RECLAIM, fn, cpu, z, 0, order, 0, result, why, (int32_t)reclaimed);
	return result;
}
