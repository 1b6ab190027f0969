/* tracefmt.h: events as ftrace text lines ("<task>-<pid> [cpu] ..... ts: mm_page_alloc: ..."). */
#ifndef BUDDYSCOPE_TRACEFMT_H
#define BUDDYSCOPE_TRACEFMT_H

#include "textbuf.h"
#include "types.h"

/* One event as a trace line with newline; events without a kernel tracepoint print as "buddyscope_<kind>:". */
void trace_format_event(const struct sim *s, const struct sim_event *e, struct textbuf *tb);

#endif
