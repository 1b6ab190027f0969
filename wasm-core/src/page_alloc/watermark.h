/*
 * watermark.h: min_free_kbytes, the per-zone watermarks, lowmem_reserve ("protection") and the
 * watermark check an allocation must pass.
 */
#ifndef BUDDYSCOPE_WATERMARK_H
#define BUDDYSCOPE_WATERMARK_H

#include "base/types.h"

/* calculate_min_free_kbytes + set_recommended_min_free_kbytes: the default rule (with THP raise); sets s->min_free_kbytes. */
int32_t wmark_default_min_free_kbytes(struct sim *s);

/* __setup_per_zone_wmarks: min/low/high/promo of every zone from min_free_kbytes; boost reset (pcp values are the caller's). */
void wmark_setup_per_zone_wmarks(struct sim *s);

/* setup_per_zone_lowmem_reserve: every zone's lowmem_reserve[] from lowmem_reserve_ratio. */
void wmark_setup_lowmem_reserve(struct sim *s);

/* __zone_watermark_ok: whether z keeps more than mark free after an order allocation; emits EV_WMARK_CHECK when cpu >= 0. */
int zone_watermark_ok(struct sim *s, struct zone *z, int order, int64_t mark, int highest_zoneidx,
		      unsigned alloc_flags, int cpu);

/* zone_watermark_fast: the order-0 shortcut, the full check, and the boosted-MIN retry. */
int zone_watermark_fast(struct sim *s, struct zone *z, int order, int64_t mark, int highest_zoneidx,
			unsigned alloc_flags, int cpu);

/* calculate_normal_threshold: the "vm stats threshold" zoneinfo prints. */
int wmark_stat_threshold(const struct sim *s, const struct zone *z);

/* Whether kswapd gave up on the node (kswapd_failures >= MAX_RECLAIM_RETRIES): zoneinfo's node_unreclaimable. */
int wmark_node_unreclaimable(const struct node *n);

#endif
