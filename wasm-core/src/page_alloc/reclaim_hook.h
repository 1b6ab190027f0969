/*
 * reclaim_hook.h: what the page allocator asks of reclaim, which sits above it (base <-
 * page_alloc <- reclaim). The kernel's slow path calls into mm/vmscan.c directly; here the page
 * allocator names the calls and reclaim/ provides them, wired in src/subsystems.c, so no include
 * points upward.
 */
#ifndef BUDDYSCOPE_PAGE_ALLOC_RECLAIM_HOOK_H
#define BUDDYSCOPE_PAGE_ALLOC_RECLAIM_HOOK_H

#include "base/types.h"

/* The reclaim calls of the allocation and free paths. */
struct page_alloc_reclaim {
	/* A block on an LRU list leaves its owner: take it off the list before it is freed. */
	void (*release)(struct sim *s, struct zone *z, uint32_t pfn);
	/* try_to_free_pages: direct reclaim for a request; returns the pages reclaimed. */
	uint64_t (*try_to_free_pages)(struct sim *s, int cpu, uint32_t gfp, int order, int nid,
				      int highest_zoneidx);
	/* zone_reclaimable_pages: LRU pages of z that reclaim could free (anon only with swap). */
	int64_t (*zone_reclaimable_pages)(const struct sim *s, const struct zone *z);
};

/* The reclaim the page allocator calls (src/subsystems.c). */
extern const struct page_alloc_reclaim *const page_alloc_reclaim;

#endif
