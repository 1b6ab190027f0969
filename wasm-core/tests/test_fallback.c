/*
 * test_fallback.c: the fallback table, claiming and stealing (6.18, and the 6.10-6.14 rule no
 * profile runs today), watermark boosting and the high-order atomic reserve, against
 * docs/kernel/page_alloc/buddy.md (A.7-A.12), with sim_check after every step. Each older
 * profile's own fallback (6.6, 5.14, 5.13, the 4.9-based 2016 series) is in
 * test_fallback_versions.c.
 */
#include "buddy_test_util.h"

/*
 * The 6.10-6.14 __rmqueue_fallback (FALLBACK_STEAL_6_12, read in 6.12): no profile runs it, so
 * these tests put it on a 6.18 machine. (Until this branch the 6.6 profile ran it, which 6.6
 * never did: see test_fallback_versions.c.)
 */
static struct sim *with_6_12_rule(struct sim *s)
{
	if (s)
		s->profile.fallback_rule = FALLBACK_STEAL_6_12;
	return s;
}

TEST(fallback_table)
{
	CHECK_EQ(fallback_type(MIGRATE_UNMOVABLE, 0), MIGRATE_RECLAIMABLE);
	CHECK_EQ(fallback_type(MIGRATE_UNMOVABLE, 1), MIGRATE_MOVABLE);
	CHECK_EQ(fallback_type(MIGRATE_MOVABLE, 0), MIGRATE_RECLAIMABLE);
	CHECK_EQ(fallback_type(MIGRATE_MOVABLE, 1), MIGRATE_UNMOVABLE);
	CHECK_EQ(fallback_type(MIGRATE_RECLAIMABLE, 0), MIGRATE_UNMOVABLE);
	CHECK_EQ(fallback_type(MIGRATE_RECLAIMABLE, 1), MIGRATE_MOVABLE);
	CHECK_EQ(fallback_type(MIGRATE_HIGHATOMIC, 0), -1);
	CHECK_EQ(fallback_type(MIGRATE_ISOLATE, 1), -1);
	CHECK_EQ(fallback_type(MIGRATE_MOVABLE, 2), -1);
}

/* should_try_claim_block with pageblock_order 9 (x86-64) and 4 (tiny): uses pageblock_order / 2. */
TEST(fallback_claim_predicate)
{
	struct sim *s9 = bt_machine(PROFILE_6_18, 10, 9, 0, 1024);
	struct sim *s4 = bt_machine(PROFILE_6_18, 6, 4, 0, 64);

	CHECK(s9 && s4);
	if (!s9 || !s4)
		return;
	CHECK(fallback_may_claim(s9, 9, MIGRATE_MOVABLE));
	CHECK(fallback_may_claim(s9, 4, MIGRATE_MOVABLE));
	CHECK(!fallback_may_claim(s9, 3, MIGRATE_MOVABLE));
	CHECK(fallback_may_claim(s9, 0, MIGRATE_UNMOVABLE));
	CHECK(fallback_may_claim(s9, 0, MIGRATE_RECLAIMABLE));
	CHECK(fallback_may_claim(s4, 2, MIGRATE_MOVABLE));
	CHECK(!fallback_may_claim(s4, 1, MIGRATE_MOVABLE));
	free(s9);
	free(s4);
}

/* A free block of a whole pageblock or more is claimed outright: retagged, split on our lists. */
TEST(fallback_claim_whole_pageblocks)
{
	struct sim *s = bt_machine(PROFILE_6_18, 6, 4, 0, 256);
	struct zone *z;
	const struct sim_event *e;
	int mode = RMQUEUE_NORMAL;
	uint32_t pfn;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	sim_events_clear(s);
	pfn = rmqueue_with_fallback(s, z, 0, MIGRATE_UNMOVABLE, 0, &mode, 0);
	CHECK_EQ(pfn, 0);
	CHECK_EQ(mode, RMQUEUE_NORMAL);
	for (uint32_t pb = 0; pb < 64; pb += 16)
		CHECK_EQ(get_pageblock_migratetype(s, z, pb), MIGRATE_UNMOVABLE);
	CHECK_EQ(get_pageblock_migratetype(s, z, 64), MIGRATE_MOVABLE);
	CHECK(bt_is_free(s, 32, 5, MIGRATE_UNMOVABLE));
	CHECK(bt_is_free(s, 1, 0, MIGRATE_UNMOVABLE));
	e = bt_event(s, EV_PAGEBLOCK_CLAIM, 0);
	CHECK(e && e->pfn == 0 && e->mt == MIGRATE_UNMOVABLE && e->b == MIGRATE_MOVABLE &&
	      e->c == 1 && e->a == 64);
	CHECK(e && e->fn == FN_TRY_TO_CLAIM_BLOCK);
	e = bt_event(s, EV_MM_PAGE_ALLOC_EXTFRAG, 0);
	/* fallback_order 6 >= pageblock_order: not fragmenting; the pageblock is ours: change_ownership */
	CHECK(e && e->pfn == 0 && e->order == 0 && e->a == 6 && e->mt == MIGRATE_UNMOVABLE &&
	      e->b == MIGRATE_MOVABLE);
	CHECK(e && e->c == 2 && e->fn == FN___RMQUEUE_CLAIM);
	/* no watermark boost for claims of whole pageblocks */
	CHECK_EQ(bt_count(s, EV_WMARK_BOOST), 0);
	CHECK_EQ(s->ev.extfrag, 1);
	bt_page(s, 0)->state = PG_ALLOCATED;
	CHECK_EQ(bt_check(s), SIM_OK);
	/* the next unmovable request is served from its own lists */
	sim_events_clear(s);
	CHECK_EQ(bt_alloc(s, 0, MIGRATE_UNMOVABLE, 0), 1);
	CHECK_EQ(bt_count(s, EV_MM_PAGE_ALLOC_EXTFRAG), 0);
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/* 6.18: below the half-pageblock threshold the claim fails, lower orders are tried, then STEAL. */
TEST(fallback_6_18_claim_fails_then_steals_smallest)
{
	struct sim *s = mixed_pageblock(PROFILE_6_18, 1, MIGRATE_MOVABLE);
	struct zone *z;
	const struct sim_event *e;
	int mode = RMQUEUE_NORMAL;
	uint32_t pfn;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	pfn = rmqueue_with_fallback(s, z, 0, MIGRATE_UNMOVABLE, ALLOC_KSWAPD, &mode, 0);
	/* claims at orders 2 (pfn 12), 1 (10), 0 (9) all see 7 free + 0 alike < 8 */
	CHECK_EQ(bt_count(s, EV_PAGEBLOCK_CLAIM), 3);
	for (int i = 0; i < 3; i++) {
		e = bt_event(s, EV_PAGEBLOCK_CLAIM, i);
		CHECK(e && e->pfn == 0 && e->a == 7 && e->c == 0 && e->mt == MIGRATE_UNMOVABLE &&
		      e->b == MIGRATE_MOVABLE);
	}
	/* each attempt boosted the watermark, and ALLOC_KSWAPD flags the zone */
	CHECK_EQ(bt_count(s, EV_WMARK_BOOST), 3);
	CHECK(z->flags & ZONE_BOOSTED_WATERMARK);
	/* STEAL takes the smallest block, 9, without retagging */
	CHECK_EQ(pfn, 9);
	CHECK_EQ(mode, RMQUEUE_STEAL);
	CHECK_EQ(get_pageblock_migratetype(s, z, 0), MIGRATE_MOVABLE);
	e = bt_event(s, EV_MM_PAGE_ALLOC_EXTFRAG, 0);
	CHECK(e && e->pfn == 9 && e->a == 0 && e->c == 1 && e->fn == FN___RMQUEUE_STEAL);
	CHECK_EQ(bt_count(s, EV_MM_PAGE_ALLOC_EXTFRAG), 1);
	CHECK(bt_is_free(s, 10, 1, MIGRATE_MOVABLE) && bt_is_free(s, 12, 2, MIGRATE_MOVABLE));
	bt_page(s, 9)->state = PG_ALLOCATED;
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/* 6.12: the same request claims nothing and takes a piece of the largest block found. */
TEST(fallback_6_12_takes_piece_of_largest)
{
	struct sim *s = with_6_12_rule(mixed_pageblock(PROFILE_6_18, 1, MIGRATE_MOVABLE));
	struct zone *z;
	const struct sim_event *e;
	uint32_t pfn;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	pfn = rmqueue_with_fallback(s, z, 0, MIGRATE_UNMOVABLE, 0, NULL, 0);
	CHECK_EQ(pfn, 12);
	CHECK_EQ(bt_count(s, EV_PAGEBLOCK_CLAIM), 1);
	e = bt_event(s, EV_PAGEBLOCK_CLAIM, 0);
	CHECK(e && e->a == 7 && e->c == 0 && e->fn == FN_STEAL_SUITABLE_FALLBACK);
	/* the rest of the order-2 block stays on the lender's list: 14 (o1), 13 (o0) */
	CHECK(bt_is_free(s, 14, 1, MIGRATE_MOVABLE) && bt_is_free(s, 13, 0, MIGRATE_MOVABLE));
	e = bt_event(s, EV_MM_PAGE_ALLOC_EXTFRAG, 0);
	CHECK(e && e->pfn == 12 && e->a == 2 && e->c == 1 && e->fn == FN___RMQUEUE_FALLBACK);
	CHECK(!(z->flags & ZONE_BOOSTED_WATERMARK)); /* no ALLOC_KSWAPD */
	CHECK_EQ(bt_count(s, EV_WMARK_BOOST), 1);
	bt_page(s, 12)->state = PG_ALLOCATED;
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/* Enough free pages (half a pageblock): the pageblock is claimed and then allocated from. */
TEST(fallback_claim_at_threshold)
{
	/* 0..7 free too: 15 free pages >= 8 */
	struct sim *s = mixed_pageblock(PROFILE_6_18, 0, MIGRATE_MOVABLE);
	struct zone *z;
	const struct sim_event *e;
	int mode = RMQUEUE_NORMAL;
	uint32_t pfn;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	pfn = rmqueue_with_fallback(s, z, 0, MIGRATE_UNMOVABLE, 0, &mode, 0);
	e = bt_event(s, EV_PAGEBLOCK_CLAIM, 0);
	CHECK(e && e->a == 15 && e->c == 1);
	CHECK_EQ(get_pageblock_migratetype(s, z, 0), MIGRATE_UNMOVABLE);
	/* __rmqueue_smallest on UNMOVABLE now: the order-0 block 9 */
	CHECK_EQ(pfn, 9);
	CHECK_EQ(mode, RMQUEUE_NORMAL);
	CHECK(bt_is_free(s, 0, 3, MIGRATE_UNMOVABLE) && bt_is_free(s, 12, 2, MIGRATE_UNMOVABLE));
	e = bt_event(s, EV_MM_PAGE_ALLOC_EXTFRAG, 0);
	/* fallback order 3 < 4 is fragmenting, but the pageblock changed owner: c = 1 | 2 */
	CHECK(e && e->pfn == 9 && e->a == 3 && e->c == 3);
	CHECK_EQ(s->ev.pageblock_claimed, 1);
	bt_page(s, 9)->state = PG_ALLOCATED;
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/* Alike pages: an unmovable allocation in a movable pageblock counts toward claiming it. */
TEST(fallback_alike_pages_count)
{
	/* 7 free, 8 (o3 at 0) movable, 1 unmovable (pfn 8): alike = 16 - 7 - 8 = 1, 7 + 1 = 8 */
	struct sim *s = mixed_pageblock(PROFILE_6_18, 1, MIGRATE_UNMOVABLE);
	struct zone *z;
	const struct sim_event *e;
	uint32_t pfn;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	pfn = rmqueue_with_fallback(s, z, 0, MIGRATE_UNMOVABLE, 0, NULL, 0);
	e = bt_event(s, EV_PAGEBLOCK_CLAIM, 0);
	CHECK(e && e->a == 8 && e->c == 1);
	CHECK_EQ(pfn, 9);
	CHECK_EQ(get_pageblock_migratetype(s, z, 0), MIGRATE_UNMOVABLE);
	bt_page(s, 9)->state = PG_ALLOCATED;
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);

	/* a movable request into an unmovable pageblock counts the movable pages as alike */
	s = mixed_pageblock(PROFILE_6_18, 1, MIGRATE_MOVABLE);
	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	for (uint32_t pfn2 = 9; pfn2 < 16;
	     pfn2 += bt_page(s, pfn2)->order ? 1u << bt_page(s, pfn2)->order : 1)
		if (bt_page(s, pfn2)->state == PG_BUDDY)
			buddy_move_to_free_list(s, z, pfn2, MIGRATE_UNMOVABLE);
	set_pageblock_migratetype(s, z, 0, MIGRATE_UNMOVABLE);
	CHECK_EQ(bt_check(s), SIM_OK);
	sim_events_clear(s);
	/* order 2 may claim (>= pageblock_order / 2): 7 free + 9 movable = 16 */
	pfn = rmqueue_with_fallback(s, z, 2, MIGRATE_MOVABLE, 0, NULL, 0);
	CHECK_EQ(pfn, 12);
	e = bt_event(s, EV_PAGEBLOCK_CLAIM, 0);
	CHECK(e && e->a == 16 && e->c == 1 && e->mt == MIGRATE_MOVABLE &&
	      e->b == MIGRATE_UNMOVABLE);
	CHECK_EQ(get_pageblock_migratetype(s, z, 0), MIGRATE_MOVABLE);
	bt_page(s, 12)->state = PG_ALLOCATED;
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/* Small movable requests never claim: 6.18 skips straight to STEAL of the smallest block. */
TEST(fallback_small_movable_does_not_claim)
{
	struct sim *s = bt_machine(PROFILE_6_18, 6, 4, 0, 64);
	struct zone *z;
	uint32_t pfn;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	/* everything UNMOVABLE: retag, move the order-6 block */
	for (uint32_t pb = 0; pb < 64; pb += 16)
		set_pageblock_migratetype(s, z, pb, MIGRATE_UNMOVABLE);
	buddy_move_to_free_list(s, z, 0, MIGRATE_UNMOVABLE);
	CHECK_EQ(bt_check(s), SIM_OK);
	sim_events_clear(s);
	/* order-0 movable: the claim stage tries order 6..2 (6 >= pageblock_order claims whole) */
	pfn = rmqueue_with_fallback(s, z, 0, MIGRATE_MOVABLE, 0, NULL, 0);
	CHECK_EQ(pfn, 0);
	CHECK_EQ(get_pageblock_migratetype(s, z, 0), MIGRATE_MOVABLE);
	bt_page(s, 0)->state = PG_ALLOCATED;
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);

	/* now with only small unmovable blocks: order 1 and 0 (below pageblock_order / 2 = 2) */
	s = bt_machine(PROFILE_6_18, 6, 4, 0, 64);
	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	for (uint32_t pb = 0; pb < 64; pb += 16)
		set_pageblock_migratetype(s, z, pb, MIGRATE_UNMOVABLE);
	buddy_move_to_free_list(s, z, 0, MIGRATE_UNMOVABLE);
	CHECK_EQ(bt_alloc(s, 5, MIGRATE_UNMOVABLE, 0), 0);
	CHECK_EQ(bt_alloc(s, 4, MIGRATE_UNMOVABLE, 0), 32);
	CHECK_EQ(bt_alloc(s, 3, MIGRATE_UNMOVABLE, 0), 48);
	CHECK_EQ(bt_alloc(s, 2, MIGRATE_UNMOVABLE, 0), 56);
	CHECK_EQ(bt_alloc(s, 0, MIGRATE_UNMOVABLE, 0), 60);
	/* free: 61 (o0), 62 (o1) */
	CHECK_EQ(bt_check(s), SIM_OK);
	sim_events_clear(s);
	pfn = rmqueue_with_fallback(s, z, 0, MIGRATE_MOVABLE, 0, NULL, 0);
	CHECK_EQ(pfn, 61);
	CHECK_EQ(bt_count(s, EV_PAGEBLOCK_CLAIM), 0);
	CHECK_EQ(bt_count(s, EV_WMARK_BOOST), 0);
	CHECK(bt_event(s, EV_MM_PAGE_ALLOC_EXTFRAG, 0) &&
	      bt_event(s, EV_MM_PAGE_ALLOC_EXTFRAG, 0)->fn == FN___RMQUEUE_STEAL);
	bt_page(s, 61)->state = PG_ALLOCATED;
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/* 6.12: a movable request that cannot claim breaks the smallest foreign block, not the largest. */
TEST(fallback_6_12_movable_find_smallest)
{
	/* pageblock_order 6 = max_order: pageblock_order / 2 = 3, so order 2 cannot claim */
	struct sim *s = with_6_12_rule(bt_machine(PROFILE_6_18, 6, 6, 0, 64));
	struct zone *z;
	const struct sim_event *e;
	uint32_t pfn;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	set_pageblock_migratetype(s, z, 0, MIGRATE_UNMOVABLE);
	buddy_move_to_free_list(s, z, 0, MIGRATE_UNMOVABLE);
	CHECK_EQ(bt_alloc(s, 5, MIGRATE_UNMOVABLE, 0), 0);
	CHECK_EQ(bt_alloc(s, 4, MIGRATE_UNMOVABLE, 0), 32);
	CHECK_EQ(bt_alloc(s, 3, MIGRATE_UNMOVABLE, 0), 48);
	CHECK_EQ(bt_alloc(s, 1, MIGRATE_UNMOVABLE, 0), 56);
	CHECK_EQ(bt_alloc(s, 0, MIGRATE_UNMOVABLE, 0), 58);
	/* free: 59 (o0), 60 (o2) */
	CHECK(bt_is_free(s, 59, 0, MIGRATE_UNMOVABLE) && bt_is_free(s, 60, 2, MIGRATE_UNMOVABLE));
	CHECK_EQ(bt_check(s), SIM_OK);
	sim_events_clear(s);
	pfn = rmqueue_with_fallback(s, z, 0, MIGRATE_MOVABLE, 0, NULL, 0);
	CHECK_EQ(pfn, 59);
	e = bt_event(s, EV_MM_PAGE_ALLOC_EXTFRAG, 0);
	CHECK(e && e->pfn == 59 && e->a == 0 && e->fn == FN___RMQUEUE_FALLBACK);
	/* not allowed to claim: no counting, but steal_suitable_fallback boosts first (small zone: no) */
	CHECK_EQ(bt_count(s, EV_PAGEBLOCK_CLAIM), 0);
	CHECK_EQ(get_pageblock_migratetype(s, z, 0), MIGRATE_UNMOVABLE);
	bt_page(s, 59)->state = PG_ALLOCATED;
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/* ALLOC_NOFRAGMENT: only whole pageblocks may be taken, and there is no STEAL stage. */
TEST(fallback_nofragment)
{
	struct sim *s = mixed_pageblock(PROFILE_6_18, 1, MIGRATE_MOVABLE);
	struct zone *z;
	int mode = RMQUEUE_NORMAL;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	CHECK_EQ(rmqueue_with_fallback(s, z, 0, MIGRATE_UNMOVABLE, ALLOC_NOFRAGMENT, &mode, 0),
		 PFN_NONE);
	CHECK_EQ(bt_count(s, EV_PAGEBLOCK_CLAIM), 0);
	CHECK_EQ(bt_count(s, EV_MM_PAGE_ALLOC_EXTFRAG), 0);
	CHECK_EQ(bt_check(s), SIM_OK);
	/* the same under 6.12: no whole pageblock, nothing */
	free(s);
	s = with_6_12_rule(mixed_pageblock(PROFILE_6_18, 1, MIGRATE_MOVABLE));
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(rmqueue_with_fallback(s, bt_zone(s), 0, MIGRATE_UNMOVABLE, ALLOC_NOFRAGMENT, NULL,
				       0),
		 PFN_NONE);
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/* rmqueue_bulk's mode: after a STEAL the next call starts at STEAL, skipping the own list. */
TEST(fallback_mode_kept_across_bulk)
{
	struct sim *s = mixed_pageblock(PROFILE_6_18, 1, MIGRATE_MOVABLE);
	struct zone *z;
	int mode = RMQUEUE_NORMAL;
	uint32_t a, b;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	a = rmqueue_with_fallback(s, z, 0, MIGRATE_UNMOVABLE, 0, &mode, 0);
	CHECK_EQ(a, 9);
	CHECK_EQ(mode, RMQUEUE_STEAL);
	bt_page(s, a)->state = PG_ALLOCATED;
	/* give UNMOVABLE a block of its own: the NORMAL stage would take it, STEAL does not look */
	set_pageblock_migratetype(s, z, 0, MIGRATE_UNMOVABLE);
	buddy_move_to_free_list(s, z, 12, MIGRATE_UNMOVABLE);
	buddy_move_to_free_list(s, z, 10, MIGRATE_UNMOVABLE);
	set_pageblock_migratetype(s, z, 16, MIGRATE_MOVABLE);
	bt_free(s, 16, 4); /* a MOVABLE block to steal from */
	CHECK_EQ(bt_check(s), SIM_OK);
	sim_events_clear(s);
	b = rmqueue_with_fallback(s, z, 0, MIGRATE_UNMOVABLE, 0, &mode, 0);
	/* STEAL: smallest MOVABLE block is 16 (o4), split to order 0 on MOVABLE lists */
	CHECK_EQ(b, 16);
	CHECK_EQ(mode, RMQUEUE_STEAL);
	bt_page(s, b)->state = PG_ALLOCATED;
	CHECK_EQ(bt_check(s), SIM_OK);
	/* a fresh mode starts with NORMAL and finds the unmovable block */
	mode = RMQUEUE_NORMAL;
	CHECK_EQ(rmqueue_with_fallback(s, z, 0, MIGRATE_UNMOVABLE, 0, &mode, 0), 10);
	bt_page(s, 10)->state = PG_ALLOCATED;
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/* boost_watermark: by a pageblock per call, capped at high * factor / 10000, at least a pageblock. */
TEST(fallback_boost_values)
{
	struct sim *s = bt_machine(PROFILE_6_18, 6, 4, 0, 256);
	struct zone *z;
	const struct sim_event *e;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	z->_watermark[WMARK_HIGH] = 100; /* max_boost = 100 * 15000 / 10000 = 150 */
	z->watermark_boost = 0;
	sim_events_clear(s);
	for (int i = 1; i <= 9; i++) {
		CHECK_EQ(fallback_boost_watermark(s, z, 0), 1);
		CHECK_EQ(z->watermark_boost, 16 * i);
	}
	CHECK_EQ(fallback_boost_watermark(s, z, 0), 1);
	CHECK_EQ(z->watermark_boost, 150);
	CHECK_EQ(fallback_boost_watermark(s, z, 0), 1);
	CHECK_EQ(z->watermark_boost, 150);
	e = bt_event(s, EV_WMARK_BOOST, 9);
	CHECK(e && e->a == 144 && e->b == 150 && e->fn == FN_BOOST_WATERMARK);
	CHECK_EQ(wmark_pages(z, WMARK_HIGH), 250);
	/* a small high: max_boost 7 is raised to one pageblock */
	z->_watermark[WMARK_HIGH] = 5;
	z->watermark_boost = 0;
	CHECK_EQ(fallback_boost_watermark(s, z, 0), 1);
	CHECK_EQ(z->watermark_boost, 16);
	CHECK_EQ(fallback_boost_watermark(s, z, 0), 1);
	CHECK_EQ(z->watermark_boost, 16);
	/* mult_frac rounding: 1 * 15000 / 10000 = 1, raised to 16 */
	z->_watermark[WMARK_HIGH] = 1;
	z->watermark_boost = 0;
	CHECK_EQ(fallback_boost_watermark(s, z, 0), 1);
	CHECK_EQ(z->watermark_boost, 16);
	/* high 0 (early boot): no boost */
	z->_watermark[WMARK_HIGH] = 0;
	z->watermark_boost = 0;
	CHECK_EQ(fallback_boost_watermark(s, z, 0), 0);
	/* factor 0 disables */
	z->_watermark[WMARK_HIGH] = 100;
	s->config.watermark_boost_factor = 0;
	CHECK_EQ(fallback_boost_watermark(s, z, 0), 0);
	CHECK_EQ(z->watermark_boost, 0);
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);

	/* managed < 4 pageblocks: no boost */
	s = bt_machine(PROFILE_6_18, 6, 4, 0, 63);
	CHECK(s != NULL);
	if (!s)
		return;
	bt_zone(s)->_watermark[WMARK_HIGH] = 100;
	CHECK_EQ(fallback_boost_watermark(s, bt_zone(s), 0), 0);
	free(s);
	/* exactly 4 pageblocks: boosts */
	s = bt_machine(PROFILE_6_18, 6, 4, 0, 64);
	CHECK(s != NULL);
	if (!s)
		return;
	bt_zone(s)->_watermark[WMARK_HIGH] = 100;
	CHECK_EQ(fallback_boost_watermark(s, bt_zone(s), 0), 1);
	free(s);
}

/* reserve_highatomic_pageblock: 6.18 limit is 1% rounded up to pageblocks, none under a pageblock. */
TEST(highatomic_reserve_limit_6_18)
{
	/* 4000 pages: 1% = 40 -> rounded up to 48 = 3 pageblocks of 16 */
	struct sim *s = bt_machine(PROFILE_6_18, 6, 4, 0, 4000);
	struct zone *z;
	const struct sim_event *e;
	uint32_t pfn[4];

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	for (int i = 0; i < 4; i++) {
		/* each order-4 atomic allocation comes from a different pageblock */
		pfn[i] = bt_alloc(s, 4, MIGRATE_MOVABLE, 0);
		CHECK(pfn[i] != PFN_NONE);
	}
	/* an order-1 allocation in its own pageblock: the rest of that block becomes reserve */
	{
		uint32_t p = bt_alloc(s, 1, MIGRATE_UNMOVABLE, 0);
		int pb_mt;
		CHECK(p != PFN_NONE);
		pb_mt = get_pageblock_migratetype(s, z, p);
		CHECK_EQ(pb_mt, MIGRATE_UNMOVABLE);
		sim_events_clear(s);
		highatomic_reserve_pageblock(s, z, p, 1, 0);
		CHECK_EQ(z->nr_reserved_highatomic, 16);
		CHECK_EQ(get_pageblock_migratetype(s, z, p), MIGRATE_HIGHATOMIC);
		/* the pageblock's 14 free pages moved to the HIGHATOMIC lists */
		CHECK_EQ(z->nr_free_highatomic, 14);
		e = bt_event(s, EV_HIGHATOMIC_RESERVE, 0);
		CHECK(e && e->pfn == (p & ~15u) && e->a == 16 &&
		      e->fn == FN_RESERVE_HIGHATOMIC_PAGEBLOCK);
		CHECK_EQ(bt_count(s, EV_ZONE_LOCK), 1);
		CHECK_EQ(bt_check(s), SIM_OK);
		/* a second reserve of a HIGHATOMIC pageblock does nothing */
		highatomic_reserve_pageblock(s, z, p, 1, 0);
		CHECK_EQ(z->nr_reserved_highatomic, 16);
	}
	/* order >= pageblock_order: the allocated block's pageblocks are retagged */
	highatomic_reserve_pageblock(s, z, pfn[0], 4, 0);
	CHECK_EQ(z->nr_reserved_highatomic, 32);
	CHECK_EQ(get_pageblock_migratetype(s, z, pfn[0]), MIGRATE_HIGHATOMIC);
	highatomic_reserve_pageblock(s, z, pfn[1], 4, 0);
	CHECK_EQ(z->nr_reserved_highatomic, 48);
	/* at the limit (48): no more */
	highatomic_reserve_pageblock(s, z, pfn[2], 4, 0);
	CHECK_EQ(z->nr_reserved_highatomic, 48);
	CHECK_EQ(get_pageblock_migratetype(s, z, pfn[2]), MIGRATE_MOVABLE);
	CHECK_EQ(bt_check(s), SIM_OK);
	/* freeing a reserved block puts it on the HIGHATOMIC list */
	bt_free(s, pfn[0], 4);
	CHECK(bt_is_free(s, pfn[0], 4, MIGRATE_HIGHATOMIC));
	CHECK_EQ(z->nr_free_highatomic, 30);
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);

	/* 1% under a pageblock: nothing is ever reserved */
	s = bt_machine(PROFILE_6_18, 6, 4, 0, 1000);
	CHECK(s != NULL);
	if (!s)
		return;
	{
		uint32_t p = bt_alloc(s, 1, MIGRATE_MOVABLE, 0);
		highatomic_reserve_pageblock(s, bt_zone(s), p, 1, 0);
		CHECK_EQ(bt_zone(s)->nr_reserved_highatomic, 0);
		CHECK_EQ(get_pageblock_migratetype(s, bt_zone(s), p), MIGRATE_MOVABLE);
	}
	free(s);
}

/* Before 6.10 (our 6.6 and older profiles): limit = 1% + one pageblock, even on small zones. */
TEST(highatomic_reserve_limit_old_rule)
{
	/* 1000 pages: limit 10 + 16 = 26: two pageblocks (0 < 26, 16 < 26), not a third (32) */
	struct sim *s = bt_machine(PROFILE_6_6, 6, 4, 0, 1000);
	struct zone *z;
	uint32_t p[3];

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	for (int i = 0; i < 3; i++) {
		p[i] = bt_alloc(s, 4, MIGRATE_MOVABLE, 0);
		CHECK(p[i] != PFN_NONE);
	}
	for (int i = 0; i < 3; i++)
		highatomic_reserve_pageblock(s, z, p[i], 4, 0);
	CHECK_EQ(z->nr_reserved_highatomic, 32);
	CHECK_EQ(get_pageblock_migratetype(s, z, p[2]), MIGRATE_MOVABLE);
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/* unreserve_highatomic_pageblock: keeps one pageblock unless forced, gives blocks to the caller's type. */
TEST(highatomic_unreserve)
{
	struct sim *s = bt_machine(PROFILE_6_18, 6, 4, 0, 4000);
	struct zone *z;
	const struct sim_event *e;
	uint32_t a, b;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	a = bt_alloc(s, 1, MIGRATE_MOVABLE, 0);
	highatomic_reserve_pageblock(s, z, a, 1, 0);
	CHECK_EQ(z->nr_reserved_highatomic, 16);
	CHECK_EQ(bt_check(s), SIM_OK);
	/* one pageblock reserved: kept unless forced */
	CHECK_EQ(highatomic_unreserve_pageblock(s, 0, ZONE_NORMAL, MIGRATE_UNMOVABLE, 0, 0), 0);
	CHECK_EQ(z->nr_reserved_highatomic, 16);
	sim_events_clear(s);
	CHECK_EQ(highatomic_unreserve_pageblock(s, 0, ZONE_NORMAL, MIGRATE_UNMOVABLE, 1, 0), 1);
	CHECK_EQ(z->nr_reserved_highatomic, 0);
	CHECK_EQ(get_pageblock_migratetype(s, z, a), MIGRATE_UNMOVABLE);
	CHECK_EQ(z->nr_free_highatomic, 0);
	e = bt_event(s, EV_HIGHATOMIC_UNRESERVE, 0);
	CHECK(e && e->a == 0 && e->mt == MIGRATE_UNMOVABLE && e->c == 14 &&
	      e->fn == FN_UNRESERVE_HIGHATOMIC_PAGEBLOCK);
	CHECK_EQ(bt_check(s), SIM_OK);
	/* nothing reserved, nothing free on HIGHATOMIC: forced or not, no */
	CHECK_EQ(highatomic_unreserve_pageblock(s, 0, ZONE_NORMAL, MIGRATE_UNMOVABLE, 1, 0), 0);
	/* the zonelist walk stops at highest_zoneidx: a DMA32-only request never sees Normal */
	b = bt_alloc(s, 1, MIGRATE_MOVABLE, 0);
	highatomic_reserve_pageblock(s, z, b, 1, 0);
	CHECK_EQ(highatomic_unreserve_pageblock(s, 0, ZONE_DMA32, MIGRATE_UNMOVABLE, 1, 0), 0);
	CHECK_EQ(z->nr_reserved_highatomic, 16);
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/* A pageblock straddling the zone's first frame cannot be claimed (prep_move_freepages_block). */
TEST(fallback_claim_refused_at_zone_edge)
{
	/* frames [8, 72): pageblock 0..15 is half outside */
	struct sim *s = bt_machine(PROFILE_6_18, 6, 4, 8, 64);
	struct zone *z;
	const struct sim_event *e;
	uint32_t pfn;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	/* blocks: 8 (o3), 16 (o4), 32 (o5), 64 (o3). Take all but 8 */
	CHECK(bt_is_free(s, 8, 3, MIGRATE_MOVABLE));
	CHECK_EQ(bt_alloc(s, 5, MIGRATE_MOVABLE, 0), 32);
	CHECK_EQ(bt_alloc(s, 4, MIGRATE_MOVABLE, 0), 16);
	CHECK_EQ(bt_alloc(s, 3, MIGRATE_MOVABLE, 0), 8);
	CHECK_EQ(bt_alloc(s, 3, MIGRATE_MOVABLE, 0), 64);
	bt_free(s, 8, 3);
	z->_watermark[WMARK_HIGH] = 20;
	sim_events_clear(s);
	pfn = rmqueue_with_fallback(s, z, 0, MIGRATE_UNMOVABLE, 0, NULL, 0);
	e = bt_event(s, EV_PAGEBLOCK_CLAIM, 0);
	CHECK(e && e->a == -1 && e->c == 0);
	/* so it is stolen instead */
	CHECK_EQ(pfn, 8);
	CHECK_EQ(get_pageblock_migratetype(s, z, 8), MIGRATE_MOVABLE);
	bt_page(s, 8)->state = PG_ALLOCATED;
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/* Through sim_apply: the first unmovable allocation on a fresh machine claims MOVABLE pageblocks. */
TEST(fallback_via_ops_first_kernel_alloc_claims)
{
	struct sim_config cfg;
	struct sim *s;
	struct sim_op op = {
		.kind = OP_ALLOC, .order = 0, .cpu = 0, .gfp = GFP_KERNEL, .handle = 0
	};
	const struct sim_event *e;

	CHECK_EQ(sim_config_preset(&cfg, "tiny"), SIM_OK);
	s = test_boot(&cfg);
	CHECK(s != NULL);
	if (!s)
		return;
	sim_events_clear(s);
	CHECK_EQ(sim_apply(s, &op), SIM_OK);
	CHECK_EQ(bt_check(s), SIM_OK);
	e = bt_event(s, EV_MM_PAGE_ALLOC_EXTFRAG, 0);
	/* a whole order-6 block (4 pageblocks) changes owner: not fragmenting */
	CHECK(e && e->mt == MIGRATE_UNMOVABLE && e->b == MIGRATE_MOVABLE && e->a == 6 && e->c == 2);
	CHECK_EQ(get_pageblock_migratetype(s, bt_zone(s), sim_handles(s)[0].pfn),
		 MIGRATE_UNMOVABLE);
	free(s);
}

/* Random streams of every migratetype and orders up to MAX_PAGE_ORDER keep every invariant. */
TEST(fallback_random_streams_stay_consistent)
{
	static const char *const presets[] = { "tiny", "small" };
	static const uint32_t gfps[] = { GFP_KERNEL, GFP_HIGHUSER_MOVABLE,
					 GFP_KERNEL | __GFP_RECLAIMABLE, GFP_ATOMIC,
					 GFP_NOWAIT | __GFP_HIGH };
	uint64_t extfrag = 0, claimed = 0, merges = 0;

	for (int p = 0; p < 2; p++) {
		for (int pr = 0; pr < NR_PROFILES; pr++) {
			struct sim_config cfg;
			struct sim *s;
			int bad = 0;

			CHECK_EQ(sim_config_preset(&cfg, presets[p]), SIM_OK);
			cfg.profile = (uint8_t)pr;
			cfg.seed = 42;
			s = test_boot(&cfg);
			CHECK(s != NULL);
			if (!s)
				return;
			for (int i = 0; i < 1500 && !bad; i++) {
				int stream = i % 5;
				struct sim_op op = {
					.kind = OP_RANDOM,
					.order = (uint8_t)(stream == 4 ? 3 : cfg.max_order),
					.cpu = (uint16_t)(i & 1),
					.gfp = gfps[stream],
					.handle = (uint32_t)stream * 1000,
					/* up to 900 live blocks per stream, 40% frees */
					.arg = (900 << 7) | 40,
				};
				int err = sim_apply(s, &op);
				if (err != SIM_OK && err != SIM_ENOMEM) {
					CHECK_EQ(err, SIM_OK);
					bad = 1;
				}
				if (bt_check(s) != SIM_OK) {
					CHECK_EQ(i, -1);
					bad = 1;
				}
				merges += (uint64_t)bt_count(s, EV_BUDDY_MERGE);
				sim_events_clear(s);
			}
			extfrag += s->ev.extfrag;
			claimed += s->ev.pageblock_claimed;
			free(s);
		}
	}
	/* the streams did reach the fallback paths, not only the own lists */
	CHECK(extfrag > 0);
	CHECK(claimed > 0);
	CHECK(merges > 0);
}
