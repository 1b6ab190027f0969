/*
 * page_alloc.c: one allocation from request to page (__alloc_pages), and the free entry point.
 *
 * The fast path walks the zonelist once at the LOW watermark, first trying not to fragment
 * (ALLOC_NOFRAGMENT). Each zone is first tested against HIGH: passing it skips the requested
 * check; failing it marks the zone ZONE_BELOW_HIGH, which makes the pcp lists shrink on frees.
 * A zone that passes gives a block through rmqueue: its per-CPU list for small orders, else the
 * buddy lists under zone->lock.
 *
 * The slow path wakes kswapd, drops to the MIN watermark with whatever reserves the gfp flags
 * grant, and, for requests that may sleep, does what the kernel does after direct reclaim:
 * unreserve a high-order atomic pageblock, drain every CPU's lists, and try again. The model has
 * no page cache, so reclaim, compaction and the OOM killer free nothing: after those retries
 * the request fails (docs/model-notes.md).
 */
#include "page_alloc/page_alloc.h"

#include "base/event.h"
#include "base/fast_path.h"
#include "base/state.h"
#include "page_alloc/buddy.h"
#include "page_alloc/fallback.h"
#include "page_alloc/gfp.h"
#include "page_alloc/pcp.h"
#include "page_alloc/pcp_index.h"
#include "page_alloc/reclaim_hook.h"
#include "page_alloc/vocab.h"
#include "page_alloc/watermark.h"
#include "page_alloc/zlc.h"
#include "page_alloc/zone_lock.h"

#define MAX_RECLAIM_RETRIES 16
#define RECLAIM_DISTANCE 30 /* include/linux/topology.h: node reclaim stays within this distance */
/*
 * Bound of the slow path's retry loop. The kernel retries for as long as reclaim makes progress;
 * each fruitful retry here frees at least one page that stays free, so a machine of
 * MAX_FRAMES frames never needs as many, and a request that gets here fails.
 */
#define MAX_SLOWPATH_RETRIES 4096
#define MAX_WALK_PASSES \
	6 /* first walk + NOFRAGMENT restart + kswapd retry + NOFRAGMENT retry + ZLC rescan, with room */

/* struct alloc_context: what prepare_alloc_pages works out once per request. */
struct alloc_context {
	int cpu;
	int nid; /* numa_node_id() of the CPU: whose zonelist is walked */
	int order;
	int mt;		     /* gfp_migratetype */
	int highest_zoneidx; /* gfp_zone */
	int thisnode;	     /* __GFP_THISNODE: the node's NOFALLBACK list (its own zones only) */
	int preferred;	     /* index of the first eligible zoneref, -1 when there is none */
	uint32_t gfp;
	struct cpu *c; /* cpu's record (&sim_cpus(s)[cpu]): looked up once per request */
};

/* The zone of zoneref i of the context's zonelist. */
static struct zone *zoneref_zone(struct sim *s, const struct alloc_context *ac, int i)
{
	const uint8_t *ref = sim_nodes(s)[ac->nid].zonelist[i];
	return &sim_nodes(s)[ref[0]].zones[ref[1]];
}

/* Whether zoneref i may serve the request (for_next_zone_zonelist_nodemask's filter). */
static int zoneref_eligible(struct sim *s, const struct alloc_context *ac, int i)
{
	const uint8_t *ref = sim_nodes(s)[ac->nid].zonelist[i];

	if (ref[1] > ac->highest_zoneidx)
		return 0;
	return !ac->thisnode || ref[0] == ac->nid;
}

/* first_zones_zonelist: the first eligible zoneref, or -1. */
static int first_zoneref(struct sim *s, const struct alloc_context *ac)
{
	for (int i = 0; i < sim_nodes(s)[ac->nid].zonelist_len; i++)
		if (zoneref_eligible(s, ac, i))
			return i;
	return -1;
}

/* The zone events about the whole request name: the preferred zone, else the highest allowed one. */
static struct zone *request_zone(struct sim *s, const struct alloc_context *ac)
{
	if (ac->preferred >= 0)
		return zoneref_zone(s, ac, ac->preferred);
	return &sim_nodes(s)[ac->nid].zones[ac->highest_zoneidx];
}

int pgdat_balanced(struct sim *s, int nid, int order, int highest_zoneidx)
{
	int managed = 0;

	for (int zid = 0; zid <= highest_zoneidx; zid++) {
		struct zone *z = &sim_nodes(s)[nid].zones[zid];

		if (!zone_populated(z))
			continue;
		managed = 1;
		/* zone_watermark_ok_safe: no reserve rights, no event (kswapd's own check) */
		if (zone_watermark_ok(s, z, order, wmark_pages(z, WMARK_HIGH), highest_zoneidx, 0,
				      WMARK_CHECK_OTHER, -1))
			return 1;
	}
	return !managed;
}

/* pgdat_watermark_boosted: a managed zone up to highest_zoneidx carries a boost. */
static int pgdat_watermark_boosted(const struct sim *s, int nid, int highest_zoneidx)
{
	for (int zid = highest_zoneidx; zid >= 0; zid--) {
		const struct zone *z = &sim_nodes(s)[nid].zones[zid];
		if (zone_populated(z) && z->watermark_boost)
			return 1;
	}
	return 0;
}

/* wakeup_kswapd: record what kswapd must balance for, and wake it if it sleeps and has work. */
static void wakeup_kswapd(struct sim *s, struct zone *z, uint32_t gfp, int order,
			  int highest_zoneidx, int cpu)
{
	struct node *n = &sim_nodes(s)[zone_to_nid(z)];
	int nid = zone_to_nid(z);

	if (!zone_populated(z))
		return;
	/* kswapd balances for the largest request seen since it last slept */
	if (n->kswapd_highest_zoneidx >= MAX_NR_ZONES ||
	    n->kswapd_highest_zoneidx < highest_zoneidx)
		n->kswapd_highest_zoneidx = (uint8_t)highest_zoneidx;
	if (n->kswapd_order < order)
		n->kswapd_order = (uint8_t)order;
	if (n->kswapd_awake)
		return;
	/*
	 * A hopeless node (kswapd failed 16 times) is left to direct reclaim; a balanced, unboosted
	 * one needs no reclaim (the kernel would wake kcompactd for a fragmented one; not modelled).
	 */
	if (wmark_node_unreclaimable(n) || (pgdat_balanced(s, nid, order, highest_zoneidx) &&
					    !pgdat_watermark_boosted(s, nid, highest_zoneidx)))
		return;
	n->kswapd_awake = 1;
	s->nr_awake_workers++;
	n->kswapd_wakeups++;
	s->ev.kswapd_wakeups++;
	ev_emit(s, EV_KSWAPD_WAKE, FN_WAKEUP_KSWAPD, cpu, &n->zones[highest_zoneidx], 0, order, 0,
		(int32_t)gfp, n->kswapd_order, 0);
}

/* wake_all_kswapds: wakeup_kswapd once per node of the eligible zonelist. */
static void wake_all_kswapds(struct sim *s, const struct alloc_context *ac)
{
	int last_nid = -1;

	for (int i = 0; i < sim_nodes(s)[ac->nid].zonelist_len; i++) {
		struct zone *z;

		if (!zoneref_eligible(s, ac, i))
			continue;
		z = zoneref_zone(s, ac, i);
		if (!zone_populated(z) || zone_to_nid(z) == last_nid)
			continue;
		wakeup_kswapd(s, z, ac->gfp, ac->order, ac->highest_zoneidx, ac->cpu);
		last_nid = zone_to_nid(z);
	}
}

/* zone_statistics: NUMA hit/miss against the preferred zone, local/other against the CPU's node. */
static void zone_statistics(struct zone *preferred, struct zone *z, const struct cpu *c)
{
	if (zone_to_nid(z) == zone_to_nid(preferred)) {
		z->numa_hit++;
	} else {
		z->numa_miss++;
		preferred->numa_foreign++;
	}
	if (zone_to_nid(z) == c->node)
		z->numa_local++;
	else
		z->numa_other++;
}

/*
 * The end of rmqueue: a fallback boosted this zone's watermarks, so now that the lock is dropped
 * get kswapd going. 6.0+ asks for ALLOC_KSWAPD; 5.x woke it for any request.
 */
static void wake_boosted_kswapd(struct sim *s, struct zone *z, unsigned alloc_flags, int cpu)
{
	/* the zone's flag first: it is rarely set, so most allocations stop at one test */
	if (!(z->flags & ZONE_BOOSTED_WATERMARK) ||
	    (s->profile.boosted_wake_needs_kswapd_flag && !(alloc_flags & ALLOC_KSWAPD)))
		return;
	z->flags &= ~(uint32_t)ZONE_BOOSTED_WATERMARK;
	wakeup_kswapd(s, z, 0, 0, zone_idx(z), cpu);
}

/*
 * rmqueue: the CPU's list for pcp orders, else (or, 6.0+, when that is empty) the buddy under
 * zone->lock. c is cpu's record.
 */
static FAST_PATH uint32_t rmqueue(struct sim *s, struct zone *preferred, struct zone *z, int order,
				  unsigned alloc_flags, int mt, int cpu, struct cpu *c)
{
	uint32_t pfn = PFN_NONE;
	int pcp_path = pcp_allowed_order(s, order), buddy_tried = 0;

	if (pcp_path) {
		/* rmqueue_pcplist: pcp_spin_trylock (6.0+) or local_lock_irqsave */
		uint8_t ctx = pcp_lock_cpu_ctx(s, c, 1);
		pfn = pcp_rmqueue(s, z, cpu, c, order, mt, alloc_flags);
		c->trace_ctx = ctx;
	}
	/* before 6.0 a pcp-order request that could not refill failed right there */
	if (pfn == PFN_NONE && !s->frozen && (!pcp_path || s->profile.buddy_after_pcp_miss)) {
		zone_lock(s, z, cpu);
		pfn = rmqueue_buddy(s, z, order, mt, alloc_flags, cpu);
		zone_unlock(s, z, cpu, pfn != PFN_NONE, pfn != PFN_NONE ? 1 << order : 0);
		buddy_tried = 1;
	}
	if (s->frozen)
		return PFN_NONE;
	if (pfn == PFN_NONE) {
		/*
		 * 6.0+ reaches the wake after any failure; 5.x jumped past it when the buddy had
		 * nothing, but a failed pcp refill still went through it
		 */
		if (!buddy_tried || s->profile.boosted_wake_after_failure)
			wake_boosted_kswapd(s, z, alloc_flags, cpu);
		return PFN_NONE;
	}
	/* PGALLOC counts pages, per zone type; the NUMA counters count allocations */
	z->pgalloc += 1u << order;
	s->ev.pgalloc[zone_idx(z)] += 1u << order;
	zone_statistics(preferred, z, c);
	wake_boosted_kswapd(s, z, alloc_flags, cpu);
	return pfn;
}

/* prep_new_page: the block now belongs to the caller; it remembers the request's migratetype. */
static void prep_new_page(struct sim *s, struct zone *z, uint32_t pfn, int order, int mt, int cpu)
{
	struct page *page = zone_page(s, z, pfn);

	frame_changed(s, pfn);
	page->state = PG_ALLOCATED;
	page->order = (uint8_t)order;
	page->list = (uint8_t)mt; /* a fallback claim counts MOVABLE blocks as movable */
	page->cpu = (uint16_t)cpu;
	page->next = page->prev = PFN_NONE;
}

/* EV_ZONE_FALLBACK: the walk leaves zone z (or restarts) for reason. */
static void emit_fallback(struct sim *s, const struct alloc_context *ac, struct zone *z, int reason,
			  unsigned flags)
{
	ev_emit(s, EV_ZONE_FALLBACK, FN_GET_PAGE_FROM_FREELIST, ac->cpu, z, 0, ac->order, ac->mt,
		reason, (int32_t)flags, 0);
}

/* zone_allows_reclaim: whether node reclaim may run on z's node for this preferred zone (by distance). */
static int zone_allows_reclaim(const struct sim *s, const struct zone *preferred,
			       const struct zone *z)
{
	int d = sim_nodes(s)[zone_to_nid(preferred)].distance[zone_to_nid(z)];

	switch (s->profile.node_reclaim_distance_rule) {
	case 0:
		return 1; /* 3.0, 3.1: any zone of the zonelist */
	case 1:
		return d < RECLAIM_DISTANCE;
	default:
		return d <=
		       RECLAIM_DISTANCE; /* node_reclaim_distance, RECLAIM_DISTANCE by default */
	}
}

/* EV_ZLC_SKIP: the zonelist cache passes slot i (zlc_zone_worth_trying said no for why). */
static void emit_zlc_skip(struct sim *s, const struct alloc_context *ac, struct zone *z, int i,
			  int why)
{
	s->ev.zlc_skips++;
	ev_emit(s, EV_ZLC_SKIP, FN_ZLC_ZONE_WORTH_TRYING, ac->cpu, z, 0, ac->order, 0, i, why,
		zlc_zap_in(s, ac->nid, ac->cpu));
}

/*
 * Whether this walk has a zonelist cache: only the full fallback zonelist has one (zlcache_ptr),
 * not __GFP_THISNODE's. Asked only once a zone has failed, so a walk that succeeds at once does
 * not read the switch.
 */
static inline int zlc_cache(const struct sim *s, const struct alloc_context *ac)
{
	return s->profile.zlc && !ac->thisnode;
}

/*
 * get_page_from_freelist: walk the zonelist from the preferred zone; PFN_NONE if no zone gives a
 * block. With a zonelist cache (zlc.c, <= 4.3) the walk skips slots marked full once it has set
 * the cache up: 3.0 sets it up after the first zone was tried, 3.1 when the first zone fails its
 * watermark, before zone_reclaim (cd38b115d5ad), so a preferred zone that failed zone_reclaim a
 * moment ago is not scanned again for up to a second. A walk that finds nothing while the cache
 * was active walks again with the cache off.
 */
static FAST_PATH uint32_t get_page_from_freelist(struct sim *s, const struct alloc_context *ac,
						 unsigned alloc_flags, struct zone **zone_out)
{
	struct zone *preferred;
	int multi_node = s->config.nr_nodes > 1;
	int skip_kswapd_nodes = multi_node && s->profile.skip_kswapd_nodes;
	int skipped_kswapd_nodes = 0;
	int below_high_check = s->profile.pcp_high_rule == PCP_HIGH_AUTOTUNE;
	int zlc_active = 0, did_zlc_setup = 0, zlc_skipped = 0, why;
	uint64_t allowednodes = 0;

	if (ac->preferred < 0)
		return PFN_NONE;
	preferred = zoneref_zone(s, ac, ac->preferred);
	for (int pass = 0; pass < MAX_WALK_PASSES && !s->frozen; pass++) {
		unsigned no_fallback = alloc_flags & ALLOC_NOFRAGMENT;
		int restart = 0;

		for (int i = ac->preferred; i < sim_nodes(s)[ac->nid].zonelist_len; i++) {
			struct zone *z;
			int64_t mark;
			uint32_t pfn;
			int ret;

			if (!zoneref_eligible(s, ac, i))
				continue;
			z = zoneref_zone(s, ac, i);
			if (zlc_active &&
			    !zlc_zone_worth_trying(s, ac->nid, i, allowednodes, &why)) {
				emit_zlc_skip(s, ac, z, i, why);
				zlc_skipped++;
				continue;
			}
			/* locality beats fragmentation avoidance: never go remote just to avoid a fallback */
			if (no_fallback && multi_node && z != preferred &&
			    zone_to_nid(z) != zone_to_nid(preferred)) {
				alloc_flags &= ~(unsigned)ALLOC_NOFRAGMENT;
				emit_fallback(s, ac, z, ZF_NOFRAG_REMOTE, alloc_flags);
				restart = 1;
				break;
			}
			/* 6.18: a node whose kswapd is running is under pressure; prefer idle nodes first */
			if (skip_kswapd_nodes && sim_nodes(s)[zone_to_nid(z)].kswapd_awake) {
				skipped_kswapd_nodes = 1;
				emit_fallback(s, ac, z, ZF_KSWAPD_ACTIVE, alloc_flags);
				continue;
			}
			/* 6.7+: passing HIGH is enough; failing it tells the pcp free path to shrink */
			if (below_high_check && !(z->flags & ZONE_BELOW_HIGH)) {
				if (zone_watermark_fast(s, z, ac->order, wmark_pages(z, WMARK_HIGH),
							ac->highest_zoneidx, alloc_flags,
							WMARK_CHECK_BELOW_HIGH, ac->cpu))
					goto try_this_zone;
				z->flags |= ZONE_BELOW_HIGH;
			}
			mark = wmark_pages(z, (int)(alloc_flags & ALLOC_WMARK_MASK));
			if (zone_watermark_fast(
				    s, z, ac->order, mark, ac->highest_zoneidx, alloc_flags,
				    (enum wmark_check)(alloc_flags & ALLOC_WMARK_MASK), ac->cpu) ||
			    (alloc_flags & ALLOC_NO_WATERMARKS))
				goto try_this_zone;
			/* 3.1: set the cache up before the first zone_reclaim, to see if it failed recently */
			if (zlc_cache(s, ac) && s->profile.zlc_setup_before_first_reclaim &&
			    !did_zlc_setup && multi_node) {
				allowednodes = zlc_setup(s, ac->nid, ac->cpu);
				zlc_active = did_zlc_setup = 1;
			}
			if (!s->config.zone_reclaim_mode || !zone_allows_reclaim(s, preferred, z)) {
				/* no node reclaim to try here: move on (the ZLC remembers the zone as full) */
				emit_fallback(s, ac, z, ZF_WMARK, alloc_flags);
				if (zlc_cache(s, ac))
					zlc_mark_zone_full(s, ac->nid, i, ZLC_FULL_NO_RECLAIM,
							   ac->cpu, ac->order);
				goto try_next_zone;
			}
			if (zlc_cache(s, ac) && s->profile.zlc_setup_before_first_reclaim &&
			    zlc_active &&
			    !zlc_zone_worth_trying(s, ac->nid, i, allowednodes, &why)) {
				/* it failed zone_reclaim within the last second: do not scan it again */
				emit_zlc_skip(s, ac, z, i, why);
				zlc_skipped++;
				continue;
			}
			ret = page_alloc_reclaim->node_reclaim(s, ac->cpu, z, ac->gfp, ac->order);
			if (s->frozen)
				return PFN_NONE;
			if (ret == NODE_RECLAIM_NOSCAN) {
				emit_fallback(s, ac, z, ZF_RECLAIM_NOSCAN, alloc_flags);
				/* 3.0 went on to try_next_zone (and its ZLC setup); 3.1 just continues */
				if (s->profile.zlc_setup_before_first_reclaim)
					continue;
				goto try_next_zone;
			}
			if (ret == NODE_RECLAIM_FULL) {
				emit_fallback(s, ac, z, ZF_RECLAIM_FULL, alloc_flags);
				/* 3.0 marked such a zone full; 3.1 does not: reclaim elsewhere may still work */
				if (!zlc_cache(s, ac) || s->profile.zone_reclaim_full_does_not_mark)
					continue;
				zlc_mark_zone_full(s, ac->nid, i, ZLC_FULL_RECLAIM_FULL, ac->cpu,
						   ac->order);
				goto try_next_zone;
			}
			/* SOME or SUCCESS: did it reclaim enough? */
			if (zone_watermark_ok(
				    s, z, ac->order, mark, ac->highest_zoneidx, alloc_flags,
				    (enum wmark_check)(alloc_flags & ALLOC_WMARK_MASK), ac->cpu))
				goto try_this_zone;
			emit_fallback(s, ac, z, ZF_RECLAIM_SHORT, alloc_flags);
			if (zlc_cache(s, ac))
				zlc_mark_zone_full(s, ac->nid, i, ZLC_FULL_STILL_BELOW, ac->cpu,
						   ac->order);
			goto try_next_zone;
try_this_zone:
			pfn = rmqueue(s, preferred, z, ac->order, alloc_flags, ac->mt, ac->cpu,
				      ac->c);
			if (s->frozen)
				return PFN_NONE;
			if (pfn != PFN_NONE) {
				prep_new_page(s, z, pfn, ac->order, ac->mt, ac->cpu);
				/* a high-order atomic request that succeeded may reserve its pageblock */
				if (alloc_flags & ALLOC_HIGHATOMIC)
					highatomic_reserve_pageblock(s, z, pfn, ac->order, ac->cpu);
				*zone_out = z;
				return pfn;
			}
			emit_fallback(s, ac, z, ZF_RMQUEUE, alloc_flags);
			if (zlc_cache(s, ac))
				zlc_mark_zone_full(s, ac->nid, i, ZLC_FULL_RMQUEUE, ac->cpu,
						   ac->order);
try_next_zone:
			/* 3.0: the cache is set up only once the first zone was tried */
			if (zlc_cache(s, ac) && !s->profile.zlc_setup_before_first_reclaim &&
			    !did_zlc_setup && multi_node) {
				allowednodes = zlc_setup(s, ac->nid, ac->cpu);
				zlc_active = did_zlc_setup = 1;
			}
		}
		if (restart)
			continue;
		if (zlc_active) {
			/* the cache may be stale: walk again looking at every zone */
			zlc_active = 0;
			ev_emit(s, EV_ZLC_RESCAN, FN_GET_PAGE_FROM_FREELIST, ac->cpu, preferred, 0,
				ac->order, 0, zlc_skipped, 0, 0);
			continue;
		}
		if (skip_kswapd_nodes && skipped_kswapd_nodes) {
			/* no idle node had memory: place it anywhere the watermarks permit */
			skip_kswapd_nodes = 0;
			emit_fallback(s, ac, preferred, ZF_KSWAPD_RETRY, alloc_flags);
			continue;
		}
		if (no_fallback) {
			/* every zone would have needed a fallback: fragmenting is better than failing */
			alloc_flags &= ~(unsigned)ALLOC_NOFRAGMENT;
			emit_fallback(s, ac, preferred, ZF_NOFRAG_RETRY, alloc_flags);
			continue;
		}
		break;
	}
	return PFN_NONE;
}

/* __gfp_pfmemalloc_flags: reserve access granted by the gfp flags alone (task flags are not modelled). */
static unsigned gfp_pfmemalloc_flags(uint32_t gfp)
{
	if (gfp & __GFP_NOMEMALLOC)
		return 0;
	if (gfp & __GFP_MEMALLOC)
		return ALLOC_NO_WATERMARKS;
	return 0;
}

/*
 * should_reclaim_retry: retry after direct reclaim while some zone could pass MIN for this order
 * if everything reclaimable in it were freed. Progress on an order <= 3 request resets the count
 * of fruitless tries; after MAX_RECLAIM_RETRIES of them the last high-order atomic pageblocks are
 * given back (even the last one) before the request goes on to the OOM decision.
 */
static int should_reclaim_retry(struct sim *s, const struct alloc_context *ac, unsigned alloc_flags,
				uint64_t progress, int *no_progress_loops)
{
	int retry = 0;

	if (progress && ac->order <= PAGE_ALLOC_COSTLY_ORDER)
		*no_progress_loops = 0;
	else
		(*no_progress_loops)++;
	if (*no_progress_loops > MAX_RECLAIM_RETRIES) {
		/* 4.9 gives up here without the forced unreserve (unreserve_before_oom) */
		retry = s->profile.unreserve_before_oom &&
			highatomic_unreserve_pageblock(s, ac->nid, ac->highest_zoneidx, ac->mt, 1,
						       ac->cpu);
	} else {
		for (int i = 0; i < sim_nodes(s)[ac->nid].zonelist_len && !retry; i++) {
			struct zone *z;
			int64_t available;

			if (!zoneref_eligible(s, ac, i))
				continue;
			z = zoneref_zone(s, ac, i);
			if (!zone_populated(z))
				continue;
			available =
				page_alloc_reclaim->zone_reclaimable_pages(s, z) + z->nr_free_pages;
			retry = zone_watermark_ok_free(s, z, ac->order, wmark_pages(z, WMARK_MIN),
						       ac->highest_zoneidx, alloc_flags, available);
		}
	}
	ev_emit(s, EV_RECLAIM_RETRY, FN_SHOULD_RECLAIM_RETRY, ac->cpu, request_zone(s, ac), 0,
		ac->order, 0, retry, *no_progress_loops, (int32_t)progress);
	return retry;
}

/*
 * __alloc_pages_may_oom and out_of_memory's first checks: what the kernel does when reclaim
 * cannot help. The OOM killer is not invoked for costly orders, __GFP_RETRY_MAYFAIL or
 * __GFP_THISNODE, or requests limited to the low zones; a request without __GFP_FS gets no kill
 * but counts as progress (the OOM killer does not make up for reclaim that could not do IO);
 * otherwise the task with the highest badness would be killed. The model has no tasks: it
 * reports the decision (EV_OOM) and the request fails.
 */
static void may_oom(struct sim *s, const struct alloc_context *ac)
{
	int decision;
	int64_t anon = 0;

	if (ac->order > PAGE_ALLOC_COSTLY_ORDER)
		decision = OOM_SKIP_COSTLY;
	else if (ac->gfp & (__GFP_RETRY_MAYFAIL | __GFP_THISNODE))
		decision = OOM_SKIP_MAYFAIL;
	else if (ac->highest_zoneidx < ZONE_NORMAL)
		decision = OOM_SKIP_LOWMEM;
	else if (!(ac->gfp & __GFP_FS))
		decision = OOM_NOFS_RETRY;
	else
		decision = OOM_KILL;
	if (decision == OOM_KILL)
		s->ev.oom_kill++;
	for (int nid = 0; nid < s->config.nr_nodes; nid++)
		anon += sim_nodes(s)[nid].lruvec.nr_anon;
	ev_emit(s, EV_OOM,
		decision == OOM_NOFS_RETRY || decision == OOM_KILL ? FN_OUT_OF_MEMORY :
								     FN___ALLOC_PAGES_MAY_OOM,
		ac->cpu, request_zone(s, ac), 0, ac->order, ac->mt, decision, (int32_t)ac->gfp,
		(int32_t)anon);
}

/* get_page_from_freelist for the slow path's retries: one shared copy (base/fast_path.h). */
static OUT_OF_LINE uint32_t get_page_from_freelist_retry(struct sim *s,
							 const struct alloc_context *ac,
							 unsigned alloc_flags,
							 struct zone **zone_out)
{
	return get_page_from_freelist(s, ac, alloc_flags, zone_out);
}

/* __alloc_pages_direct_reclaim: reclaim, then try; failing that, drain the pcp lists and try again. */
static uint32_t alloc_direct_reclaim(struct sim *s, struct alloc_context *ac, unsigned alloc_flags,
				     struct zone **zone_out, uint64_t *progress)
{
	uint32_t pfn;

	*progress = page_alloc_reclaim->try_to_free_pages(s, ac->cpu, ac->gfp, ac->order, ac->nid,
							  ac->highest_zoneidx);
	if (!*progress || s->frozen)
		return PFN_NONE;
	/* 3.1: reclaim made progress, so zones marked full may have room now */
	if (s->profile.zlc && s->profile.zlc_clear_after_direct_reclaim && !ac->thisnode)
		zlc_clear_zones_full(s, ac->nid, ac->cpu, ac->order);
	pfn = get_page_from_freelist_retry(s, ac, alloc_flags, zone_out);
	if (pfn != PFN_NONE || s->frozen)
		return pfn;
	/* pages pinned on per-CPU lists or in the atomic reserve: give them back, once */
	highatomic_unreserve_pageblock(s, ac->nid, ac->highest_zoneidx, ac->mt, 0, ac->cpu);
	pcp_drain_all(s, ac->cpu);
	return get_page_from_freelist_retry(s, ac, alloc_flags, zone_out);
}

/* __alloc_pages_slowpath (without compaction, cpusets or the OOM killer's kill). */
static uint32_t alloc_slowpath(struct sim *s, struct alloc_context *ac, struct zone **zone_out)
{
	uint32_t gfp = ac->gfp, pfn;
	int can_direct_reclaim = (gfp & __GFP_DIRECT_RECLAIM) != 0;
	int costly = ac->order > PAGE_ALLOC_COSTLY_ORDER;
	unsigned alloc_flags = gfp_to_alloc_flags(s, gfp, ac->order);
	unsigned reserve_flags;
	int no_progress_loops = 0;
	uint64_t progress = 0;

	ac->preferred = first_zoneref(s, ac);
	if (ac->preferred < 0)
		goto nopage;
	/* kswapd starts reclaiming in the background before this request digs into the reserves */
	if (alloc_flags & ALLOC_KSWAPD)
		wake_all_kswapds(s, ac);
	/* MIN watermark now, with the reserves the flags grant */
	pfn = get_page_from_freelist_retry(s, ac, alloc_flags, zone_out);
	if (pfn != PFN_NONE || s->frozen)
		return pfn;
	/* (direct compaction for costly or unmovable high orders would run here: not modelled) */

	for (int tries = 0; tries < MAX_SLOWPATH_RETRIES; tries++) {
		/* retry: kswapd may have gone back to sleep in the meantime */
		if (alloc_flags & ALLOC_KSWAPD)
			wake_all_kswapds(s, ac);
		/* __GFP_MEMALLOC may ignore the watermarks altogether */
		reserve_flags = gfp_pfmemalloc_flags(gfp);
		if (reserve_flags)
			alloc_flags = reserve_flags | (alloc_flags & ALLOC_KSWAPD);
		pfn = get_page_from_freelist_retry(s, ac, alloc_flags, zone_out);
		if (pfn != PFN_NONE || s->frozen)
			return pfn;
		if (!can_direct_reclaim)
			goto nopage;
		pfn = alloc_direct_reclaim(s, ac, alloc_flags, zone_out, &progress);
		if (pfn != PFN_NONE || s->frozen)
			return pfn;
		/* (direct compaction at the current priority: not modelled) */
		if (gfp & __GFP_NORETRY)
			goto nopage;
		if (costly && !(gfp & __GFP_RETRY_MAYFAIL))
			goto nopage;
		if (should_reclaim_retry(s, ac, alloc_flags, progress, &no_progress_loops))
			continue;
		/* __alloc_pages_may_oom: one last try at the HIGH mark, then the OOM decision */
		pfn = get_page_from_freelist_retry(s, ac, ALLOC_WMARK_HIGH, zone_out);
		if (pfn != PFN_NONE || s->frozen)
			return pfn;
		may_oom(s, ac);
		break;
	}

nopage:
	/* warn_alloc ("page allocation failure: order:%u") unless __GFP_NOWARN; __GFP_NOFAIL fails too */
	s->ev.alloc_fail++;
	ev_emit(s, EV_ALLOC_FAIL, FN_WARN_ALLOC, ac->cpu, request_zone(s, ac), 0, ac->order, ac->mt,
		(int32_t)gfp, !(gfp & __GFP_NOWARN), 0);
	return PFN_NONE;
}

FAST_PATH uint32_t page_alloc_fast(struct sim *s, int cpu, uint32_t gfp, int order, int *zone_out)
{
	struct alloc_context ac;
	struct zone *z = NULL;
	uint32_t pfn = PFN_NONE;
	unsigned alloc_flags;

	*zone_out = -1;
	if (s->frozen || cpu < 0 || (uint32_t)cpu >= s->nr_cpus)
		return PFN_NONE;
	/* the kernel WARNs and returns NULL without a tracepoint for these */
	if (order < 0 || order > s->config.max_order || gfp_zone(gfp) < 0)
		return PFN_NONE;

	/* prepare_alloc_pages */
	ac.cpu = cpu;
	ac.c = &sim_cpus(s)[cpu];
	ac.nid = ac.c->node;
	ac.order = order;
	ac.gfp = gfp;
	ac.mt = gfp_migratetype(gfp);
	ac.highest_zoneidx = gfp_zone(gfp);
	ac.thisnode = (gfp & __GFP_THISNODE) != 0;
	ac.preferred = first_zoneref(s, &ac);

	/* first attempt: LOW watermark, no fragmenting fallbacks if DMA32 can absorb them */
	alloc_flags = gfp_fast_alloc_flags(
		s, gfp, ac.preferred >= 0 ? zoneref_zone(s, &ac, ac.preferred) : NULL);
	pfn = get_page_from_freelist(s, &ac, alloc_flags, &z);
	if (pfn == PFN_NONE && !s->frozen)
		pfn = alloc_slowpath(s, &ac, &z);
	if (s->frozen)
		return PFN_NONE;

	/* mm_page_alloc fires for failures too: pfn 0 and a NULL page */
	if (pfn == PFN_NONE) {
		ev_emit(s, EV_MM_PAGE_ALLOC, FN___ALLOC_PAGES, cpu, request_zone(s, &ac), 0, order,
			ac.mt, (int32_t)gfp, 0, 0);
		return PFN_NONE;
	}
	ev_emit_cpu(s, EV_MM_PAGE_ALLOC, FN___ALLOC_PAGES, ac.c, cpu, z, pfn, order, ac.mt,
		    (int32_t)gfp, 1, 0);
	*zone_out = zone_to_nid(z) * MAX_NR_ZONES + zone_idx(z);
	return pfn;
}

OUT_OF_LINE uint32_t page_alloc(struct sim *s, int cpu, uint32_t gfp, int order, int *zone_out)
{
	return page_alloc_fast(s, cpu, gfp, order, zone_out);
}

/*
 * free_pages_prepare's part of a free: the mm_page_free tracepoint, and PGFREE, which counts every
 * page once, where it leaves its owner (pages a pcp drain later returns are not counted again).
 * Returns pfn's frame, for the pcp list the block goes to next. c is cpu's record.
 */
static FAST_PATH struct page *free_prepare_cpu(struct sim *s, int cpu, const struct cpu *c,
					       struct zone *z, uint32_t pfn, int order)
{
	struct page *page;

	ev_emit_cpu(s, EV_MM_PAGE_FREE, FN_FREE_PAGES_PREPARE, c, cpu, z, pfn, order, 0, 0, 0, 0);
	/*
	 * PGFREE counts every page once, where it leaves its owner: free_frozen_page_commit (pcp)
	 * or free_one_page (buddy). Pages a pcp drain later returns to the buddy are not counted.
	 */
	s->ev.pgfree += 1u << order;
	/* the last reference to an LRU block: off its list first (__folio_put -> lruvec_del_folio) */
	page = zone_page(s, z, pfn);
	if (page->lru_flags & PGL_LRU)
		page_alloc_reclaim->release(s, z, pfn);
	/* (the release unlinks the LRU list, moving no frame: page stays pfn's frame) */
	return page;
}

/* free_prepare_cpu looking cpu's record up. */
static FAST_PATH struct page *free_prepare(struct sim *s, int cpu, struct zone *z, uint32_t pfn,
					   int order)
{
	return free_prepare_cpu(s, cpu, &sim_cpus(s)[cpu], z, pfn, order);
}

/* free_one_page for a block a batch sends straight to the buddy. */
static FAST_PATH void free_to_buddy(struct sim *s, int cpu, struct zone *z, uint32_t pfn, int order)
{
	zone_lock(s, z, cpu);
	buddy_free_pages_to_buddy(s, z, pfn, order, cpu, FN_FREE_ONE_PAGE);
	zone_unlock(s, z, cpu, 1, 1 << order);
}

FAST_PATH void page_free_fast(struct sim *s, int cpu, struct zone *z, uint32_t pfn, int order)
{
	struct cpu *c = &sim_cpus(s)[cpu];
	struct page *page;

	if (s->frozen)
		return;
	/* free_pages_prepare: the tracepoint fires before the block reaches a pcp list or the buddy */
	page = free_prepare_cpu(s, cpu, c, z, pfn, order);
	if (pcp_allowed_order(s, order)) {
		/* free_frozen_pages: pcp_spin_trylock (6.0+) or local_lock_irqsave around the commit */
		uint8_t ctx = pcp_lock_cpu_ctx(s, c, 1);
		pcp_free_page(s, z, cpu, c, pfn, page, order);
		c->trace_ctx = ctx;
		return;
	}
	/* __free_pages_ok -> free_one_page: straight to the buddy under zone->lock */
	free_to_buddy(s, cpu, z, pfn, order);
}

OUT_OF_LINE void page_free(struct sim *s, int cpu, struct zone *z, uint32_t pfn, int order)
{
	page_free_fast(s, cpu, z, pfn, order);
}

uint32_t page_alloc_owned(struct sim *s, int cpu, uint32_t gfp, int *zone_out)
{
	uint32_t pfn = page_alloc(s, cpu, gfp, 0, zone_out);

	/* an order-0 allocation split its max-order block, so its frame is in a slab (writable) */
	if (pfn != PFN_NONE)
		frame_at(s, pfn)->flags |= PAGEF_OWNED;
	return pfn;
}

void page_free_owned(struct sim *s, int cpu, uint32_t pfn)
{
	int zi = pfn_to_zone_index(s, pfn);
	struct page *page;

	if (zi < 0)
		return;
	page = frame_at(s, pfn);
	/* only the owner's own page: a page it does not hold is a corrupted state, left to the checker */
	if (page->state != PG_ALLOCATED || page->order != 0 || !(page->flags & PAGEF_OWNED))
		return;
	page->flags &= (uint8_t)~PAGEF_OWNED;
	page_free(s, cpu, sim_zone(s, zi / MAX_NR_ZONES, zi % MAX_NR_ZONES), pfn, 0);
}

void page_free_pcp_locked(struct sim *s, int cpu, struct zone *z, uint32_t pfn, int order)
{
	/*
	 * 6.0+ free_frozen_pages only trylocks the pcp: held by the task the interrupt stopped, it
	 * fails and the block goes to free_one_page. Before 6.0 the pcp lock kept interrupts off, so
	 * the interrupt, and its free, came after the task let go: an ordinary free.
	 */
	if (s->frozen || !s->profile.pcp_lock_preempt || !pcp_allowed_order(s, order)) {
		page_free(s, cpu, z, pfn, order);
		return;
	}
	free_prepare(s, cpu, z, pfn, order);
	free_to_buddy(s, cpu, z, pfn, order);
}

/*
 * The commit loop of free_unref_folios / free_unref_page_list: under the pcp lock, each block
 * traces mm_page_free_batched and goes to its per-CPU list (an isolated pageblock's block goes
 * to the buddy untraced). fn names the kernel function.
 */
static void batch_commit(struct sim *s, int cpu, const struct page_batch *batch,
			 const uint8_t *keep, int fn)
{
	uint8_t ctx = pcp_lock_ctx(s, cpu, 1);

	for (uint32_t i = 0; i < batch->nr && !s->frozen; i++) {
		if (!keep[i])
			continue;
		if (get_pageblock_migratetype(s, batch->zone[i], batch->pfn[i]) ==
		    MIGRATE_ISOLATE) {
			free_to_buddy(s, cpu, batch->zone[i], batch->pfn[i], batch->order[i]);
			continue;
		}
		ev_emit(s, EV_MM_PAGE_FREE_BATCHED, fn, cpu, batch->zone[i], batch->pfn[i],
			batch->order[i], 0, 0, 0, 0);
		pcp_free(s, batch->zone[i], cpu, batch->pfn[i], batch->order[i]);
	}
	pcp_unlock_ctx(s, cpu, ctx);
}

void page_free_batch(struct sim *s, int cpu, const struct page_batch *batch)
{
	uint8_t keep[FOLIO_BATCH_SIZE];

	if (s->frozen || batch->nr > FOLIO_BATCH_SIZE)
		return;
	if (s->profile.free_batch_rule == 2) {
		/*
		 * 6.10+ free_unref_folios: free_pages_prepare for every folio first; orders the pcp
		 * does not hold go to the buddy there; then the rest, traced, onto the pcp lists
		 */
		for (uint32_t i = 0; i < batch->nr; i++) {
			free_prepare(s, cpu, batch->zone[i], batch->pfn[i], batch->order[i]);
			keep[i] = (uint8_t)pcp_allowed_order(s, batch->order[i]);
			if (!keep[i])
				free_to_buddy(s, cpu, batch->zone[i], batch->pfn[i],
					      batch->order[i]);
		}
		batch_commit(s, cpu, batch, keep, FN_FREE_UNREF_FOLIOS);
		return;
	}
	/*
	 * Before 6.10 release_pages put compound pages itself, one by one, and passed only order-0
	 * pages on as a list
	 */
	for (uint32_t i = 0; i < batch->nr; i++) {
		keep[i] = batch->order[i] == 0;
		if (!keep[i])
			page_free(s, cpu, batch->zone[i], batch->pfn[i], batch->order[i]);
	}
	if (s->profile.free_batch_rule == 1) {
		/* free_unref_page_list: prepare every page, then trace and commit each */
		for (uint32_t i = 0; i < batch->nr; i++)
			if (keep[i])
				free_prepare(s, cpu, batch->zone[i], batch->pfn[i], 0);
		batch_commit(s, cpu, batch, keep, FN_FREE_UNREF_PAGE_LIST);
		return;
	}
	/* 4.9 free_hot_cold_page_list: the trace, then each page's own free_hot_cold_page */
	for (uint32_t i = 0; i < batch->nr && !s->frozen; i++) {
		if (!keep[i])
			continue;
		ev_emit(s, EV_MM_PAGE_FREE_BATCHED, FN_FREE_HOT_COLD_PAGE_LIST, cpu, batch->zone[i],
			batch->pfn[i], 0, 0, 0, 0, 0);
		page_free(s, cpu, batch->zone[i], batch->pfn[i], 0);
	}
}
