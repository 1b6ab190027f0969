/*
 * capture_test_util.h: a booted machine laid out in a captured state (OP_CAPTURE_ZONE, as
 * web/core/capture-ops.ts sends it), and what of it stays captured, for the capture, batch and
 * memcg tests.
 */
#ifndef BUDDYSCOPE_CAPTURE_TEST_UTIL_H
#define BUDDYSCOPE_CAPTURE_TEST_UTIL_H

#include "alloc_test_util.h"
#include "page_alloc/capture.h"

/*
 * Lay out node 0's Normal zone: `free` free MOVABLE blocks of `order`, `unmovable` UNMOVABLE and
 * `movable` MOVABLE pageblocks; the rest of the zone is captured in-use memory.
 */
static void lay_out_normal(struct sim *s, int order, int32_t free, int32_t unmovable,
			   int32_t movable)
{
	const uint32_t normal = 0 * MAX_NR_ZONES + ZONE_NORMAL;

	CHECK_EQ(at_op(s, OP_CAPTURE_ZONE, 0, order, MIGRATE_MOVABLE, normal, free), SIM_OK);
	CHECK_EQ(at_op(s, OP_CAPTURE_ZONE, 0, CAPTURE_PAGEBLOCKS, MIGRATE_UNMOVABLE, normal,
		       unmovable),
		 SIM_OK);
	CHECK_EQ(at_op(s, OP_CAPTURE_ZONE, 0, CAPTURE_PAGEBLOCKS, MIGRATE_MOVABLE, normal, movable),
		 SIM_OK);
	CHECK_EQ(at_op(s, OP_CAPTURE_ZONE, 0, CAPTURE_LAYOUT, 0, normal, 0), SIM_OK);
}

/* Captured in-use pages of z in pageblocks of type mt (MIGRATE_TYPES: any type): allocated
 * blocks that no handle holds and no list links. */
static int64_t captured_pages_of(const struct sim *s, const struct zone *z, int mt)
{
	int64_t n = 0;

	for (uint32_t pfn = z->mem_pfn; pfn < z->mem_pfn + z->managed;) {
		const struct page *page = zone_page(s, z, pfn);
		if (page->state == PG_ALLOCATED && (page->flags & PAGEF_CAPTURED) &&
		    (mt == MIGRATE_TYPES || get_pageblock_migratetype(s, z, pfn) == mt))
			n += 1 << page->order;
		pfn += 1u << page->order;
	}
	return n;
}

/* Captured in-use pages of z, of every type. */
static int64_t captured_pages(const struct sim *s, const struct zone *z)
{
	return captured_pages_of(s, z, MIGRATE_TYPES);
}

#endif
