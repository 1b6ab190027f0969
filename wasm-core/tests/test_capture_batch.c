/*
 * test_capture_batch.c: a trace's frees of memory allocated before it, gathered into a folio batch
 * (OP_FREE_FOLIOS_CAPTURED) beside handles (OP_FREE_FOLIOS). free_unref_folios (6.18) runs
 * free_pages_prepare on every folio of the batch, then commits each under the pcp lock, so the
 * drains of its commits come back to back; the block joins the batch as CAPTURE_FREE would choose
 * it, and bad input or a block taken since is refused with nothing freed.
 */
#include "capture_test_util.h"
#include "page_alloc/page_alloc.h"
#include "reclaim/lru.h"
#include "reclaim/vocab.h"

#define NORMAL (0 * MAX_NR_ZONES + ZONE_NORMAL)
#define TYPE_MOVABLE (MIGRATE_MOVABLE + 1) /* the op's gfp: the trace's list type + 1 */

/*
 * One node, 2 CPUs, a 16384-page Normal zone (4 UNMOVABLE, 28 MOVABLE pageblocks), laid out with
 * `free` free MOVABLE blocks of `order`.
 */
static struct sim *laid_out_blocks(int order, int32_t free)
{
	struct sim_config cfg;
	struct sim *s;

	sim_config_default(&cfg);
	cfg.thp = 0;
	cfg.max_handles = 1000;
	cfg.event_capacity = 1 << 20;
	cfg.zones[0][ZONE_NORMAL] = (struct zone_config){ 1u << 20, 16384, 16384, 16384 };
	s = at_boot(&cfg);
	if (!s)
		return NULL;
	lay_out_normal(s, order, free, 4, 28);
	return s;
}

/* The zone laid out with `free` free order-0 pages. */
static struct sim *laid_out(int32_t free)
{
	return laid_out_blocks(0, free);
}

/* Captured in-use pages of the Normal zone. */
static int64_t captured(const struct sim *s)
{
	return captured_pages(s, sim_zone((struct sim *)s, 0, ZONE_NORMAL));
}

/* OP_FREE_FOLIOS_CAPTURED of an order-k block of the trace's list type on cpu; last: arg 1. */
static int gather_captured(struct sim *s, int cpu, int order, uint32_t type, int last)
{
	return at_op(s, OP_FREE_FOLIOS_CAPTURED, cpu, order, type, PFN_NONE, last);
}

/* The kinds of mm_page_free, mm_page_free_batched and mm_page_pcpu_drain events from `first` on. */
static int free_kinds(const struct sim *s, uint32_t first, int *kinds, int max)
{
	int n = 0;

	for (uint32_t i = first; i < s->nr_events && n < max; i++) {
		int k = sim_events(s)[i].kind;
		if (k == EV_MM_PAGE_FREE || k == EV_MM_PAGE_FREE_BATCHED ||
		    k == EV_MM_PAGE_PCPU_DRAIN)
			kinds[n++] = k;
	}
	return n;
}

TEST(captured_blocks_join_a_folio_batch_beside_handles)
{
	struct sim *s = laid_out(1000);
	const struct per_cpu_pages *pcp;
	uint32_t first, picked[2];
	int64_t before;
	int kinds[8], n, on_pcp;

	CHECK(s != NULL);
	if (!s)
		return;
	pcp = sim_pcp(s, 0, 0, ZONE_NORMAL);
	for (uint32_t h = 0; h < 2; h++)
		CHECK_EQ(at_alloc(s, 0, GFP_KERNEL, 0, h), SIM_OK);
	before = captured(s);
	on_pcp = pcp->count; /* what the refill left */
	first = s->nr_events;
	/* handle, captured, handle, captured: nothing is freed while the batch gathers */
	CHECK_EQ(at_op(s, OP_FREE_FOLIOS, 0, 0, 0, 0, 0), SIM_OK);
	CHECK_EQ(gather_captured(s, 0, 0, TYPE_MOVABLE, 0), SIM_OK);
	CHECK_EQ(at_op(s, OP_FREE_FOLIOS, 0, 0, 0, 1, 0), SIM_OK);
	CHECK_EQ(s->nr_events, first);
	CHECK_EQ(s->gather.nr, 3);
	CHECK_EQ(s->gather.captured[1], 0);
	picked[0] = s->gather.ref[1];
	/* the block chosen is still captured memory in use, of a MOVABLE pageblock */
	{
		const struct zone *z = sim_zone(s, 0, ZONE_NORMAL);
		const struct page *page = zone_page(s, z, picked[0]);
		CHECK_EQ(page->state, PG_ALLOCATED);
		CHECK_EQ(page->flags, PAGEF_CAPTURED);
		CHECK_EQ(get_pageblock_migratetype(s, z, picked[0]), MIGRATE_MOVABLE);
	}
	CHECK_EQ(captured(s), before);
	/* the last one frees the four: every mm_page_free, then every commit */
	CHECK_EQ(gather_captured(s, 0, 0, TYPE_MOVABLE, 1), SIM_OK);
	CHECK_EQ(s->gather.nr, 0);
	n = free_kinds(s, first, kinds, 8);
	CHECK_EQ(n, 8);
	for (int i = 0; i < n; i++)
		CHECK_EQ(kinds[i], i < 4 ? EV_MM_PAGE_FREE : EV_MM_PAGE_FREE_BATCHED);
	/* a second captured block, not the first again (it waited in the batch) */
	picked[1] = PFN_NONE;
	for (uint32_t i = first, frees = 0; i < s->nr_events; i++)
		if (sim_events(s)[i].kind == EV_MM_PAGE_FREE && ++frees == 4)
			picked[1] = sim_events(s)[i].pfn;
	CHECK(picked[1] != PFN_NONE && picked[1] != picked[0]);
	CHECK_EQ(captured(s), before - 2);
	CHECK_EQ(pcp->count, on_pcp + 4);
	CHECK_EQ(sim_handles(s)[0].pfn, PFN_NONE);
	CHECK_EQ(sim_handles(s)[1].pfn, PFN_NONE);
	free(s);
}

/*
 * The commits' drains come back to back. With ZONE_BELOW_HIGH set (a failed high-watermark check
 * in rmqueue leaves it) and 200 pages on CPU 0's list, above high_min (160), every commit drains
 * (nr_pcp_high returns max(count, high_min)): seven captured frees one by one (CAPTURE_FREE) drain
 * in seven runs, each after its mm_page_free; gathered, after all seven mm_page_free lines, in one.
 */
TEST(captured_batch_drains_come_back_to_back)
{
	int runs[2], drained[2];

	for (int batched = 0; batched < 2; batched++) {
		struct sim *s = laid_out(100);
		uint32_t first;
		int kinds[128], n, in_drain = 0;

		CHECK(s != NULL);
		if (!s)
			return;
		CHECK_EQ(at_op(s, OP_CAPTURE_PCP, 0, 0, MIGRATE_MOVABLE, NORMAL, 200), SIM_OK);
		sim_zone(s, 0, ZONE_NORMAL)->flags |= ZONE_BELOW_HIGH;
		first = s->nr_events;
		for (int i = 0; i < 7; i++)
			CHECK_EQ(batched ? gather_captured(s, 0, 0, TYPE_MOVABLE, i == 6) :
					   at_op(s, OP_CAPTURE_ZONE, 0, CAPTURE_FREE, TYPE_MOVABLE,
						 PFN_NONE, 0),
				 SIM_OK);
		n = free_kinds(s, first, kinds, 128);
		runs[batched] = drained[batched] = 0;
		for (int i = 0; i < n; i++) {
			if (kinds[i] == EV_MM_PAGE_PCPU_DRAIN && !in_drain)
				runs[batched]++;
			drained[batched] += kinds[i] == EV_MM_PAGE_PCPU_DRAIN;
			/* mm_page_free_batched is not traced in the captures: it ends no run */
			if (kinds[i] != EV_MM_PAGE_FREE_BATCHED)
				in_drain = kinds[i] == EV_MM_PAGE_PCPU_DRAIN;
		}
		if (batched)
			for (int i = 0; i < 7; i++)
				CHECK_EQ(kinds[i], EV_MM_PAGE_FREE);
		free(s);
	}
	/* the same drains, one run instead of seven */
	CHECK(drained[0] >= 7);
	CHECK_EQ(drained[1], drained[0]);
	CHECK_EQ(runs[0], 7);
	CHECK_EQ(runs[1], 1);
}

TEST(captured_batch_refuses_bad_input_and_changes_nothing)
{
	struct sim *s = laid_out(1000);
	uint64_t *stamps, *kept;
	int64_t before;

	CHECK(s != NULL);
	if (!s)
		return;
	stamps = sim_frame_stamps(s);
	kept = malloc(s->nr_frame_stamps * sizeof *kept);
	CHECK(kept != NULL);
	if (!kept) {
		free(s);
		return;
	}
	CHECK_EQ(gather_captured(s, 1, 0, TYPE_MOVABLE, 0), SIM_OK);
	before = captured(s);
	memcpy(kept, stamps, s->nr_frame_stamps * sizeof *kept);
	/* arg beyond 1, another CPU while CPU 1 gathers, an order past the largest, a type past them */
	CHECK_EQ(at_op(s, OP_FREE_FOLIOS_CAPTURED, 1, 0, TYPE_MOVABLE, PFN_NONE, 2), SIM_EINVAL);
	CHECK_EQ(gather_captured(s, 0, 0, TYPE_MOVABLE, 1), SIM_EINVAL);
	CHECK_EQ(gather_captured(s, 1, s->config.max_order + 1, TYPE_MOVABLE, 1), SIM_EINVAL);
	CHECK_EQ(gather_captured(s, 1, 0, MIGRATE_TYPES + 1, 1), SIM_EINVAL);
	CHECK_EQ(s->gather.nr, 1);
	CHECK_EQ(captured(s), before);
	CHECK(memcmp(kept, stamps, s->nr_frame_stamps * sizeof *kept) == 0);
	/* a raw free took the gathered block since: the batch frees nothing and is let go of */
	CHECK_EQ(at_alloc(s, 1, GFP_KERNEL, 0, 5), SIM_OK);
	CHECK_EQ(at_op(s, OP_FREE_FOLIOS, 1, 0, 0, 5, 0), SIM_OK);
	CHECK_EQ(at_op(s, OP_FREE_PFN, 1, 0, 0, s->gather.ref[0], 0), SIM_OK);
	CHECK_EQ(gather_captured(s, 1, 0, TYPE_MOVABLE, 1), SIM_EBADPAGE);
	CHECK_EQ(s->gather.nr, 0);
	CHECK(sim_handles(s)[5].pfn != PFN_NONE); /* the handle still holds its block */
	CHECK_EQ(captured(s), before - 1);	  /* the raw free's block only */
	free(kept);
	free(s);
}

TEST(captured_batch_last_op_frees_the_batch_when_nothing_is_left)
{
	/* 14 free order-10 blocks fill the MOVABLE pageblocks; the 4 UNMOVABLE ones stay in use */
	struct sim *s = laid_out_blocks(10, 14);
	int64_t left;

	CHECK(s != NULL);
	if (!s)
		return;
	left = captured(s) >> 10;
	CHECK_EQ(left, 2);
	for (int64_t i = 0; i < left; i++)
		CHECK_EQ(gather_captured(s, 0, 10, 0, 0), SIM_OK);
	/* nothing more to take: refused, and as the last of its batch it frees what gathered */
	CHECK_EQ(gather_captured(s, 0, 10, 0, 1), SIM_EINVAL);
	CHECK_EQ(s->gather.nr, 0);
	CHECK_EQ(captured(s), 0);
	CHECK_EQ(sim_zone(s, 0, ZONE_NORMAL)->nr_free_pages, 16384);
	/* not the last: refused, nothing gathered */
	CHECK_EQ(gather_captured(s, 0, 0, 0, 0), SIM_EINVAL);
	CHECK_EQ(s->gather.nr, 0);
	free(s);
}

TEST(captured_batch_takes_an_lru_page_off_its_list_as_it_joins)
{
	struct sim *s = laid_out(100);
	const struct lruvec *lv;
	const struct zone *z;
	uint32_t pfn;

	CHECK(s != NULL);
	if (!s)
		return;
	z = sim_zone(s, 0, ZONE_NORMAL);
	lv = &sim_nodes(s)[0].lruvec;
	/* every in-use page of the zone on the LRU: no captured block is left, only LRU pages */
	CHECK_EQ(at_op(s, OP_CAPTURE_LRU, 0, 0, LRU_INACTIVE_FILE, NORMAL, 16384), SIM_OK);
	CHECK_EQ(captured(s), 0);
	CHECK_EQ(gather_captured(s, 0, 0, TYPE_MOVABLE, 0), SIM_OK);
	pfn = s->gather.ref[0];
	/* off its list now (folios_put_refs), captured memory till the batch is freed */
	CHECK_EQ(lv->nr_pages[LRU_INACTIVE_FILE], 16384 - 100 - 1);
	CHECK_EQ(zone_page(s, z, pfn)->lru_flags, 0);
	CHECK_EQ(zone_page(s, z, pfn)->flags, PAGEF_CAPTURED);
	CHECK_EQ(gather_captured(s, 0, 0, TYPE_MOVABLE, 1), SIM_OK);
	CHECK(s->gather.ref[1] != pfn);
	CHECK_EQ(zone_page(s, z, pfn)->state, PG_PCP);
	CHECK_EQ(lv->nr_pages[LRU_INACTIVE_FILE], 16384 - 100 - 2);
	CHECK_EQ(sim_pcp(s, 0, 0, ZONE_NORMAL)->count, 2);
	free(s);
}
