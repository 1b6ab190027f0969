/*
 * test_watermark.c: docs/kernel C.2-C.6 and C.8: min_free_kbytes (sqrt rule, THP raise, its 5%
 * cap), per-zone watermarks and protection against both snapshots of the live 6.18 machine
 * (section H), the profile differences, and __zone_watermark_ok / zone_watermark_fast.
 */
#include "alloc_test_util.h"
#include "page_alloc/buddy.h"
#include "page_alloc/vmstat.h"
#include "page_alloc/watermark.h"

/* The live machine of section H with Normal managing `normal` pages and min_free_kbytes given. */
static struct sim *live_machine(uint32_t normal, int32_t min_free_kbytes, int profile)
{
	struct sim_config cfg;

	at_capture_config(&cfg);
	cfg.profile = (uint8_t)profile;
	cfg.zones[0][ZONE_NORMAL].managed = normal;
	cfg.min_free_kbytes = min_free_kbytes;
	return at_boot(&cfg);
}

/* Check min/low/high/promo of a zone. */
static void check_marks(const struct zone *z, int32_t min, int32_t low, int32_t high, int32_t promo)
{
	CHECK_EQ(wmark_pages(z, WMARK_MIN), min);
	CHECK_EQ(wmark_pages(z, WMARK_LOW), low);
	CHECK_EQ(wmark_pages(z, WMARK_HIGH), high);
	CHECK_EQ(wmark_pages(z, WMARK_PROMO), promo);
}

/* Check a zone's protection array. */
static void check_protection(const struct zone *z, int32_t a, int32_t b, int32_t c, int32_t d,
			     int32_t e)
{
	CHECK_EQ(z->lowmem_reserve[0], a);
	CHECK_EQ(z->lowmem_reserve[1], b);
	CHECK_EQ(z->lowmem_reserve[2], c);
	CHECK_EQ(z->lowmem_reserve[3], d);
	CHECK_EQ(z->lowmem_reserve[4], e);
}

TEST(wmark_live_snapshot_1)
{
	struct sim *s = live_machine(327680, 67584, PROFILE_6_18);

	CHECK(s != NULL);
	if (!s)
		return;
	check_marks(sim_zone(s, 0, ZONE_DMA), 58, 72, 86, 100);
	check_marks(sim_zone(s, 0, ZONE_DMA32), 11824, 14780, 17736, 20692);
	check_marks(sim_zone(s, 0, ZONE_NORMAL), 5012, 6265, 7518, 8771);
	/* Movable is clamped like HighMem; Device is lowmem with a share of 0 */
	check_marks(sim_zone(s, 0, ZONE_MOVABLE), 32, 32, 32, 32);
	check_marks(sim_zone(s, 0, ZONE_DEVICE), 0, 0, 0, 0);
	check_protection(sim_zone(s, 0, ZONE_DMA), 0, 3019, 4299, 4299, 4299);
	check_protection(sim_zone(s, 0, ZONE_DMA32), 0, 0, 1280, 1280, 1280);
	check_protection(sim_zone(s, 0, ZONE_NORMAL), 0, 0, 0, 0, 0);
	CHECK_EQ(at_check(s), SIM_OK);
	free(s);
}

TEST(wmark_live_snapshot_2_and_stat_thresholds)
{
	struct sim *s = live_machine(1015808, 67584, PROFILE_6_18);

	CHECK(s != NULL);
	if (!s)
		return;
	check_marks(sim_zone(s, 0, ZONE_DMA), 36, 45, 54, 63);
	check_marks(sim_zone(s, 0, ZONE_DMA32), 7285, 9106, 10927, 12748);
	check_marks(sim_zone(s, 0, ZONE_NORMAL), 9574, 11967, 14360, 16753);
	/* 6.18 keeps protection for the empty Movable/Device zones (the 6.10 zeroing was reverted) */
	check_protection(sim_zone(s, 0, ZONE_DMA), 0, 3019, 6987, 6987, 6987);
	check_protection(sim_zone(s, 0, ZONE_DMA32), 0, 0, 3968, 3968, 3968);
	CHECK_EQ(wmark_stat_threshold(s, sim_zone(s, 0, ZONE_DMA)), 4);
	CHECK_EQ(wmark_stat_threshold(s, sim_zone(s, 0, ZONE_DMA32)), 24);
	CHECK_EQ(wmark_stat_threshold(s, sim_zone(s, 0, ZONE_NORMAL)), 24);
	free(s);
}

TEST(wmark_min_free_kbytes_default_rules)
{
	struct sim_config cfg;
	struct sim *s;

	/* sqrt(16 * lowmem KiB): 4 GiB -> 8192 KiB, 1 GiB -> 4096 KiB (no THP) */
	sim_config_default(&cfg);
	cfg.thp = 0;
	cfg.zones[0][ZONE_NORMAL] = (struct zone_config){ 1u << 20, 1u << 20, 1u << 20, 1u << 20 };
	s = at_boot(&cfg);
	CHECK(s != NULL);
	if (s)
		CHECK_EQ(s->min_free_kbytes, 8192);
	free(s);
	cfg.zones[0][ZONE_NORMAL] = (struct zone_config){ 1u << 20, 1u << 18, 1u << 18, 1u << 18 };
	s = at_boot(&cfg);
	CHECK(s != NULL);
	if (s)
		CHECK_EQ(s->min_free_kbytes, 4096);
	free(s);

	/*
	 * THP on the 64 MiB "small" machine: sqrt gives 1024 KiB; the recommendation
	 * 512 * 2 * 2 + 512 * 2 * 9 = 11264 pages is capped at 5% of the pages above HIGH:
	 * (4096 - 96) + (12288 - 288) = 16000, / 20 = 800 pages = 3200 KiB.
	 */
	CHECK_EQ(sim_config_preset(&cfg, "small"), SIM_OK);
	cfg.thp = 0;
	s = at_boot(&cfg);
	CHECK(s != NULL);
	if (s)
		CHECK_EQ(s->min_free_kbytes, 1024);
	free(s);
	cfg.thp = 1;
	s = at_boot(&cfg);
	CHECK(s != NULL);
	if (s) {
		CHECK_EQ(s->min_free_kbytes, 3200);
		check_marks(sim_zone(s, 0, ZONE_DMA32), 200, 250, 300, 350);
	}
	free(s);
	/* a tiny machine: clamped up to 128 KiB */
	s = at_preset("tiny", PROFILE_6_18);
	CHECK(s != NULL);
	if (s)
		CHECK_EQ(s->min_free_kbytes, 128);
	free(s);
}

TEST(wmark_sysctls_recompute)
{
	struct sim *s = live_machine(327680, 67584, PROFILE_6_18);

	CHECK(s != NULL);
	if (!s)
		return;
	/* watermark_scale_factor 100 (1%): the distance becomes managed / 100 where that is larger */
	CHECK_EQ(at_op(s, OP_SYSCTL, 0, 0, 0, SYSCTL_WATERMARK_SCALE_FACTOR, 100), SIM_OK);
	check_marks(sim_zone(s, 0, ZONE_DMA32), 11824, 11824 + 7729, 11824 + 2 * 7729,
		    11824 + 3 * 7729);
	/* a lowmem_reserve_ratio of 0 switches protection off for that zone */
	CHECK_EQ(at_op(s, OP_SYSCTL, 0, 0, 0, SYSCTL_LOWMEM_RESERVE_RATIO_DMA, 0), SIM_OK);
	check_protection(sim_zone(s, 0, ZONE_DMA), 0, 0, 0, 0, 0);
	CHECK_EQ(at_op(s, OP_SYSCTL, 0, 0, 0, SYSCTL_MIN_FREE_KBYTES, 16384), SIM_OK);
	CHECK_EQ(wmark_pages(sim_zone(s, 0, ZONE_NORMAL), WMARK_MIN), 4096 * 327680 / 1104435);
	free(s);
}

TEST(wmark_profiles_before_6_0_count_movable_as_lowmem)
{
	struct sim_config cfg;
	struct sim *s;

	/* a machine with a populated Movable zone (kernelcore= style) */
	sim_config_default(&cfg);
	cfg.profile = PROFILE_5_14;
	cfg.thp = 0;
	cfg.min_free_kbytes = 4096;
	cfg.zones[0][ZONE_NORMAL] = (struct zone_config){ 1u << 20, 1u << 18, 1u << 18, 1u << 18 };
	cfg.zones[0][ZONE_MOVABLE] =
		(struct zone_config){ (1u << 20) + (1u << 18), 1u << 18, 1u << 18, 1u << 18 };
	s = at_boot(&cfg);
	CHECK(s != NULL);
	if (s) {
		/* 5.14: 1024 pages shared by both zones, no clamp */
		CHECK_EQ(wmark_pages(sim_zone(s, 0, ZONE_MOVABLE), WMARK_MIN), 512);
		CHECK_EQ(wmark_pages(sim_zone(s, 0, ZONE_NORMAL), WMARK_MIN), 512);
	}
	free(s);
	cfg.profile = PROFILE_6_18;
	s = at_boot(&cfg);
	CHECK(s != NULL);
	if (s) {
		/* 6.x: Normal takes all of min; Movable min = clamp(262144 / 1024, 32, 128) = 128, distance from tmp */
		CHECK_EQ(wmark_pages(sim_zone(s, 0, ZONE_NORMAL), WMARK_MIN), 1024);
		CHECK_EQ(wmark_pages(sim_zone(s, 0, ZONE_MOVABLE), WMARK_MIN), 128);
		CHECK_EQ(wmark_pages(sim_zone(s, 0, ZONE_MOVABLE), WMARK_LOW), 128 + 262);
	}
	free(s);
}

TEST(wmark_check_reserves_and_reductions)
{
	struct sim *s = at_preset("bench1m", PROFILE_6_18);
	struct zone *z;

	CHECK(s != NULL);
	if (!s)
		return;
	z = sim_zone(s, 0, ZONE_NORMAL);
	z->nr_free_pages = z->vm_stat_free = 1001;
	/* strictly more than mark + reserve must stay free */
	CHECK(zone_watermark_ok(s, z, 0, 1000, ZONE_NORMAL, 0, WMARK_CHECK_OTHER, -1));
	CHECK(!zone_watermark_ok(s, z, 0, 1001, ZONE_NORMAL, 0, WMARK_CHECK_OTHER, -1));
	/* order 1 leaves 2^1 - 1 pages unusable */
	CHECK(!zone_watermark_ok(s, z, 1, 1000, ZONE_NORMAL, 0, WMARK_CHECK_OTHER, -1));
	/* __GFP_HIGH: half of min; GFP_ATOMIC: a further quarter; OOM victims: another half */
	z->nr_free_pages = z->vm_stat_free = 501;
	CHECK(zone_watermark_ok(s, z, 0, 1000, ZONE_NORMAL, ALLOC_MIN_RESERVE, WMARK_CHECK_OTHER,
				-1));
	CHECK(!zone_watermark_ok(s, z, 0, 1002, ZONE_NORMAL, ALLOC_MIN_RESERVE, WMARK_CHECK_OTHER,
				 -1));
	z->nr_free_pages = z->vm_stat_free = 376;
	CHECK(zone_watermark_ok(s, z, 0, 1000, ZONE_NORMAL, ALLOC_MIN_RESERVE | ALLOC_NON_BLOCK,
				WMARK_CHECK_OTHER, -1));
	CHECK(!zone_watermark_ok(s, z, 0, 1000, ZONE_NORMAL, ALLOC_MIN_RESERVE, WMARK_CHECK_OTHER,
				 -1));
	z->nr_free_pages = z->vm_stat_free = 189;
	CHECK(zone_watermark_ok(s, z, 0, 1000, ZONE_NORMAL,
				ALLOC_MIN_RESERVE | ALLOC_NON_BLOCK | ALLOC_OOM, WMARK_CHECK_OTHER,
				-1));
	/* GFP_NOWAIT (NON_BLOCK alone) gets no reduction */
	z->nr_free_pages = z->vm_stat_free = 1000;
	CHECK(!zone_watermark_ok(s, z, 0, 1000, ZONE_NORMAL, ALLOC_NON_BLOCK, WMARK_CHECK_OTHER,
				 -1));
	/* free HIGHATOMIC pages are not usable without reserve rights (6.18: the free part only) */
	z->nr_free_pages = z->vm_stat_free = 1101;
	z->nr_free_highatomic = 100;
	z->nr_reserved_highatomic = 512;
	CHECK(zone_watermark_ok(s, z, 0, 1000, ZONE_NORMAL, ALLOC_NON_BLOCK, WMARK_CHECK_OTHER,
				-1));
	CHECK(!zone_watermark_ok(s, z, 0, 1001, ZONE_NORMAL, 0, WMARK_CHECK_OTHER, -1));
	CHECK(zone_watermark_ok(s, z, 0, 1000, ZONE_NORMAL, 0, WMARK_CHECK_OTHER, -1));
	/* 6.6 subtracted the whole reservation */
	s->profile.wmark_free_highatomic = 0;
	CHECK(!zone_watermark_ok(s, z, 0, 1000, ZONE_NORMAL, 0, WMARK_CHECK_OTHER, -1));
	s->profile.wmark_free_highatomic = 1;
	z->nr_free_highatomic = z->nr_reserved_highatomic = 0;
	/* protection of the request's highest zone is added to the mark */
	z->lowmem_reserve[ZONE_MOVABLE] = 50;
	z->nr_free_pages = z->vm_stat_free = 1050;
	CHECK(!zone_watermark_ok(s, z, 0, 1000, ZONE_MOVABLE, 0, WMARK_CHECK_OTHER, -1));
	CHECK(zone_watermark_ok(s, z, 0, 1000, ZONE_NORMAL, 0, WMARK_CHECK_OTHER, -1));
	z->lowmem_reserve[ZONE_MOVABLE] = 0;
	free(s);
}

TEST(wmark_check_high_order_needs_a_usable_block)
{
	struct sim *s = at_preset("tiny", PROFILE_6_18);
	struct zone *z;

	CHECK(s != NULL);
	if (!s)
		return;
	/* tiny: four free order-6 blocks, all MOVABLE */
	z = sim_zone(s, 0, ZONE_NORMAL);
	CHECK(zone_watermark_ok(s, z, 6, 10, ZONE_NORMAL, 0, WMARK_CHECK_OTHER, -1));
	/* take every block: enough pages "free" but no block of order >= 2 on a usable list */
	{
		uint32_t heads[4], n = 0;
		for (uint32_t pfn = z->free_area[6].head[MIGRATE_MOVABLE]; pfn != PFN_NONE && n < 4;
		     pfn = zone_page(s, z, pfn)->next)
			heads[n++] = pfn;
		CHECK_EQ(n, 4);
		/* retag the lists as HIGHATOMIC: only reserve holders may count them */
		for (uint32_t i = 0; i < n; i++)
			buddy_move_to_free_list(s, z, heads[i], MIGRATE_HIGHATOMIC);
		CHECK(!zone_watermark_ok(s, z, 2, 10, ZONE_NORMAL, ALLOC_NON_BLOCK,
					 WMARK_CHECK_OTHER, -1));
		CHECK(zone_watermark_ok(s, z, 2, 10, ZONE_NORMAL, ALLOC_HIGHATOMIC,
					WMARK_CHECK_OTHER, -1));
		CHECK(zone_watermark_ok(s, z, 2, 10, ZONE_NORMAL, ALLOC_OOM, WMARK_CHECK_OTHER,
					-1));
		for (uint32_t i = 0; i < n; i++)
			buddy_move_to_free_list(s, z, heads[i], MIGRATE_MOVABLE);
	}
	CHECK_EQ(at_check(s), SIM_OK);
	free(s);
}

TEST(wmark_fast_check_and_boosted_min)
{
	struct sim *s = at_preset("bench1m", PROFILE_6_18);
	struct zone *z;

	CHECK(s != NULL);
	if (!s)
		return;
	z = sim_zone(s, 0, ZONE_NORMAL);
	sim_events_clear(s);
	/* order 0 shortcut: one event, the verdict */
	z->nr_free_pages = z->vm_stat_free = 2000;
	CHECK(zone_watermark_fast(s, z, 0, 1000, ZONE_NORMAL, ALLOC_WMARK_LOW, WMARK_CHECK_LOW, 0));
	CHECK_EQ(at_count(s, EV_WMARK_CHECK), 1);
	CHECK(at_last(s, EV_WMARK_CHECK)->a == 2000 && at_last(s, EV_WMARK_CHECK)->b == 1000 &&
	      at_last(s, EV_WMARK_CHECK)->c == 1 &&
	      at_last(s, EV_WMARK_CHECK)->mt == WMARK_CHECK_LOW);
	/*
	 * A boosted MIN check by a __GFP_HIGH order-0 request falls back to the unboosted MIN:
	 * bench1m's MIN is 5632 (THP rule), boosted to 9632; __GFP_HIGH halves either.
	 * 4000 free fails 9632 / 2 = 4816 but passes 5632 / 2 = 2816.
	 */
	CHECK_EQ(z->_watermark[WMARK_MIN], 5632);
	z->watermark_boost = 4000;
	z->nr_free_pages = z->vm_stat_free = 4000;
	CHECK(!zone_watermark_fast(s, z, 0, wmark_pages(z, WMARK_MIN), ZONE_NORMAL, ALLOC_WMARK_MIN,
				   WMARK_CHECK_MIN, 0));
	CHECK(zone_watermark_fast(s, z, 0, wmark_pages(z, WMARK_MIN), ZONE_NORMAL,
				  ALLOC_WMARK_MIN | ALLOC_MIN_RESERVE, WMARK_CHECK_MIN, 0));
	/* and the event names the retry: min without its boost */
	CHECK_EQ(at_last(s, EV_WMARK_CHECK)->mt, WMARK_CHECK_MIN_UNBOOSTED);
	/* only for checks against MIN */
	CHECK(!zone_watermark_fast(s, z, 0, wmark_pages(z, WMARK_MIN), ZONE_NORMAL,
				   ALLOC_WMARK_LOW | ALLOC_MIN_RESERVE, WMARK_CHECK_LOW, 0));
	CHECK_EQ(at_last(s, EV_WMARK_CHECK)->mt, WMARK_CHECK_LOW);
	z->watermark_boost = 0;
	z->nr_free_pages = (int64_t)z->managed;
	free(s);
}

/*
 * calculate_totalreserve_pages on the machine of the live capture (at_capture_config; its zoneinfo
 * is in docs/kernel/page_alloc/live-check.md): DMA min(3840 managed, 5835 + 63) = 3840, DMA32 2816 + 13077 = 15893,
 * Normal 0 + 12198, the empty Movable and Device 0: 31931 pages.
 */
TEST(wmark_totalreserve_pages_of_the_live_capture)
{
	struct sim_config cfg;
	struct sim *s;

	at_capture_config(&cfg);
	s = at_boot(&cfg);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(sim_nodes(s)[0].totalreserve_pages, 31931);
	CHECK_EQ(calculate_totalreserve_pages(s), 31931);
	/* a boost raises the high watermark, so the reserve */
	sim_zone(s, 0, ZONE_NORMAL)->watermark_boost = 100;
	CHECK_EQ(calculate_totalreserve_pages(s), 32031);
	free(s);
}
