/*
 * test_fallback_versions.c: each older profile's own __rmqueue_fallback, one section per kernel
 * tree read (docs/kernel/page_alloc/buddy.md#a9-claiming-and-stealing):
 *
 *   6.6    linux 6.6.9, mm/page_alloc.c: __rmqueue_fallback, find_suitable_fallback,
 *          can_steal_fallback, steal_suitable_fallback, move_freepages(_block), __rmqueue (the
 *          retry), reserve/unreserve_highatomic_pageblock, rmqueue (the boosted kswapd wake).
 *   5.14   linux 5.14-rc5, the same functions; ALLOC_NOFRAGMENT's floor and the tracepoint differ.
 *   5.13   read in linux 5.12.9 (no 5.13 tree was at hand): the functions above are the same code
 *          as 5.14's but for struct page walking in place of pfns.
 *   4.9    linux 4.9, the base of the 2016-v5 and 2016-prefix profiles: no alike pages, no boost,
 *          no retry: the block is split on the requester's lists directly.
 *
 * The machines are mixed_pageblock's (buddy_test_util.h): 64 pages, pageblocks of 16, max_order 6.
 */
#include "alloc_test_util.h"
#include "buddy_test_util.h"

/* The i-th buffered event, whatever its kind, or NULL. */
static const struct sim_event *nth_event(const struct sim *s, uint32_t i)
{
	return i < s->nr_events ? &sim_events(s)[i] : NULL;
}

/* ---- 6.6 -------------------------------------------------------------------------------------- */

/*
 * 6.6 steal_suitable_fallback, below pageblock order and allowed to claim: boost_watermark first,
 * then move_freepages_block moves every free block of the pageblock to the requester's lists
 * before the half test (7 free + 0 alike < 8: no retag). __rmqueue's "goto retry" then takes the
 * requester's smallest block, 9, not a piece of the order-2 block the fallback found (12).
 * The extfrag tracepoint names that found block, with change_ownership read after the test.
 */
TEST(fallback_6_6_moves_free_pages_then_retries)
{
	struct sim *s = mixed_pageblock(PROFILE_6_6, 1, MIGRATE_MOVABLE);
	struct zone *z;
	const struct sim_event *e;
	uint32_t pfn;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	pfn = rmqueue_with_fallback(s, z, 0, MIGRATE_UNMOVABLE, ALLOC_KSWAPD, NULL, 0);
	CHECK_EQ(pfn, 9);
	/* the order of decisions: boost, the move, the half test, extfrag, the retried take */
	e = nth_event(s, 0);
	CHECK(e && e->kind == EV_WMARK_BOOST);
	e = nth_event(s, 1);
	CHECK(e && e->kind == EV_MOVE_FREEPAGES_BLOCK && e->pfn == 0 && e->mt == MIGRATE_UNMOVABLE);
	/* 9 (o0) + 10 (o1) + 12 (o2) = 7 pages in 3 blocks; movable: 0..7 and 8 = 9 pages */
	CHECK(e && e->a == 7 && e->b == 3 && e->c == 9 && e->fn == FN_MOVE_FREEPAGES_BLOCK);
	e = nth_event(s, 2);
	CHECK(e && e->kind == EV_PAGEBLOCK_CLAIM && e->a == 7 && e->c == 0 &&
	      e->fn == FN_STEAL_SUITABLE_FALLBACK);
	e = nth_event(s, 3);
	/* fragmenting (2 < 4), no change of ownership: c = 1 */
	CHECK(e && e->kind == EV_MM_PAGE_ALLOC_EXTFRAG && e->pfn == 12 && e->a == 2 && e->c == 1 &&
	      e->fn == FN___RMQUEUE_FALLBACK);
	e = nth_event(s, 4);
	/* 6.6 traces in __rmqueue_smallest; percpu_refill = pcp order and pcp type */
	CHECK(e && e->kind == EV_MM_PAGE_ALLOC_ZONE_LOCKED && e->pfn == 9 &&
	      e->mt == MIGRATE_UNMOVABLE && e->a == 1 && e->fn == FN___RMQUEUE_SMALLEST);
	CHECK(z->flags & ZONE_BOOSTED_WATERMARK);
	/* the pageblock stays MOVABLE, yet its free blocks now sit on UNMOVABLE lists */
	CHECK_EQ(get_pageblock_migratetype(s, z, 0), MIGRATE_MOVABLE);
	CHECK(bt_is_free(s, 10, 1, MIGRATE_UNMOVABLE) && bt_is_free(s, 12, 2, MIGRATE_UNMOVABLE));
	bt_page(s, 9)->state = PG_ALLOCATED;
	CHECK_EQ(bt_check(s), SIM_OK);
	/* so the next unmovable request is served from its own lists, with no fallback at all */
	sim_events_clear(s);
	CHECK_EQ(bt_alloc(s, 0, MIGRATE_UNMOVABLE, 0), 10);
	CHECK_EQ(bt_count(s, EV_MM_PAGE_ALLOC_EXTFRAG), 0);
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/*
 * 6.6 with half the pageblock free: the largest foreign block (0, order 3) is found; all four free
 * blocks move and the pageblock is retagged; the retry takes the smallest, 9. The extfrag event
 * names 0 (6.18 would name the block it returned).
 */
TEST(fallback_6_6_claims_at_half)
{
	struct sim *s = mixed_pageblock(PROFILE_6_6, 0, MIGRATE_MOVABLE);
	struct zone *z;
	const struct sim_event *e;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	CHECK_EQ(rmqueue_with_fallback(s, z, 0, MIGRATE_UNMOVABLE, 0, NULL, 0), 9);
	e = bt_event(s, EV_MOVE_FREEPAGES_BLOCK, 0);
	CHECK(e && e->a == 15 && e->b == 4 && e->c == 1);
	e = bt_event(s, EV_PAGEBLOCK_CLAIM, 0);
	CHECK(e && e->a == 15 && e->c == 1);
	CHECK_EQ(get_pageblock_migratetype(s, z, 0), MIGRATE_UNMOVABLE);
	e = bt_event(s, EV_MM_PAGE_ALLOC_EXTFRAG, 0);
	CHECK(e && e->pfn == 0 && e->a == 3 && e->c == 3);
	CHECK(bt_is_free(s, 0, 3, MIGRATE_UNMOVABLE));
	bt_page(s, 9)->state = PG_ALLOCATED;
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/*
 * 6.6 alike pages (5.0+): an unmovable page already in the movable pageblock counts toward the
 * half test: 7 free + (16 - 7 - 8 movable) = 8 claims. 4.9 counts only the free pages moved.
 */
TEST(fallback_6_6_alike_pages_claim_4_9_does_not)
{
	struct sim *s = mixed_pageblock(PROFILE_6_6, 1, MIGRATE_UNMOVABLE);
	const struct sim_event *e;

	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(rmqueue_with_fallback(s, bt_zone(s), 0, MIGRATE_UNMOVABLE, 0, NULL, 0), 9);
	e = bt_event(s, EV_PAGEBLOCK_CLAIM, 0);
	CHECK(e && e->a == 8 && e->c == 1);
	CHECK_EQ(get_pageblock_migratetype(s, bt_zone(s), 0), MIGRATE_UNMOVABLE);
	free(s);

	s = mixed_pageblock(PROFILE_2016_V5, 1, MIGRATE_UNMOVABLE);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(rmqueue_with_fallback(s, bt_zone(s), 0, MIGRATE_UNMOVABLE, 0, NULL, 0), 12);
	e = bt_event(s, EV_PAGEBLOCK_CLAIM, 0);
	CHECK(e && e->a == 7 && e->c == 0);
	CHECK_EQ(get_pageblock_migratetype(s, bt_zone(s), 0), MIGRATE_MOVABLE);
	bt_page(s, 12)->state = PG_ALLOCATED;
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/*
 * A 64-page zone of one pageblock (pageblock_order 6, so pageblock_order / 2 = 3), retagged
 * UNMOVABLE, with free 59 (o0) and 60 (o2) when keep_59, else only 60 (o2).
 */
static struct sim *small_unmovable_blocks(int profile, int keep_59)
{
	struct sim *s = bt_machine(profile, 6, 6, 0, 64);
	struct zone *z;

	if (!s)
		return NULL;
	z = bt_zone(s);
	set_pageblock_migratetype(s, z, 0, MIGRATE_UNMOVABLE);
	buddy_move_to_free_list(s, z, 0, MIGRATE_UNMOVABLE);
	CHECK_EQ(bt_alloc(s, 5, MIGRATE_UNMOVABLE, 0), 0);
	CHECK_EQ(bt_alloc(s, 4, MIGRATE_UNMOVABLE, 0), 32);
	CHECK_EQ(bt_alloc(s, 3, MIGRATE_UNMOVABLE, 0), 48);
	CHECK_EQ(bt_alloc(s, 1, MIGRATE_UNMOVABLE, 0), 56);
	CHECK_EQ(bt_alloc(s, 0, MIGRATE_UNMOVABLE, 0), 58);
	if (!keep_59)
		CHECK_EQ(bt_alloc(s, 0, MIGRATE_UNMOVABLE, 0), 59);
	CHECK_EQ(bt_check(s), SIM_OK);
	sim_events_clear(s);
	return s;
}

/*
 * 6.6 find_smallest + single_page: a movable order-0 request may not claim (order 2 < 3), so the
 * smallest foreign block is chosen and moved alone to MOVABLE's list (move_to_free_list); the
 * retry splits it there, so its halves land on MOVABLE lists in an UNMOVABLE pageblock. (6.10+
 * split it on the lender's lists.)
 */
TEST(fallback_6_6_movable_single_block_moves_to_requester)
{
	struct sim *s = small_unmovable_blocks(PROFILE_6_6, 0);
	struct zone *z;
	const struct sim_event *e;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	CHECK_EQ(rmqueue_with_fallback(s, z, 0, MIGRATE_MOVABLE, 0, NULL, 0), 60);
	CHECK_EQ(bt_count(s, EV_MOVE_FREEPAGES_BLOCK), 0);
	CHECK_EQ(bt_count(s, EV_PAGEBLOCK_CLAIM), 0);
	CHECK(bt_is_free(s, 61, 0, MIGRATE_MOVABLE) && bt_is_free(s, 62, 1, MIGRATE_MOVABLE));
	CHECK_EQ(get_pageblock_migratetype(s, z, 0), MIGRATE_UNMOVABLE);
	e = bt_event(s, EV_MM_PAGE_ALLOC_EXTFRAG, 0);
	CHECK(e && e->pfn == 60 && e->a == 2 && e->c == 1);
	bt_page(s, 60)->state = PG_ALLOCATED;
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);

	/* with 59 free too, find_smallest picks order 0 */
	s = small_unmovable_blocks(PROFILE_6_6, 1);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(rmqueue_with_fallback(s, bt_zone(s), 0, MIGRATE_MOVABLE, 0, NULL, 0), 59);
	CHECK(bt_is_free(s, 60, 2, MIGRATE_UNMOVABLE));
	bt_page(s, 59)->state = PG_ALLOCATED;
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/*
 * 6.6 "take ownership for orders >= pageblock_order": the pageblocks are retagged, the block moves
 * alone to the requester's list, the retry splits it there. No boost for whole pageblocks.
 */
TEST(fallback_6_6_whole_pageblocks)
{
	struct sim *s = bt_machine(PROFILE_6_6, 6, 4, 0, 256);
	struct zone *z;
	const struct sim_event *e;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	sim_events_clear(s);
	CHECK_EQ(rmqueue_with_fallback(s, z, 0, MIGRATE_UNMOVABLE, 0, NULL, 0), 0);
	for (uint32_t pb = 0; pb < 64; pb += 16)
		CHECK_EQ(get_pageblock_migratetype(s, z, pb), MIGRATE_UNMOVABLE);
	CHECK(bt_is_free(s, 32, 5, MIGRATE_UNMOVABLE) && bt_is_free(s, 1, 0, MIGRATE_UNMOVABLE));
	CHECK_EQ(bt_count(s, EV_WMARK_BOOST), 0);
	CHECK_EQ(bt_count(s, EV_MOVE_FREEPAGES_BLOCK), 0);
	e = bt_event(s, EV_MM_PAGE_ALLOC_EXTFRAG, 0);
	CHECK(e && e->pfn == 0 && e->a == 6 && e->c == 2);
	bt_page(s, 0)->state = PG_ALLOCATED;
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/*
 * 6.6 reserve_highatomic_pageblock: only the allocation's own pageblock is retagged and one
 * pageblock is counted, even for a block of two pageblocks (6.10+ retags and counts both).
 */
TEST(highatomic_6_6_reserves_one_pageblock_of_a_big_block)
{
	for (int profile = PROFILE_6_18; profile <= PROFILE_6_6; profile++) {
		struct sim *s = bt_machine(profile, 6, 4, 0, 4000);
		struct zone *z;
		uint32_t pfn;

		CHECK(s != NULL);
		if (!s)
			return;
		z = bt_zone(s);
		pfn = bt_alloc(s, 5, MIGRATE_MOVABLE, 0);
		CHECK(pfn != PFN_NONE);
		highatomic_reserve_pageblock(s, z, pfn, 5, 0);
		CHECK_EQ(get_pageblock_migratetype(s, z, pfn), MIGRATE_HIGHATOMIC);
		if (profile == PROFILE_6_6) {
			CHECK_EQ(z->nr_reserved_highatomic, 16);
			CHECK_EQ(get_pageblock_migratetype(s, z, pfn + 16), MIGRATE_MOVABLE);
		} else {
			CHECK_EQ(z->nr_reserved_highatomic, 32);
			CHECK_EQ(get_pageblock_migratetype(s, z, pfn + 16), MIGRATE_HIGHATOMIC);
		}
		CHECK_EQ(bt_check(s), SIM_OK);
		free(s);
	}
}

/*
 * 6.6 unreserve_highatomic_pageblock: the pageblock goes back with every free block in it, and
 * one pageblock comes off the count (6.6 and 6.18 agree for a sub-pageblock block).
 */
TEST(highatomic_6_6_unreserve_moves_the_pageblock)
{
	struct sim *s = bt_machine(PROFILE_6_6, 6, 4, 0, 4000);
	struct zone *z;
	uint32_t a;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	a = bt_alloc(s, 1, MIGRATE_MOVABLE, 0);
	highatomic_reserve_pageblock(s, z, a, 1, 0);
	CHECK_EQ(z->nr_reserved_highatomic, 16);
	CHECK_EQ(get_pageblock_migratetype(s, z, a), MIGRATE_HIGHATOMIC);
	/* keep one pageblock unless forced */
	CHECK_EQ(highatomic_unreserve_pageblock(s, 0, ZONE_NORMAL, MIGRATE_UNMOVABLE, 0, 0), 0);
	sim_events_clear(s);
	CHECK_EQ(highatomic_unreserve_pageblock(s, 0, ZONE_NORMAL, MIGRATE_UNMOVABLE, 1, 0), 1);
	CHECK_EQ(z->nr_reserved_highatomic, 0);
	CHECK_EQ(get_pageblock_migratetype(s, z, a), MIGRATE_UNMOVABLE);
	/* the pageblock's free blocks (2 o1, 4 o2, 8 o3) moved with it */
	CHECK(bt_is_free(s, a + 8, 3, MIGRATE_UNMOVABLE));
	CHECK_EQ(bt_count(s, EV_MOVE_FREEPAGES_BLOCK), 1);
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/*
 * All free memory on ISOLATE lists, which no request may use, so rmqueue fails; the zone
 * carries a boost and ZONE_BOOSTED_WATERMARK. Returns whether the flag survived the allocation.
 */
static int boosted_flag_survives(int profile, int order, uint32_t gfp)
{
	struct sim *s = bt_machine(profile, 6, 4, 0, 256);
	struct zone *z;
	int survived;

	CHECK(s != NULL);
	if (!s)
		return -1;
	z = bt_zone(s);
	for (uint32_t pb = 0; pb < 256; pb += 16)
		*pageblock_tag(s, z, pb) |= PB_ISOLATE;
	for (uint32_t pfn = 0; pfn < 256; pfn += 64)
		buddy_move_to_free_list(s, z, pfn, MIGRATE_ISOLATE);
	z->watermark_boost = 16;
	z->flags |= ZONE_BOOSTED_WATERMARK;
	CHECK_EQ(bt_check(s), SIM_OK);
	CHECK_EQ(at_alloc(s, 0, gfp, order, 1), SIM_ENOMEM);
	survived = !!(z->flags & ZONE_BOOSTED_WATERMARK);
	free(s);
	return survived;
}

/*
 * rmqueue's "out:" label (6.6) is reached after a failed allocation too and wakes kswapd only for
 * ALLOC_KSWAPD requests; 5.14's buddy path jumped to "failed:" past it, while its pcp path went
 * through "out:" for any request. The wake clears ZONE_BOOSTED_WATERMARK, which is what we watch.
 * __GFP_MEMALLOC lets the slow path skip the watermarks, so rmqueue really runs and fails.
 */
TEST(boosted_kswapd_wake_on_failure_per_version)
{
	uint32_t plain = __GFP_MEMALLOC | __GFP_NOWARN, kswapd = plain | __GFP_KSWAPD_RECLAIM;

	/* order 4: the buddy path. 6.6 wakes after the failure (with ALLOC_KSWAPD), 5.14 does not */
	CHECK_EQ(boosted_flag_survives(PROFILE_6_6, 4, kswapd), 0);
	CHECK_EQ(boosted_flag_survives(PROFILE_6_6, 4, plain), 1);
	CHECK_EQ(boosted_flag_survives(PROFILE_5_14, 4, kswapd), 1);
	CHECK_EQ(boosted_flag_survives(PROFILE_5_13, 4, plain), 1);
	/* order 0: the pcp path. 5.14 goes through "out:" and needs no ALLOC_KSWAPD; 6.6 does */
	CHECK_EQ(boosted_flag_survives(PROFILE_5_14, 0, plain), 0);
	CHECK_EQ(boosted_flag_survives(PROFILE_6_6, 0, plain), 1);
	CHECK_EQ(boosted_flag_survives(PROFILE_6_18, 0, kswapd), 0);
}

/* ---- 5.14 and 5.13 ---------------------------------------------------------------------------- */

/*
 * 5.14 (and 5.12.9 for 5.13): the same moves as 6.6, but mm_page_alloc_zone_locked fires once at
 * the end of __rmqueue, with percpu_refill printed as order == 0 (an order-1 pcp refill prints 0).
 */
TEST(fallback_5_14_and_5_13_move_like_6_6_trace_in_rmqueue)
{
	for (int profile = PROFILE_5_14; profile <= PROFILE_5_13; profile++) {
		struct sim *s = mixed_pageblock(profile, 1, MIGRATE_MOVABLE);
		struct zone *z;
		const struct sim_event *e;

		CHECK(s != NULL);
		if (!s)
			return;
		z = bt_zone(s);
		CHECK_EQ(rmqueue_with_fallback(s, z, 1, MIGRATE_UNMOVABLE, 0, NULL, 0), 10);
		e = bt_event(s, EV_MOVE_FREEPAGES_BLOCK, 0);
		CHECK(e && e->a == 7 && e->b == 3 && e->c == 9);
		CHECK(bt_is_free(s, 9, 0, MIGRATE_UNMOVABLE) &&
		      bt_is_free(s, 12, 2, MIGRATE_UNMOVABLE));
		CHECK_EQ(bt_count(s, EV_MM_PAGE_ALLOC_ZONE_LOCKED), 1);
		e = bt_event(s, EV_MM_PAGE_ALLOC_ZONE_LOCKED, 0);
		CHECK(e && e->pfn == 10 && e->order == 1 && e->a == 0 && e->fn == FN___RMQUEUE);
		bt_page(s, 10)->state = PG_ALLOCATED;
		CHECK_EQ(bt_check(s), SIM_OK);
		free(s);
	}
}

/* A zone with free MOVABLE order-4 (one pageblock) blocks at 0 and 32 and nothing bigger. */
static struct sim *two_free_pageblocks(int profile)
{
	struct sim *s = bt_machine(profile, 6, 4, 0, 64);

	if (!s)
		return NULL;
	for (uint32_t want = 0; want < 64; want += 16)
		CHECK_EQ(bt_alloc(s, 4, MIGRATE_MOVABLE, 0), want);
	bt_free(s, 0, 4);
	bt_free(s, 32, 4);
	CHECK_EQ(bt_check(s), SIM_OK);
	sim_events_clear(s);
	return s;
}

/*
 * 5.14 __rmqueue_fallback: under ALLOC_NOFRAGMENT min_order = pageblock_order for every request,
 * so an order-5 request scans down to order 4, takes each pageblock-sized block in turn (retag and
 * move), retries, fails, and ends with both pageblocks converted and nothing allocated. 6.6 only
 * lifts the floor for requests below pageblock order: nothing is touched.
 */
TEST(fallback_5_14_nofragment_floor_for_big_requests)
{
	struct sim *s = two_free_pageblocks(PROFILE_5_14);
	struct zone *z;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	CHECK_EQ(rmqueue_with_fallback(s, z, 5, MIGRATE_UNMOVABLE, ALLOC_NOFRAGMENT, NULL, 0),
		 PFN_NONE);
	CHECK_EQ(bt_count(s, EV_MM_PAGE_ALLOC_EXTFRAG), 2);
	CHECK_EQ(get_pageblock_migratetype(s, z, 0), MIGRATE_UNMOVABLE);
	CHECK_EQ(get_pageblock_migratetype(s, z, 32), MIGRATE_UNMOVABLE);
	CHECK(bt_is_free(s, 0, 4, MIGRATE_UNMOVABLE) && bt_is_free(s, 32, 4, MIGRATE_UNMOVABLE));
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);

	s = two_free_pageblocks(PROFILE_6_6);
	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	CHECK_EQ(rmqueue_with_fallback(s, z, 5, MIGRATE_UNMOVABLE, ALLOC_NOFRAGMENT, NULL, 0),
		 PFN_NONE);
	CHECK_EQ(s->nr_events, 0);
	CHECK(bt_is_free(s, 0, 4, MIGRATE_MOVABLE) && bt_is_free(s, 32, 4, MIGRATE_MOVABLE));
	free(s);
}

/* ---- 4.9 (the 2016 series' base) -------------------------------------------------------------- */

/*
 * 4.9 __rmqueue_fallback: the largest foreign block (12, order 2); the steal moves the pageblock's
 * free blocks to the requester's lists (7 pages < 8: no retag, no boost: 5.0), then that same
 * block is split on the requester's lists and returned: 12, not 9. One zone_locked from __rmqueue.
 */
TEST(fallback_4_9_moves_then_splits_found_block)
{
	for (int profile = PROFILE_2016_V5; profile <= PROFILE_2016_PREFIX; profile++) {
		struct sim *s = mixed_pageblock(profile, 1, MIGRATE_MOVABLE);
		struct zone *z;
		const struct sim_event *e;

		CHECK(s != NULL);
		if (!s)
			return;
		z = bt_zone(s);
		CHECK_EQ(rmqueue_with_fallback(s, z, 0, MIGRATE_UNMOVABLE, ALLOC_KSWAPD, NULL, 0),
			 12);
		CHECK_EQ(bt_count(s, EV_WMARK_BOOST), 0);
		CHECK(!(z->flags & ZONE_BOOSTED_WATERMARK));
		e = bt_event(s, EV_MOVE_FREEPAGES_BLOCK, 0);
		/* no movable count before 5.0: c = -1 */
		CHECK(e && e->a == 7 && e->b == 3 && e->c == -1);
		CHECK_EQ(get_pageblock_migratetype(s, z, 0), MIGRATE_MOVABLE);
		CHECK(bt_is_free(s, 9, 0, MIGRATE_UNMOVABLE) &&
		      bt_is_free(s, 10, 1, MIGRATE_UNMOVABLE));
		CHECK(bt_is_free(s, 13, 0, MIGRATE_UNMOVABLE) &&
		      bt_is_free(s, 14, 1, MIGRATE_UNMOVABLE));
		/* expand put 13 at the head, in front of 9 (4.9 moved 9 to the head as well) */
		CHECK_EQ(z->free_area[0].head[MIGRATE_UNMOVABLE], 13);
		e = bt_event(s, EV_MM_PAGE_ALLOC_EXTFRAG, 0);
		CHECK(e && e->pfn == 12 && e->a == 2 && e->c == 1);
		e = bt_event(s, EV_MM_PAGE_ALLOC_ZONE_LOCKED, 0);
		CHECK(e && e->pfn == 12 && e->a == 1 && e->fn == FN___RMQUEUE);
		CHECK_EQ(bt_count(s, EV_MM_PAGE_ALLOC_ZONE_LOCKED), 1);
		bt_page(s, 12)->state = PG_ALLOCATED;
		CHECK_EQ(bt_check(s), SIM_OK);
		free(s);
	}
}

/*
 * 4.9: a movable request that may not steal takes the largest foreign block (4.9 has no
 * find_smallest) and splits it on MOVABLE's lists without moving the rest of the pageblock.
 */
TEST(fallback_4_9_movable_takes_largest)
{
	struct sim *s = small_unmovable_blocks(PROFILE_2016_V5, 1);
	struct zone *z;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	CHECK_EQ(rmqueue_with_fallback(s, z, 0, MIGRATE_MOVABLE, 0, NULL, 0), 60);
	CHECK_EQ(bt_count(s, EV_MOVE_FREEPAGES_BLOCK), 0);
	CHECK(bt_is_free(s, 59, 0, MIGRATE_UNMOVABLE));
	CHECK(bt_is_free(s, 61, 0, MIGRATE_MOVABLE) && bt_is_free(s, 62, 1, MIGRATE_MOVABLE));
	bt_page(s, 60)->state = PG_ALLOCATED;
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/* 4.9 steal with half the pageblock free: retagged; the found block (0, order 3) is split. */
TEST(fallback_4_9_claims_at_half_free)
{
	struct sim *s = mixed_pageblock(PROFILE_2016_V5, 0, MIGRATE_MOVABLE);
	struct zone *z;
	const struct sim_event *e;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	CHECK_EQ(rmqueue_with_fallback(s, z, 0, MIGRATE_UNMOVABLE, 0, NULL, 0), 0);
	CHECK_EQ(get_pageblock_migratetype(s, z, 0), MIGRATE_UNMOVABLE);
	e = bt_event(s, EV_PAGEBLOCK_CLAIM, 0);
	CHECK(e && e->a == 15 && e->c == 1);
	e = bt_event(s, EV_MM_PAGE_ALLOC_EXTFRAG, 0);
	CHECK(e && e->pfn == 0 && e->a == 3 && e->c == 3);
	CHECK(bt_is_free(s, 4, 2, MIGRATE_UNMOVABLE) && bt_is_free(s, 1, 0, MIGRATE_UNMOVABLE));
	bt_page(s, 0)->state = PG_ALLOCATED;
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}
