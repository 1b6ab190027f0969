/*
 * test_pcp.c: the per-CPU page lists against docs/kernel/page_alloc/pcp.md: sizing formulas
 * (checked in docs/kernel H.2 and H.3 against a live 6.18 machine), refill sizes, the drain order
 * of the 2016 series (Joonsoo Kim's review case), free_high, decay, hotplug, the zone-lock model,
 * and the corrupted-page op with and without the 2016 pcp-count fix. Workloads go through sim_apply with sim_check after every
 * op; the formula tests call pcp.c directly.
 */
#include <stdlib.h>
#include <string.h>

#include "base/lock.h"
#include "base/sim.h"
#include "base/state.h"
#include "boot.h"
#include "harness.h"
#include "page_alloc/page_alloc.h"
#include "page_alloc/pcp.h"
#include "page_alloc/pcp_index.h"
#include "page_alloc/zone_lock.h"

/* ---- helpers ----------------------------------------------------------------------------------- */

/* A preset machine under profile id, with an optional batch override (0 = zone_batchsize). */
static struct sim *boot(const char *preset, int profile, int32_t batch)
{
	struct sim_config cfg;

	if (sim_config_preset(&cfg, preset) != SIM_OK)
		return NULL;
	cfg.profile = (uint8_t)profile;
	cfg.pcp_batch = batch;
	return test_boot(&cfg);
}

/* One Normal zone of `managed` pages (1 node, 2 CPUs, THP on, pageblock order 9). */
static struct sim *boot_normal(int profile, uint32_t managed)
{
	struct sim_config cfg;

	sim_config_default(&cfg);
	cfg.profile = (uint8_t)profile;
	cfg.zones[0][ZONE_NORMAL] = (struct zone_config){ 1u << 20, managed, managed, managed };
	return test_boot(&cfg);
}

/* Apply one op and run the invariant checker after it (unless the op froze the state). */
static int apply(struct sim *s, int kind, int cpu, int order, uint32_t gfp, uint32_t handle,
		 int32_t arg)
{
	struct sim_op op = { .kind = (uint8_t)kind,
			     .order = (uint8_t)order,
			     .cpu = (uint16_t)cpu,
			     .gfp = gfp,
			     .handle = handle,
			     .arg = arg };
	int err = sim_apply(s, &op);

	if (!s->frozen && sim_check(s) != SIM_OK) {
		fprintf(stderr, "    sim_check after op %u: %s\n", s->op_seq, s->error);
		harness_fail(__FILE__, __LINE__, "sim_check after every op");
	}
	return err;
}

/* The Normal zone of node 0. */
static struct zone *normal(struct sim *s)
{
	return sim_zone(s, 0, ZONE_NORMAL);
}

/* Events of a kind in the buffer. */
static int count_events(const struct sim *s, int kind)
{
	int n = 0;
	for (uint32_t i = 0; i < s->nr_events; i++)
		n += sim_events(s)[i].kind == kind;
	return n;
}

/* Pages on the pcp lists of (cpu, z) as the lists say. */
static int32_t listed_pages(const struct sim *s, const struct zone *z, int cpu)
{
	const struct per_cpu_pages *pcp = sim_pcp(s, cpu, z->node, z->idx);
	int32_t pages = 0;
	for (int i = 0; i < NR_PCP_LISTS_LIMIT; i++)
		if (pcp->nr_blocks[i])
			pages += (int32_t)pcp->nr_blocks[i] << pcp_pindex_to_order(s, i);
	return pages;
}

/* ---- sizing (B.3, B.4, H) ------------------------------------------------------------------------ */

TEST(pcp_zone_batchsize_formula)
{
	struct sim *s = boot("tiny", PROFILE_6_18, 0);
	struct zone z = { 0 };

	CHECK(s);
	if (!s)
		return;
	z.managed = 3840; /* the DMA zone: 3 / 4 = 0 -> 1 -> 2^0 - 1 = 0; the caller makes it 1 */
	CHECK_EQ(pcp_zone_batchsize(s, &z), 0);
	z.managed = 32768; /* 32 / 4 = 8, 8 + 4 = 12 -> 8 - 1 = 7: the batch of the 2016 review */
	CHECK_EQ(pcp_zone_batchsize(s, &z), 7);
	z.managed = 262144; /* 1 GiB reaches the 1 MiB cap: 64 + 32 = 96 -> 63 */
	CHECK_EQ(pcp_zone_batchsize(s, &z), 63);
	z.managed = 1015808;
	CHECK_EQ(pcp_zone_batchsize(s, &z), 63);
	/* the 4.9-based 2016 series capped at 512 KiB: 128 / 4 = 32, 48 -> 31 */
	s->profile = *sim_profile_get(PROFILE_2016_V5);
	z.managed = 262144;
	CHECK_EQ(pcp_zone_batchsize(s, &z), 31);
	free(s);
}

TEST(pcp_zone_highsize_matches_live_6_18)
{
	/*
	 * docs/kernel/page_alloc/live-check.md (H.2, H.3): 2 CPUs on one node;
	 * high_min = low / 2, high_max = managed / 8 / 2
	 */
	struct sim *s = boot("tiny", PROFILE_6_18, 0);
	struct zone z = { 0 };

	CHECK(s);
	if (!s)
		return;
	z.node = 0;
	z.managed = 327680;
	z._watermark[WMARK_LOW] = 6265;
	CHECK_EQ(pcp_zone_highsize(s, &z, 63, 0, 0), 3132);
	CHECK_EQ(pcp_zone_highsize(s, &z, 63, 0, 8), 20480);
	z.managed = 1015808;
	z._watermark[WMARK_LOW] = 11967;
	CHECK_EQ(pcp_zone_highsize(s, &z, 63, 0, 0), 5983);
	CHECK_EQ(pcp_zone_highsize(s, &z, 63, 0, 8), 63488);
	z.managed = 3840; /* DMA: batch 1 */
	z._watermark[WMARK_LOW] = 72;
	CHECK_EQ(pcp_zone_highsize(s, &z, 1, 0, 0), 36);
	CHECK_EQ(pcp_zone_highsize(s, &z, 1, 0, 8), 240);
	/* a CPU coming online is not in the node mask yet: split over 2 + 1 */
	z._watermark[WMARK_LOW] = 6000;
	CHECK_EQ(pcp_zone_highsize(s, &z, 1, 1, 0), 2000);
	/* never below 4 batches */
	z._watermark[WMARK_LOW] = 10;
	CHECK_EQ(pcp_zone_highsize(s, &z, 63, 0, 0), 252);
	free(s);
}

TEST(pcp_boot_values_every_cpu)
{
	struct sim *s = boot("classroom", PROFILE_6_18, 0);
	struct zone *z;

	CHECK(s);
	if (!s)
		return;
	z = normal(s);
	CHECK_EQ(z->pageset_batch, 7);
	CHECK_EQ(z->pageset_high_min, pcp_zone_highsize(s, z, 7, 0, 0));
	CHECK_EQ(z->pageset_high_max, pcp_zone_highsize(s, z, 7, 0, 8));
	for (uint32_t cpu = 0; cpu < s->nr_cpus; cpu++) {
		const struct per_cpu_pages *pcp = sim_pcp(s, (int)cpu, 0, ZONE_NORMAL);
		CHECK_EQ(pcp->batch, 7);
		CHECK_EQ(pcp->high_min, z->pageset_high_min);
		CHECK_EQ(pcp->high_max, z->pageset_high_max);
		CHECK_EQ(pcp->high, 0); /* 6.7+: 0 until the pcp is first used */
		CHECK_EQ(pcp->count, 0);
		/* unpopulated zones keep the boot pageset */
		CHECK_EQ(sim_pcp(s, (int)cpu, 0, ZONE_DMA)->batch, 1);
		CHECK_EQ(sim_pcp(s, (int)cpu, 0, ZONE_DMA)->high_max, 0);
	}
	CHECK_EQ(sim_check(s), SIM_OK);
	free(s);
}

/* ---- layouts (B.2, B.11) ----------------------------------------------------------------------- */

TEST(pcp_pindex_layouts)
{
	struct sim *s = boot("classroom", PROFILE_6_18, 0); /* THP on, pageblock order 9 */

	CHECK(s);
	if (!s)
		return;
	/* 6.10+: 3 * order + mt, THP 12 (unmovable/reclaimable) and 13 (movable) */
	CHECK_EQ(pcp_order_to_pindex(s, MIGRATE_RECLAIMABLE, 3), 11);
	CHECK_EQ(pcp_order_to_pindex(s, MIGRATE_MOVABLE, 1), 4);
	CHECK_EQ(pcp_order_to_pindex(s, MIGRATE_UNMOVABLE, 9), 12);
	CHECK_EQ(pcp_order_to_pindex(s, MIGRATE_RECLAIMABLE, 9), 12);
	CHECK_EQ(pcp_order_to_pindex(s, MIGRATE_MOVABLE, 9), 13);
	CHECK_EQ(pcp_order_to_pindex(s, MIGRATE_MOVABLE, 4), -1);
	CHECK_EQ(pcp_pindex_to_order(s, 13), 9);
	CHECK(pcp_allowed_order(s, 9));
	CHECK(!pcp_allowed_order(s, 4));
	/* every pcp order maps to a list that maps back to the order */
	for (int id = 0; id < NR_PROFILES; id++) {
		s->profile = *sim_profile_get(id);
		for (int order = 0; order <= 10; order++)
			for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++) {
				int pindex = pcp_order_to_pindex(s, mt, order);
				CHECK_EQ(pindex >= 0, pcp_allowed_order(s, order));
				if (pindex >= 0) {
					CHECK(pindex < s->profile.nr_pcp_lists);
					CHECK_EQ(pcp_pindex_to_order(s, pindex), order);
				}
			}
	}
	/* 5.14: one THP list per type (15); 6.6: one shared THP list (13) */
	s->profile = *sim_profile_get(PROFILE_5_14);
	CHECK_EQ(pcp_order_to_pindex(s, MIGRATE_RECLAIMABLE, 9), 14);
	s->profile = *sim_profile_get(PROFILE_6_6);
	CHECK_EQ(pcp_order_to_pindex(s, MIGRATE_MOVABLE, 9), 12);
	/* 2016: order 0 by type, then one shared list per order: order k -> 2 + k */
	s->profile = *sim_profile_get(PROFILE_2016_V5);
	CHECK_EQ(pcp_order_to_pindex(s, MIGRATE_RECLAIMABLE, 0), 2);
	CHECK_EQ(pcp_order_to_pindex(s, MIGRATE_UNMOVABLE, 1), 3);
	CHECK_EQ(pcp_order_to_pindex(s, MIGRATE_RECLAIMABLE, 1), 3);
	CHECK_EQ(pcp_order_to_pindex(s, MIGRATE_MOVABLE, 3), 5);
	CHECK(!pcp_allowed_order(s, 9));
	/* <= 5.13: order 0 only */
	s->profile = *sim_profile_get(PROFILE_5_13);
	CHECK(!pcp_allowed_order(s, 1));
	CHECK_EQ(pcp_order_to_pindex(s, MIGRATE_MOVABLE, 0), 1);
	free(s);
}

/* ---- allocation: refill sizes (B.5) ------------------------------------------------------------- */

TEST(pcp_refill_sizes_6_18_batch63_alloc_factor)
{
	/* 1 GiB Normal zone: batch 63; high grows on demand while the zone is above high */
	struct sim *s = boot_normal(PROFILE_6_18, 262144);
	static const int32_t want[] = { 63, 126, 252, 504, 1008, 2016, 2016 };
	int refills = 0;
	struct zone *z;

	CHECK(s);
	if (!s)
		return;
	z = normal(s);
	CHECK_EQ(z->pageset_batch, 63);
	for (int i = 0; i < 63 + 126 + 252 + 504 + 1008 + 2016 + 1; i++)
		CHECK(pcp_rmqueue(s, z, 0, &sim_cpus(s)[0], 0, MIGRATE_MOVABLE, 0) != PFN_NONE);
	for (uint32_t i = 0; i < s->nr_events; i++) {
		const struct sim_event *e = &sim_events(s)[i];
		if (e->kind != EV_PCP_REFILL)
			continue;
		if (refills < 7) {
			CHECK_EQ(e->a, want[refills]); /* blocks asked */
			CHECK_EQ(e->b, want[refills]); /* blocks moved */
		}
		refills++;
	}
	CHECK_EQ(refills, 7);
	CHECK_EQ(sim_pcp(s, 0, 0, ZONE_NORMAL)->alloc_factor, PCP_BATCH_SCALE_MAX);
	/* an order-3 refill asks max(63 >> 3, 2) = 7 blocks */
	sim_events_clear(s);
	CHECK(pcp_rmqueue(s, z, 0, &sim_cpus(s)[0], 3, MIGRATE_MOVABLE, 0) != PFN_NONE);
	for (uint32_t i = 0; i < s->nr_events; i++)
		if (sim_events(s)[i].kind == EV_PCP_REFILL)
			CHECK_EQ(sim_events(s)[i].a, 7);
	CHECK_EQ(count_events(s, EV_PCP_REFILL), 1);
	/* a free halves alloc_factor */
	{
		uint32_t pfn = pcp_rmqueue(s, z, 0, &sim_cpus(s)[0], 0, MIGRATE_MOVABLE, 0);
		pcp_free(s, z, 0, pfn, 0);
		CHECK_EQ(sim_pcp(s, 0, 0, ZONE_NORMAL)->alloc_factor, PCP_BATCH_SCALE_MAX >> 1);
	}
	CHECK_EQ(sim_check(s), SIM_OK);
	free(s);
}

/*
 * A free in an interrupt that came while the CPU's task held its pcp lock (FREE_PCP_LOCKED):
 * 6.18's free_frozen_pages trylock fails and the block goes to free_one_page, so the list, its
 * count and alloc_factor stay as they were; 5.14's pcp lock kept interrupts off, so there the free
 * waited for the task and reached the list.
 */
TEST(pcp_free_while_pcp_locked_goes_to_the_buddy_6_0_plus)
{
	static const int profiles[] = { PROFILE_6_18, PROFILE_5_14 };

	for (int i = 0; i < 2; i++) {
		struct sim *s = boot_normal(profiles[i], 262144);
		const struct per_cpu_pages *pcp;
		int32_t count;
		uint8_t factor;
		uint64_t free_before;

		CHECK(s);
		if (!s)
			return;
		for (uint32_t h = 0; h < 3; h++)
			CHECK_EQ(apply(s, OP_ALLOC, 0, 0, GFP_HIGHUSER_MOVABLE, h, 0), SIM_OK);
		pcp = sim_pcp(s, 0, 0, ZONE_NORMAL);
		count = pcp->count;
		factor = pcp->alloc_factor;
		free_before = normal(s)->nr_free_pages;
		sim_events_clear(s);
		CHECK_EQ(apply(s, OP_FREE, 0, 0, 0, 1, FREE_PCP_LOCKED), SIM_OK);
		CHECK_EQ(count_events(s, EV_MM_PAGE_FREE), 1);
		if (profiles[i] == PROFILE_6_18) {
			CHECK_EQ(pcp->count, count);
			CHECK_EQ(pcp->alloc_factor, factor);
			CHECK_EQ(normal(s)->nr_free_pages, free_before + 1);
		} else {
			CHECK_EQ(pcp->count, count + 1);
			CHECK_EQ(normal(s)->nr_free_pages, free_before);
		}
		/* an ordinary free of the next block reaches the list on both */
		CHECK_EQ(apply(s, OP_FREE, 0, 0, 0, 2, 0), SIM_OK);
		CHECK_EQ(pcp->count, count + (profiles[i] == PROFILE_6_18 ? 1 : 2));
		free(s);
	}
}

TEST(pcp_refill_sizes_6_6_fixed_batch)
{
	struct sim *s = boot_normal(PROFILE_6_6, 262144);
	struct zone *z;

	CHECK(s);
	if (!s)
		return;
	z = normal(s);
	for (int i = 0; i < 4 * 63; i++)
		pcp_rmqueue(s, z, 0, &sim_cpus(s)[0], 0, MIGRATE_MOVABLE, 0);
	CHECK_EQ(count_events(s, EV_PCP_REFILL), 4);
	for (uint32_t i = 0; i < s->nr_events; i++)
		if (sim_events(s)[i].kind == EV_PCP_REFILL)
			CHECK_EQ(sim_events(s)[i].a, 63);
	CHECK_EQ(sim_check(s), SIM_OK);
	free(s);
}

/* ---- the 2016 drain: Joonsoo Kim's review case (B.11) -------------------------------------------- */

TEST(pcp_2016_joonsoo_drain_skips_order3)
{
	/*
	 * 2016-v5 on a 32768-page zone: batch 7, high = 7 * 3 + (7 << 3) = 77. Fill every list, then
	 * an unmovable order-0 free crosses high: the drain of `batch` = 7 pages starts at the
	 * unmovable order-0 list and goes round-robin one entry per list: U 1 + M 1 + R 1 +
	 * order-1 2 + order-2 4 = 9 pages >= 7, and the order-3 list is never reached.
	 */
	struct sim *s = boot("classroom", PROFILE_2016_V5, 0);
	const struct per_cpu_pages *pcp;
	uint32_t mine = PFN_NONE;
	struct zone *z;
	int drained = 0, order3 = 0;

	CHECK(s);
	if (!s)
		return;
	z = normal(s);
	pcp = sim_pcp(s, 0, 0, ZONE_NORMAL);
	CHECK_EQ(pcp->batch, 7);
	CHECK_EQ(pcp->high, 77);
	for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++) {
		uint32_t pfn = pcp_rmqueue(s, z, 0, &sim_cpus(s)[0], 0, mt, 0);
		if (mt == MIGRATE_UNMOVABLE)
			mine = pfn;
	}
	for (int order = 1; order <= 3; order++)
		CHECK(pcp_rmqueue(s, z, 0, &sim_cpus(s)[0], order, MIGRATE_MOVABLE, 0) != PFN_NONE);
	/* each refill brought 7 blocks and one went out: 6 + 6 + 6 + 6*2 + 6*4 + 6*8 */
	CHECK_EQ(pcp->count, 102);
	CHECK_EQ(sim_check(s), SIM_OK);
	sim_events_clear(s);
	pcp_free(s, z, 0, mine, 0);
	for (uint32_t i = 0; i < s->nr_events; i++) {
		const struct sim_event *e = &sim_events(s)[i];
		if (e->kind == EV_PCP_BULK_FREE)
			CHECK_EQ(e->a, 7);
		if (e->kind != EV_MM_PAGE_PCPU_DRAIN)
			continue;
		/* visited in order: pindex 0, 1, 2, 3, 4 */
		CHECK_EQ(e->a, drained); /* pindex of the list it came from */
		drained++;
		order3 += e->order == 3;
	}
	CHECK_EQ(drained, 5);
	CHECK_EQ(order3, 0);
	CHECK_EQ(pcp->count, 103 - 9);
	CHECK_EQ(pcp->nr_blocks[5], 6); /* order-3 list untouched */
	CHECK_EQ(pcp->nr_blocks[3], 5);
	CHECK_EQ(pcp->nr_blocks[4], 5);
	CHECK_EQ(sim_check(s), SIM_OK);
	free(s);
}

/* ---- freeing heuristics (B.6) ------------------------------------------------------------------- */

TEST(pcp_free_high_6_18_needs_batch_plus_half_high_min)
{
	/* classroom 6.18: batch 7, high_min ~ 1000; order-1 frees, so free_high decides */
	struct sim *s = boot("classroom", PROFILE_6_18, 0);
	struct per_cpu_pages *pcp;
	struct zone *z;
	uint32_t b[10];

	CHECK(s);
	if (!s)
		return;
	z = normal(s);
	pcp = sim_pcp(s, 0, 0, ZONE_NORMAL);
	for (int i = 0; i < 10; i++)
		b[i] = pcp_rmqueue(s, z, 0, &sim_cpus(s)[0], 1, MIGRATE_MOVABLE, 0);
	pcp_drain_pages_zone(s, z, 0);
	CHECK_EQ(pcp->count, 0);
	CHECK(pcp->high_min / 2 > 0);
	CHECK(pcp->flags & PCPF_FREE_HIGH_BATCH);
	/* two blocks listed first, so "count >= batch" does not decide the cases below */
	pcp_free(s, z, 0, b[8], 1);
	pcp_free(s, z, 0, b[9], 1);
	/* a run of frees as long as batch: not enough in 6.18 ... */
	pcp->free_count = (int16_t)pcp->batch;
	pcp->flags |= PCPF_PREV_FREE_HIGH_ORDER;
	sim_events_clear(s);
	pcp_free(s, z, 0, b[0], 1);
	CHECK_EQ(count_events(s, EV_PCP_BULK_FREE), 0);
	CHECK_EQ(pcp->count, 6);
	/* ... but under the older rule (free_count >= batch) everything goes at once */
	s->profile.free_high_adds_high_min = 0;
	pcp->free_count = (int16_t)pcp->batch;
	sim_events_clear(s);
	pcp_free(s, z, 0, b[1], 1);
	CHECK_EQ(count_events(s, EV_PCP_BULK_FREE), 1);
	CHECK_EQ(pcp->count, 0); /* free_high frees min(count, batch << 5) */
	s->profile.free_high_adds_high_min = 1;
	/* with a big cache slice (PCPF_FREE_HIGH_BATCH) free_high also waits for a listed batch */
	for (int i = 2; i < 6; i++) {
		pcp->free_count = 0;
		pcp_free(s, z, 0, b[i], 1);
	}
	CHECK_EQ(pcp->count, 8);
	/* 6.18 once the run reaches batch + high_min / 2 */
	pcp->free_count = (int16_t)(pcp->batch + pcp->high_min / 2);
	sim_events_clear(s);
	pcp_free(s, z, 0, b[6], 1);
	CHECK_EQ(count_events(s, EV_PCP_BULK_FREE), 1);
	CHECK_EQ(pcp->count, 0);
	CHECK_EQ(sim_check(s), SIM_OK);
	free(s);
}

TEST(pcp_high_grows_then_decays_with_ticks)
{
	struct sim *s = boot_normal(PROFILE_6_18, 262144);
	struct per_cpu_pages *pcp;
	struct zone *z;
	static uint32_t pfns[4096];
	int n = 0;

	CHECK(s);
	if (!s)
		return;
	z = normal(s);
	pcp = sim_pcp(s, 0, 0, ZONE_NORMAL);
	for (n = 0; n < 4000; n++)
		pfns[n] = pcp_rmqueue(s, z, 0, &sim_cpus(s)[0], 0, MIGRATE_MOVABLE, 0);
	CHECK(pcp->high > pcp->high_min);
	for (int i = 0; i < n; i++)
		pcp_free(s, z, 0, pfns[i], 0);
	CHECK(pcp->count <= pcp->high || pcp->count < pcp->high_max);
	for (int t = 0; t < 40; t++) {
		int32_t high = pcp->high, count = pcp->count, want = high;
		if (high > pcp->high_min) {
			want = count - (pcp->batch << PCP_BATCH_SCALE_MAX);
			if (want < high - (high >> 3))
				want = high - (high >> 3);
			if (want < pcp->high_min)
				want = pcp->high_min;
		}
		pcp_vmstat_tick(s, 0);
		CHECK_EQ(pcp->high, want);
		CHECK(pcp->count <= pcp->high);
	}
	CHECK_EQ(pcp->high, pcp->high_min); /* after enough idle seconds */
	CHECK_EQ(sim_check(s), SIM_OK);
	free(s);
}

/* ---- drains and hotplug (B.9, B.4) ---------------------------------------------------------------- */

TEST(pcp_drain_all_and_hotplug_recompute)
{
	struct sim *s = boot("classroom", PROFILE_6_18, 0);
	struct zone *z;
	int32_t high_min_two;

	CHECK(s);
	if (!s)
		return;
	z = normal(s);
	high_min_two = z->pageset_high_min;
	for (int cpu = 0; cpu < 2; cpu++) {
		for (uint32_t h = 0; h < 20; h++)
			CHECK_EQ(apply(s, OP_ALLOC, cpu, 0, GFP_HIGHUSER_MOVABLE,
				       (uint32_t)cpu * 20 + h, 0),
				 SIM_OK);
		for (uint32_t h = 0; h < 10; h++)
			CHECK_EQ(apply(s, OP_FREE, cpu, 0, 0, (uint32_t)cpu * 20 + h, 0), SIM_OK);
	}
	CHECK(sim_pcp(s, 0, 0, ZONE_NORMAL)->count > 0);
	CHECK(sim_pcp(s, 1, 0, ZONE_NORMAL)->count > 0);
	/* CPU 1 dies: its lists are drained and the low watermark is split over one CPU */
	CHECK_EQ(apply(s, OP_CPU_OFFLINE, 1, 0, 0, 0, 0), SIM_OK);
	CHECK_EQ(sim_pcp(s, 1, 0, ZONE_NORMAL)->count, 0);
	CHECK_EQ(z->pageset_high_min, pcp_zone_highsize(s, z, z->pageset_batch, 0, 0));
	CHECK(z->pageset_high_min >= high_min_two);
	/* back online: recomputed with cpu_online 1 while it is in the mask already = 2 CPUs */
	CHECK_EQ(apply(s, OP_CPU_ONLINE, 1, 0, 0, 0, 0), SIM_OK);
	CHECK_EQ(z->pageset_high_min, high_min_two);
	sim_events_clear(s);
	CHECK_EQ(apply(s, OP_DRAIN_ALL, 0, 0, 0, 0, 0), SIM_OK);
	CHECK_EQ(sim_pcp(s, 0, 0, ZONE_NORMAL)->count, 0);
	CHECK(count_events(s, EV_MM_PAGE_PCPU_DRAIN) > 0);
	CHECK_EQ(count_events(s, EV_DRAIN) >= 1, 1);
	free(s);
}

TEST(pcp_remote_node_expiry_drains_a_batch)
{
	struct sim_config cfg;
	struct sim *s;
	struct zone *remote;
	struct per_cpu_pages *pcp;
	uint32_t pfns[8];

	sim_config_default(&cfg);
	cfg.nr_nodes = 2;
	cfg.cpus_per_node = 1;
	cfg.zones[0][ZONE_NORMAL] = (struct zone_config){ 1u << 20, 32768, 32768, 32768 };
	cfg.zones[1][ZONE_NORMAL] = (struct zone_config){ 2u << 20, 32768, 32768, 32768 };
	s = test_boot(&cfg);
	CHECK(s);
	if (!s)
		return;
	remote = sim_zone(s, 1, ZONE_NORMAL);
	pcp = sim_pcp(s, 0, 1, ZONE_NORMAL); /* CPU 0 (node 0) caching node 1's pages */
	for (int i = 0; i < 8; i++)
		pfns[i] = pcp_rmqueue(s, remote, 0, &sim_cpus(s)[0], 0, MIGRATE_MOVABLE, 0);
	for (int i = 0; i < 8; i++)
		pcp_free(s, remote, 0, pfns[i], 0);
	CHECK_EQ(pcp->expire, 3);
	{
		int32_t before = pcp->count;
		pcp_vmstat_tick(s, 0);
		pcp_vmstat_tick(s, 0);
		CHECK_EQ(pcp->count, before);
		pcp_vmstat_tick(s, 0); /* third idle tick: one batch goes back */
		CHECK_EQ(pcp->count, before - (before < pcp->batch ? before : pcp->batch));
	}
	CHECK_EQ(sim_check(s), SIM_OK);
	free(s);
}

/* ---- many CPUs: the zone lock in virtual time ------------------------------------------------------ */

TEST(lock_wait_and_handover)
{
	struct sim *s = boot("tiny", PROFILE_6_18, 0);
	struct zone *z;

	CHECK(s);
	if (!s)
		return;
	z = normal(s);
	s->nr_events = 0;
	sim_cpus(s)[1].clock_ns = 0;
	zone_lock(s, z, 1);
	zone_unlock(s, z, 1, 7, 7);
	CHECK_EQ(sim_cpus(s)[1].clock_ns,
		 COST_LOCK_ACQUIRE_NS + 7 * COST_BUDDY_BLOCK_NS); /* first ever: no hand-over */
	/* CPU 0 arrives before CPU 1 released: it waits, then pays the hand-over */
	sim_cpus(s)[0].clock_ns = 100;
	zone_lock(s, z, 0);
	zone_unlock(s, z, 0, 2, 2);
	CHECK_EQ(z->lock.stats.wait_ns, 30 + 7 * 120 - 100);
	CHECK_EQ(sim_cpus(s)[0].clock_ns, 870 + 250 + 30 + 2 * 120);
	CHECK_EQ(z->lock.stats.acquisitions, 2);
	CHECK_EQ(z->lock_pages_moved, 9);
	CHECK_EQ(sim_cpus(s)[0].lock_wait_ns, 770);
	CHECK_EQ(count_events(s, EV_ZONE_LOCK), 2);
	CHECK_EQ(sim_events(s)[1].a, 770);
	free(s);
}

/* Zone lock acquisitions of a workload: rounds of order-1..3 allocs then frees on two CPUs. */
static uint64_t high_order_churn_locks(int profile)
{
	struct sim *s = boot("classroom", profile, 0);
	uint64_t acq;

	if (!s)
		return 0;
	for (int round = 0; round < 20; round++) {
		for (uint32_t h = 0; h < 12; h++)
			apply(s, OP_ALLOC, (int)(h & 1), 1 + (int)(h % 3), GFP_HIGHUSER_MOVABLE, h,
			      0);
		for (uint32_t h = 0; h < 12; h++)
			apply(s, OP_FREE, (int)(h & 1), 0, 0, h, 0);
	}
	acq = normal(s)->lock.stats.acquisitions;
	free(s);
	return acq;
}

TEST(lock_high_order_pcp_lists_cut_zone_lock_vs_5_13)
{
	uint64_t v513 = high_order_churn_locks(PROFILE_5_13);
	uint64_t v514 = high_order_churn_locks(PROFILE_5_14);
	uint64_t v618 = high_order_churn_locks(PROFILE_6_18);

	/* 5.13: every order-1..3 alloc and free takes zone->lock: 20 rounds x 24 ops */
	CHECK_EQ(v513, 20 * 24);
	CHECK(v514 * 4 < v513);
	CHECK(v618 * 4 < v513);
}

/* Zone lock acquisitions of one CPU allocating n order-0 pages in a row. */
static uint64_t bulk_alloc_locks(int profile, uint32_t n)
{
	struct sim *s = boot("classroom", profile, 0);
	uint64_t acq;

	if (!s)
		return 0;
	for (uint32_t h = 0; h < n; h++)
		CHECK_EQ(apply(s, OP_ALLOC, 0, 0, GFP_HIGHUSER_MOVABLE, h, 0), SIM_OK);
	acq = normal(s)->lock.stats.acquisitions;
	free(s);
	return acq;
}

TEST(lock_batch_scaling_6_18_cuts_zone_lock_vs_6_6)
{
	uint64_t v66 = bulk_alloc_locks(PROFILE_6_6, 1000);
	uint64_t v618 = bulk_alloc_locks(PROFILE_6_18, 1000);

	/* 6.6 refills batch = 7 pages per hold; 6.18 grows 7, 14, ... up to 7 << 5 */
	CHECK(v66 >= 1000 / 7);
	CHECK(v618 * 3 < v66);
}

/* ---- the corrupted page and the 2016 pcp-count fix (B.11) ------------------------------------------ */

TEST(pcp_corrupt_page_leaked_count_in_sync_with_fix)
{
	/*
	 * 2016-v5 (and every later kernel): the refill's first block fails the new-page check; it is
	 * reported, leaked (on no list) and never counted, so pcp->count matches its lists and a full
	 * drain ends normally.
	 */
	for (int profile = 0; profile < NR_PROFILES; profile++) {
		struct sim *s;
		const struct per_cpu_pages *pcp;
		if (!sim_profile_get(profile)->pcp_count_fix)
			continue;
		s = boot("classroom", profile, 0);
		CHECK(s);
		if (!s)
			return;
		pcp = sim_pcp(s, 0, 0, ZONE_NORMAL);
		CHECK_EQ(apply(s, OP_CORRUPT, 0, 0, 0, HANDLE_NONE, 0), SIM_OK);
		CHECK_EQ(apply(s, OP_ALLOC, 0, 0, GFP_HIGHUSER_MOVABLE, 0, 0), SIM_OK);
		CHECK_EQ(count_events(s, EV_PAGE_LEAK), 1);
		CHECK_EQ(pcp->count, listed_pages(s, normal(s), 0));
		CHECK_EQ(apply(s, OP_DRAIN_CPU, 0, 0, 0, 0, 0), SIM_OK);
		CHECK_EQ(pcp->count, 0);
		CHECK_EQ(count_events(s, EV_RUNAWAY_LOOP), 0);
		CHECK_EQ(apply(s, OP_ALLOC, 0, 0, GFP_HIGHUSER_MOVABLE, 1, 0), SIM_OK);
		CHECK(!s->frozen);
		free(s);
	}
}

TEST(pcp_corrupt_page_prefix_runaway_is_bounded)
{
	/*
	 * 2016-prefix: the refill counts the rejected block into pcp->count although it is on no list.
	 * Draining everything then leaves count > 0 with every list empty, and the kernel's "find the
	 * next non-empty list" loop would spin forever. The model stops after one lap of empty lists,
	 * emits EV_RUNAWAY_LOOP, freezes the state with a message, and sim_apply reports
	 * SIM_ECORRUPT for this op and for every later one. (The invariant checker is not run here:
	 * the out-of-sync count is exactly what this profile demonstrates.)
	 */
	struct sim *s = boot("classroom", PROFILE_2016_PREFIX, 0);
	const struct per_cpu_pages *pcp;
	struct sim_op op = { .kind = OP_CORRUPT, .cpu = 0, .handle = HANDLE_NONE };
	int runaway = -1;

	CHECK(s);
	if (!s)
		return;
	pcp = sim_pcp(s, 0, 0, ZONE_NORMAL);
	CHECK_EQ(sim_apply(s, &op), SIM_OK);
	op = (struct sim_op){ .kind = OP_ALLOC, .cpu = 0, .gfp = GFP_HIGHUSER_MOVABLE, .handle = 0 };
	CHECK_EQ(sim_apply(s, &op), SIM_OK);
	CHECK_EQ(count_events(s, EV_PAGE_LEAK), 1);
	CHECK_EQ(pcp->count,
		 listed_pages(s, normal(s), 0) + 1); /* out of sync by the leaked page */
	op = (struct sim_op){ .kind = OP_DRAIN_CPU, .cpu = 0 };
	CHECK_EQ(sim_apply(s, &op), SIM_ECORRUPT);
	CHECK(s->frozen);
	CHECK(strstr(s->error, "spin forever") != NULL);
	for (uint32_t i = 0; i < s->nr_events; i++)
		if (sim_events(s)[i].kind == EV_RUNAWAY_LOOP)
			runaway = (int)i;
	CHECK(runaway >= 0);
	if (runaway >= 0) {
		CHECK_EQ(sim_events(s)[runaway].b, 1); /* pcp->count */
		CHECK_EQ(sim_events(s)[runaway].c, 0); /* pages on the lists */
	}
	op = (struct sim_op){ .kind = OP_ALLOC, .cpu = 1, .gfp = GFP_HIGHUSER_MOVABLE, .handle = 1 };
	CHECK_EQ(sim_apply(s, &op), SIM_ECORRUPT);
	op = (struct sim_op){ .kind = OP_NOP };
	CHECK_EQ(sim_apply(s, &op), SIM_ECORRUPT);
	free(s);
}

/* ---- a mixed workload under every profile, checker after every op --------------------------------- */

TEST(pcp_mixed_workload_every_profile_checker_clean)
{
	for (int profile = 0; profile < NR_PROFILES; profile++) {
		struct sim *s = boot("tiny", profile, 0);
		CHECK(s);
		if (!s)
			return;
		for (int step = 0; step < 400; step++) {
			uint32_t h = (uint32_t)(step * 7) % 24;
			int cpu = step & 1;
			if (sim_handles(s)[h].pfn == PFN_NONE)
				apply(s, OP_ALLOC, cpu, step % 4,
				      (step % 3) ? GFP_HIGHUSER_MOVABLE : GFP_KERNEL, h, 0);
			else
				apply(s, OP_FREE, cpu ^ 1, 0, 0, h, 0);
			if (step % 97 == 0)
				apply(s, OP_TICK, 0, 0, 0, 0, 1);
			if (step % 151 == 0)
				apply(s, OP_DRAIN_ALL, cpu, 0, 0, 0, 0);
		}
		CHECK(!s->frozen);
		free(s);
	}
}

TEST(pcp_5_13_drains_exactly_batch_when_high_reached)
{
	/* <= 5.13: high = 6 * batch = 42; reaching it frees exactly batch = 7 order-0 pages */
	struct sim *s = boot("classroom", PROFILE_5_13, 0);
	const struct per_cpu_pages *pcp;
	int bulk = 0;

	CHECK(s);
	if (!s)
		return;
	pcp = sim_pcp(s, 0, 0, ZONE_NORMAL);
	CHECK_EQ(pcp->high, 42);
	for (uint32_t h = 0; h < 60; h++)
		CHECK_EQ(apply(s, OP_ALLOC, 0, 0, GFP_HIGHUSER_MOVABLE, h, 0), SIM_OK);
	sim_events_clear(s);
	for (uint32_t h = 0; h < 60; h++) {
		CHECK_EQ(apply(s, OP_FREE, 0, 0, 0, h, 0), SIM_OK);
		CHECK(pcp->count < pcp->high);
	}
	for (uint32_t i = 0; i < s->nr_events; i++) {
		const struct sim_event *e = &sim_events(s)[i];
		if (e->kind == EV_PCP_BULK_FREE) {
			CHECK_EQ(e->a, 7);
			bulk++;
		}
		if (e->kind == EV_MM_PAGE_PCPU_DRAIN) {
			CHECK_EQ(e->order, 0);
			CHECK_EQ(e->a,
				 MIGRATE_MOVABLE); /* the only non-empty list gives everything */
		}
	}
	CHECK_EQ(count_events(s, EV_MM_PAGE_PCPU_DRAIN), 7 * bulk);
	CHECK(bulk >= 3);
	free(s);
}
