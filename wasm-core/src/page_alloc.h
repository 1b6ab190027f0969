/* page_alloc.h: the allocation walk (__alloc_pages and its slow path) and the free entry point. */
#ifndef BUDDYSCOPE_PAGE_ALLOC_H
#define BUDDYSCOPE_PAGE_ALLOC_H

#include "types.h"

/* __alloc_pages on cpu: a block of 2^order pages; PFN_NONE on failure. *zone_out = node * MAX_NR_ZONES + zone. */
uint32_t page_alloc(struct sim *s, int cpu, uint32_t gfp, int order, int *zone_out);

/* __free_pages of an allocated block: to the pcp lists or to the buddy. */
void page_free(struct sim *s, int cpu, struct zone *z, uint32_t pfn, int order);

#endif
