/*
 * reclaim_hook.h: what the page allocator asks of reclaim, which sits above it (base <-
 * page_alloc <- reclaim). The kernel's slow path calls into mm/vmscan.c directly; here the page
 * allocator names the calls and reclaim/ provides them, wired in src/subsystems.c, so no include
 * points upward.
 */
#ifndef BUDDYSCOPE_PAGE_ALLOC_RECLAIM_HOOK_H
#define BUDDYSCOPE_PAGE_ALLOC_RECLAIM_HOOK_H

#include "base/types.h"

/* What zone_reclaim (<= 4.7) and node_reclaim (4.8+) return (mm/internal.h). */
enum node_reclaim_result {
	NODE_RECLAIM_NOSCAN = -2, /* did not scan: may not, or need not, try here */
	NODE_RECLAIM_FULL = -1,	  /* nothing worth scanning: too little unmapped page cache */
	NODE_RECLAIM_SOME = 0,	  /* scanned, reclaimed less than the request */
	NODE_RECLAIM_SUCCESS = 1, /* reclaimed at least 2^order pages */
};

/* Why node_reclaim returned what it did (EV_NODE_RECLAIM's b). */
enum node_reclaim_why {
	NRW_SCANNED = 0,      /* it scanned: SOME or SUCCESS */
	NRW_LITTLE_CACHE,     /* FULL: reclaimable page cache <= min_unmapped_pages (and slab) */
	NRW_UNRECLAIMABLE,    /* FULL: the node was found unreclaimable (<= ~4.11) */
	NRW_CANNOT_BLOCK,     /* NOSCAN: the request may not sleep */
	NRW_REMOTE_WITH_CPUS, /* NOSCAN: the node has CPUs and is not the allocating CPU's */
	NRW_LOCKED,	      /* NOSCAN: another reclaimer holds the node (or zone) */
};

/* The reclaim calls of the allocation and free paths. */
struct page_alloc_reclaim {
	/* A block on an LRU list leaves its owner: take it off the list before it is freed. */
	void (*release)(struct sim *s, struct zone *z, uint32_t pfn);
	/* An op names memory inside the LRU extent headed at pfn (base/frames.h): make its folios. */
	void (*expand)(struct sim *s, struct zone *z, uint32_t pfn);
	/* try_to_free_pages: direct reclaim for a request; returns the pages reclaimed. */
	uint64_t (*try_to_free_pages)(struct sim *s, int cpu, uint32_t gfp, int order, int nid,
				      int highest_zoneidx);
	/* zone_reclaimable_pages: LRU pages of z that reclaim could free (anon only with swap). */
	int64_t (*zone_reclaimable_pages)(const struct sim *s, const struct zone *z);
	/* zone_reclaim / node_reclaim for a request z failed its watermark on: enum node_reclaim_result. */
	int (*node_reclaim)(struct sim *s, int cpu, struct zone *z, uint32_t gfp, int order);
};

/* The reclaim the page allocator calls (src/subsystems.c). */
extern const struct page_alloc_reclaim *const page_alloc_reclaim;

#endif
