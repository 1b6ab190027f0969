/*
 * test_gfp.c: gfp flags against docs/kernel C.7, D.2, A.11 and E.1: the zone table, migratetypes,
 * the fast and slow path alloc_flags, and show_gfp_flags text checked against the gfp_flags
 * strings that appear in the real 6.18 traces (traces/, and earlier captures of the same kernel).
 */
#include "alloc_test_util.h"
#include "base/textbuf.h"
#include "page_alloc/gfp.h"

/* show_gfp_flags of gfp as a string in a static buffer (6.18 order, or the legacy one). */
static const char *gfp_text(uint32_t gfp, int legacy)
{
	static char buf[512];
	struct textbuf tb;

	tb_init(&tb, buf, sizeof buf);
	if (legacy)
		gfp_format_legacy(&tb, gfp);
	else
		gfp_format(&tb, gfp);
	tb_finish(&tb);
	return buf;
}

TEST(gfp_zone_table)
{
	CHECK_EQ(gfp_zone(0), ZONE_NORMAL);
	CHECK_EQ(gfp_zone(GFP_KERNEL), ZONE_NORMAL);
	CHECK_EQ(gfp_zone(__GFP_DMA), ZONE_DMA);
	/* no HighMem on x86-64: __GFP_HIGHMEM alone means Normal */
	CHECK_EQ(gfp_zone(__GFP_HIGHMEM), ZONE_NORMAL);
	CHECK_EQ(gfp_zone(GFP_DMA32), ZONE_DMA32);
	CHECK_EQ(gfp_zone(__GFP_MOVABLE), ZONE_NORMAL);
	CHECK_EQ(gfp_zone(__GFP_MOVABLE | __GFP_DMA), ZONE_DMA);
	CHECK_EQ(gfp_zone(__GFP_MOVABLE | __GFP_DMA32), ZONE_DMA32);
	/* only MOVABLE with HIGHMEM reaches ZONE_MOVABLE: an anonymous fault page does */
	CHECK_EQ(gfp_zone(GFP_HIGHUSER_MOVABLE), ZONE_MOVABLE);
	CHECK_EQ(gfp_zone(GFP_HIGHUSER), ZONE_NORMAL);
	/* GFP_ZONE_BAD */
	CHECK_EQ(gfp_zone(__GFP_DMA | __GFP_DMA32), -1);
	CHECK_EQ(gfp_zone(__GFP_DMA | __GFP_HIGHMEM), -1);
	CHECK_EQ(gfp_zone(__GFP_DMA32 | __GFP_HIGHMEM), -1);
	CHECK_EQ(gfp_zone(__GFP_MOVABLE | __GFP_DMA32 | __GFP_HIGHMEM), -1);
}

TEST(gfp_migratetype_from_two_bits)
{
	CHECK_EQ(gfp_migratetype(GFP_KERNEL), MIGRATE_UNMOVABLE);
	CHECK_EQ(gfp_migratetype(GFP_HIGHUSER_MOVABLE), MIGRATE_MOVABLE);
	CHECK_EQ(gfp_migratetype(GFP_KERNEL | __GFP_RECLAIMABLE), MIGRATE_RECLAIMABLE);
	/* both bits would name HIGHATOMIC, which no request may ask for */
	CHECK_EQ(gfp_migratetype(__GFP_MOVABLE | __GFP_RECLAIMABLE), MIGRATE_UNMOVABLE);
}

TEST(gfp_fast_path_flags_and_nofragment)
{
	struct sim *s = at_preset("small", PROFILE_6_18);
	struct sim *two = at_preset("server2", PROFILE_6_18);
	struct sim *old = at_preset("small", PROFILE_2016_V5);

	CHECK(s && two && old);
	if (s && two && old) {
		struct zone *normal = sim_zone(s, 0, ZONE_NORMAL),
			    *dma32 = sim_zone(s, 0, ZONE_DMA32);

		/* LOW watermark, KSWAPD copied from the gfp bit, NOFRAGMENT because DMA32 can absorb */
		CHECK_EQ(gfp_fast_alloc_flags(s, GFP_KERNEL, normal),
			 ALLOC_WMARK_LOW | ALLOC_KSWAPD | ALLOC_NOFRAGMENT);
		CHECK_EQ(gfp_fast_alloc_flags(s, GFP_DMA32 | GFP_KERNEL, dma32),
			 ALLOC_WMARK_LOW | ALLOC_KSWAPD);
		CHECK_EQ(gfp_fast_alloc_flags(s, __GFP_IO | __GFP_FS, normal),
			 ALLOC_WMARK_LOW | ALLOC_NOFRAGMENT);
		/* no CONFIG_CMA: movable requests get no ALLOC_CMA */
		CHECK_EQ(gfp_fast_alloc_flags(s, GFP_HIGHUSER_MOVABLE, normal) & ALLOC_CMA, 0);
		/* NUMA: node 1 has no DMA32 of its own */
		CHECK_EQ(gfp_fast_alloc_flags(two, GFP_KERNEL, sim_zone(two, 0, ZONE_NORMAL)) &
				 ALLOC_NOFRAGMENT,
			 ALLOC_NOFRAGMENT);
		CHECK_EQ(gfp_fast_alloc_flags(two, GFP_KERNEL, sim_zone(two, 1, ZONE_NORMAL)) &
				 ALLOC_NOFRAGMENT,
			 0);
		/* the 4.9-based 2016 series predates ALLOC_NOFRAGMENT */
		CHECK_EQ(gfp_fast_alloc_flags(old, GFP_KERNEL, sim_zone(old, 0, ZONE_NORMAL)),
			 ALLOC_WMARK_LOW | ALLOC_KSWAPD);
	}
	free(s);
	free(two);
	free(old);
}

TEST(gfp_slow_path_flags)
{
	struct sim *s = at_preset("small", PROFILE_6_18);
	struct sim *s66 = at_preset("small", PROFILE_6_6);

	CHECK(s && s66);
	if (s && s66) {
		CHECK_EQ(gfp_to_alloc_flags(s, GFP_KERNEL, 0),
			 ALLOC_WMARK_MIN | ALLOC_CPUSET | ALLOC_KSWAPD);
		/* GFP_ATOMIC: __GFP_HIGH -> MIN_RESERVE, cannot sleep -> NON_BLOCK, cpuset ignored */
		CHECK_EQ(gfp_to_alloc_flags(s, GFP_ATOMIC, 0),
			 ALLOC_MIN_RESERVE | ALLOC_NON_BLOCK | ALLOC_KSWAPD);
		CHECK_EQ(gfp_to_alloc_flags(s, GFP_ATOMIC, 3),
			 ALLOC_MIN_RESERVE | ALLOC_NON_BLOCK | ALLOC_HIGHATOMIC | ALLOC_KSWAPD);
		/* 6.18: GFP_NOWAIT high-order requests no longer reach the atomic reserve; 6.6 let them */
		CHECK_EQ(gfp_to_alloc_flags(s, GFP_NOWAIT, 3),
			 ALLOC_NON_BLOCK | ALLOC_CPUSET | ALLOC_KSWAPD);
		CHECK_EQ(gfp_to_alloc_flags(s66, GFP_NOWAIT, 3),
			 ALLOC_NON_BLOCK | ALLOC_HIGHATOMIC | ALLOC_CPUSET | ALLOC_KSWAPD);
		/* __GFP_NOMEMALLOC refuses the extra reserves */
		CHECK_EQ(gfp_to_alloc_flags(s, GFP_ATOMIC | __GFP_NOMEMALLOC, 3),
			 ALLOC_MIN_RESERVE | ALLOC_KSWAPD);
	}
	free(s);
	free(s66);
}

TEST(gfp_format_matches_real_6_18_traces)
{
	/* every distinct gfp_flags string of tcp-loopback-8m and touch8-cpu0 */
	CHECK(!strcmp(gfp_text(GFP_HIGHUSER_MOVABLE | __GFP_COMP, 0),
		      "GFP_HIGHUSER_MOVABLE|__GFP_COMP"));
	CHECK(!strcmp(gfp_text(GFP_HIGHUSER_MOVABLE | __GFP_COMP | __GFP_ZERO, 0),
		      "GFP_HIGHUSER_MOVABLE|__GFP_ZERO|__GFP_COMP"));
	CHECK(!strcmp(gfp_text(GFP_KERNEL_ACCOUNT | __GFP_ZERO | __GFP_COMP, 0),
		      "GFP_KERNEL_ACCOUNT|__GFP_ZERO|__GFP_COMP"));
	CHECK(!strcmp(gfp_text(GFP_HIGHUSER | __GFP_ACCOUNT, 0), "GFP_HIGHUSER|__GFP_ACCOUNT"));
	CHECK(!strcmp(gfp_text(GFP_KERNEL, 0), "GFP_KERNEL"));
	CHECK(!strcmp(gfp_text(GFP_KERNEL_ACCOUNT, 0), "GFP_KERNEL_ACCOUNT"));
	CHECK(!strcmp(gfp_text(GFP_KERNEL | __GFP_NOWARN | __GFP_NORETRY | __GFP_COMP, 0),
		      "GFP_KERNEL|__GFP_NOWARN|__GFP_NORETRY|__GFP_COMP"));
	CHECK(!strcmp(gfp_text(GFP_KERNEL | __GFP_RECLAIMABLE | __GFP_NOWARN | __GFP_NORETRY |
				       __GFP_COMP,
			       0),
		      "GFP_KERNEL|__GFP_RECLAIMABLE|__GFP_NOWARN|__GFP_NORETRY|__GFP_COMP"));
	CHECK(!strcmp(gfp_text(GFP_NOWAIT, 0), "GFP_NOWAIT"));
	CHECK(!strcmp(gfp_text(GFP_NOWAIT | __GFP_IO | __GFP_FS | __GFP_NORETRY | __GFP_COMP, 0),
		      "GFP_NOWAIT|__GFP_IO|__GFP_FS|__GFP_NORETRY|__GFP_COMP"));
	CHECK(!strcmp(gfp_text(__GFP_IO | __GFP_FS | __GFP_NOWARN | __GFP_NORETRY | __GFP_COMP |
				       __GFP_NOMEMALLOC,
			       0),
		      "__GFP_IO|__GFP_FS|__GFP_NOWARN|__GFP_NORETRY|__GFP_COMP|__GFP_NOMEMALLOC"));
}

TEST(gfp_format_edges_and_legacy_order)
{
	CHECK(!strcmp(gfp_text(0, 0), "none"));
	CHECK(!strcmp(gfp_text(GFP_ATOMIC, 0), "GFP_ATOMIC"));
	CHECK(!strcmp(gfp_text(__GFP_DIRECT_RECLAIM, 0), "__GFP_DIRECT_RECLAIM"));
	CHECK(!strcmp(gfp_text(__GFP_RECLAIM, 0), "GFP_NOIO"));
	/* bits no name covers are printed as one hex number at the end */
	CHECK(!strcmp(gfp_text(0x200, 0), "0x200"));
	CHECK(!strcmp(gfp_text(GFP_KERNEL | 0x1000000, 0), "GFP_KERNEL|0x1000000"));
	/* THP: GFP_TRANSHUGE = TRANSHUGE_LIGHT | __GFP_DIRECT_RECLAIM */
	CHECK(!strcmp(
		gfp_text((GFP_HIGHUSER_MOVABLE | __GFP_COMP | __GFP_NOMEMALLOC | __GFP_NOWARN) &
				 ~__GFP_KSWAPD_RECLAIM,
			 0),
		"GFP_TRANSHUGE"));
	/*
	 * up to 6.13 the table was hand-ordered: __GFP_COMP before __GFP_ZERO
	 * (docs/kernel/page_alloc/formats.md#e1-tracepoints)
	 */
	CHECK(!strcmp(gfp_text(GFP_HIGHUSER_MOVABLE | __GFP_COMP | __GFP_ZERO, 1),
		      "GFP_HIGHUSER_MOVABLE|__GFP_COMP|__GFP_ZERO"));
	CHECK(!strcmp(gfp_text(GFP_KERNEL | __GFP_RECLAIMABLE | __GFP_NOWARN, 1),
		      "GFP_KERNEL|__GFP_NOWARN|__GFP_RECLAIMABLE"));
}
