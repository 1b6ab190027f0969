/*
 * profile.c: the kernel versions the model can behave as. A profile is one row of switches and
 * tunables (base/profiles.def); the code asks a switch, never the version. The pcp history the
 * rows follow is docs/kernel/page_alloc/pcp.md#b11-history-the-2016-series-and-514:
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

/* Lists a layout defines (NR_PCP_LISTS with THP configured), as a constant for the table. */
#define NR_PCP_LISTS_OF(layout)                                                                 \
	((layout) == PCP_LAYOUT_ORDER0 ? MIGRATE_PCPTYPES :                                     \
	 (layout) == PCP_LAYOUT_2016   ? MIGRATE_PCPTYPES + PAGE_ALLOC_COSTLY_ORDER :           \
	 (layout) == PCP_LAYOUT_5_14   ? MIGRATE_PCPTYPES * (PAGE_ALLOC_COSTLY_ORDER + 1 + 1) : \
	 (layout) == PCP_LAYOUT_6_0    ? MIGRATE_PCPTYPES * (PAGE_ALLOC_COSTLY_ORDER + 1) + 1 : \
					 MIGRATE_PCPTYPES * (PAGE_ALLOC_COSTLY_ORDER + 1) + 2)

/* The first switch of a row (pcp_layout: profiles.def lists it first). */
#define FIRST_SWITCH(first, ...) first

/* How many switches a row must give: one per PROFILE_SWITCH row. */
enum {
#define PROFILE_SWITCH(field, kind, doc) SWITCH_##field,
#define PROFILE(id, name, what, kernels, ...)
#include "base/profiles.def"
#undef PROFILE
#undef PROFILE_SWITCH
	NR_PROFILE_SWITCHES
};

/* Each row of profiles.def gives exactly one value per switch: a short row would leave the last 0. */
#define PROFILE_SWITCH(field, kind, doc)
#define PROFILE(id, name, what, kernels, ...)                                           \
	_Static_assert(sizeof((const uint8_t[]){ __VA_ARGS__ }) == NR_PROFILE_SWITCHES, \
		       "profiles.def: " name " needs one value per PROFILE_SWITCH");
#include "base/profiles.def"
#undef PROFILE
#undef PROFILE_SWITCH

/* The web takes row 0 for the default (sim_config_default's, and sim_profile_get's fallback). */
_Static_assert(PROFILE_6_18 == 0, "profiles.def: the default profile must be the first row");

/* One row per enum profile_id, in that order: the switches follow id in struct order. */
static const struct sim_profile profile_table[NR_PROFILES] = {
#define PROFILE_SWITCH(field, kind, doc)
#define PROFILE(pid, pname, what, kernels, ...)                               \
	[pid] = { .id = pid,                                                  \
		  __VA_ARGS__,                                                \
		  .nr_pcp_lists = NR_PCP_LISTS_OF(FIRST_SWITCH(__VA_ARGS__)), \
		  .name = pname },
#include "base/profiles.def"
#undef PROFILE
#undef PROFILE_SWITCH
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
	return NR_PCP_LISTS_OF(p->pcp_layout);
}
