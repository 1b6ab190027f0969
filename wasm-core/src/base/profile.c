/*
 * profile.c: the kernel versions the model can behave as. A profile is one row of switches and
 * tunables; the code asks the row, never the version number.
 * docs/kernel/page_alloc/pcp.md#b11-history-the-2016-series-and-514 tells the history:
 *
 *   2016-prefix  Mel Gorman's posted high-order pcp series (RFC..v4, Nov 2016, on 4.9-rc5):
 *                3 order-0 lists + one shared list per order 1..3, high = 11 * batch, the
 *                batch_free round-robin drain; pcp->count counts a corrupted refill page it never
 *                listed (the bug v5 fixed; mainline got the same fix in 4.10).
 *   2016-v5      the same series with the pcp-count fix.
 *   5.13         what was merged before: order-0 lists only, high = 6 * batch.
 *   5.14         the merged high-order lists (15: 3 types x orders 0..3 + THP), zone_highsize,
 *                free_factor, still the batch_free drain.
 *   6.6          13 lists (one THP list), "drain the requested list first", free_high.
 *   6.18         14 lists (THP movable/other), alloc_factor, high auto-tuned in
 *                [high_min, high_max], free_high needing batch + high_min/2, claim/steal fallback.
 */
#include <string.h>

#include "base/profile.h"
#include "base/sim.h"

/* One row per enum profile_id, in that order. */
static const struct sim_profile profile_table[NR_PROFILES] = {
	[PROFILE_6_18] = {
		.id = PROFILE_6_18,
		.pcp_layout = PCP_LAYOUT_6_10,
		.pcp_high_rule = PCP_HIGH_AUTOTUNE,
		.pcp_drain_rule = PCP_DRAIN_REQUESTED_FIRST,
		.fallback_rule = FALLBACK_CLAIM_STEAL_6_18,
		.alloc_factor_scaling = 1,
		.free_factor = 0,
		.free_high_6_18 = 1,
		.pcp_count_fix = 1,
		.highatomic_needs_min_reserve = 1,
		.batch_cap_kib_shift = 20,
		.watermark_promo = 1,
		.zoneinfo_high_min_max = 1,
		.nr_pcp_lists = 14,
		.name = "6.18",
	},
	[PROFILE_6_6] = {
		.id = PROFILE_6_6,
		.pcp_layout = PCP_LAYOUT_6_0,
		.pcp_high_rule = PCP_HIGH_ZONE_HIGHSIZE,
		.pcp_drain_rule = PCP_DRAIN_REQUESTED_FIRST,
		.fallback_rule = FALLBACK_STEAL_6_12,
		.alloc_factor_scaling = 0,
		.free_factor = 1,
		.free_high_6_18 = 0,
		.pcp_count_fix = 1,
		.highatomic_needs_min_reserve = 0,
		.batch_cap_kib_shift = 20,
		.watermark_promo = 0, /* computed in 6.6, printed by zoneinfo only later */
		.zoneinfo_high_min_max = 0,
		.nr_pcp_lists = 13,
		.name = "6.6",
	},
	[PROFILE_5_14] = {
		.id = PROFILE_5_14,
		.pcp_layout = PCP_LAYOUT_5_14,
		.pcp_high_rule = PCP_HIGH_ZONE_HIGHSIZE,
		.pcp_drain_rule = PCP_DRAIN_BATCH_FREE,
		.fallback_rule = FALLBACK_STEAL_6_12,
		.alloc_factor_scaling = 0,
		.free_factor = 1,
		.free_high_6_18 = 0,
		.pcp_count_fix = 1,
		.highatomic_needs_min_reserve = 0,
		.batch_cap_kib_shift = 20,
		.watermark_promo = 0,
		.zoneinfo_high_min_max = 0,
		.nr_pcp_lists = 15,
		.name = "5.14",
	},
	[PROFILE_5_13] = {
		.id = PROFILE_5_13,
		.pcp_layout = PCP_LAYOUT_ORDER0,
		.pcp_high_rule = PCP_HIGH_6_BATCH,
		.pcp_drain_rule = PCP_DRAIN_BATCH_FREE,
		.fallback_rule = FALLBACK_STEAL_6_12,
		.alloc_factor_scaling = 0,
		.free_factor = 0,
		.free_high_6_18 = 0,
		.pcp_count_fix = 1,
		.highatomic_needs_min_reserve = 0,
		.batch_cap_kib_shift = 20,
		.watermark_promo = 0,
		.zoneinfo_high_min_max = 0,
		.nr_pcp_lists = 3,
		.name = "5.13",
	},
	[PROFILE_2016_V5] = {
		.id = PROFILE_2016_V5,
		.pcp_layout = PCP_LAYOUT_2016,
		.pcp_high_rule = PCP_HIGH_2016,
		.pcp_drain_rule = PCP_DRAIN_BATCH_FREE,
		.fallback_rule = FALLBACK_STEAL_6_12,
		.alloc_factor_scaling = 0,
		.free_factor = 0,
		.free_high_6_18 = 0,
		.pcp_count_fix = 1,
		.highatomic_needs_min_reserve = 0,
		.batch_cap_kib_shift = 19, /* 4.9 base: zone_batchsize capped at 512 KiB (batch <= 31) */
		.watermark_promo = 0,
		.zoneinfo_high_min_max = 0,
		.nr_pcp_lists = 6,
		.name = "2016-v5",
	},
	[PROFILE_2016_PREFIX] = {
		.id = PROFILE_2016_PREFIX,
		.pcp_layout = PCP_LAYOUT_2016,
		.pcp_high_rule = PCP_HIGH_2016,
		.pcp_drain_rule = PCP_DRAIN_BATCH_FREE,
		.fallback_rule = FALLBACK_STEAL_6_12,
		.alloc_factor_scaling = 0,
		.free_factor = 0,
		.free_high_6_18 = 0,
		.pcp_count_fix = 0, /* a rejected refill page stays counted in pcp->count */
		.highatomic_needs_min_reserve = 0,
		.batch_cap_kib_shift = 19,
		.watermark_promo = 0,
		.zoneinfo_high_min_max = 0,
		.nr_pcp_lists = 6,
		.name = "2016-prefix",
	},
};

/* sim_profile_get: the row of id; an out-of-range id gets the default row rather than a wild read. */
const struct sim_profile *sim_profile_get(int id)
{
	if (id < 0 || id >= NR_PROFILES)
		id = PROFILE_6_18;
	return &profile_table[id];
}

/* sim_profile_by_name: the id of the row spelled name, or -1. */
int sim_profile_by_name(const char *name)
{
	if (!name)
		return -1;
	for (int id = 0; id < NR_PROFILES; id++)
		if (strcmp(profile_table[id].name, name) == 0)
			return id;
	return -1;
}

/* profile_nr_pcp_lists: lists the layout defines (NR_PCP_LISTS with THP configured). */
int profile_nr_pcp_lists(const struct sim_profile *p)
{
	switch (p->pcp_layout) {
	case PCP_LAYOUT_ORDER0:
		return MIGRATE_PCPTYPES;
	case PCP_LAYOUT_2016:
		return MIGRATE_PCPTYPES + PAGE_ALLOC_COSTLY_ORDER;
	case PCP_LAYOUT_5_14:
		return MIGRATE_PCPTYPES * (PAGE_ALLOC_COSTLY_ORDER + 1 + 1);
	case PCP_LAYOUT_6_0:
		return MIGRATE_PCPTYPES * (PAGE_ALLOC_COSTLY_ORDER + 1) + 1;
	case PCP_LAYOUT_6_10:
	default:
		return MIGRATE_PCPTYPES * (PAGE_ALLOC_COSTLY_ORDER + 1) + 2;
	}
}
