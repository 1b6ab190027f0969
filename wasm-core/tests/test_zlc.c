/*
 * test_zlc.c: the zonelist cache and zone_reclaim/node_reclaim against mm/page_alloc.c and
 * mm/vmscan.c of 3.0 and 3.1 (docs/kernel/page_alloc/walk.md (D.7, D.8)), 4.4, 4.8 and 6.18: each ZLC helper, each of
 * zone_reclaim's return codes per profile, the 3.0 and 3.1 walks on a node full of mapped page
 * cache, and the zonelists a 3.0 kernel built. The checker runs after every op (at_op).
 */
#include "alloc_test_util.h"
#include "page_alloc/numa.h"
#include "page_alloc/page_alloc.h"
#include "page_alloc/reclaim_hook.h"
#include "page_alloc/zlc.h"
#include "page_alloc/zonelist.h"
#include "reclaim/lru.h"
#include "reclaim/node_reclaim.h"
#include "reclaim/vocab.h"

#define NODE_PAGES 16384u

/* Two nodes of 2 CPUs, each a 16384-page (64 MiB) Normal zone, no swap. */
static struct sim *two_nodes(int profile)
{
	struct sim_config cfg;

	sim_config_default(&cfg);
	cfg.profile = (uint8_t)profile;
	cfg.nr_nodes = 2;
	cfg.thp = 0;
	cfg.max_handles = 60000;
	cfg.event_capacity = 1 << 20;
	cfg.zones[0][ZONE_NORMAL] =
		(struct zone_config){ 1u << 20, NODE_PAGES, NODE_PAGES, NODE_PAGES };
	cfg.zones[1][ZONE_NORMAL] =
		(struct zone_config){ (1u << 20) + NODE_PAGES, NODE_PAGES, NODE_PAGES, NODE_PAGES };
	return at_boot(&cfg);
}

/* OP_LRU_ALLOC of an order-0 block for purpose into handle h on cpu. */
static int lru_alloc(struct sim *s, int cpu, int purpose, uint32_t h)
{
	return at_op(s, OP_LRU_ALLOC, cpu, 0, GFP_HIGHUSER_MOVABLE, h, purpose);
}

/* Write a sysctl. */
static int set_sysctl(struct sim *s, int id, int32_t v)
{
	return at_op(s, OP_SYSCTL, 0, 0, 0, (uint32_t)id, v);
}

/*
 * Node 0 of two_nodes as seed 001 left it: `active` pages of unmapped page cache on the active
 * list (read twice), then mapped page cache until an allocation from CPU 0 lands on node 1 (that
 * one is freed again); zone_reclaim_mode 1 afterwards. Returns the next free handle.
 */
static uint32_t fill_node0_mapped(struct sim *s, uint32_t active)
{
	uint32_t h = 0;

	for (; h < active; h++) {
		CHECK_EQ(lru_alloc(s, 0, PURPOSE_FILE, h), SIM_OK);
		CHECK_EQ(at_op(s, OP_MARK_ACCESSED, 0, 0, 0, h, 0), SIM_OK);
	}
	for (; h < 2 * NODE_PAGES; h++) {
		CHECK_EQ(lru_alloc(s, 0, PURPOSE_FILE_MAPPED, h), SIM_OK);
		if (sim_handles(s)[h].node == 1) {
			CHECK_EQ(at_free(s, 0, h), SIM_OK);
			break;
		}
	}
	CHECK_EQ(set_sysctl(s, SYSCTL_ZONE_RECLAIM_MODE, RECLAIM_ZONE), SIM_OK);
	/* two seconds pass (more than HZ jiffies): the next walk's setup zaps the fill's marks */
	CHECK_EQ(at_op(s, OP_TICK, 0, 0, 0, 0, 2), SIM_OK);
	sim_events_clear(s);
	return h;
}

/* sum over priority 4..0 of pages >> priority: what a failing zone_reclaim scans of a list. */
static int64_t five_passes(int64_t pages)
{
	int64_t n = 0;

	for (int p = NODE_RECLAIM_PRIORITY; p >= 0; p--)
		n += pages >> p;
	return n;
}

TEST(zlc_helpers_follow_3_0)
{
	struct sim *s = two_nodes(PROFILE_3_0);
	struct node *n;
	int why = 0;
	uint32_t allowed;

	CHECK(s != NULL);
	if (!s)
		return;
	n = &sim_nodes(s)[0];
	/* build_zonelist_cache: z_to_n names each slot's node, nothing full */
	CHECK_EQ(n->zonelist_len, 2);
	CHECK_EQ(n->zlc.z_to_n[0], 0);
	CHECK_EQ(n->zlc.z_to_n[1], 1);
	CHECK_EQ(n->zlc.fullzones[0], 0);
	CHECK_EQ(profile_hz(&s->profile), 1000);
	/* jiffies from the CPU's clock: 2.5 s at HZ 1000 */
	sim_cpus(s)[0].clock_ns = 2500000000ULL;
	CHECK_EQ(zlc_jiffies(s, 0), 2500);
	/* zlc_mark_zone_full sets the slot's bit; zlc_zone_worth_trying then says no */
	zlc_mark_zone_full(s, 0, 0, ZLC_FULL_STILL_BELOW, 0, 0);
	CHECK_EQ(n->zlc.fullzones[0], 1);
	n->zlc.last_full_zap = 2000;
	/* exactly HZ after the last zap is not "after": no zap */
	sim_cpus(s)[0].clock_ns = 3000000000ULL;
	allowed = zlc_setup(s, 0, 0);
	CHECK_EQ(allowed, 3u);
	CHECK_EQ(n->zlc.fullzones[0], 1);
	CHECK_EQ(n->zlc.last_full_zap, 2000);
	CHECK(!zlc_zone_worth_trying(s, 0, 0, allowed, &why));
	CHECK_EQ(why, ZLC_SKIP_FULL);
	CHECK(zlc_zone_worth_trying(s, 0, 1, allowed, &why));
	/* a node outside the allowed mask is not worth trying either */
	CHECK(!zlc_zone_worth_trying(s, 0, 1, 1u, &why));
	CHECK_EQ(why, ZLC_SKIP_NODE_DISALLOWED);
	CHECK_EQ(zlc_zap_in(s, 0, 0), 1);
	/* one jiffy later the setup zaps: every bit cleared, last_full_zap = now */
	sim_cpus(s)[0].clock_ns = 3001000000ULL;
	CHECK_EQ(zlc_zap_in(s, 0, 0), 0);
	zlc_setup(s, 0, 0);
	CHECK_EQ(n->zlc.fullzones[0], 0);
	CHECK_EQ(n->zlc.last_full_zap, 3001);
	CHECK_EQ(at_count(s, EV_ZLC_ZAP), 1);
	CHECK_EQ(at_last(s, EV_ZLC_ZAP)->a, 1);
	/* zlc_clear_zones_full (3.1) clears the bits and leaves last_full_zap alone */
	zlc_mark_zone_full(s, 0, 1, ZLC_FULL_RMQUEUE, 0, 0);
	zlc_clear_zones_full(s, 0, 0, 0);
	CHECK_EQ(n->zlc.fullzones[0], 0);
	CHECK_EQ(n->zlc.last_full_zap, 3001);
	CHECK_EQ(at_last(s, EV_ZLC_CLEAR)->a, 1);
	CHECK_EQ(at_check(s), SIM_OK);
	/* the checker catches a bit past the zonelist and a z_to_n that lies */
	n->zlc.fullzones[0] = 1ULL << 5;
	CHECK_EQ(sim_check(s), SIM_ECORRUPT);
	n->zlc.fullzones[0] = 0;
	n->zlc.z_to_n[1] = 0;
	CHECK_EQ(sim_check(s), SIM_ECORRUPT);
	free(s);
	/* without a ZLC (4.4+) a set bit is corruption */
	s = two_nodes(PROFILE_4_4);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(at_check(s), SIM_OK);
	sim_nodes(s)[0].zlc.fullzones[0] = 1;
	CHECK_EQ(sim_check(s), SIM_ECORRUPT);
	free(s);
}

/* The return codes of zone_reclaim (per zone) and node_reclaim (per node) on one profile. */
static void reclaim_codes(int profile)
{
	struct sim *s = two_nodes(profile);
	uint64_t failed, success;
	int64_t scanned;
	uint32_t h = 0;

	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(set_sysctl(s, SYSCTL_ZONE_RECLAIM_MODE, RECLAIM_ZONE), SIM_OK);
	/* min_unmapped_pages = 1% of 16384 = 163 for the zone and the node alike */
	CHECK_EQ(sim_nodes(s)[0].zones[ZONE_NORMAL].min_unmapped_pages, 163);
	CHECK_EQ(sim_nodes(s)[0].min_unmapped_pages, 163);
	/* FULL: 100 pages of unmapped page cache are not above min_unmapped_pages; nothing scanned */
	for (; h < 100; h++)
		CHECK_EQ(lru_alloc(s, 0, PURPOSE_FILE, h), SIM_OK);
	scanned = (int64_t)s->ev.pgscan_direct;
	CHECK_EQ(node_reclaim(s, 0, &sim_nodes(s)[0].zones[ZONE_NORMAL], GFP_HIGHUSER_MOVABLE, 0),
		 NODE_RECLAIM_FULL);
	CHECK_EQ(at_last(s, EV_NODE_RECLAIM)->b, NRW_LITTLE_CACHE);
	CHECK_EQ((int64_t)s->ev.pgscan_direct, scanned);
	/* with 200 the checks go on: a request that may not sleep does not scan */
	for (; h < 200; h++)
		CHECK_EQ(lru_alloc(s, 0, PURPOSE_FILE, h), SIM_OK);
	CHECK_EQ(node_reclaim(s, 0, &sim_nodes(s)[0].zones[ZONE_NORMAL], GFP_NOWAIT, 0),
		 NODE_RECLAIM_NOSCAN);
	CHECK_EQ(at_last(s, EV_NODE_RECLAIM)->b, NRW_CANNOT_BLOCK);
	/* nor does a CPU of node 1 on node 0, which has CPUs of its own */
	CHECK_EQ(node_reclaim(s, 2, &sim_nodes(s)[0].zones[ZONE_NORMAL], GFP_HIGHUSER_MOVABLE, 0),
		 NODE_RECLAIM_NOSCAN);
	CHECK_EQ(at_last(s, EV_NODE_RECLAIM)->b, NRW_REMOTE_WITH_CPUS);
	CHECK_EQ(s->ev.zone_reclaim_failed + s->ev.zone_reclaim_success, 0);
	/* SUCCESS: priority 4 scans 200 >> 4 = 12 pages of the inactive tail, all clean page cache */
	success = s->ev.zone_reclaim_success;
	CHECK_EQ(node_reclaim(s, 0, &sim_nodes(s)[0].zones[ZONE_NORMAL], GFP_HIGHUSER_MOVABLE, 0),
		 NODE_RECLAIM_SUCCESS);
	CHECK_EQ(s->ev.zone_reclaim_success, success + 1);
	CHECK_EQ(at_last(s, EV_NODE_RECLAIM_END)->a, 12);
	CHECK_EQ(at_last(s, EV_NODE_RECLAIM_END)->b, 12);
	CHECK_EQ(at_last(s, EV_NODE_RECLAIM_END)->c, NODE_RECLAIM_PRIORITY);
	CHECK_EQ(at_last(s, EV_NODE_RECLAIM)->c, 12);
	CHECK_EQ(at_check(s), SIM_OK);
	free(s);

	/* SOME: unmapped page cache active, the inactive list all mapped: five passes, nothing freed */
	s = two_nodes(profile);
	CHECK(s != NULL);
	if (!s)
		return;
	fill_node0_mapped(s, 300);
	failed = s->ev.zone_reclaim_failed;
	scanned = (int64_t)s->ev.pgscan_direct;
	{
		int64_t inactive =
			sim_nodes(s)[0].zones[ZONE_NORMAL].nr_zone_lru[LRU_INACTIVE_FILE];

		CHECK(node_pagecache_reclaimable(s, &sim_nodes(s)[0].zones[ZONE_NORMAL]) >= 300);
		CHECK_EQ(node_reclaim(s, 0, &sim_nodes(s)[0].zones[ZONE_NORMAL],
				      GFP_HIGHUSER_MOVABLE, 0),
			 NODE_RECLAIM_SOME);
		CHECK_EQ(s->ev.zone_reclaim_failed, failed + 1);
		/* mapped pages were looked at (1/16 + 1/8 + ... + 1 of the list) and kept */
		CHECK_EQ((int64_t)s->ev.pgscan_direct - scanned, five_passes(inactive));
		CHECK_EQ(sim_nodes(s)[0].zones[ZONE_NORMAL].nr_zone_lru[LRU_INACTIVE_FILE],
			 inactive);
		CHECK_EQ(at_last(s, EV_NODE_RECLAIM_END)->c, 0);
	}
	/* with RECLAIM_UNMAP the same scan frees the mapped pages */
	CHECK_EQ(set_sysctl(s, SYSCTL_ZONE_RECLAIM_MODE, RECLAIM_ZONE | RECLAIM_UNMAP), SIM_OK);
	CHECK_EQ(node_reclaim(s, 0, &sim_nodes(s)[0].zones[ZONE_NORMAL], GFP_HIGHUSER_MOVABLE, 0),
		 NODE_RECLAIM_SUCCESS);
	CHECK_EQ(at_check(s), SIM_OK);
	free(s);
}

TEST(zone_reclaim_return_codes_3_0)
{
	reclaim_codes(PROFILE_3_0);
}

TEST(zone_reclaim_return_codes_3_1)
{
	reclaim_codes(PROFILE_3_1_ZLCFIRST);
}

TEST(zone_reclaim_return_codes_4_4)
{
	reclaim_codes(PROFILE_4_4);
}

TEST(node_reclaim_return_codes_4_8)
{
	reclaim_codes(PROFILE_4_8);
}

TEST(node_reclaim_return_codes_6_18)
{
	reclaim_codes(PROFILE_6_18);
}

TEST(zone_reclaim_3_0_scans_its_own_zone_only)
{
	/* node 0: DMA32 and Normal, both holding mapped page cache; zone_reclaim of Normal */
	struct sim_config cfg;
	struct sim *s;
	int64_t scanned, normal_inactive;
	uint32_t h = 0;

	sim_config_default(&cfg);
	cfg.profile = PROFILE_3_0;
	cfg.nr_nodes = 2;
	cfg.thp = 0;
	cfg.max_handles = 60000;
	cfg.event_capacity = 1 << 20;
	cfg.zones[0][ZONE_DMA32] = (struct zone_config){ 4096, 8192, 8192, 8192 };
	cfg.zones[0][ZONE_NORMAL] = (struct zone_config){ 1u << 20, 8192, 8192, 8192 };
	cfg.zones[1][ZONE_NORMAL] = (struct zone_config){ (1u << 20) + 8192, 16384, 16384, 16384 };
	s = at_boot(&cfg);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(set_sysctl(s, SYSCTL_ZONE_RECLAIM_MODE, RECLAIM_ZONE), SIM_OK);
	for (; h < 4000; h++)
		CHECK_EQ(at_op(s, OP_LRU_ALLOC, 0, 0, GFP_DMA32, h, PURPOSE_FILE_MAPPED), SIM_OK);
	for (; h < 8000; h++)
		CHECK_EQ(lru_alloc(s, 0, PURPOSE_FILE_MAPPED, h), SIM_OK);
	for (; h < 8200; h++) {
		CHECK_EQ(lru_alloc(s, 0, PURPOSE_FILE, h), SIM_OK);
		CHECK_EQ(at_op(s, OP_MARK_ACCESSED, 0, 0, 0, h, 0), SIM_OK);
	}
	normal_inactive = sim_nodes(s)[0].zones[ZONE_NORMAL].nr_zone_lru[LRU_INACTIVE_FILE];
	CHECK_EQ(normal_inactive, 4000);
	scanned = (int64_t)s->ev.pgscan_direct;
	CHECK_EQ(node_reclaim(s, 0, &sim_nodes(s)[0].zones[ZONE_NORMAL], GFP_HIGHUSER_MOVABLE, 0),
		 NODE_RECLAIM_SOME);
	CHECK_EQ((int64_t)s->ev.pgscan_direct - scanned, five_passes(normal_inactive));
	CHECK_EQ(at_check(s), SIM_OK);
	free(s);
}

/* Allocations from CPU 0 on two_nodes after fill_node0_mapped: how the walk treats node 0. */
struct walk_result {
	uint64_t calls, remote, skips, marks;
};

static struct walk_result walk(int profile, int allocs, int tick_between)
{
	struct sim *s = two_nodes(profile);
	struct walk_result r = { 0, 0, 0, 0 };
	uint32_t h;

	CHECK(s != NULL);
	if (!s)
		return r;
	h = fill_node0_mapped(s, 300);
	for (int i = 0; i < allocs; i++, h++) {
		if (tick_between && i == allocs - 1)
			CHECK_EQ(at_op(s, OP_TICK, 0, 0, 0, 0, 2), SIM_OK);
		CHECK_EQ(lru_alloc(s, 0, PURPOSE_FILE, h), SIM_OK);
		r.remote += sim_handles(s)[h].node == 1;
	}
	r.calls = (uint64_t)at_count(s, EV_NODE_RECLAIM);
	r.skips = (uint64_t)at_count(s, EV_ZLC_SKIP);
	r.marks = (uint64_t)at_count(s, EV_ZLC_MARK_FULL);
	free(s);
	return r;
}

TEST(zlc_walk_3_0_reclaims_the_first_zone_every_time)
{
	/* the ZLC is set up only after the first zone: zone_reclaim runs on every allocation */
	struct walk_result r = walk(PROFILE_3_0, 4, 0);

	CHECK_EQ(r.calls, 4);
	CHECK_EQ(r.remote, 4);
	CHECK_EQ(r.marks, 4);
	CHECK_EQ(r.skips, 0);
}

TEST(zlc_walk_3_1_skips_a_zone_that_failed_zone_reclaim)
{
	/* cd38b115d5ad: the first failure marks node 0 full, the next allocations skip it */
	struct walk_result r = walk(PROFILE_3_1_ZLCFIRST, 4, 0);

	CHECK_EQ(r.calls, 1);
	CHECK_EQ(r.remote, 4);
	CHECK_EQ(r.marks, 1);
	CHECK_EQ(r.skips, 3);
	/* a second later the next setup zaps the bits: node 0 is zone_reclaimed once more */
	r = walk(PROFILE_3_1_ZLCFIRST, 4, 1);
	CHECK_EQ(r.calls, 2);
	CHECK_EQ(r.skips, 2);
}

TEST(zlc_walk_4_4_has_no_memory_between_allocations)
{
	/* the ZLC deleted: every allocation reclaims node 0 again, nothing is marked */
	struct walk_result r = walk(PROFILE_4_4, 4, 0);

	CHECK_EQ(r.calls, 4);
	CHECK_EQ(r.remote, 4);
	CHECK_EQ(r.marks, 0);
	CHECK_EQ(r.skips, 0);
	/* 6.18: node_reclaim, the same */
	r = walk(PROFILE_6_18, 4, 0);
	CHECK_EQ(r.calls, 4);
	CHECK_EQ(r.marks, 0);
}

/* Fill both nodes from CPU 0 with clean page cache, kswapd never woken, until direct reclaim ran. */
static uint64_t clears_after_direct_reclaim(int profile)
{
	struct sim *s = two_nodes(profile);
	uint64_t clears;
	uint32_t h;

	CHECK(s != NULL);
	if (!s)
		return 0;
	for (h = 0; h < 3 * NODE_PAGES && !s->ev.allocstall[ZONE_MOVABLE]; h++)
		CHECK_EQ(at_op(s, OP_LRU_ALLOC, 0, 0, GFP_HIGHUSER_MOVABLE & ~__GFP_KSWAPD_RECLAIM,
			       h, PURPOSE_FILE),
			 SIM_OK);
	CHECK(s->ev.allocstall[ZONE_MOVABLE] > 0);
	clears = (uint64_t)at_count(s, EV_ZLC_CLEAR);
	free(s);
	return clears;
}

TEST(zlc_3_1_reconsider_clears_after_direct_reclaim)
{
	CHECK_EQ(clears_after_direct_reclaim(PROFILE_3_1_ZLCFIRST), 0);
	CHECK(clears_after_direct_reclaim(PROFILE_3_1_ZLCRECONSIDER) >= 1);
}

TEST(zonelist_3_0_zone_order_on_a_two_socket_server)
{
	/* 3.0's default_zonelist_order: 4 GiB of DMA32 against 24 GiB picks zone order */
	struct sim *s = at_preset("xeon2011", PROFILE_3_0);
	const struct node *n;

	CHECK(s != NULL);
	if (!s)
		return;
	n = &sim_nodes(s)[0];
	CHECK_EQ(n->zonelist_order, ZONELIST_ORDER_ZONE);
	CHECK_EQ(n->zonelist[0][0], 0);
	CHECK_EQ(n->zonelist[0][1], ZONE_NORMAL);
	CHECK_EQ(n->zonelist[1][0], 1);
	CHECK_EQ(n->zonelist[1][1], ZONE_NORMAL);
	CHECK_EQ(n->zonelist[2][1], ZONE_DMA32);
	CHECK_EQ(n->zlc.z_to_n[1], 1);
	free(s);
	/* 6.18 orders by node: the local DMA32 before the remote Normal */
	s = at_preset("xeon2011", PROFILE_6_18);
	CHECK(s != NULL);
	if (!s)
		return;
	n = &sim_nodes(s)[0];
	CHECK_EQ(n->zonelist_order, ZONELIST_ORDER_NODE);
	CHECK_EQ(n->zonelist[1][0], 0);
	CHECK_EQ(n->zonelist[1][1], ZONE_DMA32);
	free(s);
}

TEST(zonelist_4_node_distances)
{
	/* numa4: a 4-socket ring, 16 to the neighbours, 22 across; node 0 falls back 1, 2 then 3 */
	struct sim *s = at_preset("numa4", PROFILE_6_18);

	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(sim_nodes(s)[0].distance[3], 22);
	CHECK_EQ(sim_nodes(s)[0].zonelist[sim_nodes(s)[0].zonelist_len - 1][0], 3);
	CHECK_EQ(sim_nodes(s)[3].zonelist[0][0], 3);
	CHECK_EQ(sim_nodes(s)[3].zonelist[sim_nodes(s)[3].zonelist_len - 1][0], 0);
	/* none farther than RECLAIM_DISTANCE: 3.0 leaves zone_reclaim_mode at 0 */
	free(s);
	s = at_preset("numa4", PROFILE_3_0);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(s->config.zone_reclaim_mode, 0);
	free(s);
}

TEST(min_unmapped_pages_of_the_live_machine)
{
	/* J.13: managed DMA 3840, DMA32 772915, Normal 1376256 at ratio 1 -> 38 + 7729 + 13762 */
	struct sim_config cfg;
	struct sim *s;

	sim_config_default(&cfg);
	cfg.zones[0][ZONE_DMA] = (struct zone_config){ 1, 4095, 3998, 3840 };
	cfg.zones[0][ZONE_DMA32] = (struct zone_config){ 4096, 1044480, 782336, 772915 };
	cfg.zones[0][ZONE_NORMAL] = (struct zone_config){ 1048576, 1376256, 1376256, 1376256 };
	s = at_boot(&cfg);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(sim_nodes(s)[0].min_unmapped_pages, 21529);
	CHECK_EQ(sim_nodes(s)[0].min_slab_pages, 107649);
	/* 3.0 took present pages, per zone */
	CHECK_EQ(sim_nodes(s)[0].zones[ZONE_DMA].min_unmapped_pages, 39);
	CHECK_EQ(set_sysctl(s, SYSCTL_MIN_UNMAPPED_RATIO, 2), SIM_OK);
	CHECK_EQ(sim_nodes(s)[0].min_unmapped_pages, 76 + 15458 + 27525);
	CHECK_EQ(set_sysctl(s, SYSCTL_MIN_UNMAPPED_RATIO, 101), SIM_EINVAL);
	free(s);
}

/* Node 0's zonelist slot i as node * 16 + zone, for short comparisons. */
static int slot(const struct sim *s, int i)
{
	return sim_nodes(s)[0].zonelist[i][0] * 16 + sim_nodes(s)[0].zonelist[i][1];
}

TEST(numa_zonelist_order_sysctl_3_0_rebuilds_in_either_order)
{
	/* numa_zonelist_order_handler [3.0]: "node" and "zone" rebuild every zonelist at once
	 * (build_all_zonelists), "default" goes back to default_zonelist_order's zone order */
	struct sim *s = at_preset("xeon2011", PROFILE_3_0);
	const int n0_normal = ZONE_NORMAL, n0_dma32 = ZONE_DMA32, n1_normal = 16 + ZONE_NORMAL;

	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(sim_nodes(s)[0].zonelist_order, ZONELIST_ORDER_ZONE);
	sim_events_clear(s);
	CHECK_EQ(set_sysctl(s, SYSCTL_NUMA_ZONELIST_ORDER, ZONELIST_ORDER_NODE), SIM_OK);
	/* node order: node 0's own zones high to low, then node 1's */
	CHECK_EQ(sim_nodes(s)[0].zonelist_order, ZONELIST_ORDER_NODE);
	CHECK_EQ(slot(s, 0), n0_normal);
	CHECK_EQ(slot(s, 1), n0_dma32);
	CHECK_EQ(slot(s, sim_nodes(s)[0].zonelist_len - 1), n1_normal);
	CHECK_EQ(sim_nodes(s)[1].zonelist[0][0], 1);
	CHECK_EQ(at_count(s, EV_BUILD_ALL_ZONELISTS), 2);
	/* the rebuilt cache names the new slots' nodes, nothing full */
	CHECK_EQ(sim_nodes(s)[0].zlc.z_to_n[1], 0);
	CHECK_EQ(sim_nodes(s)[0].zlc.fullzones[0], 0);

	sim_events_clear(s);
	CHECK_EQ(set_sysctl(s, SYSCTL_NUMA_ZONELIST_ORDER, ZONELIST_ORDER_ZONE), SIM_OK);
	/* zone order: every node's Normal first, node 0's DMA32 only after node 1's Normal */
	CHECK_EQ(sim_nodes(s)[0].zonelist_order, ZONELIST_ORDER_ZONE);
	CHECK_EQ(slot(s, 0), n0_normal);
	CHECK_EQ(slot(s, 1), n1_normal);
	CHECK_EQ(slot(s, 2), n0_dma32);
	CHECK_EQ(sim_nodes(s)[0].zlc.z_to_n[1], 1);
	CHECK_EQ(at_count(s, EV_BUILD_ALL_ZONELISTS), 2);

	/* the same order again rebuilds nothing (oldval == user_zonelist_order) */
	sim_events_clear(s);
	CHECK_EQ(set_sysctl(s, SYSCTL_NUMA_ZONELIST_ORDER, ZONELIST_ORDER_ZONE), SIM_OK);
	CHECK_EQ(at_count(s, EV_BUILD_ALL_ZONELISTS), 0);
	CHECK_EQ(at_count(s, EV_SYSCTL), 1);
	/* "default" is a change of the user's order: rebuilt, and 3.0's default is zone order here */
	CHECK_EQ(set_sysctl(s, SYSCTL_NUMA_ZONELIST_ORDER, 0), SIM_OK);
	CHECK_EQ(at_count(s, EV_BUILD_ALL_ZONELISTS), 2);
	CHECK_EQ(slot(s, 1), n1_normal);
	CHECK_EQ(set_sysctl(s, SYSCTL_NUMA_ZONELIST_ORDER, 3), SIM_EINVAL);
	free(s);
}

TEST(numa_zonelist_order_sysctl_4_4_defaults_to_node_order)
{
	/* 3.16-4.13: the 64-bit default is node order; "zone" still builds zone order */
	struct sim *s = at_preset("xeon2011", PROFILE_4_4);

	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(sim_nodes(s)[0].zonelist_order, ZONELIST_ORDER_NODE);
	CHECK_EQ(slot(s, 1), ZONE_DMA32);
	CHECK_EQ(set_sysctl(s, SYSCTL_NUMA_ZONELIST_ORDER, ZONELIST_ORDER_ZONE), SIM_OK);
	CHECK_EQ(sim_nodes(s)[0].zonelist_order, ZONELIST_ORDER_ZONE);
	CHECK_EQ(slot(s, 1), 16 + ZONE_NORMAL);
	free(s);
}

TEST(numa_zonelist_order_sysctl_4_14_refuses_zone)
{
	/* 4.14+ (__parse_numa_zonelist_order): "zone" is EINVAL, "node"/"default" change nothing */
	struct sim *s = at_preset("numa4", PROFILE_6_18);
	int before;

	CHECK(s != NULL);
	if (!s)
		return;
	before = slot(s, 1);
	sim_events_clear(s);
	CHECK_EQ(set_sysctl(s, SYSCTL_NUMA_ZONELIST_ORDER, ZONELIST_ORDER_ZONE), SIM_EINVAL);
	CHECK_EQ(set_sysctl(s, SYSCTL_NUMA_ZONELIST_ORDER, ZONELIST_ORDER_NODE), SIM_OK);
	CHECK_EQ(at_count(s, EV_BUILD_ALL_ZONELISTS), 0);
	CHECK_EQ(sim_nodes(s)[0].zonelist_order, ZONELIST_ORDER_NODE);
	CHECK_EQ(slot(s, 1), before);
	free(s);
}
