/*
 * frames.h: the pool of slabs behind frames materialised on demand (the accessors are in
 * base/state.h). A max-order block free at the largest order is whole: its head lives in the
 * per-block table and its other frames are implied tails. The first split or allocation inside it
 * takes a slab of 2^max_order frames from the pool; merging whole again gives the slab back.
 *
 * Budget: the pool holds MAX_MATERIALISED_FRAMES >> max_order slabs beyond those the machine
 * needs at boot (blocks a zone only partly covers, which stay materialised), and never more than
 * the machine has blocks. A workload that needs more blocks materialised at once freezes the
 * state with SIM_ENOSPACE and says how much it touched.
 */
#ifndef BUDDYSCOPE_FRAMES_H
#define BUDDYSCOPE_FRAMES_H

#include "base/types.h"

/* Slabs a machine's pool holds: every block a zone covers, at most the budget plus the partly
 * covered blocks (which are materialised from boot). */
uint64_t frames_pool_slabs(const struct sim_config *cfg);

/* Boot: every block whole and clean, then the blocks a zone covers only partly materialised. */
void frames_boot(struct sim *s);

/* The block at head pfn is free at the largest order again (and lies inside one zone): its head
 * goes back to the table and its slab to the pool. A whole block is left as it is. */
void frames_release(struct sim *s, uint32_t pfn);

/* The pool's own invariants and the whole/materialised rule of every block (sim_check). */
int frames_check(struct sim *s);

#endif
