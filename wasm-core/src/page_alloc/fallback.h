/*
 * fallback.h: when a migratetype's own lists are empty: the fallback table, claiming whole
 * pageblocks, stealing single blocks, watermark boosting, and the high-order atomic reserve.
 */
#ifndef BUDDYSCOPE_FALLBACK_H
#define BUDDYSCOPE_FALLBACK_H

#include "base/types.h"

/* fallbacks[mt][i]: the i-th (0 or 1) migratetype an allocation of pcp type mt may fall back to. */
int fallback_type(int mt, int i);

/* should_try_claim_block / can_steal_fallback: whether a fallback at this order may take the pageblock. */
int fallback_may_claim(const struct sim *s, int order, int start_mt);

/* 6.18 __rmqueue_claim: take a whole pageblock of another type, then allocate from it; PFN_NONE if none. */
uint32_t fallback_rmqueue_claim(struct sim *s, struct zone *z, int order, int start_mt,
				unsigned alloc_flags, int cpu);

/* 6.18 __rmqueue_steal: take a single block of another type without retagging; PFN_NONE if none. */
uint32_t fallback_rmqueue_steal(struct sim *s, struct zone *z, int order, int start_mt, int cpu);

/* 6.12 and earlier __rmqueue_fallback: largest-first, claim the block or take a piece; PFN_NONE if none. */
uint32_t fallback_rmqueue_6_12(struct sim *s, struct zone *z, int order, int start_mt,
			       unsigned alloc_flags, int cpu);

/* boost_watermark: raise the zone's boost by a pageblock; 1 if it boosted. */
int fallback_boost_watermark(struct sim *s, struct zone *z, int cpu);

/* reserve_highatomic_pageblock: turn the pageblock of pfn into a HIGHATOMIC reserve if within the limit. */
void highatomic_reserve_pageblock(struct sim *s, struct zone *z, uint32_t pfn, int order, int cpu);

/* unreserve_highatomic_pageblock: give one reserved pageblock of the zonelist back to mt; 1 if it did. */
int highatomic_unreserve_pageblock(struct sim *s, int nid, int highest_zoneidx, int mt, int force,
				   int cpu);

/* Stage of the 6.18 __rmqueue search kept across one rmqueue_bulk (enum rmqueue_mode). */
enum rmqueue_mode { RMQUEUE_NORMAL, RMQUEUE_CMA, RMQUEUE_CLAIM, RMQUEUE_STEAL };

/* __rmqueue: own list, then fallback by the profile's rule; *mode carries the 6.18 stage (may be NULL). */
uint32_t rmqueue_with_fallback(struct sim *s, struct zone *z, int order, int mt,
			       unsigned alloc_flags, int *mode, int cpu);

/* rmqueue_buddy: one block under the zone lock, with the high-order atomic reserve; PFN_NONE if none. */
uint32_t rmqueue_buddy(struct sim *s, struct zone *z, int order, int mt, unsigned alloc_flags,
		       int cpu);

#endif
