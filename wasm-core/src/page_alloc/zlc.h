/*
 * zlc.h: the zonelist cache of 2.6.20-4.3 (struct zonelist_cache in base/types.h), its helpers
 * as mm/page_alloc.c [3.0, 3.1] names them, and the jiffies clock they read.
 */
#ifndef BUDDYSCOPE_PAGE_ALLOC_ZLC_H
#define BUDDYSCOPE_PAGE_ALLOC_ZLC_H

#include "base/types.h"

/* Why zlc_mark_zone_full marked a zone (EV_ZLC_MARK_FULL's b). */
enum zlc_full_reason {
	ZLC_FULL_NO_RECLAIM = 1, /* below the watermark and zone_reclaim_mode is 0 */
	ZLC_FULL_RECLAIM_FULL,	 /* 3.0: zone_reclaim returned ZONE_RECLAIM_FULL */
	ZLC_FULL_STILL_BELOW,	 /* zone_reclaim scanned, and the zone is still below its mark */
	ZLC_FULL_RMQUEUE,	 /* the watermark passed but buffered_rmqueue found no page */
};

/* Why zlc_zone_worth_trying said no (EV_ZLC_SKIP's b). */
enum zlc_skip_reason {
	ZLC_SKIP_FULL = 1,	  /* the slot's fullzones bit is set */
	ZLC_SKIP_NODE_DISALLOWED, /* the slot's node is not in the allowed mask */
};

/* CONFIG_HZ of the profile (its hz switch). */
int profile_hz(const struct sim_profile *p);

/* jiffies on cpu's virtual clock: clock_ns * HZ / 10^9. */
uint64_t zlc_jiffies(const struct sim *s, int cpu);

/* build_zonelist_cache: z_to_n of every slot of node nid's fallback zonelist, all bits clear. */
void zlc_build(struct sim *s, int nid);

/*
 * zlc_setup: clear every fullzones bit if more than HZ jiffies passed since last_full_zap (the
 * only periodic refresh, done lazily by the next walk that sets the cache up); returns the allowed
 * nodes as a bit mask (no cpusets: every node with memory).
 */
uint64_t zlc_setup(struct sim *s, int nid, int cpu);

/* zlc_zone_worth_trying: 0 (and why in *reason) when slot's node is not allowed or its bit is set. */
int zlc_zone_worth_trying(const struct sim *s, int nid, int slot, uint64_t allowednodes,
			  int *reason);

/* zlc_mark_zone_full: set slot's bit; emits EV_ZLC_MARK_FULL (why: enum zlc_full_reason). */
void zlc_mark_zone_full(struct sim *s, int nid, int slot, int why, int cpu, int order);

/* zlc_clear_zones_full (3.1): clear every bit, last_full_zap untouched; emits EV_ZLC_CLEAR. */
void zlc_clear_zones_full(struct sim *s, int nid, int cpu, int order);

/* Jiffies until the next zlc_setup may zap node nid's bits (0 when it would now). */
int32_t zlc_zap_in(const struct sim *s, int nid, int cpu);

/* The ZLC's part of sim_check: z_to_n matches the zonelist, no bit beyond its length. */
int zlc_check(struct sim *s);

#endif
