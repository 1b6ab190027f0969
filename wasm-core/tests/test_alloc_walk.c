/*
 * test_alloc_walk.c: the allocation walk of docs/kernel D.1-D.6, A.11: zonelist order, the HIGH
 * pre-check and ZONE_BELOW_HIGH, falling back from zone to zone and node to node, lowmem_reserve,
 * ALLOC_NOFRAGMENT restarts, the 6.18 kswapd-node skip, the slow path (reserves, kswapd, the
 * post-reclaim drain retry, failure and warn_alloc), NUMA statistics, frees, and the ftrace text
 * of the events. Every op goes through sim_apply and sim_check.
 */
#include "alloc_test_util.h"
#include "page_alloc/page_alloc.h"
#include "page_alloc/tracefmt.h"
#include "page_alloc/vmstat.h"
#include "page_alloc/watermark.h"
#include "reclaim/vocab.h"

/* A one-node machine with one Normal zone of `managed` pages at pfn 1 << 20; THP off. */
static struct sim *normal_machine(int profile, uint32_t managed, int32_t pcp_batch)
{
	struct sim_config cfg;

	sim_config_default(&cfg);
	cfg.profile = (uint8_t)profile;
	cfg.thp = 0;
	cfg.pcp_batch = pcp_batch;
	cfg.zones[0][ZONE_NORMAL] = (struct zone_config){ 1u << 20, managed, managed, managed };
	return at_boot(&cfg);
}

/* Two nodes, 2 CPUs each: node 0 has DMA32 (4096) and Normal (8192), node 1 Normal (8192). */
/* Mark nid's kswapd awake as wakeup_kswapd does, counted where the base looks for awake workers. */
static void kswapd_awake_by_hand(struct sim *s, int nid)
{
	if (!sim_nodes(s)[nid].kswapd_awake)
		s->nr_awake_workers++;
	sim_nodes(s)[nid].kswapd_awake = 1;
}

static struct sim *numa_machine(int profile)
{
	struct sim_config cfg;

	sim_config_default(&cfg);
	cfg.profile = (uint8_t)profile;
	cfg.thp = 0;
	cfg.nr_nodes = 2;
	cfg.zones[0][ZONE_DMA32] = (struct zone_config){ 4096, 4096, 4096, 4096 };
	cfg.zones[0][ZONE_NORMAL] = (struct zone_config){ 1u << 20, 8192, 8192, 8192 };
	cfg.zones[1][ZONE_NORMAL] = (struct zone_config){ 2u << 20, 8192, 8192, 8192 };
	return at_boot(&cfg);
}

/* Allocate order-10 blocks on cpu into handles from *h until one lands outside (nid, zid); its handle or -1. */
static int fill_zone(struct sim *s, int cpu, uint32_t gfp, int nid, int zid, uint32_t *h)
{
	for (int i = 0; i < 64; i++) {
		const struct handle *hd = &sim_handles(s)[*h];
		if (at_alloc(s, cpu, gfp, 10, *h) != SIM_OK)
			return -1;
		(*h)++;
		if (hd->node != nid || hd->zone != zid)
			return (int)(*h - 1);
	}
	return -1;
}

/* The zonelist of nid as "node:zone" pairs, e.g. "0:2 0:1 1:2". */
static const char *zonelist_text(const struct sim *s, int nid)
{
	static char buf[256];
	int len = 0;

	buf[0] = '\0';
	for (int i = 0; i < sim_nodes(s)[nid].zonelist_len && len < 240; i++)
		len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%d:%d", i ? " " : "",
				sim_nodes(s)[nid].zonelist[i][0], sim_nodes(s)[nid].zonelist[i][1]);
	return buf;
}

TEST(walk_zonelists_nodes_by_distance_zones_high_to_low)
{
	struct sim_config cfg;
	struct sim *s = numa_machine(PROFILE_6_18);

	CHECK(s != NULL);
	if (s) {
		CHECK(!strcmp(zonelist_text(s, 0), "0:2 0:1 1:2"));
		CHECK(!strcmp(zonelist_text(s, 1), "1:2 0:2 0:1"));
	}
	free(s);
	/* four equidistant nodes: node_load sends each node to a different first remote node */
	sim_config_default(&cfg);
	cfg.thp = 0;
	cfg.nr_nodes = 4;
	cfg.cpus_per_node = 1;
	for (int n = 0; n < 4; n++)
		cfg.zones[n][ZONE_NORMAL] =
			(struct zone_config){ (uint32_t)(n + 1) << 16, 4096, 4096, 4096 };
	s = at_boot(&cfg);
	CHECK(s != NULL);
	if (s) {
		CHECK(!strcmp(zonelist_text(s, 0), "0:2 1:2 2:2 3:2"));
		CHECK(!strcmp(zonelist_text(s, 1), "1:2 2:2 3:2 0:2"));
		CHECK(!strcmp(zonelist_text(s, 2), "2:2 3:2 0:2 1:2"));
		CHECK(!strcmp(zonelist_text(s, 3), "3:2 0:2 1:2 2:2"));
	}
	free(s);
	/* distances win over numbering; a memoryless node starts with its nearest memory node */
	cfg.distance[0][1] = cfg.distance[1][0] = 30;
	cfg.distance[0][2] = cfg.distance[2][0] = 15;
	cfg.zones[3][ZONE_NORMAL] = (struct zone_config){ 0, 0, 0, 0 };
	cfg.distance[3][1] = cfg.distance[1][3] = 12;
	s = at_boot(&cfg);
	CHECK(s != NULL);
	if (s) {
		CHECK(!strcmp(zonelist_text(s, 0), "0:2 2:2 1:2"));
		CHECK(!strcmp(zonelist_text(s, 3), "1:2 0:2 2:2"));
	}
	free(s);
}

TEST(walk_first_allocation_passes_high_and_counts)
{
	struct sim *s = at_preset("small", PROFILE_6_18);
	const struct sim_event *e;
	struct zone *normal;

	CHECK(s != NULL);
	if (!s)
		return;
	normal = sim_zone(s, 0, ZONE_NORMAL);
	sim_events_clear(s);
	CHECK_EQ(at_alloc(s, 0, GFP_KERNEL, 0, 0), SIM_OK);
	CHECK_EQ(sim_handles(s)[0].zone, ZONE_NORMAL);
	/* the first check is against HIGH, and passing it is enough */
	e = at_last(s, EV_WMARK_CHECK);
	CHECK(e && e->zone == ZONE_NORMAL && e->c == 1 && e->b == wmark_pages(normal, WMARK_HIGH));
	/* and the event says so: the ZONE_BELOW_HIGH pre-check, not the request's own LOW */
	CHECK(e && e->mt == WMARK_CHECK_BELOW_HIGH);
	CHECK_EQ(at_count(s, EV_WMARK_CHECK), 1);
	CHECK_EQ(at_count(s, EV_ZONE_FALLBACK), 0);
	e = &sim_events(s)[s->nr_events - 1];
	CHECK(e->kind == EV_MM_PAGE_ALLOC && e->b == 1 && e->pfn == sim_handles(s)[0].pfn &&
	      e->mt == MIGRATE_UNMOVABLE && (uint32_t)e->a == GFP_KERNEL);
	CHECK_EQ(normal->pgalloc, 1);
	CHECK_EQ(s->ev.pgalloc[ZONE_NORMAL], 1);
	CHECK_EQ(normal->numa_hit, 1);
	CHECK_EQ(normal->numa_local, 1);
	CHECK_EQ(normal->flags & ZONE_BELOW_HIGH, 0);
	free(s);
}

TEST(walk_falls_back_to_dma32_then_lowmem_reserve_and_failure)
{
	struct sim *s = at_preset("small", PROFILE_6_18);
	struct zone *normal, *dma32;
	const struct sim_event *e;
	uint32_t h = 0;
	int spill;

	CHECK(s != NULL);
	if (!s)
		return;
	normal = sim_zone(s, 0, ZONE_NORMAL);
	dma32 = sim_zone(s, 0, ZONE_DMA32);
	/* protection: DMA32 keeps Normal's 12288 / 256 = 48 pages from Normal requests */
	CHECK_EQ(dma32->lowmem_reserve[ZONE_NORMAL], 48);
	spill = fill_zone(s, 0, GFP_KERNEL, 0, ZONE_NORMAL, &h);
	CHECK_EQ(spill, 11);
	/* the 12th block would take Normal below LOW: Normal failed HIGH, then LOW, and was left */
	CHECK(normal->flags & ZONE_BELOW_HIGH);
	e = at_find_a(s, EV_ZONE_FALLBACK, ZF_WMARK);
	CHECK(e && e->zone == ZONE_NORMAL && e->order == 10);
	/* the failing check just before it was against the request's own mark, LOW */
	CHECK(e && e > sim_events(s) && e[-1].kind == EV_WMARK_CHECK &&
	      e[-1].mt == WMARK_CHECK_LOW && e[-1].c == 0);
	CHECK_EQ(sim_handles(s)[spill].zone, ZONE_DMA32);
	/* DMA32 gives two more blocks; the last one would breach min + protection */
	CHECK_EQ(at_alloc(s, 0, GFP_KERNEL, 10, h++), SIM_OK);
	CHECK_EQ(at_alloc(s, 0, GFP_KERNEL, 10, h++), SIM_OK);
	sim_events_clear(s);
	CHECK_EQ(at_alloc(s, 0, GFP_KERNEL, 10, h), SIM_ENOMEM);
	/* the slow path woke kswapd, stalled in direct reclaim once, then warned and traced a NULL page */
	CHECK_EQ(at_count(s, EV_KSWAPD_WAKE), 1);
	CHECK(sim_nodes(s)[0].kswapd_awake);
	CHECK_EQ(s->ev.allocstall[ZONE_NORMAL], 1);
	CHECK_EQ(s->ev.alloc_fail, 1);
	e = at_last(s, EV_ALLOC_FAIL);
	CHECK(e && e->order == 10 && (uint32_t)e->a == GFP_KERNEL && e->b == 1);
	/* (kswapd's first round follows the op: the request's own last event is mm_page_alloc) */
	e = at_last(s, EV_MM_PAGE_ALLOC);
	CHECK(e && e->b == 0 && e->pfn == 0 && e->order == 10);
	/* nothing on the LRU: direct reclaim freed nothing, so an order-10 request gives up at once */
	CHECK_EQ(s->ev.pgsteal_direct, 0);
	/* __GFP_NOWARN: the failure is recorded without the warning */
	sim_events_clear(s);
	CHECK_EQ(at_alloc(s, 0, GFP_KERNEL | __GFP_NOWARN, 10, h), SIM_ENOMEM);
	e = at_last(s, EV_ALLOC_FAIL);
	CHECK(e && e->b == 0);
	/* kswapd is already awake: no second wake-up */
	CHECK_EQ(at_count(s, EV_KSWAPD_WAKE), 0);
	free(s);
}

TEST(walk_reserves_atomic_nowait_memalloc)
{
	struct sim *s = normal_machine(PROFILE_6_18, 4096, 0);
	struct zone *z;
	uint32_t h = 0;

	CHECK(s != NULL);
	if (!s)
		return;
	z = sim_zone(s, 0, ZONE_NORMAL);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(at_alloc(s, 0, GFP_KERNEL, 10, h++), SIM_OK);
	CHECK_EQ(z->nr_free_pages, 1024);
	/* MIN = 2000 pages: GFP_KERNEL may not go below it, GFP_ATOMIC may go to 2000/2 - 1000/4 = 750 */
	CHECK_EQ(at_op(s, OP_SYSCTL, 0, 0, 0, SYSCTL_MIN_FREE_KBYTES, 8000), SIM_OK);
	CHECK_EQ(z->_watermark[WMARK_MIN], 2000);
	sim_events_clear(s);
	CHECK_EQ(at_alloc(s, 0, GFP_NOWAIT, 0, h), SIM_ENOMEM);
	/* GFP_NOWAIT cannot reclaim: no allocstall, and its failure is not warned about */
	CHECK_EQ(s->ev.allocstall[ZONE_NORMAL], 0);
	CHECK(at_last(s, EV_ALLOC_FAIL) && at_last(s, EV_ALLOC_FAIL)->b == 0);
	CHECK_EQ(at_alloc(s, 0, GFP_KERNEL, 0, h), SIM_ENOMEM);
	CHECK_EQ(s->ev.allocstall[ZONE_NORMAL], 1);
	CHECK_EQ(at_alloc(s, 0, GFP_ATOMIC, 0, h++), SIM_OK);
	/* __GFP_MEMALLOC ignores watermarks */
	CHECK_EQ(at_alloc(s, 0, GFP_KERNEL | __GFP_MEMALLOC, 0, h++), SIM_OK);
	CHECK_EQ(at_alloc(s, 0, GFP_KERNEL | __GFP_MEMALLOC | __GFP_NOMEMALLOC, 0, h), SIM_ENOMEM);
	free(s);
}

TEST(walk_drain_retry_frees_pages_pinned_on_another_cpu)
{
	struct sim *s = normal_machine(PROFILE_6_18, 16384, 31);
	struct per_cpu_pages *pcp1;
	struct zone *z;
	uint32_t h = 0;
	int64_t buddy_free;

	CHECK(s != NULL);
	if (!s)
		return;
	z = sim_zone(s, 0, ZONE_NORMAL);
	/* one page of page cache: direct reclaim will have something to free, so it makes progress */
	CHECK_EQ(at_op(s, OP_LRU_ALLOC, 0, 0, GFP_HIGHUSER_MOVABLE, 300, PURPOSE_FILE), SIM_OK);
	for (int i = 0; i < 15; i++)
		CHECK_EQ(at_alloc(s, 0, GFP_KERNEL, 10, h++), SIM_OK);
	/* CPU 1 takes and frees 100 pages: they stay on its list, invisible to the watermark check */
	for (uint32_t i = 100; i < 200; i++)
		CHECK_EQ(at_alloc(s, 1, GFP_KERNEL, 0, i), SIM_OK);
	for (uint32_t i = 100; i < 200; i++)
		CHECK_EQ(at_free(s, 1, i), SIM_OK);
	pcp1 = sim_pcp(s, 1, 0, ZONE_NORMAL);
	CHECK(pcp1->count > 0);
	/* what the watermark checks read: the zone counter, without the CPUs' vmstat deltas */
	buddy_free = zone_page_state_free(z);
	/* MIN exactly at the buddy's free count: only the drained pcp pages can lift the zone over it */
	CHECK_EQ(at_op(s, OP_SYSCTL, 0, 0, 0, SYSCTL_MIN_FREE_KBYTES, (int32_t)(buddy_free * 4)),
		 SIM_OK);
	CHECK_EQ(z->_watermark[WMARK_MIN], buddy_free);
	sim_events_clear(s);
	CHECK_EQ(at_alloc(s, 0, GFP_KERNEL, 0, h), SIM_OK);
	CHECK_EQ(s->ev.allocstall[ZONE_NORMAL], 1);
	/* reclaim freed the page cache page (to CPU 0's list, where the check cannot see it either) */
	CHECK_EQ(s->ev.pgsteal_direct, 1);
	CHECK_EQ(pcp1->count, 0);
	CHECK_EQ(at_count(s, EV_ALLOC_FAIL), 0);
	CHECK(at_count(s, EV_MM_PAGE_PCPU_DRAIN) > 0);
	free(s);
}

TEST(walk_numa_hit_miss_and_remote_fallback)
{
	struct sim *s = numa_machine(PROFILE_6_18);
	struct zone *n0, *n1;
	uint32_t h = 0;
	int spill;

	CHECK(s != NULL);
	if (!s)
		return;
	n0 = sim_zone(s, 0, ZONE_NORMAL);
	n1 = sim_zone(s, 1, ZONE_NORMAL);
	/* CPU 2 is on node 1: its pages come from node 1 */
	CHECK_EQ(at_alloc(s, 2, GFP_KERNEL, 0, 500), SIM_OK);
	CHECK_EQ(sim_handles(s)[500].node, 1);
	CHECK_EQ(n1->numa_hit, 1);
	CHECK_EQ(n1->numa_local, 1);
	/* node 1 runs out: the walk goes to node 0 (no DMA32 on node 1, so no NOFRAGMENT) */
	spill = fill_zone(s, 2, GFP_KERNEL, 1, ZONE_NORMAL, &h);
	CHECK(spill > 0);
	if (spill > 0) {
		CHECK_EQ(sim_handles(s)[spill].node, 0);
		CHECK_EQ(sim_handles(s)[spill].zone, ZONE_NORMAL);
	}
	CHECK_EQ(n0->numa_miss, 1);
	CHECK_EQ(n0->numa_other, 1);
	CHECK_EQ(n1->numa_foreign, 1);
	/* __GFP_THISNODE never leaves the node */
	CHECK_EQ(at_alloc(s, 2, GFP_KERNEL | __GFP_THISNODE | __GFP_NOWARN, 10, 600), SIM_ENOMEM);
	free(s);
}

TEST(walk_nofragment_restarts_before_going_remote)
{
	struct sim *s = numa_machine(PROFILE_6_18);
	const struct sim_event *e;
	uint32_t h = 0;
	int spill;

	CHECK(s != NULL);
	if (!s)
		return;
	/* node 0's Normal fills; DMA32 next on the same node */
	spill = fill_zone(s, 0, GFP_KERNEL, 0, ZONE_NORMAL, &h);
	CHECK(spill > 0);
	if (spill > 0)
		CHECK_EQ(sim_handles(s)[spill].zone, ZONE_DMA32);
	spill = fill_zone(s, 0, GFP_KERNEL, 0, ZONE_DMA32, &h);
	CHECK(spill > 0);
	if (spill > 0)
		CHECK_EQ(sim_handles(s)[spill].node, 1);
	/* on the way to node 1 the NOFRAGMENT walk restarted without the flag (locality first) */
	e = at_find_a(s, EV_ZONE_FALLBACK, ZF_NOFRAG_REMOTE);
	CHECK(e && e->node == 1 && !((unsigned)e->b & ALLOC_NOFRAGMENT));
	free(s);
}

TEST(walk_6_18_skips_nodes_whose_kswapd_runs)
{
	struct sim *s = numa_machine(PROFILE_6_18);
	struct sim *old = numa_machine(PROFILE_6_6);

	CHECK(s && old);
	if (s && old) {
		kswapd_awake_by_hand(s, 1);
		kswapd_awake_by_hand(old, 1);
		sim_events_clear(s);
		CHECK_EQ(at_alloc(s, 2, GFP_KERNEL, 0, 0), SIM_OK);
		CHECK_EQ(sim_handles(s)[0].node, 0);
		CHECK(at_find_a(s, EV_ZONE_FALLBACK, ZF_KSWAPD_ACTIVE) != NULL);
		/* 6.6 had no such skip */
		CHECK_EQ(at_alloc(old, 2, GFP_KERNEL, 0, 0), SIM_OK);
		CHECK_EQ(sim_handles(old)[0].node, 1);
		/* every node busy: a second walk places it anyway, locally (node 1's kswapd, finding
		 * nothing to do after the op, went back to sleep: wake both by hand again) */
		kswapd_awake_by_hand(s, 0);
		kswapd_awake_by_hand(s, 1);
		sim_events_clear(s);
		CHECK_EQ(at_alloc(s, 2, GFP_KERNEL, 0, 1), SIM_OK);
		CHECK_EQ(sim_handles(s)[1].node, 1);
		CHECK(at_find_a(s, EV_ZONE_FALLBACK, ZF_KSWAPD_RETRY) != NULL);
	}
	free(s);
	free(old);
}

TEST(walk_boosted_zone_wakes_kswapd_after_the_allocation)
{
	struct sim *s = at_preset("small", PROFILE_6_18);
	struct zone *z;

	CHECK(s != NULL);
	if (!s)
		return;
	z = sim_zone(s, 0, ZONE_NORMAL);
	/* a fallback boosted the zone (set by hand here): without ALLOC_KSWAPD nothing happens */
	z->watermark_boost = 512;
	z->flags |= ZONE_BOOSTED_WATERMARK;
	CHECK_EQ(at_alloc(s, 0, __GFP_IO | __GFP_FS, 0, 0), SIM_OK);
	CHECK(z->flags & ZONE_BOOSTED_WATERMARK);
	CHECK(!sim_nodes(s)[0].kswapd_awake);
	sim_events_clear(s);
	CHECK_EQ(at_alloc(s, 0, GFP_KERNEL, 0, 1), SIM_OK);
	CHECK_EQ(z->flags & ZONE_BOOSTED_WATERMARK, 0);
	CHECK_EQ(at_count(s, EV_KSWAPD_WAKE), 1);
	/* kswapd ran after the op to reclaim for the boost; with nothing on the LRU it freed nothing,
	 * dropped the boost and went back to sleep (balance_pgdat's boost handling) */
	CHECK(at_last(s, EV_VMSCAN_KSWAPD_WAKE) && at_last(s, EV_VMSCAN_KSWAPD_WAKE)->b == 512);
	CHECK_EQ(z->watermark_boost, 0);
	CHECK(!sim_nodes(s)[0].kswapd_awake);
	free(s);
}

TEST(walk_highatomic_reserve_after_atomic_high_order)
{
	struct sim *s = normal_machine(PROFILE_6_18, 65536, 0);
	struct zone *z;

	CHECK(s != NULL);
	if (!s)
		return;
	z = sim_zone(s, 0, ZONE_NORMAL);
	/*
	 * Only the slow path sets ALLOC_HIGHATOMIC: put LOW above the free pages (MIN 60000, LOW
	 * 75000) so both requests get there; both then pass MIN with their reserve rights.
	 */
	CHECK_EQ(at_op(s, OP_SYSCTL, 0, 0, 0, SYSCTL_MIN_FREE_KBYTES, 240000), SIM_OK);
	/* 6.18: GFP_NOWAIT high-order requests do not reserve */
	CHECK_EQ(at_alloc(s, 0, GFP_NOWAIT, 2, 0), SIM_OK);
	CHECK_EQ(z->nr_reserved_highatomic, 0);
	/* GFP_ATOMIC order 2 does: its pageblock becomes HIGHATOMIC */
	sim_events_clear(s);
	CHECK_EQ(at_alloc(s, 0, GFP_ATOMIC, 2, 1), SIM_OK);
	CHECK_EQ(z->nr_reserved_highatomic, 512);
	CHECK_EQ(at_count(s, EV_HIGHATOMIC_RESERVE), 1);
	free(s);
}

TEST(walk_free_paths_and_counters)
{
	struct sim *s = at_preset("small", PROFILE_6_18);
	const struct sim_event *e;

	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(at_alloc(s, 0, GFP_KERNEL, 4, 0), SIM_OK);
	CHECK_EQ(at_alloc(s, 0, GFP_KERNEL, 0, 1), SIM_OK);
	sim_events_clear(s);
	/* order 4 is not a pcp order: straight to the buddy under the zone lock */
	CHECK_EQ(at_free(s, 0, 0), SIM_OK);
	CHECK_EQ(s->ev.pgfree, 16);
	CHECK_EQ(sim_events(s)[0].kind, EV_MM_PAGE_FREE);
	CHECK_EQ(sim_events(s)[0].order, 4);
	CHECK_EQ(at_count(s, EV_PCP_FREE), 0);
	CHECK(at_count(s, EV_ZONE_LOCK) >= 1);
	/* order 0 goes to the CPU's list */
	sim_events_clear(s);
	CHECK_EQ(at_free(s, 0, 1), SIM_OK);
	CHECK_EQ(sim_events(s)[0].kind, EV_MM_PAGE_FREE);
	e = at_last(s, EV_PCP_FREE);
	CHECK(e != NULL);
	CHECK_EQ(s->ev.pgfree, 17);
	free(s);
}

TEST(walk_trace_text_of_an_anonymous_fault_page)
{
	struct sim *s = at_preset("small", PROFILE_6_18);
	char *text = malloc(1u << 16);
	char want[256];
	const char *line;
	uint32_t pfn;

	CHECK(s && text);
	if (!s || !text) {
		free(s);
		free(text);
		return;
	}
	sim_events_clear(s);
	/* an x86 anonymous write fault: GFP_HIGHUSER_MOVABLE | __GFP_ZERO, folio_alloc adds __GFP_COMP */
	CHECK_EQ(at_alloc(s, 1, GFP_HIGHUSER_MOVABLE | __GFP_ZERO | __GFP_COMP, 0, 0), SIM_OK);
	pfn = sim_handles(s)[0].pfn;
	sim_trace_render(s, 0, s->nr_events, text, 1u << 16);
	snprintf(
		want, sizeof want,
		"             sim-1001    [001] .....     0.%06u: mm_page_alloc: page=%016llx pfn=0x%x order=0 "
		"migratetype=1 gfp_flags=GFP_HIGHUSER_MOVABLE|__GFP_ZERO|__GFP_COMP\n",
		sim_events(s)[s->nr_events - 1].seq,
		0xffffea0000000000ull + (unsigned long long)pfn * 64, pfn);
	line = strstr(text, want);
	CHECK(line != NULL);
	if (!line)
		fprintf(stderr, "    want: %s    got:\n%s", want, text);
	/* the kernel's refill lines: percpu_refill=1 for pcp types */
	CHECK(strstr(text, " mm_page_alloc_zone_locked: page=") != NULL);
	CHECK(strstr(text, " migratetype=1 percpu_refill=1\n") != NULL);
	/* the model's own decisions */
	CHECK(strstr(text, ": buddyscope_watermark_check: node=0 zone=Normal order=0 free=") !=
	      NULL);
	CHECK(strstr(text, " ok=1 fn=__zone_watermark_ok\n") != NULL);
	/* same columns as the real trace: "           touch-6588    [001] .....   192.073750: " */
	CHECK_EQ(strstr(text, "mm_page_alloc:") - text - (line - text), 51);

	/* a failed allocation traces a NULL page and pfn 0 */
	sim_events_clear(s);
	CHECK_EQ(at_alloc(s, 0, GFP_DMA | __GFP_NOWARN, 0, 1), SIM_ENOMEM);
	sim_trace_render(s, 0, s->nr_events, text, 1u << 16);
	CHECK(strstr(text, "mm_page_alloc: page=0000000000000000 pfn=0x0 order=0 migratetype=0 "
			   "gfp_flags=GFP_DMA|__GFP_NOWARN\n") != NULL);
	CHECK(strstr(text, "buddyscope_alloc_fail: node=0 zone=DMA order=0 migratetype=0 "
			   "gfp_flags=GFP_DMA|__GFP_NOWARN warn=0 fn=warn_alloc\n") != NULL);
	free(text);
	free(s);
}
