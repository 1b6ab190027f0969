/*
 * capture.h: a zone and its per-CPU lists put in the state a real machine's /proc files showed
 * (zoneinfo's free pages and pagesets, buddyinfo's and pagetypeinfo's free blocks, pagetypeinfo's
 * pageblocks), so that a captured trace replays from where the kernel was.
 */
#ifndef BUDDYSCOPE_CAPTURE_H
#define BUDDYSCOPE_CAPTURE_H

#include "base/types.h"

/* OP_CAPTURE_ZONE's order field beyond the orders: what the op records or does */
enum capture_what {
	CAPTURE_BOOST = 252, /* arg = the zone's watermark_boost */
	CAPTURE_FREE = 253,  /* free a captured in-use block of order arg on the CPU (handle: the
				     kernel's pfn, whose zone the block comes from when it can;
				     gfp: its pageblock's migratetype + 1, 0 when unknown) */
	CAPTURE_PAGEBLOCKS = 254, /* arg = pageblocks of the type */
	CAPTURE_LAYOUT = 255,	  /* lay the zone out from what was recorded */
};

/* OP_CAPTURE_PCP's order field beyond the orders */
enum { CAPTURE_PCP_HIGH = 255 }; /* arg = the pcp's high */

/* OP_CAPTURE_ZONE: record free blocks or pageblocks of one type, lay the zone out, set its
 * watermark boost, or free captured in-use memory (CAPTURE_FREE); SIM_EINVAL on bad input or
 * nothing captured to free. */
int capture_zone(struct sim *s, const struct sim_op *op);

/* OP_CAPTURE_PCP: move captured in-use blocks of a laid-out zone onto one of a CPU's lists, or set its high. */
int capture_pcp(struct sim *s, const struct sim_op *op);

/*
 * OP_FREE_FOLIOS_CAPTURED: choose, for the folio batch g, the captured block a CAPTURE_FREE of
 * (order, kernel_pfn, type) would free, none that g holds already: split down to `order`, kept in
 * use and captured till the batch is freed (an unowned LRU page leaves its list now, as
 * folios_put_refs takes it off); *pfn its head. SIM_EINVAL on bad fields or nothing left to free.
 */
int capture_gather(struct sim *s, int order, uint32_t kernel_pfn, uint32_t type,
		   const struct folio_gather *g, uint32_t *pfn);

/* Make (pfn, order) of z one in-use block of migratetype mt that no handle holds: captured memory. */
void capture_mark_in_use(struct sim *s, const struct zone *z, uint32_t pfn, int order, int mt);

#endif
