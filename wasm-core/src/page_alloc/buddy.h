/*
 * buddy.h: the free lists of a zone (free_area[order].free_list[migratetype]), freeing with
 * buddy merging, splitting with expand(), and taking the smallest suitable block.
 * Callers hold the (modelled) zone lock; nothing here takes it.
 */
#ifndef BUDDYSCOPE_BUDDY_H
#define BUDDYSCOPE_BUDDY_H

#include "base/types.h"

/* Put a free block on free_area[order].free_list[mt], at the tail if to_tail, and count it. */
void buddy_add_to_free_list(struct sim *s, struct zone *z, uint32_t pfn, int order, int mt,
			    int to_tail);

/* Take a free block off its free list and uncount it (the frame says which list). */
void buddy_del_from_free_list(struct sim *s, struct zone *z, uint32_t pfn);

/* Move a free block to another migratetype's list of the same order, keeping its place at the tail. */
void buddy_move_to_free_list(struct sim *s, struct zone *z, uint32_t pfn, int mt);

/* move_to_free_list at the head (to_tail 0, 4.9's list_move) or the tail (5.10+). */
void buddy_move_to_free_list_at(struct sim *s, struct zone *z, uint32_t pfn, int mt, int to_tail);

/* __free_one_page: merge a freed block with free buddies and enqueue it (head or tail); mt from the caller. */
void buddy_free_one_page(struct sim *s, struct zone *z, uint32_t pfn, int order, int mt, int cpu,
			 int fn);

/* split_large_buddy + __free_one_page: free a block to the buddy, in pageblock pieces above pageblock_order. */
void buddy_free_pages_to_buddy(struct sim *s, struct zone *z, uint32_t pfn, int order, int cpu,
			       int fn);

/* expand(): split a block of order high taken off a list down to order low, upper halves go on mt's lists. */
void buddy_expand(struct sim *s, struct zone *z, uint32_t pfn, int low, int high, int mt, int cpu);

/* __rmqueue_smallest: the first block of mt at order or above, split to order; PFN_NONE if none. */
uint32_t buddy_rmqueue_smallest(struct sim *s, struct zone *z, int order, int mt, int cpu);

/* Before 5.19: __rmqueue's mm_page_alloc_zone_locked for the block it returns (no-op on 5.19+ profiles). */
void buddy_trace_zone_locked(struct sim *s, struct zone *z, uint32_t pfn, int order, int mt, int fn,
			     int cpu);

/* Hand every materialised frame of z to the buddy as naturally aligned free blocks (memblock_free_all). */
void buddy_free_all_frames(struct sim *s, struct zone *z);

#endif
