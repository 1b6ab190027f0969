/*
 * kswapd.c: balance_pgdat, a few rounds at a time (kswapd.h says how many).
 *
 * Woken by the allocator (wakeup_kswapd, page_alloc.c) for an order and a highest zone, kswapd
 * marks its zones ZONE_RECLAIM_ACTIVE, which caps every CPU's per-CPU lists of those zones at
 * min(batch * 4, high) on free (nr_pcp_high), so pages it frees reach the buddy lists instead of
 * waiting on a CPU. Then, from priority DEF_PRIORITY (12), each round: stop if some eligible
 * zone passes its HIGH watermark (pgdat_balanced); age the anonymous active list if the
 * inactive one is low; shrink the node aiming at the sum of the zones' high marks
 * (kswapd_shrink_node); and lower the priority (scan twice as much) unless that round scanned
 * at least its target and reclaimed something. After priority 1, or balanced, it clears the
 * flags, counts a failure if it reclaimed nothing at all (16 make the node hopeless), and sleeps
 * if the node is balanced or hopeless; otherwise it starts over.
 *
 * A watermark boost (a fallback's fragmentation event) is reclaimed first without swapping; if
 * the node is unbalanced anyway, it restarts as ordinary reclaim.
 */
#include "reclaim/kswapd.h"

#include "base/event.h"
#include "base/state.h"
#include "page_alloc/page_alloc.h"
#include "page_alloc/watermark.h"
#include "reclaim/lru.h"
#include "reclaim/memcg.h"
#include "reclaim/vmscan.h"
#include "reclaim/vocab.h"

/* The zone events about kswapd name: the highest zone it balances. */
static struct zone *kswapd_zone(struct sim *s, int nid)
{
	return &sim_nodes(s)[nid].zones[sim_nodes(s)[nid].kswapd.highest_zoneidx];
}

/* What one round of kswapd aims to reclaim: each managed zone's high mark, at least 32 pages. */
static int64_t high_marks(const struct sim *s, int nid, int highest_zoneidx)
{
	int64_t sum = 0;

	for (int zid = 0; zid <= highest_zoneidx; zid++) {
		const struct zone *z = &sim_nodes(s)[nid].zones[zid];
		int64_t high = wmark_pages(z, WMARK_HIGH);
		if (zone_populated(z))
			sum += high > SWAP_CLUSTER_MAX ? high : SWAP_CLUSTER_MAX;
	}
	return sum;
}

/* set_reclaim_active / clear_reclaim_active: flag the populated zones kswapd balances. */
static void set_reclaim_active(struct sim *s, int nid, int highest_zoneidx, int on)
{
	for (int zid = 0; zid <= highest_zoneidx; zid++) {
		struct zone *z = &sim_nodes(s)[nid].zones[zid];
		if (!zone_populated(z))
			continue;
		if (on)
			z->flags |= ZONE_RECLAIM_ACTIVE;
		else
			z->flags &= ~(uint32_t)ZONE_RECLAIM_ACTIVE;
	}
}

/* kswapd() after a wake: take the order and zone asked for, and begin balance_pgdat. */
static void balance_begin(struct sim *s, int nid)
{
	struct node *n = &sim_nodes(s)[nid];
	struct kswapd *k = &n->kswapd;
	int highest = n->kswapd_highest_zoneidx;

	if (k->napping) {
		/* woken in the nap (wakeup_kswapd counted it again): the nap's count goes; the
		 * kernel keeps the order the last run ended at if nothing larger was asked */
		k->napping = 0;
		s->nr_awake_workers--;
		if (n->kswapd_order < k->order)
			n->kswapd_order = k->order;
	}

	/* kswapd_highest_zoneidx: nothing asked since the last run keeps the previous zone */
	if (highest >= MAX_NR_ZONES)
		highest = k->running || k->rounds ? k->highest_zoneidx : MAX_NR_ZONES - 1;
	k->order = n->kswapd_order;
	k->highest_zoneidx = (uint8_t)highest;
	n->kswapd_order = 0;
	n->kswapd_highest_zoneidx = MAX_NR_ZONES;
	s->ev.pageoutrun++;
	k->nr_boost_reclaim = 0;
	for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
		const struct zone *z = &n->zones[zid];
		k->zone_boosts[zid] = zid <= highest && zone_populated(z) ? z->watermark_boost : 0;
		k->nr_boost_reclaim += k->zone_boosts[zid];
	}
	k->boosted = k->nr_boost_reclaim != 0;
	k->nr_reclaimed = 0;
	k->nr_scanned = 0;
	k->nr_to_reclaim = high_marks(s, nid, highest);
	k->priority = DEF_PRIORITY;
	k->running = 1;
	k->run_begin_us = k->clock_us;
	k->run_cost_ns = 0;
	set_reclaim_active(s, nid, highest, 1);
	ev_emit(s, EV_VMSCAN_KSWAPD_WAKE, FN_KSWAPD, kswapd_cpu(s, nid), kswapd_zone(s, nid), 0,
		k->order, 0, (int32_t)k->nr_to_reclaim, (int32_t)k->nr_boost_reclaim, 0);
}

/* prepare_kswapd_sleep: kswapd may sleep when the node is hopeless or balanced for its request. */
static int prepare_kswapd_sleep(struct sim *s, int nid)
{
	const struct node *n = &sim_nodes(s)[nid];

	return wmark_node_unreclaimable(n) ||
	       pgdat_balanced(s, nid, n->kswapd.order, n->kswapd.highest_zoneidx);
}

/*
 * The end of balance_pgdat (found_balanced: it left because the node was balanced, the kernel's
 * "goto out"), then kswapd_try_to_sleep: sleep if the node is balanced or hopeless.
 */
static void balance_end(struct sim *s, int nid, int found_balanced)
{
	struct node *n = &sim_nodes(s)[nid];
	struct kswapd *k = &n->kswapd;

	/* running the loop out with nothing reclaimed is a failure */
	if (!found_balanced && !k->nr_reclaimed && n->kswapd_failures < 255)
		n->kswapd_failures++;
	set_reclaim_active(s, nid, k->highest_zoneidx, 0);
	/* snapshot_refaults: the activations seen so far no longer count as new */
	n->refaults_moved = 0;
	if (k->boosted) {
		for (int zid = 0; zid <= k->highest_zoneidx; zid++) {
			struct zone *z = &n->zones[zid];
			int32_t b = k->zone_boosts[zid];
			z->watermark_boost -= z->watermark_boost < b ? z->watermark_boost : b;
		}
		/* (kcompactd would be woken here for the fragmentation that caused the boost) */
	}
	k->running = 0;
	/*
	 * kswapd_try_to_sleep: balanced (or hopeless), it naps HZ/10 (the node stays counted in
	 * nr_awake_workers so the nap's end is seen); a wakeup_kswapd meanwhile ends the nap early.
	 */
	if (prepare_kswapd_sleep(s, nid)) {
		n->kswapd_awake = 0;
		k->napping = 1;
		/* the model's run takes no trace time: the kernel's took about this long */
		int64_t end = k->run_begin_us + k->run_cost_ns / 1000;

		k->nap_end_us = (end > k->clock_us ? end : k->clock_us) + KSWAPD_NAP_US;
	}
	ev_emit(s, EV_VMSCAN_KSWAPD_SLEEP, FN_BALANCE_PGDAT, kswapd_cpu(s, nid),
		kswapd_zone(s, nid), 0, k->order, 0, k->napping ? KSWAPD_NAPS : KSWAPD_STARTS_OVER,
		(int32_t)k->nr_reclaimed, n->kswapd_failures);
}

/*
 * The nap is over (kswapd_try_to_sleep after schedule_timeout): still balanced or hopeless, it
 * sleeps until woken (the kernel's mm_vmscan_kswapd_sleep); else it starts balance_pgdat again
 * for the zone and order it last balanced, though nobody woke it.
 */
static void nap_end(struct sim *s, int nid)
{
	struct node *n = &sim_nodes(s)[nid];
	struct kswapd *k = &n->kswapd;

	k->napping = 0;
	if (prepare_kswapd_sleep(s, nid)) {
		s->nr_awake_workers--;
		ev_emit(s, EV_VMSCAN_KSWAPD_SLEEP, FN_KSWAPD, kswapd_cpu(s, nid),
			kswapd_zone(s, nid), 0, k->order, 0, KSWAPD_SLEEPS,
			(int32_t)k->nr_reclaimed, n->kswapd_failures);
		return;
	}
	/* kswapd() reads kswapd_order afresh: what was asked meanwhile, else order 0 */
	n->kswapd_awake = 1;
}

/*
 * kswapd_age_node: keep the anonymous inactive list big enough to pick from. The node's totals
 * decide; then every memcg's active anonymous list is aged a batch (the node's, without memcgs).
 */
static void kswapd_age_node(struct sim *s, int nid, struct scan_control *sc)
{
	uint32_t budget;

	if (!can_reclaim_anon(s) || !inactive_is_low(s, nid, -1, LRU_INACTIVE_ANON))
		return;
	if (!memcg_enabled(s)) {
		shrink_active_list(s, nid, -1, SWAP_CLUSTER_MAX, sc, LRU_ACTIVE_ANON);
		return;
	}
	budget = (uint32_t)memcg_count(s) + 1;
	for (int memcg = memcg_iter(s, nid, -1, 0); memcg >= 0 && budget--;
	     memcg = memcg_iter(s, nid, memcg, 0))
		shrink_active_list(s, nid, memcg, SWAP_CLUSTER_MAX, sc, LRU_ACTIVE_ANON);
}

/* kswapd_shrink_node: aim at the zones' high marks; whether it scanned as much as it aimed at. */
static int kswapd_shrink_node(struct sim *s, int nid, struct scan_control *sc)
{
	sc->nr_to_reclaim = high_marks(s, nid, sc->reclaim_idx);
	shrink_node(s, nid, sc);
	/* enough freed for a high-order request's compaction: balance for order 0 from now */
	if (sc->order && sc->nr_reclaimed >= (2LL << sc->order))
		sc->order = 0;
	return sc->nr_scanned >= sc->nr_to_reclaim;
}

/* One round of balance_pgdat's priority loop. */
static void balance_round(struct sim *s, int nid)
{
	struct node *n = &sim_nodes(s)[nid];
	struct kswapd *k = &n->kswapd;
	struct scan_control sc = {
		.gfp = GFP_KERNEL,
		.order = k->order,
		.priority = k->priority,
		.reclaim_idx = k->highest_zoneidx,
		.cpu = kswapd_cpu(s, nid),
		.kswapd = 1,
		.nr_reclaimed = k->nr_reclaimed,
		.may_unmap = 1,
		.may_writepage = 1,
		.only_zone = -1,
	};
	int raise_priority = 1, balanced = pgdat_balanced(s, nid, sc.order, sc.reclaim_idx);
	int64_t reclaimed;

	if (!balanced && k->nr_boost_reclaim) {
		/* the boost was not enough: restart as ordinary reclaim */
		k->nr_boost_reclaim = 0;
		sc.priority = DEF_PRIORITY;
	}
	if (!k->nr_boost_reclaim && balanced) {
		balance_end(s, nid, 1);
		return;
	}
	if (k->nr_boost_reclaim && sc.priority == DEF_PRIORITY - 2)
		raise_priority = 0;
	sc.may_swap = !k->nr_boost_reclaim;
	kswapd_age_node(s, nid, &sc);
	if (kswapd_shrink_node(s, nid, &sc))
		raise_priority = 0;
	reclaimed = sc.nr_reclaimed - k->nr_reclaimed;
	k->nr_reclaimed = sc.nr_reclaimed;
	k->nr_scanned = sc.nr_scanned;
	k->nr_to_reclaim = sc.nr_to_reclaim;
	k->order = (uint8_t)sc.order;
	k->rounds++;
	k->run_cost_ns += sc.nr_folios * KSWAPD_FOLIO_NS + sc.nr_scanned * KSWAPD_PAGE_NS;
	ev_emit(s, EV_KSWAPD_ROUND, FN_BALANCE_PGDAT, sc.cpu, kswapd_zone(s, nid), 0, sc.order, 0,
		sc.priority, (int32_t)reclaimed, (int32_t)sc.nr_scanned);
	k->nr_boost_reclaim -= k->nr_boost_reclaim < reclaimed ? k->nr_boost_reclaim : reclaimed;
	/* no progress on a boost: stop rather than loop on it */
	if (k->nr_boost_reclaim && !reclaimed) {
		balance_end(s, nid, 0);
		return;
	}
	if (raise_priority || !reclaimed)
		sc.priority--;
	k->priority = (uint8_t)(sc.priority < 0 ? 0 : sc.priority);
	if (sc.priority < 1)
		balance_end(s, nid, 0);
}

/*
 * Whether kswapd is still busy with what it has done, by a replayed trace's clock: its rounds
 * so far took the kernel longer than the clock has run since balance_pgdat began. Without a
 * clock (no OP_CLOCK yet: a workload, not a trace) it never is, nor where the lists' folio sizes
 * are unknown (a capture without an lru-state file: its page cache as single pages would cost
 * a folio each, 2.4 times the kernel's time on the kept kswapd capture).
 */
static int kswapd_ahead_of_clock(const struct kswapd *k)
{
	return k->clock_op && !k->unpaced && k->running &&
	       k->run_begin_us + k->run_cost_ns / 1000 > k->clock_us;
}

/* kswapd_step's work; paced: stop where the clock says the kernel's kswapd had got to. */
static void kswapd_work(struct sim *s, int nid, int paced)
{
	struct node *n = &sim_nodes(s)[nid];
	int64_t before;

	if (s->frozen)
		return;
	if (n->kswapd.napping && !n->kswapd_awake && n->kswapd.clock_us >= n->kswapd.nap_end_us)
		nap_end(s, nid);
	/* an OP_CLOCK is no work of the workload's: kswapd gets no batch for it */
	if (!n->kswapd_awake || n->kswapd.clock_op == (uint64_t)s->op_seq + 1)
		return;
	if (!n->kswapd.running)
		balance_begin(s, nid);
	/*
	 * Between two ops kswapd gets as far as one batch of reclaim: rounds that scan next to
	 * nothing (a high priority on a small list) cost the kernel microseconds, so they run on
	 * until a round frees something or balance_pgdat ends (at most the whole priority loop).
	 */
	before = n->kswapd.nr_reclaimed;
	for (int i = 0; i <= DEF_PRIORITY && n->kswapd.running && !s->frozen; i++) {
		if (paced && kswapd_ahead_of_clock(&n->kswapd))
			break;
		balance_round(s, nid);
		if (n->kswapd.nr_reclaimed - before >= SWAP_CLUSTER_MAX)
			break;
	}
}

void kswapd_step(struct sim *s, int nid)
{
	kswapd_work(s, nid, 1);
}

void kswapd_run(struct sim *s, int nid, int max_steps)
{
	struct kswapd *k = &sim_nodes(s)[nid].kswapd;

	/* a vmstat interval (1 s) is longer than any run: the clock does not hold kswapd back */
	for (int i = 0; i < max_steps && sim_nodes(s)[nid].kswapd_awake && !s->frozen; i++)
		kswapd_work(s, nid, 0);
	/* ... and outlasts the nap: end it, and finish a run it starts */
	if (k->napping && !sim_nodes(s)[nid].kswapd_awake) {
		nap_end(s, nid);
		for (int i = 0; i < max_steps && sim_nodes(s)[nid].kswapd_awake && !s->frozen; i++)
			kswapd_work(s, nid, 0);
	}
}

void kswapd_clock(struct sim *s, int64_t us)
{
	for (int nid = 0; nid < s->config.nr_nodes; nid++) {
		struct kswapd *k = &sim_nodes(s)[nid].kswapd;
		if (us > k->clock_us)
			k->clock_us = us;
		k->clock_op = (uint64_t)s->op_seq + 1;
	}
}
