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

/*
 * EV_WMARK_CHECK's mt: which mark a check compared against, and so why it was made. The first three
 * are enum wmark: the mark the request's alloc_flags name (get_page_from_freelist's own check).
 */
enum wmark_check {
	/* the request's mark is min (the slow path, atomic requests) */
	WMARK_CHECK_MIN = WMARK_MIN,
	/* the request's mark is low (the fast path) */
	WMARK_CHECK_LOW = WMARK_LOW,
	/* the request's mark is high (the last try before the OOM killer) */
	WMARK_CHECK_HIGH = WMARK_HIGH,
	/* min without the boost: zone_watermark_fast's retry for __GFP_HIGH order-0 requests */
	WMARK_CHECK_MIN_UNBOOSTED = 4,
	/* 6.7+: get_page_from_freelist's high pre-check; a failure sets ZONE_BELOW_HIGH */
	WMARK_CHECK_BELOW_HIGH = 5,
	/* 6.7+: the free path's high check after a pcp bulk free under ZONE_BELOW_HIGH; a pass clears it */
	WMARK_CHECK_FREE_HIGH = 6,
	/* another caller's number (kswapd's balance checks, tests) */
	WMARK_CHECK_OTHER = 7,
};

/* __zone_watermark_ok: whether z keeps more than mark free after an order allocation; emits EV_WMARK_CHECK naming `which` when cpu >= 0. */
int zone_watermark_ok(struct sim *s, struct zone *z, int order, int64_t mark, int highest_zoneidx,
		      unsigned alloc_flags, enum wmark_check which, int cpu);

/* __zone_watermark_ok with a free-page count of the caller's (should_reclaim_retry's "available"); no event. */
int zone_watermark_ok_free(struct sim *s, struct zone *z, int order, int64_t mark,
			   int highest_zoneidx, unsigned alloc_flags, int64_t free_pages);

/* zone_watermark_fast: the order-0 shortcut, the full check, and the boosted-MIN retry; the event names `which` (or the retry). */
int zone_watermark_fast(struct sim *s, struct zone *z, int order, int64_t mark, int highest_zoneidx,
			unsigned alloc_flags, enum wmark_check which, int cpu);

/*
 * calculate_totalreserve_pages: each node's totalreserve_pages (per zone: its largest protection
 * plus its high watermark, at most its managed pages); returns the machine's total.
 */
uint64_t calculate_totalreserve_pages(struct sim *s);

/*
 * zone_watermark_ok_safe: zone_watermark_ok with no alloc_flags for kswapd and the balance checks,
 * counting the per-CPU deltas when the zone counter is below percpu_drift_mark.
 */
int zone_watermark_ok_safe(struct sim *s, struct zone *z, int order, int64_t mark,
			   int highest_zoneidx, int cpu);

/* Whether kswapd gave up on the node (kswapd_failures >= MAX_RECLAIM_RETRIES): zoneinfo's node_unreclaimable. */
int wmark_node_unreclaimable(const struct node *n);
#endif
