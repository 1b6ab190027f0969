/*
 * test_profiles.c: the profile table (docs/kernel B.11 and B.4-B.7): names, the default, the
 * switches of each row, and how each profile sizes a pcp on the same machine.
 */
#include <stdlib.h>
#include <string.h>

#include "base/profile.h"
#include "base/sim.h"
#include "base/state.h"
#include "boot.h"
#include "harness.h"
#include "page_alloc/pcp.h"

/* Boot the "classroom" machine (one 32768-page Normal zone, 2 CPUs) under a profile. */
static struct sim *boot_classroom(int profile)
{
	struct sim_config cfg;

	if (sim_config_preset(&cfg, "classroom") != SIM_OK)
		return NULL;
	cfg.profile = (uint8_t)profile;
	return test_boot(&cfg);
}

TEST(profile_names_round_trip)
{
	static const char *const names[NR_PROFILES] = {
		[PROFILE_6_18] = "6.18",
		[PROFILE_6_6] = "6.6",
		[PROFILE_5_14] = "5.14",
		[PROFILE_5_13] = "5.13",
		[PROFILE_2016_V5] = "2016-v5",
		[PROFILE_2016_PREFIX] = "2016-prefix",
		[PROFILE_4_13] = "4.13",
		[PROFILE_4_14] = "4.14",
		[PROFILE_5_1] = "5.1",
		[PROFILE_4_16] = "4.16",
		[PROFILE_4_16_SPF_V9] = "4.16-spf-v9",
		[PROFILE_4_17_SPF_V11] = "4.17-spf-v11",
		[PROFILE_3_0] = "3.0",
		[PROFILE_3_1_ZLCFIRST] = "3.1-zlcfirst",
		[PROFILE_3_1_ZLCRECONSIDER] = "3.1-zlcreconsider",
		[PROFILE_4_4] = "4.4",
		[PROFILE_4_8] = "4.8",
	};
	struct sim_config cfg;

	for (int id = 0; id < NR_PROFILES; id++) {
		const struct sim_profile *p = sim_profile_get(id);
		CHECK_EQ(p->id, id);
		CHECK(strcmp(p->name, names[id]) == 0);
		CHECK_EQ(sim_profile_by_name(names[id]), id);
		CHECK_EQ(p->nr_pcp_lists, profile_nr_pcp_lists(p));
		CHECK(p->nr_pcp_lists <= NR_PCP_LISTS_LIMIT);
	}
	CHECK_EQ(sim_profile_by_name("6.12"), -1);
	CHECK_EQ(sim_profile_by_name(""), -1);
	CHECK_EQ(sim_profile_by_name(NULL), -1);
	sim_config_default(&cfg);
	CHECK_EQ(cfg.profile, PROFILE_6_18);
}

TEST(profile_switches_follow_history)
{
	const struct sim_profile *p;

	/* 6.18: 14 lists, auto-tuned high, alloc_factor, the batch + high_min/2 free_high */
	p = sim_profile_get(PROFILE_6_18);
	CHECK_EQ(p->pcp_layout, PCP_LAYOUT_6_10);
	CHECK_EQ(p->nr_pcp_lists, 14);
	CHECK_EQ(p->pcp_high_rule, PCP_HIGH_AUTOTUNE);
	CHECK_EQ(p->pcp_drain_rule, PCP_DRAIN_REQUESTED_FIRST);
	CHECK(p->alloc_factor_scaling && p->free_high_adds_high_min && p->zoneinfo_high_min_max);
	CHECK(!p->free_factor);
	CHECK_EQ(p->fallback_rule, FALLBACK_CLAIM_STEAL_6_18);
	/* 6.6: 13 lists (one THP list), one high, free_factor, requested list drained first */
	p = sim_profile_get(PROFILE_6_6);
	CHECK_EQ(p->nr_pcp_lists, 13);
	CHECK_EQ(p->pcp_high_rule, PCP_HIGH_ZONE_HIGHSIZE);
	CHECK_EQ(p->pcp_drain_rule, PCP_DRAIN_REQUESTED_FIRST);
	CHECK(p->free_factor && !p->alloc_factor_scaling);
	/* 5.14: the first merged high-order lists (15), still the batch_free round-robin */
	p = sim_profile_get(PROFILE_5_14);
	CHECK_EQ(p->nr_pcp_lists, 15);
	CHECK_EQ(p->pcp_drain_rule, PCP_DRAIN_BATCH_FREE);
	/* 5.13: order-0 only, 6 * batch */
	p = sim_profile_get(PROFILE_5_13);
	CHECK_EQ(p->nr_pcp_lists, 3);
	CHECK_EQ(p->pcp_high_rule, PCP_HIGH_6_BATCH);
	/* the 2016 series: 6 lists, 11 * batch, 512 KiB batch cap; v5 has the count fix, the prefix not */
	p = sim_profile_get(PROFILE_2016_V5);
	CHECK_EQ(p->nr_pcp_lists, 6);
	CHECK_EQ(p->pcp_high_rule, PCP_HIGH_2016);
	CHECK_EQ(p->batch_cap_kib_shift, 19);
	CHECK(p->pcp_count_fix);
	CHECK(!sim_profile_get(PROFILE_2016_PREFIX)->pcp_count_fix);
	/* 4.7-4.9 checked refilled pages already counted (4.8); 4.10 fixed it, 3.x never had it */
	for (int id = 0; id < NR_PROFILES; id++)
		CHECK_EQ(sim_profile_get(id)->pcp_count_fix,
			 id != PROFILE_2016_PREFIX && id != PROFILE_4_8);
}

TEST(profile_switches_of_the_numa_history)
{
	/* the ZLC (<= 4.3) and the two 2011 patches, one switch each */
	CHECK(sim_profile_get(PROFILE_3_0)->zlc);
	CHECK(!sim_profile_get(PROFILE_3_0)->zlc_setup_before_first_reclaim);
	CHECK(sim_profile_get(PROFILE_3_1_ZLCFIRST)->zlc_setup_before_first_reclaim);
	CHECK(sim_profile_get(PROFILE_3_1_ZLCFIRST)->zone_reclaim_full_does_not_mark);
	CHECK(!sim_profile_get(PROFILE_3_1_ZLCFIRST)->zlc_clear_after_direct_reclaim);
	CHECK(sim_profile_get(PROFILE_3_1_ZLCRECONSIDER)->zlc_clear_after_direct_reclaim);
	for (int id = 0; id < NR_PROFILES; id++) {
		const struct sim_profile *p = sim_profile_get(id);
		/* the patches only exist on top of a ZLC */
		if (!p->zlc)
			CHECK(!p->zlc_setup_before_first_reclaim &&
			      !p->zlc_clear_after_direct_reclaim);
	}
	/* 4.4 deleted the ZLC; 4.8 moved reclaim to the node */
	CHECK(!sim_profile_get(PROFILE_4_4)->zlc);
	CHECK(!sim_profile_get(PROFILE_4_4)->node_reclaim_per_node);
	CHECK(sim_profile_get(PROFILE_4_8)->node_reclaim_per_node);
	CHECK(sim_profile_get(PROFILE_6_18)->node_reclaim_per_node);
	CHECK_EQ(sim_profile_get(PROFILE_6_18)->node_reclaim_distance_rule, 2);
	CHECK_EQ(sim_profile_get(PROFILE_4_8)->node_reclaim_distance_rule, 1);
	CHECK_EQ(sim_profile_get(PROFILE_3_0)->node_reclaim_distance_rule, 0);
}

/*
 * The switches the id branches became, against what each kernel's source says (docs/kernel A.11,
 * A.12, C.2, C.6, D.3, E.1, E.5): written out here by hand, so a wrong value in profiles.def fails.
 */
TEST(profile_switches_match_kernel_sources)
{
	const struct sim_profile *p618 = sim_profile_get(PROFILE_6_18);
	const struct sim_profile *p66 = sim_profile_get(PROFILE_6_6);
	const struct sim_profile *p514 = sim_profile_get(PROFILE_5_14);
	const struct sim_profile *p513 = sim_profile_get(PROFILE_5_13);

	/* 5.13: order-0 lists only and high = 6 * batch; 6.18: auto-tuned high, alloc_factor refills */
	CHECK_EQ(p513->pcp_layout, PCP_LAYOUT_ORDER0);
	CHECK_EQ(p513->pcp_high_rule, PCP_HIGH_6_BATCH);
	CHECK_EQ(p618->pcp_high_rule, PCP_HIGH_AUTOTUNE);
	CHECK(p618->alloc_factor_scaling);
	/* pfn=0x%lx from 5.14; decimal in 5.13 and in the 4.9-based 2016 series */
	CHECK(p618->trace_pfn_hex && p66->trace_pfn_hex && p514->trace_pfn_hex);
	CHECK(!p513->trace_pfn_hex);
	/* show_gfp_flags in bit order from 6.14 */
	CHECK(p618->trace_gfp_bit_order && !p66->trace_gfp_bit_order);
	/* nr_free_pages_blocks and the kswapd-node skip are 6.15/6.16 additions */
	CHECK(p618->nr_free_pages_blocks && !p66->nr_free_pages_blocks);
	CHECK(p618->skip_kswapd_nodes && !p66->skip_kswapd_nodes);
	/* the rounded highatomic limit (6.7) and free-highatomic watermark term (6.10) postdate 6.6 */
	CHECK(p618->highatomic_limit_rounded && !p66->highatomic_limit_rounded);
	CHECK(p618->wmark_free_highatomic && !p66->wmark_free_highatomic);
	/* Movable treated like HighMem in watermark setup from 6.0: 6.6 yes, 5.14 not */
	CHECK(p618->movable_wmark_like_highmem && p66->movable_wmark_like_highmem);
	CHECK(!p514->movable_wmark_like_highmem && !p513->movable_wmark_like_highmem);
	/* ALLOC_NOFRAGMENT from 5.0: every merged profile, not the 4.9-based series */
	CHECK(p618->alloc_nofragment && p66->alloc_nofragment && p514->alloc_nofragment &&
	      p513->alloc_nofragment);
	/* free_high by free_factor: 5.19-6.6; remote lists drained directly from 6.0 */
	CHECK(p66->free_high_on_free_factor && !p618->free_high_on_free_factor);
	CHECK(!p514->free_high_on_free_factor);
	CHECK(p618->drain_remote_directly && p66->drain_remote_directly);
	CHECK(!p514->drain_remote_directly && !p513->drain_remote_directly);
	/* the bulk free: 5.19+ from the list just freed to; the merged batch_free before */
	CHECK_EQ(p66->pcp_drain_rule, PCP_DRAIN_REQUESTED_FIRST);
	CHECK_EQ(p513->pcp_drain_rule, PCP_DRAIN_BATCH_FREE);
	/* fallback: 6.10+ rules in 6.18 only; 5.0-6.9 move-then-retry; 4.9 move-then-expand */
	CHECK_EQ(p618->fallback_rule, FALLBACK_CLAIM_STEAL_6_18);
	CHECK(p66->fallback_rule == FALLBACK_MOVE_RETRY_5_0 &&
	      p514->fallback_rule == FALLBACK_MOVE_RETRY_5_0 &&
	      p513->fallback_rule == FALLBACK_MOVE_RETRY_5_0);
	CHECK(p66->watermark_boost && p514->watermark_boost && p513->watermark_boost);
	/* "order < pageblock_order &&" before the NOFRAGMENT floor: in 6.6 and 6.9, not 5.14/5.19 */
	CHECK(p66->nofragment_small_orders_only && !p514->nofragment_small_orders_only);
	/* rmqueue's out: label after rmqueue_buddy (6.0 split): 6.6 yes, 5.14 no */
	CHECK(p66->boosted_wake_after_failure && !p514->boosted_wake_after_failure);
	CHECK(p66->buddy_after_pcp_miss && !p513->buddy_after_pcp_miss);
	CHECK(p66->highatomic_last_resort == 1 && p618->highatomic_last_resort == 2 &&
	      p514->highatomic_last_resort == 0);
	CHECK(!p66->highatomic_whole_range && p618->highatomic_whole_range);
	CHECK(p66->trace_zone_locked_in_smallest && !p514->trace_zone_locked_in_smallest);
	for (int id = PROFILE_2016_V5; id <= PROFILE_2016_PREFIX; id++) {
		const struct sim_profile *p = sim_profile_get(id);
		CHECK_EQ(p->fallback_rule, FALLBACK_MOVE_EXPAND_4_9);
		CHECK(!p->watermark_boost && !p->move_freepages_to_tail &&
		      !p->unreserve_before_oom);
		CHECK_EQ(p->pcp_drain_rule, PCP_DRAIN_BATCH_FREE_FROM_TYPE);
		CHECK(!p->alloc_nofragment && !p->trace_pfn_hex && !p->movable_wmark_like_highmem);
		CHECK(!p->highatomic_limit_rounded && !p->wmark_free_highatomic);
	}
}

TEST(profile_pcp_sizes_on_one_machine)
{
	/* the same 32768-page zone: batch 7 everywhere; high by each profile's rule */
	for (int id = 0; id < NR_PROFILES; id++) {
		struct sim *s = boot_classroom(id);
		const struct per_cpu_pages *pcp;
		struct zone *z;
		CHECK(s);
		if (!s)
			return;
		z = sim_zone(s, 0, ZONE_NORMAL);
		pcp = sim_pcp(s, 1, 0, ZONE_NORMAL);
		CHECK_EQ(pcp->batch, 7);
		switch (id) {
		case PROFILE_6_18:
			CHECK_EQ(pcp->high, 0); /* clamped into [high_min, high_max] at first use */
			CHECK_EQ(pcp->high_min, pcp_zone_highsize(s, z, 7, 0, 0));
			CHECK_EQ(pcp->high_max, pcp_zone_highsize(s, z, 7, 0, 8));
			CHECK_EQ(pcp->high_max, 32768 / 8 / 2);
			break;
		case PROFILE_6_6:
		case PROFILE_5_14:
			CHECK_EQ(pcp->high, pcp_zone_highsize(s, z, 7, 0, 0));
			break;
		case PROFILE_5_13:
		case PROFILE_4_13: /* the percpu profiles keep 5.13's order-0 pcp lists */
		case PROFILE_4_14:
		case PROFILE_5_1:
		case PROFILE_4_16:
		case PROFILE_4_16_SPF_V9:
		case PROFILE_4_17_SPF_V11:
		case PROFILE_3_0: /* the 2011 and 4.x NUMA profiles too */
		case PROFILE_3_1_ZLCFIRST:
		case PROFILE_3_1_ZLCRECONSIDER:
		case PROFILE_4_4:
		case PROFILE_4_8:
			CHECK_EQ(pcp->high, 6 * 7);
			break;
		default:
			CHECK_EQ(pcp->high, 7 * 3 + (7 << 3)); /* 77 = 11 * batch */
			break;
		}
		CHECK_EQ(sim_check(s), SIM_OK);
		free(s);
	}
}

TEST(profile_high_fraction_sysctl)
{
	/* vm.percpu_pagelist_high_fraction = 8: high_min = high_max = managed / 8 / nr_cpus (6.7+) */
	struct sim *s = boot_classroom(PROFILE_6_18);
	struct sim_op op = { .kind = OP_SYSCTL,
			     .handle = SYSCTL_PERCPU_PAGELIST_HIGH_FRACTION,
			     .arg = 8 };
	const struct per_cpu_pages *pcp;

	CHECK(s);
	if (!s)
		return;
	pcp = sim_pcp(s, 0, 0, ZONE_NORMAL);
	CHECK_EQ(sim_apply(s, &op), SIM_OK);
	CHECK_EQ(pcp->high_min, 32768 / 8 / 2);
	CHECK_EQ(pcp->high_max, 32768 / 8 / 2);
	op.arg = 4; /* 0 or >= 8 only */
	CHECK_EQ(sim_apply(s, &op), SIM_EINVAL);
	CHECK_EQ(sim_check(s), SIM_OK);
	free(s);
}
