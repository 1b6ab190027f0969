/* gfp.h: what a request's gfp flags mean: zone, migratetype, alloc_flags; and their trace names. */
#ifndef BUDDYSCOPE_GFP_H
#define BUDDYSCOPE_GFP_H

#include "base/textbuf.h"
#include "base/types.h"

/* gfp_zone: the highest zone a request may use; -1 for an invalid combination. */
int gfp_zone(uint32_t gfp);

/* gfp_migratetype: UNMOVABLE, MOVABLE or RECLAIMABLE from __GFP_MOVABLE/__GFP_RECLAIMABLE. */
int gfp_migratetype(uint32_t gfp);

/* The fast path's alloc_flags: ALLOC_WMARK_LOW, ALLOC_CMA, and alloc_flags_nofragment for preferred zone z. */
unsigned gfp_fast_alloc_flags(const struct sim *s, uint32_t gfp, const struct zone *preferred);

/* gfp_to_alloc_flags: the slow path's alloc_flags for a request of order. */
unsigned gfp_to_alloc_flags(const struct sim *s, uint32_t gfp, int order);

/* show_gfp_flags of 6.14+ (6.18): composites, then single bits in bit order ("none" for 0). */
void gfp_format(struct textbuf *tb, uint32_t gfp);

/* show_gfp_flags up to 6.13: the older hand-ordered table (__GFP_COMP before __GFP_ZERO). */
void gfp_format_legacy(struct textbuf *tb, uint32_t gfp);

#endif
