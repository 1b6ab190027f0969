/* tracefmt.h: events as ftrace text lines ("<task>-<pid> [cpu] ..... ts: mm_page_alloc: ..."). */
#ifndef BUDDYSCOPE_TRACEFMT_H
#define BUDDYSCOPE_TRACEFMT_H

#include "base/textbuf.h"
#include "base/types.h"

/* One event as a trace line with newline; events without a kernel tracepoint print as "buddyscope_<kind>:". */
void trace_format_event(const struct sim *s, const struct sim_event *e, struct textbuf *tb);

/* Render events [from, to) of the buffer as ftrace text lines; returns the length it needs. */
size_t sim_trace_render(const struct sim *s, uint32_t from, uint32_t to, char *buf, size_t cap);

#endif
