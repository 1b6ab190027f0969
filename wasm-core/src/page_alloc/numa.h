/*
 * numa.h: the per-zone and per-node figures node reclaim compares against (min_unmapped_pages,
 * min_slab_pages) and the NUMA counters of /sys/devices/system/node/nodeN/numastat.
 */
#ifndef BUDDYSCOPE_PAGE_ALLOC_NUMA_H
#define BUDDYSCOPE_PAGE_ALLOC_NUMA_H

#include "base/types.h"
#include "base/textbuf.h"

/* setup_min_unmapped_ratio: each zone's present * ratio / 100 (<= 4.7) and each node's sum of managed * ratio / 100 (4.8+). */
void setup_min_unmapped_ratio(struct sim *s);

/* setup_min_slab_ratio: the same for vm.min_slab_ratio into min_slab_pages. */
void setup_min_slab_ratio(struct sim *s);

/* node_read_numastat: node nid's numa_hit ... other_node lines, as sysfs prints them. */
void node_numastat(const struct sim *s, int nid, struct textbuf *tb);

#endif
