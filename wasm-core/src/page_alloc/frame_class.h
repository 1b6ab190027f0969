/*
 * frame_class.h: what each page frame is, a class per pfn, for drawing a map of memory (in the
 * spirit of /proc/kpageflags: the kernel's facts about a frame, not colours). The core knows no
 * screens: a caller passes a table from class to 32-bit value (a colour) and gets one per pfn.
 */
#ifndef BUDDYSCOPE_FRAME_CLASS_H
#define BUDDYSCOPE_FRAME_CLASS_H

#include "base/types.h"

/* the class of one frame, taken from the head of the block that covers it (frame_classes.def) */
enum frame_class {
#define FC(NAME, count, doc) FC_##NAME, FC_##NAME##_LAST = FC_##NAME + count - 1,
#include "page_alloc/frame_classes.def"
#undef FC
	NR_FRAME_CLASSES
};

_Static_assert(FC_BUDDY_LAST == FC_BUDDY + MIGRATE_TYPES - 1, "one buddy class per migratetype");

/* Write lut[class] of every pfn in [start, start + count) to out[count] (lut: NR_FRAME_CLASSES). */
void sim_frame_classes_mapped(const struct sim *s, uint32_t start, uint32_t count,
			      const uint32_t *lut, uint32_t *out);

/*
 * Bring out, the mapped class map of [start, start + count) painted when the frame stamps were
 * seen[] (state.h, frame_changed), up to date with the live frames: repaint the max-order blocks
 * whose stamps differ (every one when all), then copy their stamps to seen. The repainted spans
 * of out, [lo, hi) index pairs merged where they touch, go to spans: at most max_spans, the last
 * widened to cover any beyond. Returns how many. seen has nr_frame_stamps entries.
 */
int sim_frame_classes_repaint(const struct sim *s, uint64_t *seen, int all, uint32_t start,
			      uint32_t count, const uint32_t *lut, uint32_t *out, uint32_t *spans,
			      int max_spans);

#endif
