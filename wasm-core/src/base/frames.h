/*
 * frames.h: the pool of slabs behind frames materialised on demand (the accessors are in
 * base/state.h). A max-order block that is one thing from end to end is whole: its head lives in
 * the per-block table and its other frames are implied tails. Three kinds of head may stand for a
 * whole block, each of the largest order (frames_head_whole):
 *   - PG_BUDDY: free at the largest order (boot, or merged whole again);
 *   - PG_ALLOCATED with flags PAGEF_CAPTURED and no LRU flags: captured in-use memory
 *     (page_alloc/capture.c), which nothing has split or freed yet;
 *   - PG_ALLOCATED with flags PAGEF_EXTENT: an LRU extent (reclaim/capture.c), captured LRU
 *     memory standing for its folios until reclaim reaches them (reclaim/lru.c).
 * A whole block's head is always one of these, and a block with a slab never has one of these
 * heads (frames_check). The first split, allocation or free inside a whole block takes a slab of
 * 2^max_order frames from the pool; merging whole again (or the capture laying a whole in-use
 * block over it) gives the slab back. So a machine costs its table plus the blocks something
 * touched, however much of it a capture showed in use.
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

/* Whether head, a max-order block's head frame, is of a kind that may stand for the whole block. */
int frames_head_whole(const struct sim *s, const struct page *head);

/* The block at head pfn becomes one thing (a captured in-use block of the largest order, its head
 * written): every other frame a clean tail again and its slab back to the pool. Only for a block
 * whose other frames hold nothing any list or handle names (the capture's layout). */
void frames_make_whole(struct sim *s, uint32_t pfn);

/* The pool's own invariants and the whole/materialised rule of every block (sim_check). */
int frames_check(struct sim *s);

#endif
