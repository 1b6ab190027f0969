/*
 * capture.h: a captured machine's LRU lists (zoneinfo's nr_zone_{in,}active_{anon,file}), filled
 * from the in-use memory page_alloc/capture.c laid out, so that reclaim in a replay finds what
 * the kernel's reclaim found.
 */
#ifndef BUDDYSCOPE_RECLAIM_CAPTURE_H
#define BUDDYSCOPE_RECLAIM_CAPTURE_H

#include "base/types.h"

/* OP_CAPTURE_LRU's gfp for "the node's refaults_moved is arg" (DEACTIVATE_* types) */
enum { CAPTURE_LRU_REFAULTS = 255 };

/* OP_CAPTURE_LRU: move arg pages of captured in-use memory of a laid-out zone onto list gfp of
 * its node, or (CAPTURE_LRU_REFAULTS) set the node's refaults_moved; SIM_EINVAL on bad input
 * (what did not fit is counted in the zone's capture_unplaced). */
int capture_lru(struct sim *s, const struct sim_op *op);

/* OP_CAPTURE_LRU_FOLIOS: put arg folios of order `order` of a laid-out zone's captured in-use
 * memory on list gfp % 4 of memcg gfp / 4 (declared by OP_MEMCG; memcg 0, the root, also
 * without any: a capture without an lru-state); SIM_EINVAL on bad input
 * (folios no captured block could hold are counted in the zone's capture_unplaced). */
int capture_lru_folios(struct sim *s, const struct sim_op *op);

#endif
