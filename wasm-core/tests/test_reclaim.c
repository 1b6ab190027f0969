/*
 * test_reclaim.c: reclaim against mm/vmscan.c and the slow path of mm/page_alloc.c (6.18): the
 * LRU lists, kswapd's priority loop and the per-CPU cap while it runs, direct reclaim then the
 * retry, swap, the flusher, and the OOM decision when nothing can be freed. The checker runs
 * after every op (at_op).
 */
#include "alloc_test_util.h"
#include "page_alloc/page_alloc.h"
#include "page_alloc/procfs.h"
#include "page_alloc/watermark.h"
#include "reclaim/kswapd.h"
#include "reclaim/lru.h"
#include "reclaim/vmscan.h"
#include "reclaim/vocab.h"

/* One node, 2 CPUs, a 16384-page (64 MiB) Normal zone: MIN 256, LOW 320, HIGH 384; swap pages. */
static struct sim *lru_machine(int profile, uint32_t swap_pages)
{
	struct sim_config cfg;

	sim_config_default(&cfg);
	cfg.profile = (uint8_t)profile;
	cfg.thp = 0;
	cfg.swap_pages = swap_pages;
	cfg.max_handles = 30000;
	cfg.event_capacity = 1 << 20;
	cfg.zones[0][ZONE_NORMAL] = (struct zone_config){ 1u << 20, 16384, 16384, 16384 };
	return at_boot(&cfg);
}

/* OP_LRU_ALLOC of an order-0 block for purpose into handle h. */
static int lru_alloc(struct sim *s, int cpu, int purpose, uint32_t h)
{
	return at_op(s, OP_LRU_ALLOC, cpu, 0, GFP_HIGHUSER_MOVABLE, h, purpose);
}

/* Allocate order-0 blocks for purpose into handles from *h until kswapd wakes; returns how many. */
static uint32_t fill_until_kswapd(struct sim *s, int purpose, uint32_t *h)
{
	uint32_t n = 0;

	while (!sim_nodes(s)[0].kswapd_awake && n < 20000) {
		if (lru_alloc(s, 0, purpose, (*h)++) != SIM_OK)
			break;
		n++;
	}
	return n;
}

TEST(reclaim_lru_alloc_joins_the_right_list)
{
	struct sim *s = lru_machine(PROFILE_6_18, 0);
	const struct lruvec *lv;

	CHECK(s != NULL);
	if (!s)
		return;
	lv = &sim_nodes(s)[0].lruvec;
	CHECK_EQ(lru_alloc(s, 0, PURPOSE_ANON, 0), SIM_OK);
	CHECK_EQ(lru_alloc(s, 0, PURPOSE_FILE, 1), SIM_OK);
	CHECK_EQ(lru_alloc(s, 0, PURPOSE_FILE_DIRTY, 2), SIM_OK);
	CHECK_EQ(lru_alloc(s, 0, PURPOSE_FILE_MAPPED, 3), SIM_OK);
	/* 5.9+: new anonymous pages start inactive, like page cache */
	CHECK_EQ(lv->nr_pages[LRU_INACTIVE_ANON], 1);
	CHECK_EQ(lv->nr_pages[LRU_INACTIVE_FILE], 3);
	CHECK_EQ(lv->nr_anon, 1);
	CHECK_EQ(lv->nr_file, 3);
	CHECK_EQ(lv->nr_dirty, 1);
	CHECK_EQ(lv->nr_mapped, 1);
	CHECK_EQ(at_count(s, EV_LRU_INSERTION), 4);
	/* a second read of referenced page cache activates it (folio_mark_accessed) */
	CHECK_EQ(at_op(s, OP_MARK_ACCESSED, 0, 0, 0, 1, 0), SIM_OK);
	CHECK_EQ(lv->nr_pages[LRU_ACTIVE_FILE], 1);
	CHECK_EQ(at_count(s, EV_LRU_ACTIVATE), 1);
	/* the owner's free takes it off the list */
	CHECK_EQ(at_free(s, 0, 1), SIM_OK);
	CHECK_EQ(lv->nr_pages[LRU_ACTIVE_FILE], 0);
	CHECK_EQ(lv->nr_file, 2);
	/* a purpose outside the enum is refused before anything is allocated */
	CHECK_EQ(at_op(s, OP_LRU_ALLOC, 0, 0, GFP_HIGHUSER_MOVABLE, 9, NR_PURPOSES), SIM_EINVAL);
	CHECK_EQ(sim_handles(s)[9].pfn, PFN_NONE);
	free(s);

	/* the 2016 profiles stand for 4.x kernels, where anonymous pages started active */
	s = lru_machine(PROFILE_2016_V5, 0);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(lru_alloc(s, 0, PURPOSE_ANON, 0), SIM_OK);
	CHECK_EQ(sim_nodes(s)[0].lruvec.nr_pages[LRU_ACTIVE_ANON], 1);
	free(s);
}

TEST(reclaim_kswapd_priority_loop_balances_to_high)
{
	struct sim *s = lru_machine(PROFILE_6_18, 0);
	struct zone *z;
	struct kswapd *k;
	uint32_t h = 0;
	int expect_priority, rounds = 0;

	CHECK(s != NULL);
	if (!s)
		return;
	z = sim_zone(s, 0, ZONE_NORMAL);
	k = &sim_nodes(s)[0].kswapd;
	CHECK(fill_until_kswapd(s, PURPOSE_FILE, &h) > 15000);
	/* after the op that woke it, balance_pgdat began: zones flagged, rounds from priority 12 on
	 * (the first round at 12 scans 3 pages: the rounds go on until one frees a batch) */
	CHECK(k->running);
	CHECK(z->flags & ZONE_RECLAIM_ACTIVE);
	CHECK(k->priority < DEF_PRIORITY);
	CHECK_EQ(s->ev.pageoutrun, 1);
	CHECK(at_last(s, EV_VMSCAN_KSWAPD_WAKE) != NULL);
	expect_priority = k->priority;
	/* then, after each op, rounds until one frees a batch: nops let it run */
	while (k->running && rounds < 40) {
		sim_events_clear(s);
		CHECK_EQ(at_op(s, OP_NOP, 0, 0, 0, 0, 0), SIM_OK);
		rounds++;
		for (uint32_t i = 0; i < s->nr_events; i++) {
			const struct sim_event *e = &sim_events(s)[i];
			if (e->kind != EV_KSWAPD_ROUND)
				continue;
			/* 1 >> priority of ~16000 pages: 3 pages at 12, ... until a round scans its target */
			CHECK_EQ(e->a, expect_priority);
			if (e->b == 0 || e->c < k->nr_to_reclaim)
				expect_priority--;
		}
	}
	CHECK(!k->running);
	CHECK(!sim_nodes(s)[0].kswapd_awake);
	CHECK(!(z->flags & ZONE_RECLAIM_ACTIVE));
	/* balanced, it naps HZ/10 first; a clock past the nap puts it to sleep until woken */
	CHECK(at_last(s, EV_VMSCAN_KSWAPD_SLEEP) &&
	      at_last(s, EV_VMSCAN_KSWAPD_SLEEP)->a == KSWAPD_NAPS);
	CHECK(k->napping);
	CHECK_EQ(s->nr_awake_workers, 1);
	/* the nap begins when the kernel's run would have ended: each single page scanned is a
	 * folio taken off the list, at KSWAPD_FOLIO_NS + KSWAPD_PAGE_NS */
	CHECK_EQ(k->run_cost_ns, (int64_t)s->ev.pgscan_kswapd * (KSWAPD_FOLIO_NS + KSWAPD_PAGE_NS));
	CHECK_EQ(k->nap_end_us, k->run_cost_ns / 1000 + KSWAPD_NAP_US);
	CHECK_EQ(at_op(s, OP_CLOCK, 0, 0, 0, 0, (int32_t)k->nap_end_us - 1), SIM_OK);
	CHECK(k->napping);
	CHECK_EQ(at_op(s, OP_CLOCK, 0, 0, 0, 0, (int32_t)k->nap_end_us), SIM_OK);
	CHECK(!k->napping);
	CHECK_EQ(s->nr_awake_workers, 0);
	CHECK(at_last(s, EV_VMSCAN_KSWAPD_SLEEP) &&
	      at_last(s, EV_VMSCAN_KSWAPD_SLEEP)->a == KSWAPD_SLEEPS);
	/* balanced: the zone passes its HIGH mark, and it took rounds at falling priority */
	CHECK(pgdat_balanced(s, 0, 0, ZONE_NORMAL));
	CHECK(k->rounds > 3);
	CHECK(k->priority < DEF_PRIORITY);
	/* the target of a round is the zone's high mark */
	CHECK_EQ(k->nr_to_reclaim, wmark_pages(z, WMARK_HIGH));
	CHECK(s->ev.pgscan_kswapd >= s->ev.pgsteal_kswapd);
	CHECK(s->ev.pgsteal_kswapd > 0);
	CHECK_EQ(s->ev.pgsteal_direct, 0);
	CHECK_EQ(s->ev.pgsteal_file, s->ev.pgsteal_kswapd);
	CHECK_EQ(sim_nodes(s)[0].kswapd_failures, 0);
	free(s);
}

/*
 * Run node 0's kswapd, one NOP at a time, until balance_pgdat ends (bounded); on a clock, the
 * clock runs on as far as kswapd's work so far took the kernel, so the pace never holds it back.
 */
static void run_kswapd_out(struct sim *s)
{
	const struct kswapd *k = &sim_nodes(s)[0].kswapd;

	for (int i = 0; i < 200 && k->running; i++) {
		int64_t done = k->run_begin_us + k->run_cost_ns / 1000;
		if (k->clock_op && done > k->clock_us)
			CHECK_EQ(at_op(s, OP_CLOCK, 0, 0, 0, 0, (int32_t)done), SIM_OK);
		CHECK_EQ(at_op(s, OP_NOP, 0, 0, 0, 0, 0), SIM_OK);
	}
}

TEST(reclaim_kswapd_on_a_trace_clock_goes_no_further_than_the_kernels_would)
{
	struct sim *s = lru_machine(PROFILE_6_18, 0);
	struct kswapd *k;
	uint64_t reclaimed;
	uint32_t h = 0;
	int64_t done;

	CHECK(s != NULL);
	if (!s)
		return;
	k = &sim_nodes(s)[0].kswapd;
	CHECK_EQ(at_op(s, OP_CLOCK, 0, 0, 0, 0, 1000), SIM_OK);
	fill_until_kswapd(s, PURPOSE_FILE, &h);
	/* the clock stands still: once its rounds cost more than no time, kswapd waits, its zones
	 * still reclaim-active (the pcp lists stay capped meanwhile) */
	for (int i = 0; i < 50; i++)
		CHECK_EQ(at_op(s, OP_NOP, 0, 0, 0, 0, 0), SIM_OK);
	CHECK(k->running);
	CHECK(sim_zone(s, 0, ZONE_NORMAL)->flags & ZONE_RECLAIM_ACTIVE);
	CHECK(k->run_cost_ns > 0);
	CHECK_EQ(k->run_begin_us, 1000);
	done = k->run_begin_us + k->run_cost_ns / 1000;
	CHECK(done > k->clock_us);
	reclaimed = (uint64_t)k->nr_reclaimed;
	CHECK_EQ(at_op(s, OP_NOP, 0, 0, 0, 0, 0), SIM_OK);
	CHECK_EQ((uint64_t)k->nr_reclaimed, reclaimed);
	/* the clock reaches where its work ends: the next op it goes on */
	CHECK_EQ(at_op(s, OP_CLOCK, 0, 0, 0, 0, (int32_t)done), SIM_OK);
	CHECK_EQ(at_op(s, OP_NOP, 0, 0, 0, 0, 0), SIM_OK);
	CHECK(!k->running || k->run_begin_us + k->run_cost_ns / 1000 > done);
	/* a vmstat tick (1 s) is no place to wait: the run ends there whatever the clock */
	CHECK_EQ(at_op(s, OP_TICK, 0, 0, 0, 0, 1), SIM_OK);
	CHECK(!k->running);
	free(s);
}

TEST(reclaim_kswapd_nap_ends_in_a_new_run_or_a_wakeup_ends_it)
{
	struct sim *s = lru_machine(PROFILE_6_18, 0);
	struct kswapd *k;
	struct zone *z;
	uint32_t h = 0;
	int n = 0;

	CHECK(s != NULL);
	if (!s)
		return;
	k = &sim_nodes(s)[0].kswapd;
	z = sim_zone(s, 0, ZONE_NORMAL);
	CHECK_EQ(at_op(s, OP_CLOCK, 0, 0, 0, 0, 1000), SIM_OK);
	fill_until_kswapd(s, PURPOSE_FILE, &h);
	run_kswapd_out(s);
	CHECK(k->napping);
	CHECK(k->nap_end_us > 1000 + KSWAPD_NAP_US);
	/* the task goes on allocating, below HIGH but not below LOW: nobody wakes kswapd */
	sim_events_clear(s);
	while (pgdat_balanced(s, 0, 0, ZONE_NORMAL) && n++ < 20000)
		CHECK_EQ(lru_alloc(s, 0, PURPOSE_FILE, h++), SIM_OK);
	CHECK(!pgdat_balanced(s, 0, 0, ZONE_NORMAL));
	CHECK(z->nr_free_pages > wmark_pages(z, WMARK_LOW));
	CHECK_EQ(at_count(s, EV_KSWAPD_WAKE), 0);
	CHECK(k->napping);
	/* the nap runs out with the node unbalanced: balance_pgdat again, at the next op */
	CHECK_EQ(at_op(s, OP_CLOCK, 0, 0, 0, 0, (int32_t)k->nap_end_us), SIM_OK);
	CHECK(!k->napping);
	CHECK(sim_nodes(s)[0].kswapd_awake);
	CHECK_EQ(s->nr_awake_workers, 1);
	CHECK_EQ(s->ev.pageoutrun, 1);
	CHECK_EQ(at_op(s, OP_NOP, 0, 0, 0, 0, 0), SIM_OK);
	CHECK_EQ(s->ev.pageoutrun, 2);
	CHECK_EQ(at_count(s, EV_VMSCAN_KSWAPD_WAKE), 1);
	CHECK_EQ(at_count(s, EV_KSWAPD_WAKE), 0);
	run_kswapd_out(s);
	CHECK(k->napping);
	/* in this nap the task drives the zone below LOW: wakeup_kswapd ends the nap at once */
	sim_events_clear(s);
	n = 0;
	while (!sim_nodes(s)[0].kswapd_awake && n++ < 40000)
		CHECK_EQ(lru_alloc(s, 0, PURPOSE_FILE, h++), SIM_OK);
	CHECK_EQ(at_count(s, EV_KSWAPD_WAKE), 1);
	CHECK_EQ(at_count(s, EV_VMSCAN_KSWAPD_WAKE), 1);
	CHECK(!k->napping);
	CHECK_EQ(s->nr_awake_workers, 1);
	CHECK_EQ(s->ev.pageoutrun, 3);
	/* no clock: a vmstat tick (1 s) outlasts any nap, and the node balanced, it sleeps */
	CHECK_EQ(at_op(s, OP_TICK, 0, 0, 0, 0, 1), SIM_OK);
	CHECK(!k->napping);
	CHECK(!sim_nodes(s)[0].kswapd_awake);
	CHECK_EQ(s->nr_awake_workers, 0);
	CHECK(at_last(s, EV_VMSCAN_KSWAPD_SLEEP) &&
	      at_last(s, EV_VMSCAN_KSWAPD_SLEEP)->a == KSWAPD_SLEEPS);
	/* a clock going back is refused */
	CHECK_EQ(at_op(s, OP_CLOCK, 0, 0, 0, 0, -1), SIM_EINVAL);
	free(s);
}

TEST(reclaim_pcp_capped_at_min_batch_4_high_while_kswapd_runs)
{
	struct sim *s = lru_machine(PROFILE_6_18, 0);
	struct per_cpu_pages *pcp1;
	uint32_t h = 0, kernel0 = 25000;
	int32_t most = 0, most_free = 0;

	CHECK(s != NULL);
	if (!s)
		return;
	pcp1 = sim_pcp(s, 1, 0, ZONE_NORMAL);
	/* CPU 1 holds 1500 kernel pages it will free while kswapd runs */
	for (uint32_t i = 0; i < 1500; i++)
		CHECK_EQ(at_alloc(s, 1, GFP_KERNEL, 0, kernel0 + i), SIM_OK);
	/* no reclaim: freeing 600 of them piles up to the autotuned high */
	for (uint32_t i = 0; i < 600; i++) {
		CHECK_EQ(at_free(s, 1, kernel0 + i), SIM_OK);
		most_free = pcp1->count > most_free ? pcp1->count : most_free;
	}
	CHECK(most_free > pcp1->batch * 4);
	CHECK_EQ(at_op(s, OP_DRAIN_ALL, 0, 0, 0, 0, 0), SIM_OK);
	fill_until_kswapd(s, PURPOSE_FILE, &h);
	CHECK(sim_nodes(s)[0].kswapd.running);
	for (uint32_t i = 600; i < 1500 && sim_nodes(s)[0].kswapd.running; i++) {
		int32_t cap;
		CHECK_EQ(at_free(s, 1, kernel0 + i), SIM_OK);
		/* nr_pcp_high under ZONE_RECLAIM_ACTIVE: min(batch * 4, high) */
		cap = pcp1->batch * 4 < pcp1->high ? pcp1->batch * 4 : pcp1->high;
		CHECK(pcp1->count <= cap + pcp1->batch);
		most = pcp1->count > most ? pcp1->count : most;
	}
	CHECK(most > 0);
	CHECK(most <= pcp1->batch * 4);
	free(s);
}

TEST(reclaim_direct_reclaim_then_retry)
{
	struct sim *s = lru_machine(PROFILE_6_18, 0);
	struct zone *z;
	uint32_t h = 0;
	int64_t free_pages;

	CHECK(s != NULL);
	if (!s)
		return;
	z = sim_zone(s, 0, ZONE_NORMAL);
	/* 8000 pages of page cache, then kernel memory down to MIN while kswapd is kept asleep */
	for (int i = 0; i < 8000; i++)
		CHECK_EQ(lru_alloc(s, 0, PURPOSE_FILE, h++), SIM_OK);
	CHECK_EQ(at_op(s, OP_TICK, 0, 0, 0, 0, 1), SIM_OK);
	/* GFP_NOWAIT cannot reclaim and __GFP_KSWAPD_RECLAIM-less requests do not wake kswapd */
	while (z->nr_free_pages > wmark_pages(z, WMARK_MIN) + 64 &&
	       at_alloc(s, 0, __GFP_IO | __GFP_FS, 0, h) == SIM_OK)
		h++;
	sim_events_clear(s);
	free_pages = z->nr_free_pages;
	/* a GFP_KERNEL request that finds every zone below MIN stalls in direct reclaim */
	/* until one stalls: the watermark checks read a counter that lags the exact count */
	while (s->ev.allocstall[ZONE_NORMAL] == 0 && h < 20000) {
		CHECK_EQ(at_op(s, OP_ALLOC, 1, 0, __GFP_DIRECT_RECLAIM | __GFP_IO | __GFP_FS, h, 0),
			 SIM_OK);
		h++;
	}
	CHECK(free_pages > 0);
	CHECK_EQ(s->ev.allocstall[ZONE_NORMAL], 1);
	CHECK(at_last(s, EV_DIRECT_RECLAIM_BEGIN) != NULL);
	/* SWAP_CLUSTER_MAX is its target: it stops at the first priority that reaches it */
	CHECK(at_last(s, EV_DIRECT_RECLAIM_END) && at_last(s, EV_DIRECT_RECLAIM_END)->a >= 32);
	CHECK(s->ev.pgscan_direct >= s->ev.pgsteal_direct);
	CHECK(s->ev.pgsteal_direct >= 32);
	CHECK_EQ(s->ev.pgsteal_kswapd, 0);
	CHECK_EQ(at_count(s, EV_ALLOC_FAIL), 0);
	free(s);
}

TEST(reclaim_oom_when_nothing_is_reclaimable)
{
	struct sim *s = lru_machine(PROFILE_6_18, 0);
	const struct sim_event *e;
	uint32_t h = 0;
	int err = SIM_OK;

	CHECK(s != NULL);
	if (!s)
		return;
	/* anonymous memory without swap cannot be reclaimed: fill until a request fails */
	while (err == SIM_OK && h < 20000)
		err = lru_alloc(s, 0, PURPOSE_ANON, h++);
	CHECK_EQ(err, SIM_ENOMEM);
	CHECK_EQ(s->ev.pgsteal_kswapd + s->ev.pgsteal_direct, 0);
	CHECK(sim_nodes(s)[0].kswapd_failures > 0);
	/* 16 fruitless retries, then the OOM decision: kill the biggest task (the model kills none) */
	e = at_last(s, EV_RECLAIM_RETRY);
	CHECK(e && e->a == 0);
	e = at_last(s, EV_OOM);
	CHECK(e && e->a == OOM_KILL && e->c == sim_nodes(s)[0].lruvec.nr_anon);
	CHECK_EQ(s->ev.oom_kill, 1);
	CHECK(at_last(s, EV_ALLOC_FAIL) != NULL);
	/* costly orders, __GFP_RETRY_MAYFAIL and requests without __GFP_FS kill nothing */
	sim_events_clear(s);
	CHECK_EQ(at_alloc(s, 0, GFP_KERNEL, 4, h), SIM_ENOMEM);
	CHECK_EQ(at_count(s, EV_OOM), 0);
	CHECK_EQ(at_alloc(s, 0, GFP_KERNEL | __GFP_RETRY_MAYFAIL, 4, h), SIM_ENOMEM);
	CHECK(at_last(s, EV_OOM) && at_last(s, EV_OOM)->a == OOM_SKIP_COSTLY);
	CHECK_EQ(at_alloc(s, 0, GFP_KERNEL | __GFP_RETRY_MAYFAIL, 0, h), SIM_ENOMEM);
	CHECK(at_last(s, EV_OOM) && at_last(s, EV_OOM)->a == OOM_SKIP_MAYFAIL);
	CHECK_EQ(at_alloc(s, 0, GFP_NOFS, 0, h), SIM_ENOMEM);
	CHECK(at_last(s, EV_OOM) && at_last(s, EV_OOM)->a == OOM_NOFS_RETRY);
	CHECK_EQ(s->ev.oom_kill, 1);
	free(s);
}

TEST(reclaim_swap_takes_anonymous_memory_and_a_free_returns_the_slots)
{
	struct sim *s = lru_machine(PROFILE_6_18, 4096);
	uint32_t h = 0, gone = 0;

	CHECK(s != NULL);
	if (!s)
		return;
	fill_until_kswapd(s, PURPOSE_ANON, &h);
	CHECK_EQ(at_op(s, OP_TICK, 0, 0, 0, 0, 1), SIM_OK);
	CHECK(!sim_nodes(s)[0].kswapd_awake);
	CHECK(s->ev.pswpout > 0);
	CHECK_EQ(s->ev.pgsteal_anon, s->ev.pswpout);
	CHECK_EQ(s->nr_swap_free, 4096 - (int64_t)s->ev.pswpout);
	for (uint32_t i = 0; i < h; i++)
		gone += sim_handles(s)[i].gone == HANDLE_SWAPPED;
	CHECK_EQ(gone, s->ev.pswpout);
	/* the workload frees everything: swapped blocks give back their slots, nothing else */
	for (uint32_t i = 0; i < h; i++)
		CHECK_EQ(at_free(s, 0, i), SIM_OK);
	CHECK_EQ(s->nr_swap_free, 4096);
	CHECK_EQ(sim_nodes(s)[0].lruvec.nr_anon, 0);
	free(s);
}

TEST(reclaim_dirty_page_cache_waits_for_the_flusher)
{
	struct sim *s = lru_machine(PROFILE_6_18, 0);
	const struct lruvec *lv;
	uint32_t h = 0;

	CHECK(s != NULL);
	if (!s)
		return;
	lv = &sim_nodes(s)[0].lruvec;
	fill_until_kswapd(s, PURPOSE_FILE_DIRTY, &h);
	for (int i = 0; i < 20 && sim_nodes(s)[0].kswapd.running; i++)
		CHECK_EQ(at_op(s, OP_NOP, 0, 0, 0, 0, 0), SIM_OK);
	/* reclaim may not write page cache: dirty blocks were activated and marked, none freed */
	CHECK_EQ(s->ev.pgsteal_kswapd, 0);
	CHECK(s->ev.pgactivate > 0);
	CHECK(lv->nr_pages[LRU_ACTIVE_FILE] > 0);
	CHECK(sim_nodes(s)[0].kswapd_failures > 0);
	/* the tick's flusher writes everything back; the marked blocks go to the inactive tail */
	CHECK_EQ(at_op(s, OP_TICK, 0, 0, 0, 0, 1), SIM_OK);
	CHECK_EQ(lv->nr_dirty, 0);
	CHECK(s->ev.pgrotated > 0);
	CHECK(at_last(s, EV_WRITEBACK) != NULL);
	/* ... where kswapd, still awake, now frees them */
	CHECK(s->ev.pgsteal_kswapd > 0);
	CHECK(!sim_nodes(s)[0].kswapd_awake);
	free(s);
}

TEST(reclaim_mapped_page_cache_needs_a_second_look)
{
	struct sim *s = lru_machine(PROFILE_6_18, 0);

	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(lru_alloc(s, 0, PURPOSE_FILE_MAPPED, 0), SIM_OK);
	CHECK_EQ(lru_alloc(s, 0, PURPOSE_FILE, 1), SIM_OK);
	/*
	 * Direct reclaim of the two (1 >> priority of 2 pages is 0 until priority 1): at priority 1
	 * it looks at the oldest, the mapped block, whose fault left its accessed bit: another trip.
	 * At priority 0 it looks at both: the read-once block goes, and the mapped one, not used
	 * since, goes too. Three pages scanned for two freed.
	 */
	CHECK_EQ(try_to_free_pages(s, 0, GFP_KERNEL, 0, 0, ZONE_NORMAL), 2);
	CHECK_EQ(s->ev.pgscan_direct, 3);
	CHECK_EQ(s->ev.pgsteal_direct, 2);
	CHECK_EQ(sim_handles(s)[0].gone, HANDLE_DROPPED);
	CHECK_EQ(sim_handles(s)[1].gone, HANDLE_DROPPED);
	CHECK_EQ(s->ev.allocstall[ZONE_NORMAL], 1);
	CHECK_EQ(at_free(s, 0, 0), SIM_OK);
	CHECK_EQ(at_check(s), SIM_OK);
	free(s);
}

TEST(reclaim_vmstat_and_zoneinfo_show_the_lru_and_kswapd)
{
	struct sim *s = lru_machine(PROFILE_6_18, 0);
	static char buf[1 << 16];
	char line[96];
	uint32_t h = 0;

	CHECK(s != NULL);
	if (!s)
		return;
	fill_until_kswapd(s, PURPOSE_FILE, &h);
	CHECK_EQ(at_op(s, OP_TICK, 0, 0, 0, 0, 1), SIM_OK);
	CHECK(s->ev.pgscan_kswapd > 0);
	sim_proc_render(s, PROC_VMSTAT, buf, sizeof buf);
	snprintf(line, sizeof line, "\npgscan_kswapd %llu\n",
		 (unsigned long long)s->ev.pgscan_kswapd);
	CHECK(strstr(buf, line) != NULL);
	snprintf(line, sizeof line, "\npageoutrun %llu\n", (unsigned long long)s->ev.pageoutrun);
	CHECK(strstr(buf, line) != NULL);
	snprintf(line, sizeof line, "\nnr_inactive_file %lld\n",
		 (long long)sim_nodes(s)[0].lruvec.nr_pages[LRU_INACTIVE_FILE]);
	CHECK(strstr(buf, line) != NULL);
	sim_proc_render(s, PROC_ZONEINFO, buf, sizeof buf);
	snprintf(line, sizeof line, "\n      nr_zone_inactive_file %lld\n",
		 (long long)sim_zone(s, 0, ZONE_NORMAL)->nr_zone_lru[LRU_INACTIVE_FILE]);
	CHECK(strstr(buf, line) != NULL);
	snprintf(line, sizeof line, "\n      nr_file_pages %lld\n",
		 (long long)sim_nodes(s)[0].lruvec.nr_file);
	CHECK(strstr(buf, line) != NULL);
	free(s);
}
