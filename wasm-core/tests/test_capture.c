/*
 * test_capture.c: a zone booted into a captured state (page_alloc/capture.c): the free blocks per
 * order and type, the pageblocks per type and the pcp pages land where the counts say, nothing
 * would merge, sim_check holds, and bad capture ops change nothing.
 */
#include <stdlib.h>

#include "base/sim.h"
#include "base/state.h"
#include "boot.h"
#include "harness.h"
#include "page_alloc/capture.h"
#include "page_alloc/pcp_index.h"

/* The laptop machine (DMA, DMA32, Normal; 8 CPUs) under 6.18. */
static struct sim *laptop(void)
{
	struct sim_config cfg;

	if (sim_config_preset(&cfg, "laptop") != SIM_OK)
		return NULL;
	return test_boot(&cfg);
}

/* Apply one op; its error code. */
static int op(struct sim *s, int kind, int cpu, int order, uint32_t gfp, uint32_t handle,
	      int32_t arg)
{
	struct sim_op o = { (uint8_t)kind, (uint8_t)order, (uint16_t)cpu, gfp, handle, arg };
	return sim_apply(s, &o);
}

#define NORMAL (0 * MAX_NR_ZONES + ZONE_NORMAL)

/* Pageblocks of z tagged mt. */
static uint32_t blocks_of(const struct sim *s, const struct zone *z, int mt)
{
	uint32_t n = 0;
	for (uint32_t pb = 0; pb < z->nr_pageblocks; pb++)
		n += (sim_pageblocks(s)[z->pageblock_base + pb] & 0x7) == mt;
	return n;
}

TEST(capture_counts_land_as_recorded)
{
	struct sim *s = laptop();
	struct zone *z;
	static const uint32_t movable[11] = { 5, 184, 1072, 222, 346, 334, 395, 307, 375, 103, 658 };
	static const uint32_t unmovable[11] = { 0, 0, 548, 0, 256, 203, 140, 64, 17, 0, 0 };
	int64_t want_free = 0;

	CHECK(s != NULL);
	if (!s)
		return;
	z = sim_zone(s, 0, ZONE_NORMAL);
	for (int order = 0; order <= 10; order++) {
		CHECK(op(s, OP_CAPTURE_ZONE, 0, order, MIGRATE_MOVABLE, NORMAL,
			 (int32_t)movable[order]) == SIM_OK);
		CHECK(op(s, OP_CAPTURE_ZONE, 0, order, MIGRATE_UNMOVABLE, NORMAL,
			 (int32_t)unmovable[order]) == SIM_OK);
		want_free += (int64_t)(movable[order] + unmovable[order]) << order;
	}
	CHECK(op(s, OP_CAPTURE_ZONE, 0, CAPTURE_PAGEBLOCKS, MIGRATE_UNMOVABLE, NORMAL, 123) ==
	      SIM_OK);
	CHECK(op(s, OP_CAPTURE_ZONE, 0, CAPTURE_PAGEBLOCKS, MIGRATE_RECLAIMABLE, NORMAL, 94) ==
	      SIM_OK);
	CHECK(op(s, OP_CAPTURE_ZONE, 0, CAPTURE_PAGEBLOCKS, MIGRATE_MOVABLE, NORMAL, 2407) ==
	      SIM_OK);
	CHECK(op(s, OP_CAPTURE_ZONE, 0, CAPTURE_LAYOUT, 0, NORMAL, 0) == SIM_OK);
	CHECK(sim_check(s) == SIM_OK);
	CHECK_EQ(z->capture_unplaced, 0);
	CHECK_EQ(z->nr_free_pages, want_free);
	for (int order = 0; order <= 10; order++) {
		CHECK_EQ(z->free_area[order].count[MIGRATE_MOVABLE], movable[order]);
		CHECK_EQ(z->free_area[order].count[MIGRATE_UNMOVABLE], unmovable[order]);
	}
	CHECK_EQ(blocks_of(s, z, MIGRATE_UNMOVABLE), 123);
	CHECK_EQ(blocks_of(s, z, MIGRATE_RECLAIMABLE), 94);
	CHECK_EQ(blocks_of(s, z, MIGRATE_MOVABLE), z->nr_pageblocks - 123 - 94);

	/* pcp pages come out of in-use memory: the buddy's free pages do not move */
	CHECK(op(s, OP_CAPTURE_PCP, 3, 0, MIGRATE_MOVABLE, NORMAL, 65000) == SIM_OK);
	CHECK(op(s, OP_CAPTURE_PCP, 3, 2, MIGRATE_UNMOVABLE, NORMAL, 100) == SIM_OK);
	CHECK(op(s, OP_CAPTURE_PCP, 3, 9, MIGRATE_MOVABLE, NORMAL, 1) == SIM_OK);
	CHECK(op(s, OP_CAPTURE_PCP, 3, CAPTURE_PCP_HIGH, 0, NORMAL, 66161) == SIM_OK);
	CHECK_EQ(sim_pcp(s, 3, 0, ZONE_NORMAL)->count, 65000 + 400 + 512);
	CHECK_EQ(sim_pcp(s, 3, 0, ZONE_NORMAL)->high, 66161);
	CHECK_EQ(z->nr_free_pages, want_free);
	CHECK(sim_check(s) == SIM_OK);
	/* an order without pcp lists, a type without one, a zone not laid out: refused */
	CHECK(op(s, OP_CAPTURE_PCP, 3, 5, MIGRATE_MOVABLE, NORMAL, 1) == SIM_EINVAL);
	CHECK(op(s, OP_CAPTURE_PCP, 3, 0, MIGRATE_HIGHATOMIC, NORMAL, 1) == SIM_EINVAL);
	CHECK(op(s, OP_CAPTURE_PCP, 3, 0, MIGRATE_MOVABLE, 0 * MAX_NR_ZONES + ZONE_DMA32, 10) ==
	      SIM_EINVAL);
	/* the state works: allocations and frees on it pass the checker */
	for (int i = 0; i < 200; i++)
		CHECK(op(s, OP_ALLOC, i % 8, i % 4, 0x8 | 0xcc0, (uint32_t)i, 0) == SIM_OK);
	for (int i = 0; i < 200; i += 2)
		CHECK(op(s, OP_FREE, i % 8, 0, 0, (uint32_t)i, 0) == SIM_OK);
	CHECK(sim_check(s) == SIM_OK);
	/* a trace's free of memory allocated before it: a captured block goes through the free path */
	{
		int64_t before = z->nr_free_pages;
		int32_t count = sim_pcp(s, 5, 0, ZONE_NORMAL)->count;
		CHECK(op(s, OP_CAPTURE_ZONE, 5, CAPTURE_FREE, 0, 0, 0) == SIM_OK);
		CHECK(op(s, OP_CAPTURE_ZONE, 5, CAPTURE_FREE, 0, 0, 9) == SIM_OK);
		CHECK(op(s, OP_CAPTURE_ZONE, 5, CAPTURE_FREE, 0, 0, 11) == SIM_EINVAL);
		CHECK_EQ(sim_pcp(s, 5, 0, ZONE_NORMAL)->count + z->nr_free_pages,
			 count + before + 1 + 512);
		CHECK(sim_check(s) == SIM_OK);
	}
	/* a free the trace showed reaching a type's list lands on that type's list (gfp: type + 1) */
	for (int mt = MIGRATE_UNMOVABLE; mt <= MIGRATE_RECLAIMABLE; mt++) {
		const struct per_cpu_pages *pcp = sim_pcp(s, 6, 0, ZONE_NORMAL);
		int pindex = pcp_order_to_pindex(s, mt, 0);
		uint32_t head_before = pcp->head[pindex];
		if (!blocks_of(s, z, mt))
			continue;
		CHECK(op(s, OP_CAPTURE_ZONE, 6, CAPTURE_FREE, (uint32_t)mt + 1, 0, 0) == SIM_OK);
		CHECK(pcp->head[pindex] != head_before);
		CHECK_EQ(get_pageblock_migratetype(s, z, pcp->head[pindex]), mt);
		CHECK(sim_check(s) == SIM_OK);
	}
	CHECK(op(s, OP_CAPTURE_ZONE, 6, CAPTURE_FREE, MIGRATE_TYPES + 1, 0, 0) == SIM_EINVAL);
	free(s);
}

TEST(capture_without_pageblocks_tags_in_use_unmovable)
{
	struct sim *s = laptop();
	struct zone *z;
	uint32_t free_blocks;

	CHECK(s != NULL);
	if (!s)
		return;
	z = sim_zone(s, 0, ZONE_NORMAL);
	/* zoneinfo alone: 1000 free pages as 0 + 8 + 32 + 64 + 128 + 256 + 512 */
	CHECK(op(s, OP_CAPTURE_ZONE, 0, 3, MIGRATE_MOVABLE, NORMAL, 1) == SIM_OK);
	for (int order = 5; order <= 9; order++)
		CHECK(op(s, OP_CAPTURE_ZONE, 0, order, MIGRATE_MOVABLE, NORMAL, 1) == SIM_OK);
	CHECK(op(s, OP_CAPTURE_ZONE, 0, CAPTURE_LAYOUT, 0, NORMAL, 0) == SIM_OK);
	CHECK(sim_check(s) == SIM_OK);
	CHECK_EQ(z->nr_free_pages, 1000);
	free_blocks = blocks_of(s, z, MIGRATE_MOVABLE);
	CHECK(free_blocks >= 1 && free_blocks <= 3);
	CHECK_EQ(blocks_of(s, z, MIGRATE_UNMOVABLE), z->nr_pageblocks - free_blocks);
	/* the 1000 free pages serve allocations; the checker holds after them */
	CHECK(op(s, OP_ALLOC, 0, 9, 0x8 | 0xcc0, 0, 0) == SIM_OK);
	CHECK(op(s, OP_ALLOC, 0, 0, 0xcc0, 1, 0) == SIM_OK);
	CHECK(sim_check(s) == SIM_OK);
	free(s);
}

/*
 * A run of pageblocks shorter than a max-order block: its pieces after the first lie inside a
 * block that boot left whole, so the block needs its frames before a free block goes there (fuzz
 * case 1100795591005867262 wrote such a head into the whole blocks' shared tail).
 */
TEST(capture_runs_inside_a_whole_block_materialise_it)
{
	struct sim_config cfg;
	struct sim *s;
	struct zone *z;

	sim_config_default(&cfg);
	cfg.thp = 0;
	cfg.pageblock_order = 2;
	cfg.zones[0][ZONE_NORMAL] = (struct zone_config){ 0, 4096, 4096, 4096 };
	s = test_boot(&cfg);
	CHECK(s != NULL);
	if (!s)
		return;
	z = sim_zone(s, 0, ZONE_NORMAL);
	/* 3 Unmovable pageblocks: a run of 12 pages, pieces of order 3 and 2, both free */
	CHECK(op(s, OP_CAPTURE_ZONE, 0, CAPTURE_PAGEBLOCKS, MIGRATE_UNMOVABLE, NORMAL, 3) ==
	      SIM_OK);
	CHECK(op(s, OP_CAPTURE_ZONE, 0, 3, MIGRATE_UNMOVABLE, NORMAL, 1) == SIM_OK);
	CHECK(op(s, OP_CAPTURE_ZONE, 0, 2, MIGRATE_UNMOVABLE, NORMAL, 1) == SIM_OK);
	CHECK(op(s, OP_CAPTURE_ZONE, 0, CAPTURE_LAYOUT, 0, NORMAL, 0) == SIM_OK);
	CHECK_EQ(sim_check(s), SIM_OK);
	CHECK_EQ(z->nr_free_pages, 12);
	CHECK_EQ(frame_at(s, 8)->state, PG_BUDDY);
	CHECK_EQ(frame_at(s, 8)->order, 2);
	free(s);
}

TEST(capture_refuses_bad_ops_and_reports_what_does_not_fit)
{
	struct sim *s = laptop();
	struct zone *z;

	CHECK(s != NULL);
	if (!s)
		return;
	z = sim_zone(s, 0, ZONE_NORMAL);
	CHECK(op(s, OP_CAPTURE_ZONE, 0, 11, MIGRATE_MOVABLE, NORMAL, 1) == SIM_EINVAL);
	CHECK(op(s, OP_CAPTURE_ZONE, 0, 0, MIGRATE_TYPES, NORMAL, 1) == SIM_EINVAL);
	CHECK(op(s, OP_CAPTURE_ZONE, 0, 0, MIGRATE_MOVABLE, 99, 1) == SIM_EINVAL);
	CHECK(op(s, OP_CAPTURE_ZONE, 0, 0, MIGRATE_MOVABLE, NORMAL, -1) == SIM_EINVAL);
	/* nothing captured yet: nothing to free */
	CHECK(op(s, OP_CAPTURE_ZONE, 0, CAPTURE_FREE, 0, 0, 0) == SIM_EINVAL);
	/* more order-0 free pages than half the zone can hold apart from each other */
	CHECK(op(s, OP_CAPTURE_ZONE, 0, 0, MIGRATE_MOVABLE, NORMAL, (int32_t)z->managed) == SIM_OK);
	CHECK(op(s, OP_CAPTURE_ZONE, 0, CAPTURE_LAYOUT, 0, NORMAL, 0) == SIM_OK);
	CHECK(sim_check(s) == SIM_OK);
	CHECK_EQ(z->nr_free_pages + z->capture_unplaced, z->managed);
	CHECK(z->capture_unplaced >= z->managed / 2);
	/* a zone a workload has used cannot be laid out again */
	CHECK(op(s, OP_ALLOC, 0, 0, 0x8 | 0xcc0, 0, 0) == SIM_OK);
	CHECK_EQ(sim_handles(s)[0].zone, ZONE_NORMAL);
	CHECK(op(s, OP_CAPTURE_ZONE, 0, CAPTURE_LAYOUT, 0, NORMAL, 0) == SIM_EINVAL);
	free(s);
}
