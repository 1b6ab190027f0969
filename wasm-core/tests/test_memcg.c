/*
 * test_memcg.c: memory cgroups in global reclaim as 6.18 does it (mm/vmscan.c shrink_node_memcgs,
 * get_scan_count; mm/memcontrol.c mem_cgroup_iter). The numbers are worked from the v6.18 source:
 * each memcg's lruvec is scanned apart, size >> priority of each list; a deleted (offline) memcg
 * at least min(size, SWAP_CLUSTER_MAX) at any priority; kswapd walks every memcg, direct reclaim
 * shares a partial walk per node that stops once it has SWAP_CLUSTER_MAX pages and resumes after
 * where it stopped. A machine without memcgs scans its one lruvec.
 */
#include "capture_test_util.h"
#include "page_alloc/pcp_index.h"
#include "reclaim/lru.h"
#include "reclaim/memcg.h"
#include "reclaim/vmscan.h"
#include "reclaim/vocab.h"

#define NORMAL (0 * MAX_NR_ZONES + ZONE_NORMAL)

/* One node, 2 CPUs, a 65536-page Normal zone laid out with 1000 free pages; max_memcgs memcgs. */
static struct sim *memcg_machine(int max_memcgs)
{
	struct sim_config cfg;
	struct sim *s;

	sim_config_default(&cfg);
	cfg.thp = 0;
	cfg.max_handles = 1000;
	cfg.event_capacity = 1 << 20;
	cfg.max_memcgs = (uint16_t)max_memcgs;
	cfg.zones[0][ZONE_NORMAL] = (struct zone_config){ 1u << 20, 65536, 65536, 65536 };
	s = at_boot(&cfg);
	if (!s)
		return NULL;
	lay_out_normal(s, 0, 1000, 4, 124);
	return s;
}

/* Folios of order on inactive file of memcg. */
static void file_folios(struct sim *s, int memcg, int order, int32_t n)
{
	CHECK_EQ(at_op(s, OP_CAPTURE_LRU_FOLIOS, 0, order,
		       (uint32_t)memcg * NR_LRU_LISTS + LRU_INACTIVE_FILE, NORMAL, n),
		 SIM_OK);
}

/* Declare the root and one online memcg (index 1, cgroup inode 35). */
static void root_and_memcg_1(struct sim *s)
{
	CHECK_EQ(at_op(s, OP_MEMCG, 0, 0, 0, 1, 1), SIM_OK);
	CHECK_EQ(at_op(s, OP_MEMCG, 0, 0, 0, 35, 1), SIM_OK);
}

/* root (empty), A online with 40960 pages, B offline with 1000, C offline with 20, on inactive file. */
static struct sim *four_memcgs(void)
{
	struct sim *s = memcg_machine(4);

	if (!s)
		return NULL;
	root_and_memcg_1(s);
	CHECK_EQ(at_op(s, OP_MEMCG, 0, 0, 0, 0, 0), SIM_OK);
	CHECK_EQ(at_op(s, OP_MEMCG, 0, 0, 0, 0, 0), SIM_OK);
	file_folios(s, 1, 0, 40960);
	file_folios(s, 2, 0, 1000);
	file_folios(s, 3, 0, 20);
	return s;
}

/* kswapd's scan_control for one shrink_node at DEF_PRIORITY, with a target it never meets. */
static struct scan_control kswapd_sc(void)
{
	struct scan_control sc = {
		.nr_to_reclaim = 1 << 20,
		.gfp = GFP_KERNEL,
		.priority = DEF_PRIORITY,
		.reclaim_idx = ZONE_NORMAL,
		.kswapd = 1,
		.may_swap = 1,
		.may_unmap = 1,
		.may_writepage = 1,
		.only_zone = -1,
	};
	return sc;
}

/* The pages each EV_SHRINK_INACTIVE event scanned, in order, into out (at most max); how many. */
static int scans(const struct sim *s, int32_t *out, int max)
{
	int n = 0;

	for (uint32_t i = 0; i < s->nr_events; i++) {
		const struct sim_event *e = &sim_event_buf(s)[i];
		if (e->kind == EV_SHRINK_INACTIVE && n < max)
			out[n++] = e->a;
	}
	return n;
}

TEST(memcg_declared_in_walk_order_root_first_and_bounded)
{
	struct sim *s = memcg_machine(2);

	CHECK(s != NULL);
	if (!s)
		return;
	/* the root must be online, and come before any LRU page */
	CHECK_EQ(at_op(s, OP_MEMCG, 0, 0, 0, 1, 0), SIM_EINVAL);
	CHECK_EQ(at_op(s, OP_CAPTURE_LRU, 0, 0, LRU_INACTIVE_FILE, NORMAL, 1), SIM_OK);
	CHECK_EQ(at_op(s, OP_MEMCG, 0, 0, 0, 1, 1), SIM_EINVAL);
	free(s);
	s = memcg_machine(2);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(at_op(s, OP_MEMCG, 0, 0, 0, 1, 1), SIM_OK);
	CHECK_EQ(at_op(s, OP_MEMCG, 0, 0, 0, 7, 0), SIM_OK);
	CHECK_EQ(at_op(s, OP_MEMCG, 0, 0, 0, 9, 1), SIM_EINVAL); /* max_memcgs 2 */
	CHECK_EQ(memcg_count(s), 2);
	CHECK(memcg_enabled(s));
	CHECK_EQ(memcg_get(s, 1)->ino, 7);
	CHECK_EQ(memcg_get(s, 1)->online, 0);
	/* folios of an undeclared memcg are refused */
	CHECK_EQ(at_op(s, OP_CAPTURE_LRU_FOLIOS, 0, 0, 2 * NR_LRU_LISTS + LRU_INACTIVE_FILE, NORMAL,
		       1),
		 SIM_EINVAL);
	free(s);
}

TEST(memcg_iter_full_and_partial_walks)
{
	struct sim *s = four_memcgs();

	CHECK(s != NULL);
	if (!s)
		return;
	/* kswapd's full walk: pre-order, the root first, then the end */
	CHECK_EQ(memcg_iter(s, 0, -1, 0), 0);
	CHECK_EQ(memcg_iter(s, 0, 0, 0), 1);
	CHECK_EQ(memcg_iter(s, 0, 2, 0), 3);
	CHECK_EQ(memcg_iter(s, 0, 3, 0), -1);
	/* a partial walk begins at the root, and one stopped at memcg 1 resumes at 2 */
	CHECK_EQ(memcg_iter(s, 0, -1, 1), 0);
	CHECK_EQ(memcg_iter(s, 0, 0, 1), 1);
	CHECK_EQ(memcg_iter(s, 0, -1, 1), 2);
	CHECK_EQ(memcg_iter(s, 0, 2, 1), 3);
	CHECK_EQ(memcg_iter(s, 0, 3, 1), -1); /* the end: the position is reset */
	CHECK_EQ(memcg_iter(s, 0, -1, 1), 0);
	/* begun at the end of the hierarchy (position on the last), it restarts from the root */
	CHECK_EQ(memcg_iter(s, 0, 0, 1), 1);
	CHECK_EQ(memcg_iter(s, 0, 1, 1), 2);
	CHECK_EQ(memcg_iter(s, 0, 2, 1), 3);
	CHECK_EQ(memcg_iter(s, 0, -1, 1), 0);
	free(s);
}

/*
 * kswapd at DEF_PRIORITY (no swap: SCAN_FILE): A 40960 >> 12 = 10; B offline, 1000 >> 12 = 0, so
 * min(1000, 32) = 32; C offline, 20 >> 12 = 0, so min(20, 32) = 20; the empty root nothing: 62
 * pages in three batches. The same 41980 pages in one lruvec: 41980 >> 12 = 10.
 */
TEST(memcg_kswapd_scans_each_lruvec_and_scrapes_offline_ones)
{
	struct sim *s = four_memcgs();
	struct scan_control sc = kswapd_sc();
	int32_t got[8];

	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(sim_nodes(s)[0].lruvec.nr_pages[LRU_INACTIVE_FILE], 41980);
	CHECK_EQ(memcg_lruvec(s, 0, 2)->zone_size[ZONE_NORMAL][LRU_INACTIVE_FILE], 1000);
	sim_events_clear(s);
	shrink_node(s, 0, &sc);
	CHECK_EQ(scans(s, got, 8), 3);
	CHECK_EQ(got[0], 10);
	CHECK_EQ(got[1], 32);
	CHECK_EQ(got[2], 20);
	CHECK_EQ(s->ev.pgscan_kswapd, 62);
	CHECK_EQ(s->ev.pgsteal_kswapd, 62);
	CHECK_EQ(sim_nodes(s)[0].lruvec.nr_pages[LRU_INACTIVE_FILE], 41980 - 62);
	CHECK_EQ(at_check(s), SIM_OK);
	free(s);

	/* no memcgs: one lruvec */
	s = memcg_machine(0);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(at_op(s, OP_CAPTURE_LRU, 0, 0, LRU_INACTIVE_FILE, NORMAL, 41980), SIM_OK);
	sim_events_clear(s);
	shrink_node(s, 0, &sc);
	CHECK_EQ(scans(s, got, 8), 1);
	CHECK_EQ(got[0], 10);
	free(s);
}

/*
 * Direct reclaim's partial walk (try_to_free_pages, 32 pages): the first call, at priority 12,
 * takes 10 from A and 32 from offline B, has 42 and stops at B. The second resumes after B: C's 20
 * (offline floor), then the end of the walk with 20 < 32; at priority 11 a new walk begins at the
 * root (empty), then A: 40950 >> 11 = 19, 39 in all.
 */
TEST(memcg_direct_reclaim_walks_partially_and_resumes)
{
	struct sim *s = four_memcgs();

	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(try_to_free_pages(s, 0, GFP_KERNEL, 0, 0, ZONE_NORMAL), 42);
	CHECK_EQ(memcg_lruvec(s, 0, 2)->lists.nr_pages[LRU_INACTIVE_FILE], 1000 - 32);
	CHECK_EQ(memcg_lruvec(s, 0, 3)->lists.nr_pages[LRU_INACTIVE_FILE], 20);
	CHECK_EQ(try_to_free_pages(s, 0, GFP_KERNEL, 0, 0, ZONE_NORMAL), 39);
	CHECK_EQ(memcg_lruvec(s, 0, 3)->lists.nr_pages[LRU_INACTIVE_FILE], 0);
	CHECK_EQ(memcg_lruvec(s, 0, 1)->lists.nr_pages[LRU_INACTIVE_FILE], 40960 - 10 - 19);
	CHECK_EQ(at_check(s), SIM_OK);
	free(s);
}

/*
 * Captured folios come in whole: isolate_lru_folios counts every page of a folio, so an offline
 * memcg's floor of 32 takes eight order-2 folios of its ten (32 pages), freed as order-2 blocks.
 */
TEST(memcg_captured_large_folios_are_scanned_whole)
{
	struct sim *s = memcg_machine(2);
	struct scan_control sc = kswapd_sc();

	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(at_op(s, OP_MEMCG, 0, 0, 0, 1, 1), SIM_OK);
	CHECK_EQ(at_op(s, OP_MEMCG, 0, 0, 0, 0, 0), SIM_OK);
	file_folios(s, 1, 2, 10);
	CHECK_EQ(memcg_lruvec(s, 0, 1)->lists.nr_blocks[LRU_INACTIVE_FILE], 10);
	CHECK_EQ(memcg_lruvec(s, 0, 1)->lists.nr_pages[LRU_INACTIVE_FILE], 40);
	shrink_node(s, 0, &sc);
	CHECK_EQ(s->ev.pgscan_kswapd, 32);
	CHECK_EQ(memcg_lruvec(s, 0, 1)->lists.nr_blocks[LRU_INACTIVE_FILE], 2);
	CHECK_EQ(at_check(s), SIM_OK);
	free(s);
}

/*
 * A list placed in many small ops of mixed orders (web/core/capture-ops.ts interleaves them):
 * what an op of a large order passes over, a smaller order's later op still takes, so each op
 * scans on from its cursor without losing the captured pieces behind it.
 */
TEST(memcg_captured_folios_in_small_ops_use_what_larger_ones_left)
{
	struct sim *s = memcg_machine(2);
	const struct lruvec *lv;
	struct zone *z;
	uint32_t pfn, at[6] = { 0 };
	static const int orders[] = { 0, 3, 3, 0, 0, 0 };

	CHECK(s != NULL);
	if (!s)
		return;
	z = sim_zone(s, 0, ZONE_NORMAL);
	root_and_memcg_1(s);
	file_folios(s, 1, 0, 1); /* the first captured piece */
	file_folios(s, 1, 3, 2); /* order 3: passes over the order-0..2 pieces after it */
	file_folios(s, 1, 0, 3); /* order 0: takes pieces the order-3 op passed over */
	lv = &memcg_lruvec(s, 0, 1)->lists;
	CHECK_EQ(lv->nr_blocks[LRU_INACTIVE_FILE], 6);
	CHECK_EQ(lv->nr_pages[LRU_INACTIVE_FILE], 20);
	CHECK_EQ(z->capture_unplaced, 0);
	/* from the tail, in the order the ops put them there */
	pfn = lv->tail[LRU_INACTIVE_FILE];
	for (int i = 0; i < 6 && pfn != PFN_NONE; i++) {
		at[i] = pfn;
		CHECK_EQ(zone_page(s, z, pfn)->order, orders[i]);
		pfn = zone_page(s, z, pfn)->prev;
	}
	CHECK_EQ(pfn, PFN_NONE);
	/* the last op's pages lie between the first page and the order-3 folios, lowest first */
	CHECK(at[0] < at[3] && at[3] < at[4] && at[4] < at[5] && at[5] < at[1]);
	CHECK(at[1] < at[2]);
	CHECK_EQ(at_check(s), SIM_OK);
	free(s);
}

/*
 * A trace's free of pre-trace memory that reached the MOVABLE list, once the capture's only
 * MOVABLE memory in use is a memcg's LRU pages (an exiting task's anonymous memory, a truncated
 * file's page cache): it frees one of them, to the MOVABLE list, and the memcg's list loses it;
 * not a captured UNMOVABLE block, whose free would reach another list.
 */
TEST(memcg_captured_movable_free_takes_a_memcg_lru_page)
{
	struct sim *s = memcg_machine(2);
	const struct per_cpu_pages *pcp;
	const struct zone *z;
	int64_t anon, unmovable;

	CHECK(s != NULL);
	if (!s)
		return;
	z = sim_zone(s, 0, ZONE_NORMAL);
	root_and_memcg_1(s);
	/* every captured MOVABLE page on memcg 1's inactive anonymous list */
	CHECK_EQ(at_op(s, OP_CAPTURE_LRU_FOLIOS, 0, 0, NR_LRU_LISTS + LRU_INACTIVE_ANON, NORMAL,
		       (int32_t)captured_pages_of(s, z, MIGRATE_MOVABLE)),
		 SIM_OK);
	CHECK_EQ(captured_pages_of(s, z, MIGRATE_MOVABLE), 0);
	anon = memcg_lruvec(s, 0, 1)->lists.nr_pages[LRU_INACTIVE_ANON];
	unmovable = captured_pages_of(s, z, MIGRATE_UNMOVABLE);
	CHECK(anon > 0 && unmovable > 0);
	CHECK_EQ(at_op(s, OP_CAPTURE_ZONE, 0, CAPTURE_FREE, MIGRATE_MOVABLE + 1, PFN_NONE, 0),
		 SIM_OK);
	pcp = sim_pcp(s, 0, 0, ZONE_NORMAL);
	CHECK_EQ(pcp->count, 1);
	CHECK(pcp->head[pcp_order_to_pindex(s, MIGRATE_MOVABLE, 0)] != PFN_NONE);
	CHECK_EQ(memcg_lruvec(s, 0, 1)->lists.nr_pages[LRU_INACTIVE_ANON], anon - 1);
	CHECK_EQ(captured_pages_of(s, z, MIGRATE_UNMOVABLE), unmovable);
	free(s);
}
