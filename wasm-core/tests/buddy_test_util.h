/*
 * buddy_test_util.h: small machines and direct buddy calls for test_buddy.c and test_fallback.c.
 * The zone lock is not modelled here: the tests call the buddy functions the way the allocator
 * does while holding it, and run sim_check after every step.
 */
#ifndef BUDDYSCOPE_BUDDY_TEST_UTIL_H
#define BUDDYSCOPE_BUDDY_TEST_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "base/sim.h"
#include "base/state.h"
#include "boot.h"
#include "harness.h"
#include "page_alloc/buddy.h"
#include "page_alloc/fallback.h"

/* A one-node machine with one Normal zone of `managed` frames ending at start + managed. */
static struct sim *bt_machine(int profile, int max_order, int pageblock_order, uint32_t start,
			      uint32_t managed)
{
	struct sim_config cfg;

	sim_config_default(&cfg);
	cfg.profile = (uint8_t)profile;
	cfg.max_order = (uint8_t)max_order;
	cfg.pageblock_order = (uint8_t)pageblock_order;
	cfg.thp = 0;
	cfg.event_capacity = 1u << 16;
	cfg.zones[0][ZONE_NORMAL] = (struct zone_config){ start, managed, managed, managed };
	return test_boot(&cfg);
}

/* The machine's Normal zone. */
static struct zone *bt_zone(struct sim *s)
{
	return sim_zone(s, 0, ZONE_NORMAL);
}

/* sim_check, printing the checker's words when it fails. */
static int bt_check(struct sim *s)
{
	int err = sim_check(s);
	if (err)
		fprintf(stderr, "    sim_check: %s\n", s->error);
	return err;
}

/* Allocate as the allocator would: rmqueue_buddy, then the head becomes PG_ALLOCATED of mt. */
static uint32_t bt_alloc(struct sim *s, int order, int mt, unsigned alloc_flags)
{
	struct zone *z = bt_zone(s);
	uint32_t pfn = rmqueue_buddy(s, z, order, mt, alloc_flags, 0);

	if (pfn != PFN_NONE) {
		struct page *page = zone_page(s, z, pfn);
		page->state = PG_ALLOCATED;
		page->order = (uint8_t)order;
		page->list = (uint8_t)mt;
	}
	return pfn;
}

/* Free an allocated block straight to the buddy (free_one_page). */
static void bt_free(struct sim *s, uint32_t pfn, int order)
{
	buddy_free_pages_to_buddy(s, bt_zone(s), pfn, order, 0, FN_FREE_ONE_PAGE);
}

/* The n-th (0-based) buffered event of a kind, or NULL. */
static const struct sim_event *bt_event(const struct sim *s, int kind, int n)
{
	const struct sim_event *e = sim_events(s);
	for (uint32_t i = 0; i < s->nr_events; i++)
		if (e[i].kind == kind && n-- == 0)
			return &e[i];
	return NULL;
}

/* How many buffered events are of a kind. */
static int bt_count(const struct sim *s, int kind)
{
	int n = 0;
	const struct sim_event *e = sim_events(s);
	for (uint32_t i = 0; i < s->nr_events; i++)
		n += e[i].kind == kind;
	return n;
}

/* The frame of pfn in the Normal zone. */
static struct page *bt_page(struct sim *s, uint32_t pfn)
{
	return zone_page(s, bt_zone(s), pfn);
}

/* Whether pfn heads a free block of order on mt's list. */
static int bt_is_free(struct sim *s, uint32_t pfn, int order, int mt)
{
	const struct page *page = bt_page(s, pfn);
	return page->state == PG_BUDDY && page->order == order && page->list == mt;
}

/*
 * A 64-page zone (pageblocks of 16, max_order 6) whose pageblocks 1-3 are allocated MOVABLE and
 * whose pageblock 0 holds: allocated MOVABLE 0..7 (o3) when small_free, else free 0..7 too;
 * allocated 8 (o0) of `mt8`; free 9 (o0), 10 (o1), 12 (o2). So 7 free pages, or 15.
 */
static struct sim *mixed_pageblock(int profile, int keep_0_allocated, int mt8)
{
	struct sim *s = bt_machine(profile, 6, 4, 0, 64);

	if (!s)
		return NULL;
	/* four order-4 allocations: 0, 16, 32, 48 */
	for (uint32_t want = 0; want < 64; want += 16)
		CHECK_EQ(bt_alloc(s, 4, MIGRATE_MOVABLE, 0), want);
	bt_free(s, 0, 4);
	CHECK_EQ(bt_alloc(s, 3, MIGRATE_MOVABLE, 0), 0);
	CHECK_EQ(bt_alloc(s, 0, MIGRATE_MOVABLE, 0), 8);
	bt_page(s, 8)->list = (uint8_t)mt8; /* what the allocation was, as page_alloc records it */
	if (!keep_0_allocated)
		bt_free(s, 0, 3);
	CHECK_EQ(bt_check(s), SIM_OK);
	/* a non-zero high watermark so boost_watermark has something to scale */
	bt_zone(s)->_watermark[WMARK_HIGH] = 20;
	sim_events_clear(s);
	return s;
}

#endif
