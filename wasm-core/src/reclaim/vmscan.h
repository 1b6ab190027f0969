/*
 * vmscan.h: reclaim's scanning (mm/vmscan.c): a scan_control, shrink_node and what it calls, and
 * direct reclaim. kswapd (kswapd.c) and the allocator's slow path (through page_alloc's
 * reclaim hook) both drive shrink_node.
 */
#ifndef BUDDYSCOPE_RECLAIM_VMSCAN_H
#define BUDDYSCOPE_RECLAIM_VMSCAN_H

#include "base/types.h"

#define DEACTIVATE_ANON 0x1
#define DEACTIVATE_FILE 0x2

/* struct scan_control: one reclaim pass's target, limits and running totals. */
struct scan_control {
	int64_t nr_to_reclaim; /* stop shrinking a node once this many pages were reclaimed */
	int64_t nr_reclaimed;  /* pages freed so far */
	int64_t nr_scanned;    /* pages looked at on inactive lists since it was last reset */
	int64_t nr_folios;     /* folios taken off inactive lists (each folio costs reclaim once) */
	uint32_t gfp;	       /* the request's gfp flags (GFP_KERNEL for kswapd) */
	int order;	       /* the request's order (kswapd: reset to 0 once enough is free) */
	int priority;	       /* scan 1 >> priority of each list: DEF_PRIORITY down to 0 */
	int reclaim_idx;       /* the highest zone whose pages may be reclaimed */
	int cpu;	  /* the CPU reclaiming: its clock pays and its pcp lists get the pages */
	uint8_t kswapd;	  /* current_is_kswapd(): which vmstat counters it feeds */
	uint8_t may_swap; /* anonymous pages may go to swap (not while reclaiming for a boost) */
	uint8_t may_deactivate;	    /* DEACTIVATE_ANON / _FILE: active lists may be aged */
	uint8_t force_deactivate;   /* direct reclaim's second try: age active lists regardless */
	uint8_t skipped_deactivate; /* an active list was passed over because aging was not allowed */
	uint8_t cache_trim_mode;    /* plenty of inactive page cache: reclaim only that */
	uint8_t file_is_tiny;	    /* page cache about gone: reclaim anonymous memory only */
	uint8_t may_unmap;	    /* mapped pages may be unmapped (node reclaim: RECLAIM_UNMAP) */
	uint8_t may_writepage; /* dirty page cache may go to the flusher (node reclaim: RECLAIM_WRITE) */
	int8_t only_zone; /* <= 4.7 zone_reclaim: only this zone's pages (its own LRU); -1: the node */
	uint8_t memcg_full_walk; /* direct reclaim's retry: walk every memcg, not a partial walk */
	uint8_t pad[4];
};

/* What direct (and node) reclaim costs the reclaiming CPU per page scanned: a documented weight (not kswapd's: its own thread). */
#define COST_RECLAIM_SCAN_PAGE_NS 250

/* shrink_node: reclaim from node nid's LRU lists as sc allows; resets kswapd_failures on progress. */
void shrink_node(struct sim *s, int nid, struct scan_control *sc);

/* shrink_active_list: age up to nr_to_scan pages of active list lru of memcg (-1: the node's
 * lists) into the inactive list. */
void shrink_active_list(struct sim *s, int nid, int memcg, int64_t nr_to_scan,
			struct scan_control *sc, int lru);

/* try_to_free_pages (page_alloc's reclaim hook): direct reclaim for a request; pages reclaimed. */
uint64_t try_to_free_pages(struct sim *s, int cpu, uint32_t gfp, int order, int nid,
			   int highest_zoneidx);

/* zone_reclaimable_pages (page_alloc's reclaim hook). */
int64_t zone_reclaimable_pages(const struct sim *s, const struct zone *z);

/* The CPU node nid's kswapd runs on: the one OP_KSWAPD_CPU named while online, else the node's first online CPU. */
int kswapd_cpu(const struct sim *s, int nid);

#endif
