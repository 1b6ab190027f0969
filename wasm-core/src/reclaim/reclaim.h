/* reclaim.h: the reclaim subsystem's entry points for the base and the page allocator. */
#ifndef BUDDYSCOPE_RECLAIM_H
#define BUDDYSCOPE_RECLAIM_H

#include "base/subsystem.h"
#include "page_alloc/reclaim_hook.h"

/* Reclaim's part of sim_check: LRU lists against the frames' flags, counts, owners (check.c). */
int reclaim_check(struct sim *s);

/* Reclaim's entry points for the base (reclaim/ops.c). */
extern const struct subsystem reclaim_subsystem;

/* What reclaim provides the page allocator (reclaim/ops.c). */
extern const struct page_alloc_reclaim reclaim_for_page_alloc;

#endif
