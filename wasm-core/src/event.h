/* event.h: appending tracepoint-shaped records to the state's event buffer. */
#ifndef BUDDYSCOPE_EVENT_H
#define BUDDYSCOPE_EVENT_H

#include "types.h"

/* Append one event (seq and op filled in); counts it as dropped when the buffer is full. */
void ev_emit(struct sim *s, int kind, int fn, int cpu, const struct zone *z, uint32_t pfn,
	     int order, int mt, int32_t a, int32_t b, int32_t c);

/* The kernel function name of an enum ev_fn ("__rmqueue_smallest"). */
const char *ev_fn_name(int fn);

/* The name of an enum ev_kind ("mm_page_alloc", "pcp_refill"). */
const char *ev_kind_name(int kind);

#endif
