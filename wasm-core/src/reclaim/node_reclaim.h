/*
 * node_reclaim.h: reclaim on the allocation path, before the allocator leaves a node
 * (zone_reclaim up to 4.7, node_reclaim from 4.8; vm.zone_reclaim_mode).
 */
#ifndef BUDDYSCOPE_RECLAIM_NODE_RECLAIM_H
#define BUDDYSCOPE_RECLAIM_NODE_RECLAIM_H

#include "base/types.h"

/* zone_reclaim_mode bits (include/uapi/linux/mempolicy.h; RECLAIM_UNMAP was RECLAIM_SWAP in 3.0) */
#define RECLAIM_ZONE 0x1  /* reclaim locally before going off node */
#define RECLAIM_WRITE 0x2 /* and write dirty page cache out */
#define RECLAIM_UNMAP 0x4 /* and unmap mapped pages (swap anonymous ones) */

/* NODE_RECLAIM_PRIORITY (ZONE_RECLAIM_PRIORITY in 3.0): the first pass scans 1/16 of each list. */
#define NODE_RECLAIM_PRIORITY 4

/* zone_pagecache_reclaimable / node_pagecache_reclaimable: the page cache the mode lets it free. */
int64_t node_pagecache_reclaimable(const struct sim *s, const struct zone *z);

/* zone_reclaim (<= 4.7, z's own LRU) or node_reclaim (4.8+, z's node): enum node_reclaim_result. */
int node_reclaim(struct sim *s, int cpu, struct zone *z, uint32_t gfp, int order);

#endif
