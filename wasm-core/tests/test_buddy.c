/*
 * test_buddy.c: the free lists, __free_one_page merging, expand() and __rmqueue_smallest against
 * docs/kernel/page_alloc/buddy.md (A.3-A.6), with sim_check after every step.
 */
#include "buddy_test_util.h"

/* Boot: the largest naturally aligned blocks, MOVABLE, sorted by pfn, every counter in step. */
TEST(buddy_boot_blocks_aligned_zone)
{
	struct sim *s = bt_machine(PROFILE_6_18, 6, 4, 0, 256);
	struct zone *z;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	CHECK_EQ(bt_check(s), SIM_OK);
	CHECK_EQ(z->free_area[6].nr_free, 4);
	CHECK_EQ(z->free_area[6].count[MIGRATE_MOVABLE], 4);
	CHECK_EQ(z->free_area[6].head[MIGRATE_MOVABLE], 0);
	CHECK_EQ(z->free_area[6].tail[MIGRATE_MOVABLE], 192);
	CHECK_EQ(bt_page(s, 0)->next, 64);
	for (int order = 0; order < 6; order++)
		CHECK_EQ(z->free_area[order].nr_free, 0);
	CHECK_EQ(z->nr_free_pages, 256);
	CHECK_EQ(z->nr_free_pages_blocks, 256);
	CHECK_EQ(z->nr_free_highatomic, 0);
	for (uint32_t pb = 0; pb < z->nr_pageblocks; pb++)
		CHECK_EQ(get_pageblock_migratetype(s, z, pb << 4), MIGRATE_MOVABLE);
	free(s);
}

/* Boot of a zone starting and ending off alignment: blocks grow then shrink. */
TEST(buddy_boot_blocks_unaligned_zone)
{
	/* frames [3, 103): 3 (o0), 4 (o2), 8 (o3), 16 (o4), 32 (o5), 64 (o5), 96 (o2), 100 (o1), 102 (o0) */
	static const uint32_t want_pfn[] = { 3, 4, 8, 16, 32, 64, 96, 100, 102 };
	static const int want_order[] = { 0, 2, 3, 4, 5, 5, 2, 1, 0 };
	struct sim *s = bt_machine(PROFILE_6_18, 5, 4, 3, 100);
	struct zone *z;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	CHECK_EQ(z->mem_pfn, 3);
	CHECK_EQ(bt_check(s), SIM_OK);
	for (int i = 0; i < 9; i++)
		CHECK(bt_is_free(s, want_pfn[i], want_order[i], MIGRATE_MOVABLE));
	CHECK_EQ(z->nr_free_pages, 100);
	/* orders >= pageblock_order 4: 16 + 32 + 32 */
	CHECK_EQ(z->nr_free_pages_blocks, 80);
	/* two order-5 blocks, in pfn order (FPI_TO_TAIL) */
	CHECK_EQ(z->free_area[5].head[MIGRATE_MOVABLE], 32);
	CHECK_EQ(z->free_area[5].tail[MIGRATE_MOVABLE], 64);
	free(s);
}

/* Boot of a million frames is a thousand blocks, not a million writes. */
TEST(buddy_boot_large_zone)
{
	struct sim *s = bt_machine(PROFILE_6_18, 10, 9, 1u << 20, 1u << 20);
	struct zone *z;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	CHECK_EQ(z->free_area[10].nr_free, 1024);
	CHECK_EQ(z->nr_free_pages, 1 << 20);
	CHECK_EQ(z->nr_free_pages_blocks, 1 << 20);
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/*
 * docs/kernel/page_alloc/buddy.md#a5-splitting: an order-3 block at P split for order 0 frees
 * P+4, P+2, P+1 and returns P.
 */
TEST(buddy_expand_example)
{
	/* one order-3 block at P = 8 */
	struct sim *s = bt_machine(PROFILE_6_18, 6, 2, 8, 8);
	struct zone *z;
	const struct sim_event *e;
	uint32_t pfn;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	CHECK(bt_is_free(s, 8, 3, MIGRATE_MOVABLE));
	sim_events_clear(s);
	pfn = buddy_rmqueue_smallest(s, z, 0, MIGRATE_MOVABLE, 1);
	CHECK_EQ(pfn, 8);
	CHECK(bt_is_free(s, 12, 2, MIGRATE_MOVABLE));
	CHECK(bt_is_free(s, 10, 1, MIGRATE_MOVABLE));
	CHECK(bt_is_free(s, 9, 0, MIGRATE_MOVABLE));
	CHECK_EQ(z->nr_free_pages, 7);
	/* orders >= pageblock_order 2: only the order-2 half */
	CHECK_EQ(z->nr_free_pages_blocks, 4);
	CHECK_EQ(z->free_area[3].nr_free, 0);
	/* three splits, upper halves from the largest down, then the tracepoint */
	CHECK_EQ(bt_count(s, EV_BUDDY_SPLIT), 3);
	e = bt_event(s, EV_BUDDY_SPLIT, 0);
	CHECK(e && e->pfn == 12 && e->order == 2 && e->mt == MIGRATE_MOVABLE &&
	      e->fn == FN_EXPAND && e->cpu == 1);
	e = bt_event(s, EV_BUDDY_SPLIT, 1);
	CHECK(e && e->pfn == 10 && e->order == 1);
	e = bt_event(s, EV_BUDDY_SPLIT, 2);
	CHECK(e && e->pfn == 9 && e->order == 0);
	e = bt_event(s, EV_MM_PAGE_ALLOC_ZONE_LOCKED, 0);
	CHECK(e && e->pfn == 8 && e->order == 0 && e->mt == MIGRATE_MOVABLE &&
	      e->fn == FN___RMQUEUE_SMALLEST);
	/* percpu_refill: order 0 is a pcp order and MOVABLE a pcp type */
	CHECK(e && e->a == 1);
	bt_page(s, 8)->state = PG_ALLOCATED;
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/* __rmqueue_smallest takes the head of the smallest non-empty order and says percpu_refill right. */
TEST(buddy_rmqueue_smallest_head_and_orders)
{
	struct sim *s = bt_machine(PROFILE_6_18, 6, 4, 0, 256);
	struct zone *z;
	uint32_t a, b;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	/* the head of the order-6 list is pfn 0 (lowest, FPI_TO_TAIL at boot) */
	a = bt_alloc(s, 5, MIGRATE_MOVABLE, 0);
	CHECK_EQ(a, 0);
	CHECK_EQ(bt_check(s), SIM_OK);
	/* order 5 now has 32 free: it is preferred over splitting another order-6 block */
	b = bt_alloc(s, 4, MIGRATE_MOVABLE, 0);
	CHECK_EQ(b, 32);
	CHECK(bt_is_free(s, 48, 4, MIGRATE_MOVABLE));
	CHECK_EQ(z->free_area[6].nr_free, 3);
	CHECK_EQ(bt_check(s), SIM_OK);
	/* no UNMOVABLE lists at all: __rmqueue_smallest finds nothing (fallback is another stage) */
	CHECK_EQ(buddy_rmqueue_smallest(s, z, 0, MIGRATE_UNMOVABLE, 0), PFN_NONE);
	/* order 5 is not a pcp order (costly, not pageblock_order): percpu_refill 0 */
	sim_events_clear(s);
	CHECK_EQ(bt_alloc(s, 5, MIGRATE_MOVABLE, 0), 64);
	CHECK(bt_event(s, EV_MM_PAGE_ALLOC_ZONE_LOCKED, 0) &&
	      bt_event(s, EV_MM_PAGE_ALLOC_ZONE_LOCKED, 0)->a == 0);
	CHECK_EQ(z->nr_free_pages, 256 - 32 - 16 - 32);
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/* The buddy is pfn XOR 2^order: freeing the first page back merges all the way up. */
TEST(buddy_free_merges_by_xor)
{
	struct sim *s = bt_machine(PROFILE_6_18, 6, 4, 0, 256);
	struct zone *z;
	const struct sim_event *e;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	CHECK_EQ(bt_alloc(s, 0, MIGRATE_MOVABLE, 0), 0);
	/* halves: 32 (o5), 16 (o4), 8 (o3), 4 (o2), 2 (o1), 1 (o0) */
	CHECK(bt_is_free(s, 1, 0, MIGRATE_MOVABLE) && bt_is_free(s, 2, 1, MIGRATE_MOVABLE));
	CHECK(bt_is_free(s, 32, 5, MIGRATE_MOVABLE));
	CHECK_EQ(bt_check(s), SIM_OK);
	sim_events_clear(s);
	bt_free(s, 0, 0);
	CHECK_EQ(bt_check(s), SIM_OK);
	CHECK_EQ(bt_count(s, EV_BUDDY_MERGE), 6);
	for (int i = 0; i < 6; i++) {
		e = bt_event(s, EV_BUDDY_MERGE, i);
		/* merge i: pfn 0 with its buddy 0 ^ 2^i, giving order i + 1 */
		CHECK(e && e->pfn == 0 && e->order == i + 1 && e->a == (1 << i) &&
		      e->fn == FN___FREE_ONE_PAGE);
		CHECK(e && e->b == FN_FREE_ONE_PAGE);
	}
	e = bt_event(s, EV_BUDDY_ENQUEUE, 0);
	CHECK(e && e->pfn == 0 && e->order == 6 && e->a == 0);
	CHECK(bt_is_free(s, 0, 6, MIGRATE_MOVABLE));
	/* merged buddies' heads are tails now */
	CHECK_EQ(bt_page(s, 32)->state, PG_TAIL);
	CHECK_EQ(bt_page(s, 1)->state, PG_TAIL);
	CHECK_EQ(z->nr_free_pages, 256);
	CHECK_EQ(z->nr_free_pages_blocks, 256);
	CHECK_EQ(z->free_area[6].nr_free, 4);
	free(s);
}

/* Freeing the upper half first: the merged block moves down to the lower pfn. */
TEST(buddy_free_upper_half_moves_head_down)
{
	struct sim *s = bt_machine(PROFILE_6_18, 6, 4, 0, 256);

	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(bt_alloc(s, 0, MIGRATE_MOVABLE, 0), 0);
	CHECK_EQ(bt_alloc(s, 0, MIGRATE_MOVABLE, 0), 1);
	CHECK_EQ(bt_check(s), SIM_OK);
	bt_free(s, 1, 0); /* buddy 0 is allocated: no merge */
	CHECK(bt_is_free(s, 1, 0, MIGRATE_MOVABLE));
	CHECK_EQ(bt_check(s), SIM_OK);
	bt_free(s, 0, 0); /* 0 ^ 1 = 1 is free at order 0: merge, and on up to order 6 */
	CHECK(bt_is_free(s, 0, 6, MIGRATE_MOVABLE));
	CHECK_EQ(bt_page(s, 1)->state, PG_TAIL);
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/* A buddy of the same order but allocated, or of another order, does not merge. */
TEST(buddy_no_merge_with_busy_or_other_order)
{
	struct sim *s = bt_machine(PROFILE_6_18, 6, 4, 0, 256);
	struct zone *z;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	CHECK_EQ(bt_alloc(s, 0, MIGRATE_MOVABLE, 0), 0);
	CHECK_EQ(bt_alloc(s, 0, MIGRATE_MOVABLE, 0), 1);
	CHECK_EQ(bt_alloc(s, 1, MIGRATE_MOVABLE, 0), 2);
	sim_events_clear(s);
	/* 2's buddy at order 1 is 0, an allocated order-0 page: not a buddy of order 1 */
	bt_free(s, 2, 1);
	CHECK_EQ(bt_count(s, EV_BUDDY_MERGE), 0);
	CHECK(bt_is_free(s, 2, 1, MIGRATE_MOVABLE));
	CHECK_EQ(z->nr_free_pages, 256 - 2);
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/* Zone edges: the buddy of the first block lies outside the zone and is never a buddy. */
TEST(buddy_no_merge_across_zone_edge)
{
	/* frames [3, 103): pfn 3 (o0) has buddy 2, outside the zone */
	struct sim *s = bt_machine(PROFILE_6_18, 5, 4, 3, 100);

	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(bt_alloc(s, 0, MIGRATE_MOVABLE, 0), 3);
	sim_events_clear(s);
	bt_free(s, 3, 0);
	CHECK_EQ(bt_count(s, EV_BUDDY_MERGE), 0);
	CHECK(bt_is_free(s, 3, 0, MIGRATE_MOVABLE));
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/* buddy_merge_likely: tail placement when the next-higher block's buddy is free. */
TEST(buddy_merge_likely_tail_placement)
{
	struct sim *s = bt_machine(PROFILE_6_18, 6, 4, 0, 256);
	struct zone *z;
	const struct sim_event *e;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	/* take 0, 1, 2, 3: free blocks left are 4 (o2), 8 (o3), 16 (o4), 32 (o5), 64.. (o6) */
	for (uint32_t want = 0; want < 4; want++)
		CHECK_EQ(bt_alloc(s, 0, MIGRATE_MOVABLE, 0), want);
	CHECK_EQ(bt_check(s), SIM_OK);
	sim_events_clear(s);
	/* free 0: buddy 1 busy; the order-1 block at 0 has buddy 2, busy: head */
	bt_free(s, 0, 0);
	e = bt_event(s, EV_BUDDY_ENQUEUE, 0);
	CHECK(e && e->pfn == 0 && e->order == 0 && e->a == 0);
	CHECK_EQ(bt_check(s), SIM_OK);
	sim_events_clear(s);
	/* free 1: merges with 0 into order 1; buddy 2 busy; the order-2 block at 0 has buddy 4, free: tail */
	bt_free(s, 1, 0);
	e = bt_event(s, EV_BUDDY_ENQUEUE, 0);
	CHECK(e && e->pfn == 0 && e->order == 1 && e->a == 1);
	CHECK_EQ(bt_check(s), SIM_OK);
	/* a second order-1 block freed at a place whose higher buddy is busy goes to the head */
	CHECK_EQ(bt_alloc(s, 1, MIGRATE_MOVABLE, 0), 0); /* takes the order-1 block back */
	CHECK_EQ(bt_alloc(s, 2, MIGRATE_MOVABLE, 0), 4);
	CHECK_EQ(bt_alloc(s, 3, MIGRATE_MOVABLE, 0), 8);
	CHECK_EQ(bt_check(s), SIM_OK);
	sim_events_clear(s);
	bt_free(s, 0, 1); /* buddy 2 busy, order-2 buddy 4 busy: head */
	e = bt_event(s, EV_BUDDY_ENQUEUE, 0);
	CHECK(e && e->a == 0);
	bt_free(s, 4,
		2); /* buddy 0 at order 2? 0 is order 1: no merge; order-3 block 0 has buddy 8, busy: head */
	e = bt_event(s, EV_BUDDY_ENQUEUE, 1);
	CHECK(e && e->pfn == 4 && e->order == 2 && e->a == 0);
	CHECK_EQ(bt_check(s), SIM_OK);
	(void)z;
	free(s);
}

/* The two largest orders are never placed at the tail (order < MAX_PAGE_ORDER - 1). */
TEST(buddy_merge_likely_not_for_top_orders)
{
	struct sim *s = bt_machine(PROFILE_6_18, 6, 4, 0, 256);
	const struct sim_event *e;

	CHECK(s != NULL);
	if (!s)
		return;
	/* take 0 (o5) and 32 (o5): free 32 back with 0 busy; the order-6 block's buddy 64 is free */
	CHECK_EQ(bt_alloc(s, 5, MIGRATE_MOVABLE, 0), 0);
	CHECK_EQ(bt_alloc(s, 5, MIGRATE_MOVABLE, 0), 32);
	sim_events_clear(s);
	bt_free(s, 32, 5);
	/* split_large_buddy frees it as 32 (o4) and 48 (o4), which merge: the second placement counts */
	CHECK_EQ(bt_count(s, EV_BUDDY_ENQUEUE), 2);
	e = bt_event(s, EV_BUDDY_ENQUEUE, 1);
	/* order 5 = MAX_PAGE_ORDER - 1: head, although 64 (o6) is free */
	CHECK(e && e->pfn == 32 && e->order == 5 && e->a == 0);
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/* Above pageblock_order, HIGHATOMIC and ISOLATE pageblocks do not merge with normal ones. */
TEST(buddy_merge_stops_at_unmergeable_pageblocks)
{
	struct sim *s = bt_machine(PROFILE_6_18, 6, 4, 0, 256);
	struct zone *z;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	CHECK_EQ(bt_alloc(s, 4, MIGRATE_MOVABLE, 0), 0);
	CHECK_EQ(bt_alloc(s, 4, MIGRATE_MOVABLE, 0), 16);
	CHECK_EQ(bt_check(s), SIM_OK);
	set_pageblock_migratetype(s, z, 0, MIGRATE_HIGHATOMIC);
	bt_free(s, 16, 4); /* MOVABLE; buddy 0 busy */
	CHECK_EQ(bt_check(s), SIM_OK);
	bt_free(s, 0, 4); /* HIGHATOMIC; buddy 16 free but MOVABLE: no merge */
	CHECK(bt_is_free(s, 0, 4, MIGRATE_HIGHATOMIC));
	CHECK(bt_is_free(s, 16, 4, MIGRATE_MOVABLE));
	CHECK_EQ(z->nr_free_highatomic, 16);
	CHECK_EQ(z->nr_free_pages, 256);
	CHECK_EQ(z->nr_free_pages_blocks, 256);
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/* Mergeable types of different pageblocks merge above pageblock_order; the buddy takes our type. */
TEST(buddy_merge_mergeable_types_retags_buddy)
{
	struct sim *s = bt_machine(PROFILE_6_18, 6, 4, 0, 256);
	struct zone *z;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	CHECK_EQ(bt_alloc(s, 4, MIGRATE_MOVABLE, 0), 0);
	CHECK_EQ(bt_alloc(s, 4, MIGRATE_MOVABLE, 0), 16);
	set_pageblock_migratetype(s, z, 0, MIGRATE_UNMOVABLE);
	bt_free(s, 16, 4); /* MOVABLE */
	bt_free(s, 0, 4);  /* UNMOVABLE: merges with 16, then 32 (o5) */
	CHECK(bt_is_free(s, 0, 6, MIGRATE_UNMOVABLE));
	for (uint32_t pfn = 0; pfn < 64; pfn += 16)
		CHECK_EQ(get_pageblock_migratetype(s, z, pfn), MIGRATE_UNMOVABLE);
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/* Free pages on the ISOLATE list are not NR_FREE_PAGES, nor NR_FREE_PAGES_BLOCKS. */
TEST(buddy_isolate_not_counted_free)
{
	struct sim *s = bt_machine(PROFILE_6_18, 6, 4, 0, 256);
	struct zone *z;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	CHECK_EQ(bt_alloc(s, 4, MIGRATE_MOVABLE, 0), 0);
	CHECK_EQ(bt_alloc(s, 4, MIGRATE_MOVABLE, 0), 16);
	*pageblock_tag(s, z, 0) |= PB_ISOLATE;
	bt_free(s, 0, 4); /* read type ISOLATE: goes to the isolate list, buddy 16 busy */
	CHECK(bt_is_free(s, 0, 4, MIGRATE_ISOLATE));
	CHECK_EQ(z->nr_free_pages, 256 - 32);
	CHECK_EQ(z->nr_free_pages_blocks, 256 - 32);
	CHECK_EQ(bt_check(s), SIM_OK);
	/* freeing 16 (MOVABLE) must not merge with the isolated block */
	bt_free(s, 16, 4);
	CHECK(bt_is_free(s, 16, 4, MIGRATE_MOVABLE));
	CHECK_EQ(z->nr_free_pages, 256 - 16);
	/* un-isolating moves the block back and makes it count again */
	*pageblock_tag(s, z, 0) &= (uint8_t)~PB_ISOLATE;
	buddy_move_to_free_list(s, z, 0, MIGRATE_MOVABLE);
	CHECK_EQ(z->nr_free_pages, 256);
	CHECK_EQ(z->nr_free_pages_blocks, 256);
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/* split_large_buddy: a block above a pageblock is freed in pageblock pieces of their own types. */
TEST(buddy_free_large_block_in_pageblock_pieces)
{
	struct sim *s = bt_machine(PROFILE_6_18, 6, 4, 0, 256);
	struct zone *z;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	CHECK_EQ(bt_alloc(s, 6, MIGRATE_MOVABLE, 0), 0);
	set_pageblock_migratetype(s, z, 16, MIGRATE_HIGHATOMIC);
	sim_events_clear(s);
	bt_free(s, 0, 6);
	/* 0 (MOVABLE) cannot merge with 16 (HIGHATOMIC); 32 and 48 merge into order 5 */
	CHECK(bt_is_free(s, 0, 4, MIGRATE_MOVABLE));
	CHECK(bt_is_free(s, 16, 4, MIGRATE_HIGHATOMIC));
	CHECK(bt_is_free(s, 32, 5, MIGRATE_MOVABLE));
	/* four pieces, four placements: 32 (o4) is placed before 48 arrives and merges with it */
	CHECK_EQ(bt_count(s, EV_BUDDY_ENQUEUE), 4);
	CHECK_EQ(bt_count(s, EV_BUDDY_MERGE), 1);
	CHECK_EQ(z->nr_free_highatomic, 16);
	CHECK_EQ(z->nr_free_pages, 256);
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/* NR_FREE_PAGES_BLOCKS follows blocks of order >= pageblock_order in and out of the lists. */
TEST(buddy_nr_free_pages_blocks)
{
	struct sim *s = bt_machine(PROFILE_6_18, 6, 4, 0, 256);
	struct zone *z;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	CHECK_EQ(bt_alloc(s, 0, MIGRATE_MOVABLE, 0), 0);
	/* 64 left the blocks; 32 (o5) and 16 (o4) came back; 8, 4, 2, 1 are below a pageblock */
	CHECK_EQ(z->nr_free_pages_blocks, 192 + 48);
	CHECK_EQ(z->nr_free_pages, 255);
	CHECK_EQ(bt_alloc(s, 3, MIGRATE_MOVABLE, 0), 8);
	CHECK_EQ(z->nr_free_pages_blocks, 240);
	CHECK_EQ(bt_alloc(s, 4, MIGRATE_MOVABLE, 0), 16);
	CHECK_EQ(z->nr_free_pages_blocks, 224);
	bt_free(s, 0, 0); /* merges up to 0 (o3): still below a pageblock */
	CHECK_EQ(z->nr_free_pages_blocks, 224);
	bt_free(s, 8, 3); /* 0 (o3) + 8 (o3) = 0 (o4): a pageblock's worth enters the count */
	CHECK_EQ(z->nr_free_pages_blocks, 240);
	bt_free(s, 16, 4); /* completes the order-6 block */
	CHECK_EQ(z->nr_free_pages_blocks, 256);
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/* The public list calls keep every counter as the checker recomputes it. */
TEST(buddy_list_primitives)
{
	struct sim *s = bt_machine(PROFILE_6_18, 6, 4, 0, 256);
	struct zone *z;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	buddy_del_from_free_list(s, z, 64);
	CHECK_EQ(bt_page(s, 64)->state, PG_TAIL);
	CHECK_EQ(z->nr_free_pages, 192);
	CHECK_EQ(z->free_area[6].head[MIGRATE_MOVABLE], 0);
	CHECK_EQ(bt_page(s, 0)->next, 128);
	CHECK_EQ(bt_page(s, 128)->prev, 0);
	/* put it back at the head, then move it to HIGHATOMIC (goes to that list's tail) */
	buddy_add_to_free_list(s, z, 64, 6, MIGRATE_MOVABLE, 0);
	CHECK_EQ(z->free_area[6].head[MIGRATE_MOVABLE], 64);
	CHECK_EQ(bt_check(s), SIM_OK);
	set_pageblock_migratetype(s, z, 64, MIGRATE_HIGHATOMIC);
	set_pageblock_migratetype(s, z, 80, MIGRATE_HIGHATOMIC);
	set_pageblock_migratetype(s, z, 96, MIGRATE_HIGHATOMIC);
	set_pageblock_migratetype(s, z, 112, MIGRATE_HIGHATOMIC);
	buddy_move_to_free_list(s, z, 64, MIGRATE_HIGHATOMIC);
	CHECK(bt_is_free(s, 64, 6, MIGRATE_HIGHATOMIC));
	CHECK_EQ(z->nr_free_highatomic, 64);
	CHECK_EQ(z->nr_free_pages, 256);
	CHECK_EQ(z->free_area[6].nr_free, 4);
	CHECK_EQ(bt_check(s), SIM_OK);
	/* deleting a frame that is not PageBuddy changes nothing */
	buddy_del_from_free_list(s, z, 65);
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/* A corrupted list head is never followed: the allocation fails, the checker says why. */
TEST(buddy_corrupt_list_head_is_not_followed)
{
	struct sim *s = bt_machine(PROFILE_6_18, 6, 4, 0, 256);
	struct zone *z;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	/* point every order-6 MOVABLE head outside the zone, then at a tail frame */
	z->free_area[6].head[MIGRATE_MOVABLE] = 5000;
	CHECK_EQ(buddy_rmqueue_smallest(s, z, 0, MIGRATE_MOVABLE, 0), PFN_NONE);
	CHECK_EQ(sim_check(s), SIM_ECORRUPT);
	z->free_area[6].head[MIGRATE_MOVABLE] = 3;
	CHECK_EQ(rmqueue_with_fallback(s, z, 0, MIGRATE_MOVABLE, 0, NULL, 0), PFN_NONE);
	CHECK_EQ(sim_check(s), SIM_ECORRUPT);
	/* a link leaving the zone is never written through */
	z->free_area[6].head[MIGRATE_MOVABLE] = 0;
	bt_page(s, 0)->next = 99999;
	CHECK_EQ(buddy_rmqueue_smallest(s, z, 6, MIGRATE_MOVABLE, 0), 0);
	CHECK_EQ(sim_check(s), SIM_ECORRUPT);
	free(s);
}

/* rmqueue_buddy: ALLOC_HIGHATOMIC uses the reserve first; OOM / NON_BLOCK may use it last. */
TEST(buddy_rmqueue_buddy_highatomic_order)
{
	struct sim *s = bt_machine(PROFILE_6_18, 6, 4, 0, 64);
	struct zone *z;
	uint32_t pfn;

	CHECK(s != NULL);
	if (!s)
		return;
	z = bt_zone(s);
	/* one order-6 block; make pageblock 0..15 a free HIGHATOMIC order-4 block, rest MOVABLE */
	CHECK_EQ(bt_alloc(s, 6, MIGRATE_MOVABLE, 0), 0);
	set_pageblock_migratetype(s, z, 0, MIGRATE_HIGHATOMIC);
	bt_free(s, 0, 6);
	CHECK(bt_is_free(s, 0, 4, MIGRATE_HIGHATOMIC));
	CHECK_EQ(bt_check(s), SIM_OK);
	/* ALLOC_HIGHATOMIC: from the reserve although MOVABLE has blocks */
	pfn = bt_alloc(s, 1, MIGRATE_MOVABLE, ALLOC_HIGHATOMIC);
	CHECK_EQ(pfn, 0);
	CHECK_EQ(z->nr_free_highatomic, 14);
	CHECK_EQ(bt_check(s), SIM_OK);
	/* a normal request never sees the reserve; exhaust the MOVABLE 48 pages */
	CHECK_EQ(bt_alloc(s, 5, MIGRATE_MOVABLE, 0), 32);
	CHECK_EQ(bt_alloc(s, 4, MIGRATE_MOVABLE, 0), 16);
	CHECK_EQ(bt_alloc(s, 0, MIGRATE_MOVABLE, 0), PFN_NONE);
	CHECK_EQ(bt_alloc(s, 0, MIGRATE_UNMOVABLE, 0), PFN_NONE);
	/* but an atomic (NON_BLOCK) or OOM request may take the reserve, even at order 0 */
	pfn = bt_alloc(s, 0, MIGRATE_MOVABLE, ALLOC_NON_BLOCK);
	CHECK(pfn != PFN_NONE && pfn < 16);
	pfn = bt_alloc(s, 0, MIGRATE_UNMOVABLE, ALLOC_OOM);
	CHECK(pfn != PFN_NONE && pfn < 16);
	CHECK_EQ(z->nr_free_highatomic, 12);
	CHECK_EQ(bt_check(s), SIM_OK);
	free(s);
}

/* Scrambled frames, lists and tags: every buddy and fallback call stays inside the arena. */
TEST(buddy_corrupted_state_never_escapes)
{
	for (int round = 0; round < 40; round++) {
		struct sim *s = bt_machine(round & 1 ? PROFILE_6_6 : PROFILE_6_18, 6, 4, 8, 248);
		struct zone *z;
		uint64_t r = 0x9E3779B97F4A7C15ULL * (uint64_t)(round + 1);

		CHECK(s != NULL);
		if (!s)
			return;
		z = bt_zone(s);
		/* some honest traffic first, so there are blocks of every kind */
		for (int i = 0; i < 30; i++)
			bt_alloc(s, i % 4, i % 3, 0);
		for (int i = 0; i < 60; i++) {
			uint32_t pfn;
			struct page *page;
			r ^= r << 13, r ^= r >> 7, r ^= r << 17;
			pfn = z->mem_pfn + (uint32_t)(r % z->managed);
			page = bt_page(s, pfn);
			switch ((r >> 32) % 8) {
			case 0:
				page->state = (uint8_t)(r >> 40) % 6;
				break;
			case 1:
				page->order = (uint8_t)(r >> 40);
				break;
			case 2:
				page->list = (uint8_t)(r >> 40);
				break;
			case 3:
				page->next = (uint32_t)(r >> 40) % 400;
				break;
			case 4:
				page->prev = (uint32_t)(r >> 40) % 400;
				break;
			case 5:
				*pageblock_tag(s, z, pfn) = (uint8_t)(r >> 40);
				break;
			case 6:
				z->free_area[(r >> 40) % 7].head[(r >> 44) % MIGRATE_TYPES] =
					(uint32_t)(r >> 48) % 400;
				break;
			default:
				z->free_area[(r >> 40) % 7].tail[(r >> 44) % MIGRATE_TYPES] =
					(uint32_t)(r >> 48) % 400;
				break;
			}
		}
		for (int i = 0; i < 200; i++) {
			uint32_t pfn;
			int order, mt;
			r ^= r << 13, r ^= r >> 7, r ^= r << 17;
			pfn = (uint32_t)(r % 300);
			order = (int)((r >> 20) % 9) - 1;
			mt = (int)((r >> 30) % 8) - 1;
			switch ((r >> 40) % 9) {
			case 0:
				rmqueue_buddy(s, z, order, mt, (unsigned)(r >> 50), 0);
				break;
			case 1:
				buddy_free_one_page(s, z, pfn, order, mt, 0, FN_NONE);
				break;
			case 2:
				buddy_free_pages_to_buddy(s, z, pfn, order, 1, FN_NONE);
				break;
			case 3:
				fallback_rmqueue_claim(s, z, order, mt, 0, 0);
				break;
			case 4:
				fallback_rmqueue_steal(s, z, order, mt, 0);
				break;
			case 5:
				fallback_rmqueue_6_12(s, z, order, mt, 0, 0);
				break;
			case 6:
				highatomic_reserve_pageblock(s, z, pfn, order, (int)(r % 5) - 1);
				break;
			case 7:
				highatomic_unreserve_pageblock(s, 0, ZONE_NORMAL, mt, 1, 0);
				break;
			default:
				if (zone_has_pfn(z, pfn)) {
					buddy_del_from_free_list(s, z, pfn);
					buddy_move_to_free_list(s, z, pfn, mt);
					buddy_expand(s, z, pfn, order, order + 2, mt, 0);
					buddy_add_to_free_list(s, z, pfn, order, mt, (int)(r & 1));
				}
				break;
			}
			sim_events_clear(s);
		}
		/* whatever happened, the checker answers (and never hangs) */
		CHECK(sim_check(s) == SIM_OK || sim_check(s) == SIM_ECORRUPT);
		free(s);
	}
}

TEST(merge_moves_a_buddy_of_another_list_and_its_counts)
{
	/* fuzz case 16878152731722404613, cut down: 5.13, an atomic order-3 block from a HIGHATOMIC
	 * reserve in a 428-page zone, freed: it merged with free buddies listed under another type
	 * and nr_free_highatomic missed their pages (8 counted, 256 listed) */
	struct sim_config cfg;
	struct sim *s;
	struct sim_op alloc = { OP_ALLOC, 3, 28, GFP_ATOMIC | __GFP_NOWARN, 174, 0 };
	struct sim_op release = { OP_FREE, 2, 52, GFP_ATOMIC, 174, 0 };

	sim_config_default(&cfg);
	memset(cfg.zones, 0, sizeof cfg.zones);
	cfg.profile = PROFILE_5_13;
	cfg.nr_nodes = 2;
	cfg.cpus_per_node = 32;
	cfg.max_order = 9;
	cfg.pageblock_order = 9;
	cfg.thp = 0;
	cfg.watermark_scale_factor = 506;
	cfg.min_free_kbytes = 54237;
	cfg.seed = 10088735280907137455ull;
	cfg.max_handles = 256;
	cfg.zones[0][ZONE_DMA32] = (struct zone_config){ 0, 1499, 1499, 1499 };
	cfg.zones[0][ZONE_NORMAL] = (struct zone_config){ 1499, 428, 428, 428 };
	cfg.zones[0][ZONE_MOVABLE] = (struct zone_config){ 2877, 1061, 1061, 1000 };
	cfg.zones[1][ZONE_NORMAL] = (struct zone_config){ 3938, 5101, 5101, 5101 };
	s = test_boot(&cfg);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(sim_apply(s, &alloc), SIM_OK);
	CHECK_EQ(sim_check(s), SIM_OK);
	CHECK_EQ(sim_apply(s, &release), SIM_OK);
	CHECK_EQ(sim_check(s), SIM_OK);
	free(s);
}
